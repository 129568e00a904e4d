"""Yu-Gi-Oh! Speed Duel (issue 40): a deck of 20-30, Extra and Side Deck up to 5, 3 copies, EDOPro's
Speed Duel whitelist as the card pool, and one Skill Card, written in a section of its own
(``Skill Card:``/``Skill:``) or, in a .ydk or ydke:// code, in the Main Deck as EDOPro writes it,
outside the deck's counts either way; a Skill that shares its name with a card (``Destiny Draw``)
is the Skill under the Skill header and the card elsewhere. Checked on ../shared's cards of 2026
and Skill cards with the Speed Duel list imported from ../shared."""

from __future__ import annotations

import pytest
from conftest import cli_runner, make_cdb, needs_shared

from forcecheck.checking import FormatCache
from forcecheck.cli import app
from forcecheck.decklists.readers import parse_decklist
from forcecheck.decklists.ydke import encode
from forcecheck.engine import check_decklist

runner = cli_runner()
MAIN = ["3 Axe Raider", "3 Baby Dragon", "3 Alligator's Sword", "3 Armored Zombie", "3 Amazoness Swords Woman",
        "3 Apprentice Magician", "2 Ancient Brain"]
"""20 cards of the Speed Duel pool."""
MAIN_CODES = [48305365] * 3 + [88819587] * 3 + [64428736] * 3 + [20277860] * 3 + [94004268] * 3 + [9156135] * 3 + [42431843] * 2
DESTINY_DRAW_SKILL, DESTINY_DRAW_SPELL, TOMB_OF_THE_PHARAOH = 300201002, 45809008, 300101005


def deck(main=MAIN, extra=("1 Alligator's Sword Dragon",), side=(), skill=("1 Destiny Draw",), skill_header="Skill Card") -> str:
    text = "Main Deck:\n" + "".join(f"{line}\n" for line in main)
    text += "\nExtra Deck:\n" + "".join(f"{line}\n" for line in extra) if extra else ""
    text += "\nSide Deck:\n" + "".join(f"{line}\n" for line in side) if side else ""
    text += f"\n{skill_header}:\n" + "".join(f"{line}\n" for line in skill) if skill else ""
    return text


@pytest.fixture(scope="module")
def catalog(speed_ygo_db):
    from forcecheck.cards.store import SqliteCatalog

    return SqliteCatalog(speed_ygo_db)


def report(catalog, text: str, suffix: str = ".txt"):
    fmt = FormatCache(catalog=catalog).get("ygo-speed")
    return check_decklist(parse_decklist(text, f"deck{suffix}", fmt.known_headers, suffix=suffix), fmt, catalog)


def findings(catalog, text: str, suffix: str = ".txt"):
    return [(v.code, v.rule, v.section, v.card, v.found, v.limit) for v in report(catalog, text, suffix).violations]


def ydk(main=MAIN_CODES, extra=(3366982,), side=()) -> str:
    return "#created by a test\n#main\n" + "".join(f"{c}\n" for c in main) + "#extra\n" + "".join(f"{c}\n" for c in extra) + \
        "!side\n" + "".join(f"{c}\n" for c in side)


# --- a legal deck, and the Skill outside the counts -------------------------------------------------

def test_a_speed_deck_with_its_skill_card_passes(catalog):
    checked = report(catalog, deck())
    assert [(v.rule, v.found) for v in checked.violations] == [] and checked.legal
    tallies = checked.resolution.deck.tallies
    assert {card.name: n for card, n in tallies["skill"].items()} == {"Destiny Draw (Skill Card)": 1}
    assert sum(tallies["main"].values()) == 20
    assert findings(catalog, deck(skill_header="Skill")) == []


def test_the_deck_is_20_to_30_cards_the_skill_not_among_them(catalog):
    short = deck(main=[*MAIN[:-1], "1 Ancient Brain"])  # 19 cards and the Skill
    assert findings(catalog, short) == [("FC101", "main-size", "main", None, 19, "20 to 30")]
    long = deck(main=[*MAIN, "3 Arcane Barrier", "3 Adhesion Trap Hole", "3 A Cat of Ill Omen", "2 Alinsection"])  # 31
    assert findings(catalog, long) == [("FC101", "main-size", "main", None, 31, "20 to 30")]
    assert findings(catalog, deck(main=[*MAIN, "3 Arcane Barrier", "3 Adhesion Trap Hole", "3 A Cat of Ill Omen", "1 Alinsection"])) == []


def test_extra_and_side_deck_at_most_5(catalog):
    extra = ["3 Alligator's Sword Dragon", "3 Arcana Knight Joker"]
    assert findings(catalog, deck(extra=extra)) == [("FC101", "extra-size", "extra", None, 6, "at most 5")]
    side = ["3 Arcane Barrier", "3 Adhesion Trap Hole"]
    assert findings(catalog, deck(side=side)) == [("FC101", "side-size", "side", None, 6, "at most 5")]
    assert findings(catalog, deck(extra=extra[:1] + ["2 Arcana Knight Joker"], side=side[:1] + ["2 Adhesion Trap Hole"])) == []


def test_a_ydk_carries_the_skill_in_the_main_deck_as_edopro_writes_it(catalog):
    """EDOPro's deck check counts the Main Deck without its Skill and refuses a second Skill
    (deck_manager.cpp: CheckDeckSize, DeckError::TOOMANYSKILLS)."""
    assert findings(catalog, ydk(main=[*MAIN_CODES, DESTINY_DRAW_SKILL]), ".ydk") == []
    assert findings(catalog, ydk(main=[*MAIN_CODES[1:], DESTINY_DRAW_SKILL]), ".ydk") == [
        ("FC101", "main-size", "main", None, 19, "20 to 30")]
    assert findings(catalog, ydk(main=[*MAIN_CODES, DESTINY_DRAW_SKILL, TOMB_OF_THE_PHARAOH]), ".ydk") == [
        ("FC401", "one-skill", "main, skill", None, 2, "at most 1")]
    code = encode([*MAIN_CODES, DESTINY_DRAW_SKILL], [3366982], []) + "\n"
    assert findings(catalog, code) == []
    # the Spell of that name is a card of the deck, the 21st, and outside the Speed Duel pool
    assert findings(catalog, ydk(main=[*MAIN_CODES, DESTINY_DRAW_SPELL]), ".ydk") == [
        ("FC401", "skill-card", "main, skill", None, 0, "at least 1"),
        ("FC601", "forbidden-limited", "main", "Destiny Draw", 1, "0 (forbidden)")]


# --- the Skill Card ----------------------------------------------------------------------------------

def test_a_skill_named_as_a_card_binds_by_section(catalog):
    """``Destiny Draw`` is a Skill and a Spell: under the Skill header the Skill, in the Main Deck
    the Spell (not in the Speed Duel pool, and the list then names no Skill)."""
    in_main = deck(main=[*MAIN, "1 Destiny Draw"], skill=())
    assert findings(catalog, in_main) == [
        ("FC401", "skill-card", "main, skill", None, 0, "at least 1"),
        ("FC601", "forbidden-limited", "main", "Destiny Draw", 1, "0 (forbidden)")]
    checked = report(catalog, deck(skill=("1 Call of the Haunted",)))  # EDOPro's name: Call of the Haunted (Skill Card)
    assert checked.violations == [] and [c.name for c in checked.resolution.deck.tallies["skill"]] == ["Call of the Haunted (Skill Card)"]
    assert findings(catalog, deck(main=[*MAIN[:-1], "1 Ancient Brain", "1 Call of the Haunted"])) == [  # the Trap, in the deck
        ("FC601", "forbidden-limited", "main", "Call of the Haunted", 1, "0 (forbidden)")]


def test_one_skill_card_at_most(catalog):
    assert findings(catalog, deck(skill=("1 Destiny Draw", "1 Tomb of the Pharaoh"))) == [
        ("FC401", "one-skill", "main, skill", None, 2, "at most 1")]
    assert findings(catalog, deck(skill=("2 Destiny Draw",))) == [("FC401", "one-skill", "main, skill", None, 2, "at most 1")]


def test_a_list_without_its_skill_is_warned(catalog):
    checked = report(catalog, deck(skill=()))
    assert checked.legal and [(v.code, v.rule, v.severity, v.found, v.limit) for v in checked.violations] == [
        ("FC401", "skill-card", "warning", 0, "at least 1")]


def test_the_skill_section_holds_only_skill_cards(catalog):
    assert findings(catalog, deck(skill=("1 Destiny Draw", "1 Axe Raider"))) == [
        ("FC301", "skill-section-only-skills", "skill", "Axe Raider", 1, None)]


# --- the card pool -----------------------------------------------------------------------------------

def test_the_card_pool_is_the_speed_duel_whitelist(catalog):
    assert findings(catalog, deck(main=[*MAIN[:-1], "1 Ancient Brain", "1 Pot of Greed"])) == [
        ("FC601", "forbidden-limited", "main", "Pot of Greed", 1, "0 (forbidden)")]
    message = report(catalog, deck(main=[*MAIN[:-1], "1 Ancient Brain", "1 Pot of Greed"])).violations[0].message
    assert message == "Pot of Greed is not on the whitelist 2025.07 Speed Duel (outside its card pool): the deck has 1"


def test_a_skill_card_off_the_list_is_outside_the_pool(catalog):
    from conftest import SHARED

    from forcecheck.banlists import pick, read_lflist

    speed = pick(read_lflist(SHARED / "data" / "ygo" / "lflist" / "projectignis_Speed_2025.07.lflist.conf")[0], None, "test")
    del speed.entries[str(DESTINY_DRAW_SKILL)]
    fmt = FormatCache(catalog=catalog, banlist=speed).get("ygo-speed")
    checked = check_decklist(parse_decklist(deck(), "deck.txt", fmt.known_headers, suffix=".txt"), fmt, catalog)
    assert [(v.code, v.rule, v.section, v.card, v.found, v.limit) for v in checked.violations] == [
        ("FC601", "forbidden-limited", "skill", "Destiny Draw (Skill Card)", 1, "0 (forbidden)")]


def test_the_lists_1s_and_2s_are_no_limits_three_copies_are(catalog):
    """EDOPro's list gives Monster Reborn 2 ('Limited 2'), its note says in place of a limit system
    it does not support: 3 copies are legal, a 4th is over the copy limit."""
    with_reborn = ["3 Monster Reborn", *MAIN[1:]]  # in place of 3 Axe Raider: 20 cards
    assert findings(catalog, deck(main=with_reborn)) == []
    four = deck(main=with_reborn, side=("1 Monster Reborn",))
    assert findings(catalog, four) == [("FC201", "copy-limit", "main, side", "Monster Reborn", 4, "at most 3")]


@needs_shared
def test_without_its_list_the_pool_cannot_be_checked(tmp_path):
    from conftest import SHARED

    from forcecheck.cards.store import SqliteCatalog
    from forcecheck.importers.pipeline import import_files

    db = tmp_path / "c.db"
    import_files("ygopro", [SHARED / "data" / "ygo" / "cards-2026.cdb", SHARED / "data" / "ygo" / "cards-skills.cdb"], db)
    checked = report(SqliteCatalog(db), deck())
    (missing,) = checked.violations
    assert not checked.legal and (missing.code, missing.rule) == ("FC601", "forbidden-limited")
    assert "https://raw.githubusercontent.com/ProjectIgnis/LFLists/master/Speed.lflist.conf" in missing.message


def test_check_through_the_cli(speed_ygo_db, tmp_path):
    path = tmp_path / "speed.txt"
    path.write_text(deck(), encoding="utf-8")
    result = runner.invoke(app, ["check", str(path), "--format", "ygo-speed", "--catalog", str(speed_ygo_db)])
    said = " ".join(result.stdout.split())
    assert result.exit_code == 0 and "main 20, extra 1, skill 1" in said and "banlist 2025.07 Speed Duel" in said


# --- the Skill cards' data ---------------------------------------------------------------------------

def test_skill_cards_are_imported_apart_from_the_cards_whose_names_they_share(tmp_path):
    from forcecheck.importers.ygopro import convert, read_source

    path = make_cdb(tmp_path / "cards.cdb", [
        (45809008, 0, 0x2, 0, 0, 0, "Destiny Draw", 3),
        (300201002, 0, 0x8000000, 0, 0, 0, "Destiny Draw", 0x40),
        (97077563, 0, 0x4, 0, 0, 0, "Call of the Haunted", 3),
        (300101003, 0, 0x8020004, 0, 0, 0, "Call of the Haunted (Skill Card)", 0x40),
        (300102001, 0, 0x8000000, 0, 0, 0, "The World's Greatest Fisherman", 0x40),
        (301000001, 0, 0x8000000, 0, 0, 0, "Yami Yugi", 0x1040),
    ])
    cards, warnings = convert(read_source(path))
    by_code = {card.printings[0]: card for card in cards}
    assert "301000001" not in by_code
    assert [(w.record, w.message) for w in warnings] == [
        ("301000001", "'Yami Yugi' is a hidden entry (EDOPro's SCOPE_HIDDEN: a character shown on Skill card backs, no card of any "
                      "deck); skipped")]
    skill = by_code["300201002"]
    assert (skill.name, skill.aliases, "skill" in skill.types) == ("Destiny Draw (Skill Card)", ("Destiny Draw",), True)
    assert by_code["45809008"].name == "Destiny Draw"
    assert (by_code["300101003"].name, by_code["300101003"].aliases) == ("Call of the Haunted (Skill Card)", ("Call of the Haunted",))
    assert (by_code["300102001"].name, by_code["300102001"].aliases) == ("The World's Greatest Fisherman", ())
