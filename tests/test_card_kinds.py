"""Group headers named by card kinds (issue 28): derived from the kinds the catalogs know, placed as the
format places such cards, never a card's own name."""

from __future__ import annotations

import pytest
from conftest import needs_shared

from forcecheck.cards.catalog import sample_catalog
from forcecheck.checking import FormatCache
from forcecheck.decklists.kinds import kinds_named, vocabulary
from forcecheck.decklists.readers import parse_decklist
from forcecheck.engine import check_decklist

CATALOG = sample_catalog()
FORMATS = FormatCache((), "none", CATALOG)


@pytest.mark.parametrize("format_name, title, section", [
    ("ygo-5ds", "Monsters", "main"), ("ygo-5ds", "Synchros", "extra"), ("ygo-5ds", "XYZs", "extra"),
    ("ygo-5ds", "Spells & Traps", "main"), ("ygo-5ds", "Fusion Monsters", "extra"), ("ygo-5ds", "Tuners", "main"),
    ("ygo-5ds", "モンスター", "main"), ("ygo-5ds", "魔法・罠", "main"), ("ygo-5ds", "シンクロモンスター", "extra"),
    ("ygo-5ds", "Quick-Play Spells", "main"), ("ygo-5ds", "速攻魔法", "main"), ("ygo-5ds", "Trap Cards", "main"),
    ("bifrost", "Resonators", "main"), ("bifrost", "Chants", "main"), ("bifrost", "Special Stones", "stones"),
    ("abc", "Additions", "main"),
])
def test_a_header_naming_card_kinds_is_a_group_of_the_section_such_cards_go_to(format_name, title, section):
    assert FORMATS.get(format_name).known_headers.kinds.group(title) == section


@pytest.mark.parametrize("format_name, title", [
    ("ygo-5ds", "Pot of Greed"), ("ygo-5ds", "Dragons"), ("ygo-5ds", "Monsters & Synchros"),  # two sections: no one group
    ("ygo-5ds", "融合"), ("ygo-5ds", "Resonators"), ("bifrost", "Monsters"), ("bifrost", "Rune Chants"),
])
def test_no_group_where_a_word_is_no_kind_or_the_title_is_a_card(format_name, title):
    assert FORMATS.get(format_name).known_headers.kinds.group(title) is None


def read(text: str, format_name: str):
    fmt = FORMATS.get(format_name)
    return check_decklist(parse_decklist(text, "deck.txt", fmt.known_headers), fmt, CATALOG)


def test_groups_of_kinds_read_a_list_both_ways():
    """``Synchros (2):`` after the main deck's groups heads extra deck cards; its count is checked; a
    Synchro monster under ``Tuners:`` stays where it is written and breaks the main deck's rule."""
    text = ("Monsters (6):\n3 Junk Synchron\n3 Quillbolt Hedgehog\nSpells & Traps (3):\n3 Mystical Space Typhoon\n"
            "Synchros (2):\n2 Stardust Dragon\n")
    report = read(text, "ygo-5ds")
    assert report.sections == {"main": 9, "extra": 2}
    assert [v.code for v in report.violations if v.code.startswith("FC0")] == []
    wrong = read("Monsters:\n3 Junk Synchron\nTuners (5):\n2 Stardust Dragon\n", "ygo-5ds")
    assert [(v.code, v.rule, v.section, v.card) for v in wrong.violations if v.code in ("FC302", "FC006")] == [
        ("FC006", "declared-count-mismatch", "main", None), ("FC302", "main-no-extra-deck-monsters", "main", "Stardust Dragon")]


def test_polymerization_in_japanese_is_a_card_not_a_group():
    assert kinds_named("融合", "ygo") is None and kinds_named("融合モンスター", "ygo") == [frozenset({"fusion", "monster"})]


@needs_shared
@pytest.mark.parametrize("game", ["fow", "ygo"])
def test_every_card_type_of_the_real_databases_is_a_kind_and_no_card_name_is_a_group(real_catalogs, game):
    catalog = real_catalogs[game]
    words, with_, cards = vocabulary(game)
    types = {t for card in catalog.cards(game) for t in card.types}
    assert types - set(with_) == set(), "card types missing from forcecheck/data/card_kinds.yaml"
    made_of_kinds = {name for card in catalog.cards(game) for _lang, name, _printed in card.all_names()
                     if kinds_named(name, game) is not None or name.casefold() in cards}
    from forcecheck.decklists.kinds import _fold

    assert {_fold(n) for n in made_of_kinds} <= cards, "card names made of kind words alone: add them to 'cards:'"


def test_the_json_checks_read_is_the_yaml_people_edit():
    import json
    from pathlib import Path

    import yaml

    folder = Path(__file__).resolve().parent.parent / "forcecheck" / "data"
    assert json.loads((folder / "card_kinds.json").read_text(encoding="utf-8")) == yaml.safe_load(
        (folder / "card_kinds.yaml").read_text(encoding="utf-8")), "run: python -m forcecheck.decklists.kinds"


def test_a_group_title_with_a_small_count_that_its_cards_do_not_bear_out_is_ambiguous():
    """``Magic 1枚`` is a group announcing one card, or one copy of a card named Magic: where the
    cards under it disagree with the count, neither is taken on trust (FC014); where they agree,
    it is the group."""
    report = read("Monsters:\n3 Junk Synchron\nMagic 1枚\n3 Mystical Space Typhoon\n", "ygo-5ds")
    assert [(v.code, v.rule, v.line, v.found, v.limit) for v in report.violations if v.code.startswith("FC0")] == [
        ("FC014", "ambiguous-line", 3, 3, "1")]
    agreed = read("Monsters:\n3 Junk Synchron\nMagic 1枚\n1 Mystical Space Typhoon\n", "ygo-5ds")
    assert [v.code for v in agreed.violations if v.code.startswith("FC0")] == [] and agreed.sections == {"main": 4}
    x_count = read("Monsters:\n3 Junk Synchron\nMagic x1\n", "ygo-5ds")  # an x marks a card's copies: no group
    assert [(v.code, v.card, v.line) for v in x_count.violations if v.code.startswith("FC0")] == [("FC001", "Magic", 3)]
