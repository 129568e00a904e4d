"""The fowsim importer turns the source's quirks into facts. Small fixtures here; the real
database in ../shared when it is there."""

from __future__ import annotations

import json

import pytest
from conftest import SHARED, needs_shared

from forcecheck.importers import fowsim


@pytest.mark.parametrize(
    "raw,types,subtypes",
    [
        (["Chant", "Rune", "Master Rune"], {"chant", "rune", "master-rune"}, set()),
        ("Spell:Chant-Instant", {"chant"}, {"chant-instant"}),
        ("Addition:Field", {"addition"}, {"addition-field"}),
        (["Addition", "Addition: Field"], {"addition"}, {"addition-field"}),
        ("Resonator (Stranger)", {"resonator"}, {"stranger"}),
        ("Chant/Rune", {"chant", "rune"}, set()),
        (["Chant/Master Rune"], {"chant", "rune", "master-rune"}, set()),
        (["Magic Stone", "Basic Magic Stone", "Fire Magic Stone"], {"magic-stone", "basic-magic-stone"}, {"fire-magic-stone"}),
        (["Special Magic Stone"], {"magic-stone", "special-magic-stone"}, set()),
        (["Resonator", "Wind Magic Stone"], {"resonator"}, {"wind-magic-stone"}),
        (["J-Ruler"], {"j-ruler"}, set()),
        (["Basic Ruler"], {"ruler", "basic-ruler"}, set()),
    ],
)
def test_parse_types(raw, types, subtypes):
    assert fowsim.parse_types(raw) == (types, subtypes)


def record(id, name, type, cost=None, colour=("V",), abilities=(), race=()):
    return {"id": id, "name": name, "type": list(type) if not isinstance(type, str) else type, "cost": cost,
            "colour": list(colour), "abilities": list(abilities), "race": list(race)}


def test_ruler_and_j_ruler_join_into_one_card_with_both_faces():
    cards, warnings = fowsim.convert([
        record("X-001", "Ruler A", ["Ruler"], colour=["W"], abilities=["[Stranger] 10 (...)"]),
        record("X-001J", "J-Ruler A", ["J-Ruler"], colour=["U"]),
    ])
    (card,) = cards
    assert (card.name, card.types, card.attributes, card.keywords) == ("Ruler A", {"ruler"}, {"light", "water"}, {"stranger": 10})
    assert [f.name for f in card.faces] == ["J-Ruler A"] and card.aliases == ("J-Ruler A",)
    assert card.printings == ("X-001", "X-001J") and warnings == []


def test_printings_of_one_name_merge_and_a_well_formed_cost_is_preferred():
    cards, warnings = fowsim.convert([
        record("A-019", "Dark Prominence", ["Chant"], cost="{R}d[]", colour=["R", "B"]),
        record("B-080", "Dark Prominence", ["Chant"], cost="{R}{B}", colour=["R", "B"]),
    ])
    (card,) = cards
    assert (card.cost, card.total_cost, card.printings) == ("{R}{B}", 2, ("A-019", "B-080"))
    assert [str(w) for w in warnings] == ["A-019: malformed cost '{R}d[]'"]


def test_keywords_and_copy_rules_from_text():
    cards, _ = fowsim.convert([
        record("K-1", "Any", ["Resonator"], abilities=["You may have any number of copies of this card in your deck."]),
        record("K-2", "Twelve", ["Addition"], abilities=["You may have up to twelve copies of this card in your deck."]),
        record("K-3", "Single", ["Ruler"], abilities=["You may not have more than one copy of any card in your deck."]),
        record("K-4", "Grim", ["Ruler"], abilities=["[Grimoire] (5) (Begin the game ...)"]),
        record("K-5", "Div", ["Ruler"], abilities=["[Divinity] 10"]),
        record("K-6", "Stone", ["Special Magic Stone"], abilities=["{Rest}: Produce {G} or {B}."]),
        record("K-7", "Basic", ["Magic Stone", "Basic Magic Stone", "Water Magic Stone"], abilities=["{Rest}: Produce {B}."]),
    ])
    by = {c.name: c for c in cards}
    assert by["Any"].unlimited_copies and by["Twelve"].copy_limit == 12
    assert by["Single"].keywords == {"singleton": 1}
    assert by["Grim"].keywords == {"grimoire": 5} and by["Div"].keywords == {"divinity": 10}
    assert by["Stone"].will == {"wind", "darkness"}
    assert by["Basic"].will == {"water"}  # a basic stone's will is its stone type, not a typo in its text


def test_a_record_without_a_name_is_a_warning_not_a_crash():
    cards, warnings = fowsim.convert([{"id": "Z-1", "type": ["Chant"]}, "not a record", record("Z-2", "Ok", ["Chant"])])
    assert [c.name for c in cards] == ["Ok"]
    assert [w.record for w in warnings] == ["Z-1", "?"]


@needs_shared
def test_real_database_facts():
    data = json.loads((SHARED / "data" / "fow" / "fowsim-cards.json").read_text(encoding="utf-8"))
    cards, warnings = fowsim.convert(fowsim.iter_records(data))
    by = {c.name: c for c in cards}
    assert len(cards) > 4000
    faria = by["Faria"]
    assert faria.keywords == {"stranger": 10} and faria.attributes == {"light", "water"}
    speaker = by["Speaker of Eternal Night"]
    assert speaker.keywords == {"grimoire": 5} and speaker.aliases == ("Scheherazade of the Catastrophic Nights",)
    assert by["Odin's Judgment"].types == {"rune", "master-rune"}
    assert by["Magic Stone of Flame"].types >= {"magic-stone", "basic-magic-stone"}
    assert by["Fire Magic Stone"].will == {"fire"} and by["Water Magic Stone"].will == {"water"}
    assert by["Croco-Shark"].unlimited_copies
    assert by["Ayu, Lunar Swordswoman"].keywords == {"singleton": 1}
    assert by["End of the World"].total_cost == 4
    assert "stranger" in by["White Wizard (Stranger)"].subtypes
    assert by["Alice of Light"].aliases == ("Alice of Shadow",)
    assert all(c.name for c in cards)


@needs_shared
def test_sample_catalog_agrees_with_the_real_database():
    """The embedded facts are what the importer derives today (rebuild with scripts/build_sample_catalog.py)."""
    from forcecheck.cards.catalog import sample_catalog

    records = []
    for name in ("fowsim-cards.json", "fowsim-abc2023-decks-cards.json"):
        records += list(fowsim.iter_records(json.loads((SHARED / "data" / "fow" / name).read_text(encoding="utf-8"))))
    cards, _ = fowsim.convert(records)
    by = {c.name: c for c in cards}
    for card in sample_catalog().cards("fow"):
        derived = by[card.name].to_dict()
        for condition in derived.get("conditions", ()):  # the sample holds facts, not the text they were read from
            condition.pop("text", None)
        assert derived == card.to_dict(), card.name


def test_ruler_deck_attribute_restriction():
    cards, _ = fowsim.convert([
        rec_ := record("A-1", "Arcana Test", ["Ruler"], colour=["W", "R"], race=["Arcana"],
                       abilities=["You may have only light and/or fire cards in your deck with no attributes other than light or fire."]),
        record("A-2", "Race Test", ["Ruler"], abilities=["You may have only darkness and/or Cthulhu cards in your deck."]),
        record("A-3", "Not A Ruler", ["Chant"], abilities=["You may have only water cards in your deck."]),
    ])
    by = {c.name: c for c in cards}
    assert rec_["id"] == "A-1"
    assert by["Arcana Test"].deck_attributes == {"light", "fire"} and "arcana" in by["Arcana Test"].subtypes
    assert by["Race Test"].deck_attributes == frozenset()  # a race restriction is not an attribute one
    assert by["Not A Ruler"].deck_attributes == frozenset()


def test_alternative_halves_are_one_split_card_and_double_faced_cards_are_not():
    cards, _ = fowsim.convert([
        record("E-027", "Rabbit", ["Resonator"], cost="{R}", colour=["R"]),
        record("E-027^", "Split Earth [Alternative]", ["Chant"], cost="{R}{R}", colour=["R"]),
        record("T-008", "Hope", ["Chant"], cost="{W}", colour=["W"]),
        record("T-008^", "Despair", ["Chant"], cost="{B}{2}", colour=["B"], race=["Inverse"]),
    ])
    by = {c.name: c for c in cards}
    rabbit, hope = by["Rabbit"], by["Hope"]
    assert (rabbit.split, rabbit.aliases, rabbit.types, rabbit.face_costs()) == (True, ("Split Earth",), {"resonator", "chant"}, (1, 2))
    assert (hope.split, hope.aliases, hope.types, hope.attributes) == (False, ("Despair",), {"chant"}, {"light", "darkness"})
    assert "inverse" in hope.subtypes
