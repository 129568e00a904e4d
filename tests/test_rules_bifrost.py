"""Each Bifrost rule both ways: a deck that keeps it and one that breaks it, asserting the exact
rule id, code, section, card and numbers. The legal base decks come from conftest."""

from __future__ import annotations

from conftest import (
    ATOM_MAIN,
    ATOM_RUNES,
    FARIA_MAIN,
    FARIA_STONES,
    FARIA_STRANGERS,
    atom,
    deck_text,
    faria,
    only,
    rules_of,
    violations,
)

from forcecheck.checking import FormatCache

SPEAKER_MAIN = [(4, "Cleaning Doll"), (4, "Doll Audience"), (4, "Patrolling Guard Doll"), (4, "Scheherazade's Marionette"),
                (4, "Story Listener, Eva"), (4, "Story Speaker, Eve"), (4, "Puppet Maker"), (4, "Stagehand Doll"),
                (4, "Laurite, Seven Luminaries Astrologian"), (4, "Thought Control")]
STORY_CHANTS = [(1, "Approaching the Truth"), (1, "Last Days of a Powerless Dragonoid"), (1, "Scarlet's Agony"),
                (1, "The Puppet's Last Days"), (1, "Unanswered Mermaid Prayers")]


def speaker(**changes) -> str:
    sections = {"ruler": "Speaker of Eternal Night", "main": SPEAKER_MAIN, "extra": STORY_CHANTS,
                "stones": [(6, "Wind Magic Stone"), (6, "Darkness Magic Stone")]}
    sections.update(changes)
    return deck_text(**sections)


def test_base_decks_are_legal():
    assert violations(faria()) == []
    assert violations(atom()) == []
    assert violations(speaker()) == []


# --- ruler ------------------------------------------------------------------------------------

def test_ruler_count_missing_and_two():
    v = only(faria(ruler=None))
    assert (v.code, v.rule, v.section, v.found, v.limit) == ("FC101", "ruler-count", "ruler", 0, "at least 1")
    # a second ruler needs a [Partner] or [Tag] to be there (tests/test_partners.py has the rest)
    v = only(faria(ruler=[(1, "Faria"), (1, "Melgis")]))
    assert (v.code, v.rule, v.section, v.card) == ("FC702", "ruler-partners", "ruler", "Melgis")
    assert "Faria has no [Partner] or [Tag]: it starts the game alone" in v.message
    four = violations(faria(ruler=[(1, "Faria"), (1, "Melgis"), (1, "Brunhild"), (1, "Atom Seikhart")]))
    assert [(v.rule, v.card) for v in four] == [("ruler-partners", "Melgis"), ("ruler-partners", "Brunhild"), ("ruler-partners", "Atom Seikhart")]


def test_ruler_type_requires_a_ruler_card():
    v = only(faria(ruler="Viviane"))
    assert (v.code, v.rule, v.section, v.card) == ("FC301", "ruler-type", "ruler", "Viviane")
    # the ruler-derived checks do not pile up when there is no ruler to read
    assert rules_of(faria(ruler="Viviane", stranger=FARIA_STRANGERS[:1])) == ["ruler-type"]


def test_a_card_where_it_may_not_stand_is_told_what_it_is():
    """Issue 39.6: a non-ruler in the Ruler slot is told its card type (the facts the rule asks
    about), so the player need not look the card up; the ABC rule asks the race too."""
    v = only(faria(ruler="Viviane"))
    assert v.message.startswith("Viviane (resonator) may not be in the Ruler: ")
    assert violations(faria()) == []  # Faria is a ruler: nothing to say
    from conftest import SAMPLES

    from forcecheck.cards.catalog import sample_catalog
    from forcecheck.checking import FormatCache, check_file

    report = check_file(SAMPLES / "abc" / "illegal-non-arcana-ruler-in-ruler-slot.txt", sample_catalog(), FormatCache(), "abc")
    (finding,) = [x for x in report.violations if x.rule == "arcana-ruler-type"]
    assert finding.message.startswith("Brunhild (ruler; race/sub-type valkyrie) may not be in the Ruler: ")


def test_a_rule_that_names_cards_adds_no_facts():
    from types import SimpleNamespace

    from forcecheck.cards.catalog import sample_catalog
    from forcecheck.rules.selectors import card_facts

    viviane = next(c for c in sample_catalog().cards("fow") if c.name == "Viviane")
    by_name = SimpleNamespace(type=None, subtype=None, attribute=None, cost=None, keyword=None, name=["Viviane"], all=None, any=None, not_=None)
    assert card_facts(by_name, viviane, lambda c: c.total_cost) == ""
    nested = SimpleNamespace(type=None, subtype=None, attribute=None, cost=None, keyword=None, name=None, all=None, not_=None,
                             any=[SimpleNamespace(type=None, subtype=None, attribute=["fire"], cost=3, keyword=None, all=None, any=None, not_=None)])
    assert card_facts(nested, viviane, lambda c: c.total_cost) == f"attribute {', '.join(sorted(viviane.attributes))}; total cost {viviane.total_cost}"


# --- main deck -------------------------------------------------------------------------------

def test_main_size_40_passes_39_fails():
    assert violations(faria()) == []
    v = only(faria(main=FARIA_MAIN[:-1] + [(3, "Viviane")]))
    assert (v.code, v.rule, v.section, v.found, v.limit) == ("FC101", "main-size", "main", 39, "at least 40")


def test_main_no_rulers():
    v = only(faria(main=FARIA_MAIN[:-1] + [(3, "Viviane"), (1, "Melgis")]))
    assert (v.code, v.rule, v.section, v.card, v.found) == ("FC302", "main-no-rulers", "main", "Melgis", 1)


def test_main_no_magic_stones():
    v = only(faria(main=FARIA_MAIN[:-1] + [(3, "Viviane"), (1, "Light Magic Stone")]))
    assert (v.code, v.rule, v.card) == ("FC302", "main-no-magic-stones", "Light Magic Stone")


def test_main_no_runes_but_chant_runes_allowed():
    v = only(atom(main=ATOM_MAIN[:-1] + [(3, "Wererabbit Warrior"), (1, "Explosion")]))
    assert (v.code, v.rule, v.section, v.card) == ("FC302", "main-no-runes", "main", "Explosion")
    assert violations(atom(main=ATOM_MAIN[:-1] + [(3, "Wererabbit Warrior"), (1, "Blessing of the Sun")])) == []


def test_main_no_strangers():
    v = only(faria(main=FARIA_MAIN[:-1] + [(3, "Viviane"), (1, "Red Wizard (Stranger)")]))
    assert (v.code, v.rule, v.card) == ("FC302", "main-no-strangers", "Red Wizard (Stranger)")


# --- copies ----------------------------------------------------------------------------------

def test_copy_limit_counts_main_and_sideboard_together():
    assert violations(faria(side=[(4, "Miscalculation")])) == []
    v = only(faria(side=[(1, "Viviane")]))
    assert (v.code, v.rule, v.section, v.card, v.found, v.limit) == ("FC201", "copy-limit", "main, side", "Viviane", 5, "at most 4")
    assert "(Main Deck 4, Sideboard 1)" in v.message


def test_same_card_on_several_lines_sums():
    v = only(faria(main=FARIA_MAIN + [(1, "Viviane")], side=None))
    assert (v.rule, v.card, v.found, v.section) == ("copy-limit", "Viviane", 5, "main")


def test_card_text_allows_any_number_or_twelve_copies():
    main = FARIA_MAIN[:8] + [(8, "Croco-Shark")]
    assert violations(faria(main=main)) == []
    kimono12 = FARIA_MAIN[:7] + [(12, "Water Kimono of Twelve Parts")]
    assert violations(faria(main=kimono12)) == []
    v = only(faria(main=FARIA_MAIN[:7] + [(13, "Water Kimono of Twelve Parts")]))
    assert (v.rule, v.card, v.found, v.limit) == ("copy-limit", "Water Kimono of Twelve Parts", 13, "at most 12")


def test_card_text_below_the_plain_limit_caps_the_card():
    """A card whose own text allows fewer copies than the format ("only one copy") breaks the
    rule with two copies, though two is within the plain limit of four."""
    from forcecheck.cards.catalog import MemoryCatalog, sample_catalog
    from forcecheck.decklists.readers import parse_decklist
    from forcecheck.engine import check_decklist
    from forcecheck.records import replace

    cards = sample_catalog().cards()
    cards = [replace(c, copy_limit=1) if c.name == "Viviane" else c for c in cards]
    fmt = FormatCache().get("bifrost")
    main = FARIA_MAIN[:-1] + [(2, "Viviane"), (2, "Miscalculation")]
    for text, expected in ((faria(main=main), [("copy-limit", "Viviane", 2, "at most 1")]), (faria(main=FARIA_MAIN[:-1] + [(1, "Viviane"), (3, "Miscalculation")]), [])):
        deck = parse_decklist(text, "deck.txt", fmt.known_headers)
        found = check_decklist(deck, fmt, MemoryCatalog(cards, "test")).violations
        assert [(v.rule, v.card, v.found, v.limit) for v in found] == expected
        if expected:
            assert "the card's own text" in found[0].message


def test_singleton_ruler_caps_every_card_even_any_number_cards():
    main = [(1, name) for _n, name in FARIA_MAIN] + [(1, f) for f in ("Miscalculation", "Relief Aid", "Jewel Step", "Karmic Retribution", "Heavenly Fruit", "Demonflame", "Laevateinn", "Volga, the Fire King", "Darkest Fire Dragon", "Bloody Break", "Croco-Shark")]
    main += [(1, n) for n in ("Acolyte of the Sun", "Bethor, the Angel of Treasure", "Eir, Valkyrie of Mercy", "Phaleg, the Angel of War", "Phul, the Administrator of the Moon", "Sigrun, Valkyrie of Victory", "Sorceress of the Moon", "The Valkyrie's Chosen", "Warrior of the Sun", "Wererabbit Warrior", "Cleaning Doll", "Doll Audience", "Patrolling Guard Doll", "Puppet Maker", "Stagehand Doll", "Thought Control", "Fiery Soldier of Milest", "Alice of Light", "End of the World")]
    assert sum(c for c, _ in main) == 40
    assert violations(faria(ruler="Ayu, Lunar Swordswoman", stranger=None, main=main)) == []
    found = violations(faria(ruler="Ayu, Lunar Swordswoman", stranger=None, main=main + [(1, "Croco-Shark"), (1, "Viviane")]))
    assert [(v.rule, v.card, v.found, v.limit) for v in found] == [
        ("copy-limit", "Viviane", 2, "at most 1"),
        ("copy-limit", "Croco-Shark", 2, "at most 1"),
    ]
    assert "singleton restriction" in found[0].message


def test_special_stones_at_most_four_basic_unlimited():
    assert violations(faria(stones=[(20, "Light Magic Stone")])) == []
    v = only(faria(stones=[(5, "Magic Stone of Light Vapors"), (5, "Light Magic Stone")]))
    assert (v.code, v.rule, v.section, v.card, v.found, v.limit) == ("FC201", "stone-copy-limit", "stones", "Magic Stone of Light Vapors", 5, "at most 4")


def test_basic_stones_with_two_names_are_both_basic():
    assert violations(faria(stones=[(10, "Magic Stone of Flame"), (10, "Fire Magic Stone")])) == []


# --- magic stone deck -----------------------------------------------------------------------

def test_stones_size_bounds():
    assert violations(faria(stones=[(10, "Light Magic Stone")])) == []
    assert violations(faria(stones=[(20, "Light Magic Stone")])) == []
    v = only(faria(stones=[(9, "Light Magic Stone")]))
    assert (v.rule, v.section, v.found, v.limit) == ("stones-size", "stones", 9, "10 to 20")


def test_stones_only_magic_stones():
    v = only(faria(stones=FARIA_STONES[:-1] + [(2, "Water Magic Stone"), (1, "Viviane")]))
    assert (v.code, v.rule, v.section, v.card) == ("FC301", "stones-only-magic-stones", "stones", "Viviane")
    # a resonator with a magic stone type is still a resonator, not a magic stone card
    v = only(faria(stones=FARIA_STONES[:-1] + [(2, "Water Magic Stone"), (1, "Fiery Soldier of Milest")]))
    assert (v.rule, v.card) == ("stones-only-magic-stones", "Fiery Soldier of Milest")


# --- extra deck ------------------------------------------------------------------------------

def test_extra_deck_size_from_grimoire():
    v = only(speaker(extra=STORY_CHANTS + [(1, "Black Tears")]))
    assert (v.code, v.rule, v.section, v.found, v.limit) == ("FC101", "extra-size", "extra", 6, "at most 5")
    assert "Speaker of Eternal Night's grimoire 5" in v.message


def test_extra_deck_one_copy_each():
    v = only(speaker(extra=STORY_CHANTS[:3] + [(2, "Black Tears")]))
    assert (v.code, v.rule, v.card, v.found, v.limit) == ("FC201", "extra-one-copy", "Black Tears", 2, "at most 1")


def test_extra_deck_only_story_chants():
    v = only(speaker(extra=STORY_CHANTS[:4] + [(1, "Heavenly Fruit")]))
    assert (v.code, v.rule, v.section, v.card) == ("FC301", "extra-grimoire-cards", "extra", "Heavenly Fruit")


def test_extra_deck_requires_grimoire():
    v = only(faria(extra=[(1, "Black Tears")]))
    assert (v.code, v.rule, v.section, v.found) == ("FC701", "extra-requires-grimoire", "extra", 1)
    assert "Faria has no Grimoire" in v.message


# --- rune deck -------------------------------------------------------------------------------

def test_rune_size():
    assert violations(atom(rune=ATOM_RUNES[:2])) == []
    v = only(atom(rune=ATOM_RUNES + [(1, "Mini Meteor")]))
    assert (v.code, v.rule, v.section, v.found, v.limit) == ("FC101", "rune-size", "rune", 6, "at most 5")


def test_rune_only_runes():
    v = only(atom(rune=ATOM_RUNES[:4] + [(1, "Cleaning Doll")]))
    assert (v.code, v.rule, v.section, v.card) == ("FC301", "rune-only-runes", "rune", "Cleaning Doll")


def test_rune_one_copy():
    v = only(atom(rune=[(2, "Bewilder"), (1, "Dispel")]))
    assert (v.code, v.rule, v.card, v.found, v.limit) == ("FC201", "rune-one-copy", "Bewilder", 2, "at most 1")


def test_rune_one_master_rune():
    v = only(atom(rune=ATOM_RUNES[:3] + [(1, "Odin's Judgment"), (1, "Zeus' Grand Lightning")]))
    assert (v.code, v.rule, v.section, v.found, v.limit) == ("FC401", "rune-one-master-rune", "rune", 2, "at most 1")


def test_rune_shares_an_attribute_with_the_ruler_unless_a_chant():
    v = only(atom(rune=ATOM_RUNES[:4] + [(1, "Explosion")]))
    assert (v.code, v.rule, v.section, v.card) == ("FC501", "rune-shares-ruler-attribute", "rune", "Explosion")
    assert "fire" in v.message and "light" in v.message
    assert violations(atom(rune=ATOM_RUNES[:4] + [(1, "Chain Bind")])) == []


# --- stranger deck ---------------------------------------------------------------------------

def test_stranger_size_zero_or_ruler_number():
    assert violations(faria(stranger=None)) == []
    v = only(faria(stranger=FARIA_STRANGERS[:4] + [(1, "Arthur, the King of Knights (Stranger)")]))
    assert (v.code, v.rule, v.section, v.found, v.limit) == ("FC101", "stranger-size", "stranger", 9, "exactly 0 or 10")
    assert "Faria's stranger 10" in v.message


def test_stranger_only_strangers():
    v = only(faria(stranger=FARIA_STRANGERS[:4] + [(1, "Arthur, the King of Knights (Stranger)"), (1, "Miscalculation")]))
    assert (v.code, v.rule, v.section, v.card) == ("FC301", "stranger-only-strangers", "stranger", "Miscalculation")


def test_stranger_two_copies():
    v = only(faria(stranger=FARIA_STRANGERS[:4] + [(1, "Arthur, the King of Knights (Stranger)"), (1, "White Wizard (Stranger)")]))
    assert (v.code, v.rule, v.card, v.found, v.limit) == ("FC201", "stranger-two-copies", "White Wizard (Stranger)", 3, "at most 2")


def test_stranger_deck_requires_a_stranger_ruler():
    v = only(atom(stranger=FARIA_STRANGERS))
    assert (v.code, v.rule, v.section, v.found) == ("FC701", "stranger-requires-stranger", "stranger", 10)


# --- sideboard -------------------------------------------------------------------------------

def test_sideboard_fifteen_cards_plus_three_rulers():
    side = [(4, "Miscalculation"), (4, "Relief Aid"), (4, "Jewel Step"), (3, "Karmic Retribution")]
    rulers = [(1, "Melgis"), (1, "Brunhild"), (1, "Atom Seikhart")]
    assert violations(faria(side=side + rulers)) == []
    v = only(faria(side=side + [(1, "Heavenly Fruit")]))
    assert (v.code, v.rule, v.section, v.found, v.limit) == ("FC101", "side-size", "side", 16, "at most 15")
    v = only(faria(side=rulers + [(1, "Ayu, Lunar Swordswoman")]))
    assert (v.code, v.rule, v.section, v.found, v.limit) == ("FC101", "side-rulers", "side", 4, "at most 3")


def test_every_violation_is_reported_not_just_the_first():
    text = faria(main=FARIA_MAIN[:-1] + [(1, "Melgis")], stones=[(21, "Light Magic Stone")], side=[(1, "Gawain, the Knight of the Sun")])
    assert rules_of(text) == ["main-size", "copy-limit", "main-no-rulers", "stones-size"]


# --- the ruler's own construction conditions -----------------------------------------------

def test_ruler_attribute_restriction_from_its_text():
    arcana = "Arcana: Guardian of the Temple"  # "You may have only light and/or fire cards in your deck"
    assert violations(atom(ruler=arcana)) == []
    found = violations(faria(ruler=arcana, stranger=None))
    assert [(v.code, v.rule, v.section, v.card, v.found) for v in found] == [
        ("FC703", "ruler-conditions", "main", "Excalibur", 4),
        ("FC703", "ruler-conditions", "main", "Awakening of the Sacred Queen", 4),
        ("FC703", "ruler-conditions", "main", "Sacred Wave Blade", 4),
        ("FC703", "ruler-conditions", "main", "Traveler in Wonderland", 4),
        ("FC703", "ruler-conditions", "main", "Viviane", 4),
    ]
    assert found[0].message == (
        "Excalibur breaks Arcana: Guardian of the Temple's condition: "
        "only light or fire cards in the deck, with no attributes other than light or fire"
    )
    # the restriction is not applied to the sideboard (CR 404.1b)
    assert violations(atom(ruler=arcana, side=[(2, "Viviane")])) == []


def test_rulers_without_a_restriction_do_not_trigger_it():
    assert violations(faria()) == []


def test_two_ruler_facts_of_the_same_rulers_stay_equal_once_one_has_read_a_keyword():
    """Issue 43: ``hidden=("memo")`` was a string, not a tuple, and the cached ``_keywords`` was
    compared: two equal RulerFacts stopped being equal once one of them was asked a keyword."""
    from forcecheck.cards.catalog import sample_catalog
    from forcecheck.rules.base import RulerFacts

    faria_card = next(c for c in sample_catalog().cards("fow") if "ruler" in c.types and c.keywords)
    one, two = RulerFacts([faria_card]), RulerFacts([faria_card])
    assert one == two
    one.keyword(next(iter(faria_card.keywords)))
    assert one == two and "_keywords" not in repr(one) and "memo" not in repr(one)
    assert RulerFacts([faria_card]) != RulerFacts([])
    import pytest

    from forcecheck.records import Record

    with pytest.raises(TypeError, match="take tuples of field names"):
        class Broken(Record, hidden=("memo")):  # noqa: F841 - the class statement is the test
            memo: dict
