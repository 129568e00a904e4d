"""Rulers' construction conditions: read from card text as data, then held to every deck.

Each condition kind is tested both ways on the sample catalog (facts only), and the reading of
the text on the real card records in ../shared (skipped when it is absent)."""

from __future__ import annotations

import itertools
import json

import pytest
from conftest import FARIA_MAIN, SHARED, cli_runner, deck_text, needs_shared, only, violations

from forcecheck.cards.catalog import MemoryCatalog, sample_catalog
from forcecheck.cards.model import Card
from forcecheck.importers import fow_conditions, fowsim

DARK = [(4, n) for n in (
    "Black Coffin of Vampires", "Bloodsucking Impulse", "Deadman Prince", "Midnight Bell", "Servant of Vampire",
    "Vampire Bat", "Ebony Devil", "Acolyte of Darkness", "Black Miasma", "Black Moon",
)]
"""Ten darkness cards, four of each: a 40-card main deck that no condition here objects to."""
DARK_MORE = [(4, n) for n in ("Lora, the Blood Speaker", "Spiral of Despair", "Necronomicon", "Bind of Gravity", "Awakening at the End")]
STONES = [(10, "Light Magic Stone")]


def deck(ruler, main=DARK, stones=STONES, **more) -> str:
    return deck_text(ruler=ruler, main=main, stones=stones, **more)


def of_rule(found, rule: str):
    return [v for v in found if v.rule == rule]


# --- reading the text: the real records ------------------------------------------------------

@pytest.fixture(scope="module")
def real_cards():
    if not (SHARED / "data" / "fow").is_dir():
        pytest.skip("../shared (third-party card data) is not beside this checkout; it is not shipped with the repo")
    records = []
    for name in ("fowsim-cards.json", "fowsim-abc2023-decks-cards.json"):
        records += list(fowsim.iter_records(json.loads((SHARED / "data" / "fow" / name).read_text(encoding="utf-8"))))
    cards, _ = fowsim.convert(records)
    return {c.name: c for c in cards}


def _core(card: Card) -> list[dict]:
    return [{k: v for k, v in c.items() if k != "text"} for c in card.conditions]


def test_no_ruler_in_the_real_data_has_construction_text_left_unread(real_cards):
    unread = {name: card.unchecked for name, card in real_cards.items() if card.unchecked}
    assert unread == {}
    with_text = [c for c in real_cards.values() if c.conditions and fow_conditions.RULER_TYPES & c.types]
    assert len(with_text) == 73  # 17 [Partner], 24 [Tag] (Asmodeus and Neun with more text), 7 [Aid] sub-rulers, 10 Arcana, 15 others


@pytest.mark.parametrize("name,expected", [
    ("Wolfgang, Exiled Demon Prince", [{"kind": "only", "attributes": ["darkness"], "races": ["cthulhu"]}]),
    ("Arcana: Guardian of the Temple", [{"kind": "only", "attributes": ["light", "fire"], "within": True}]),
    ("Asmodeus", [
        {"kind": "forbid", "where": {"name": "Asmodeus"}, "in": "side", "while": "anywhere"},
        {"kind": "tag", "race": "fallen-angel"},
        {"kind": "deck-size", "exactly": 60},
    ]),
    ("Alice, Tales of Creation", [{"kind": "forbid", "where": {"keyword": "villains"}, "in": "deck-and-stones"}]),
    ("Athenia", [{"kind": "forbid", "where": {"keyword": "villains"}, "in": "deck-and-stones"}]),  # "or a magic stone deck"
    ("Odin, God of War", [{"kind": "forbid", "where": {"keyword": "tales"}, "in": "deck-and-stones"}]),
    ("Book of Light", [{"kind": "forbid", "where": {"keyword": "will-of-despair"}, "in": "deck"}]),
    ("Book of Dark", [{"kind": "forbid", "where": {"keyword": "will-of-hope"}, "in": "deck"}]),
    ("Neun", [{"kind": "tag", "names": ["Sechs"]}, {"kind": "distinct-names", "exactly": 9}]),
    ("Typhon, the Infinite Monster", [
        {"kind": "forbid", "where": {"keyword": "tales"}, "in": "deck-and-stones"},
        {"kind": "only", "attributes": ["darkness"]},
        {"kind": "deck-size", "min": 100},
    ]),
    ("Aristella", [{"kind": "partner", "count": 1, "race": "moonchild"}]),
    ("Hyde, Solitary Assassin", [{"kind": "partner", "count": 1, "race": "moonchild"}]),  # no reminder text
    ("Actor Drei, Savior Child", [{"kind": "partner", "count": 1, "race": "sunchild"}]),
    ("Almerius", [{"kind": "tag", "race": "six-sages"}]),
    ("Imitation: Abel", [{"kind": "tag", "names": ["Imitation: Cain", "Imitation: Eve"]}]),
    ("Basket of Apples", [{"kind": "aid", "ruler": "Snow White"}, {"kind": "copies", "where": {"name": "Poison Apple"}, "max": 10}]),
    ("Magna, the Creator of Regalia", [{"kind": "copies", "where": {"all": [{"subtype": "stranger"}, {"type": "resonator"}]}, "max": 1}]),
    ("Dark Alice in Ma'at", [{"kind": "with-ruler", "ruler": "Alice, Tales of Creation", "keywords": {"tales": 1}, "drop_keywords": ["villains"], "copies": 4}]),
    ("Elektra, Armament Apex", []),
    ("Faria", []),
])
def test_conditions_read_from_the_real_text(real_cards, name, expected):
    card = real_cards[name]
    assert _core(card) == expected
    assert all(c.get("text") for c in card.conditions)  # an imported catalog keeps the sentence it read


def test_keywords_read_from_the_real_text(real_cards):
    assert real_cards["Elektra, Armament Apex"].keywords["armament-ex-deck"] == 7
    assert real_cards["Reunion, Moon Battleship"].keywords["crew-ex-deck"] == 10
    assert real_cards["Trials from Kaguya"].keywords["treasury-ex-deck"] == 5
    assert real_cards["Typhon, the Infinite Monster"].keywords["no-maximum-deck-size"] == 1
    assert real_cards["Magna, the Creator of Regalia"].keywords["stranger-resonators-in-deck"] == 1
    assert real_cards["Child of the Light Moon"].keywords["bond"] == 1  # <<Bond>>, ≪Bond≫ and «Bond» alike
    assert real_cards["Zeus, the First Olympian"].keywords == {"singleton": 1, "tales": 1}
    assert "villains" in real_cards["The Villains' Magic Stone"].keywords
    assert "tales" not in real_cards["This Means War!"].keywords  # mentions [Tales], does not have it


def test_every_table_entry_quotes_its_card(real_cards):
    """The table's text is the card's own: each quoted sentence is on the real card."""
    for _key, entry in fow_conditions.table().items():
        card = real_cards[entry["name"]]
        text = " ".join(fow_conditions.clean_line(line) for line in _text_of(card.name).split("\n"))
        for sentence in entry["text"]:
            assert fow_conditions.clean_line(sentence) in text, (card.name, sentence)


def _text_of(name: str) -> str:
    out = []
    for file in ("fowsim-cards.json", "fowsim-abc2023-decks-cards.json"):
        for record in fowsim.iter_records(json.loads((SHARED / "data" / "fow" / file).read_text(encoding="utf-8"))):
            if record.get("name") == name:
                out += record.get("abilities") or []
    return "\n".join(out)


# --- reading the text: the patterns, on made-up records -----------------------------------------

_RECORD_IDS = itertools.count(1)


def _ruler(name, *abilities, type_="Ruler"):
    """A made-up fowsim record. Each has its own printing id: records that share one are read
    as faces of one card (an id from ``hash(name)`` collided now and then and lost a card)."""
    return {"id": f"X-{next(_RECORD_IDS):04}", "name": name, "type": [type_], "cost": None, "colour": ["B"],
            "abilities": list(abilities), "race": []}


def test_unknown_construction_text_of_a_ruler_is_kept_unchecked():
    cards, _ = fowsim.convert([
        _ruler("Strange Ruler", "You may have only cards with an even total cost in your deck.", "[Enter] >>> Draw a card."),
        _ruler("Mana Ruler", "[Mana] (2) (You start the game with two mana counters on this card.)"),
        _ruler("Not A Ruler", "You may have only cards with an even total cost in your deck.", type_="Chant"),
        _ruler("Known Ruler", "You must have exactly forty cards in your deck. You cannot have cards with [Tales] in your deck."),
    ])
    by = {c.name: c for c in cards}
    assert by["Strange Ruler"].unchecked == ("You may have only cards with an even total cost in your deck.",)
    assert by["Mana Ruler"].unchecked == ()  # game text, not construction
    assert by["Not A Ruler"].unchecked == () and by["Not A Ruler"].conditions == ()
    assert _core(by["Known Ruler"]) == [
        {"kind": "deck-size", "exactly": 40},
        {"kind": "forbid", "where": {"keyword": "tales"}, "in": "deck"},
    ]


# --- only: Wolfgang, "only darkness and/or Cthulhu cards" ------------------------------------

def test_wolfgang_passes_darkness_and_cthulhu_cards():
    assert violations(deck("Wolfgang, Exiled Demon Prince")) == []
    # a fire card that is a Cthulhu passes by its race
    assert violations(deck("Wolfgang, Exiled Demon Prince", main=DARK[:-1] + [(4, "Black Goat")])) == []


def test_wolfgang_fails_a_light_card_that_is_no_cthulhu():
    text = deck("Wolfgang, Exiled Demon Prince", main=DARK[:-1] + [(4, "Gawain, the Knight of the Sun")])
    v = only(text)
    assert (v.code, v.rule, v.section, v.card, v.found, v.line) == ("FC703", "ruler-conditions", "main", "Gawain, the Knight of the Sun", 4, 13)
    assert v.message == ("Gawain, the Knight of the Sun breaks Wolfgang, Exiled Demon Prince's condition: "
                         "only darkness or Cthulhu cards in the deck")
    # not the sideboard (CR 404.1b)
    assert violations(deck("Wolfgang, Exiled Demon Prince", side=[(2, "Gawain, the Knight of the Sun")])) == []


# --- deck-size: Asmodeus, "exactly sixty cards" --------------------------------------------------

def test_asmodeus_at_sixty_passes_and_at_fifty_nine_fails():
    assert violations(deck("Asmodeus", main=DARK + DARK_MORE)) == []
    v = only(deck("Asmodeus", main=DARK + DARK_MORE[:-1] + [(3, "Awakening at the End")]))
    assert (v.code, v.rule, v.section, v.card, v.found, v.limit, v.line) == ("FC703", "ruler-conditions", "main", "Asmodeus", 59, "exactly 60", 3)
    assert v.message == "Main Deck has 59 cards; Asmodeus requires exactly 60 cards in the deck"


def test_asmodeus_may_not_be_in_the_sideboard_whoever_rules():
    rulers = [(1, "Beatrice"), (1, "Carlina")]  # [Tag] (Fallen Angel) partners
    assert violations(deck(rulers)) == []
    v = only(deck(rulers, side=[(1, "Asmodeus")]))
    assert (v.code, v.rule, v.section, v.card, v.found) == ("FC703", "ruler-conditions", "side", "Asmodeus", 1)
    assert v.message == 'Asmodeus breaks Asmodeus\'s condition: no cards named "Asmodeus" in the sideboard'


# --- forbid: Alice, Tales of Creation, "no [Villains] in your deck or magic stone deck" ------------

def test_alice_fails_a_villains_magic_stone():
    alice = "Alice, Tales of Creation"
    assert violations(deck(alice)) == []
    v = only(deck(alice, stones=[(9, "Light Magic Stone"), (1, "The Villains' Magic Stone")]))
    assert (v.code, v.rule, v.section, v.card, v.found) == ("FC703", "ruler-conditions", "stones", "The Villains' Magic Stone", 1)
    assert v.message.endswith("condition: no cards with [Villains] in the deck or magic stone deck")


def test_dark_alice_in_maat_has_tales_while_alice_rules():
    """'This card has [Tales] instead of [Villains] ... as long as your ruler is "Alice, Tales of Creation"'."""
    main = DARK[:-1] + [(4, "Dark Alice in Ma'at")]
    assert violations(deck("Alice, Tales of Creation", main=main)) == []
    v = only(deck("Kaguya, God of Cats and the Moon", main=main))
    assert (v.rule, v.section, v.card, v.found) == ("ruler-conditions", "main", "Dark Alice in Ma'at", 4)


# --- distinct-names: Neun, "exactly nine different card names" -----------------------------------

def test_neun_at_nine_names_passes_and_at_eight_fails():
    nine = [(8, "Croco-Shark")] + DARK[:8]  # Croco-Shark: any number of copies
    assert violations(deck("Neun", main=nine)) == []
    eight = [(12, "Croco-Shark")] + DARK[:7]
    v = only(deck("Neun", main=eight))
    assert (v.code, v.rule, v.section, v.card, v.found, v.limit) == ("FC703", "ruler-conditions", "main", "Neun", 8, "exactly 9")
    assert v.message == "Main Deck has 8 different card names; Neun requires exactly 9 different card names in the deck"


# --- Typhon: no maximum deck size, at least 100, only darkness (Wanderer: CR 402.3a caps at 200) --

def test_typhon_deck_of_a_hundred_passes_and_ninety_nine_fails():
    typhon = "Typhon, the Infinite Monster"
    hundred = [(60, "Typhon's Antibodies")] + DARK  # any number of copies
    assert violations(deck(typhon, main=hundred), "wanderer") == []
    v = only(deck(typhon, main=[(59, "Typhon's Antibodies")] + DARK), "wanderer")
    assert (v.code, v.rule, v.card, v.found, v.limit) == ("FC703", "ruler-conditions", typhon, 99, "at least 100")
    v = only(deck(typhon, main=[(161, "Typhon's Antibodies")] + DARK), "wanderer")
    assert (v.code, v.rule, v.found, v.limit) == ("FC101", "main-size-no-maximum", 201, "40 to 200")
    # any other ruler keeps the 60-card maximum
    v = only(deck("Wolfgang, Exiled Demon Prince", main=hundred), "wanderer")
    assert (v.rule, v.found, v.limit) == ("main-size", 100, "40 to 60")


def test_typhon_fails_a_card_that_is_not_darkness():
    v = only(deck("Typhon, the Infinite Monster", main=[(60, "Typhon's Antibodies")] + DARK[:-1] + [(4, "Black Goat")]), "wanderer")
    assert (v.rule, v.card, v.found) == ("ruler-conditions", "Black Goat", 4)
    assert v.message.endswith("condition: only darkness cards in the deck")


# --- copies: a card in the ruler area sets other cards' copy limits -------------------------------

def test_basket_of_apples_allows_ten_poison_apples_not_eleven():
    rulers = [(1, "Snow White"), (1, "Basket of Apples")]  # [Aid] "Snow White"
    main = [(10, "Poison Apple")] + DARK[:7] + [(2, "Black Moon")]
    assert violations(deck(rulers, main=main)) == []
    v = only(deck(rulers, main=[(11, "Poison Apple")] + DARK[:7] + [(1, "Black Moon")]))
    assert (v.code, v.rule, v.card, v.found, v.limit) == ("FC201", "copy-limit", "Poison Apple", 11, "at most 10")
    assert v.message.endswith("(Basket of Apples's text)")
    # without the sub-ruler, four is the limit
    v = only(deck("Snow White", main=main))
    assert (v.rule, v.card, v.found, v.limit) == ("copy-limit", "Poison Apple", 10, "at most 4")


def test_magna_allows_stranger_resonators_in_the_deck_one_copy_each():
    magna = "Magna, the Creator of Regalia"
    strangers = [(1, "Red Wizard (Stranger)"), (1, "Shade (Stranger)"), (1, "Regulus, the King of Volcano (Stranger)"), (1, "Cu Chulainn, the Hero in a Far Land (Stranger)")]
    assert violations(deck(magna, main=DARK[:9] + strangers)) == []
    v = only(deck(magna, main=DARK[:9] + [(2, "Red Wizard (Stranger)"), (1, "Shade (Stranger)"), (1, "Regulus, the King of Volcano (Stranger)")]))
    assert (v.code, v.rule, v.card, v.found, v.limit) == ("FC201", "copy-limit", "Red Wizard (Stranger)", 2, "at most 1")
    assert v.message.endswith("(Magna, the Creator of Regalia's text)")
    v = only(deck("Faria", main=DARK[:9] + [(1, "Red Wizard (Stranger)"), (3, "Black Moon")]))
    assert (v.code, v.rule, v.card) == ("FC302", "main-no-strangers", "Red Wizard (Stranger)")


def test_a_card_that_names_the_singleton_ruler_keeps_its_four_copies():
    """Zeus: one copy of any card; "If your starting ruler is Zeus ... up to four copies of this card"."""
    zeus = "Zeus, the First Olympian"
    found = violations(deck(zeus, main=[(4, "Zeus Enters the Game of Gods"), (2, "Black Moon")]))
    assert [(v.rule, v.card, v.found, v.limit) for v in found if v.rule == "copy-limit"] == [("copy-limit", "Black Moon", 2, "at most 1")]
    v = only(deck("Faria", main=DARK[:9] + [(4, "Black Moon"), (5, "Zeus Enters the Game of Gods")]))
    assert (v.rule, v.card, v.found, v.limit) == ("copy-limit", "Zeus Enters the Game of Gods", 5, "at most 4")


# --- text forcecheck does not model: a warning, never a silent pass --------------------------------

def test_a_ruler_with_unread_construction_text_gets_a_warning():
    base = {c.name: c for c in sample_catalog().cards()}
    odd = Card(name="Odd Ruler", game="fow", types=frozenset({"ruler"}), attributes=frozenset({"darkness"}),
               unchecked=("You may have only cards with an even total cost in your deck.",))
    catalog = MemoryCatalog(list(base.values()) + [odd], "test catalog")
    found = violations(deck("Odd Ruler"), catalog=catalog)
    assert [(x.code, x.rule, x.severity, x.section, x.card, x.line) for x in found] == [
        ("FC704", "ruler-conditions-unchecked", "warning", "ruler", "Odd Ruler", 2)
    ]
    assert found[0].message == "ruler condition not checked: You may have only cards with an even total cost in your deck. (Odd Ruler)"
    plain = Card(name="Plain Ruler", game="fow", types=frozenset({"ruler"}))
    assert violations(deck("Plain Ruler"), catalog=MemoryCatalog(list(base.values()) + [plain], "test catalog")) == []


def test_a_malformed_condition_in_a_catalog_file_is_a_warning_not_a_crash():
    base = list(sample_catalog().cards())
    broken = Card.from_dict({"name": "Broken Ruler", "game": "fow", "types": ["ruler"],
                             "conditions": [{"kind": "forbid", "where": {"colour": "red"}, "text": "You cannot have red cards."}]})
    found = violations(deck("Broken Ruler"), catalog=MemoryCatalog(base + [broken], "test catalog"))
    assert [(v.code, v.severity, v.card) for v in found] == [("FC704", "warning", "Broken Ruler")]
    assert "You cannot have red cards." in found[0].message and "unknown selector key 'colour'" in found[0].message


# --- EX decks a ruler grants ---------------------------------------------------------------------

ARMAMENTS = ["Bow and Arrows", "Chain-Sickle", "Flame Earrings", "Longsword", "Rapier", "Amulet Orb", "Battle Flag", "Headband"]
CREW = ["Archer of the Crescent Moon", "Charles VII", "Hamelin's Pied Piper", "Knight of the New Moon", "One-Inch Boy",
        "Servant of Kaguya", "Swordsman of the Full Moon", "Humpty Dumpty", "Mad Hatter", "March Hare"]


def test_elektra_armament_ex_deck_of_seven_passes_and_eight_fails():
    elektra = "Elektra, Armament Apex"
    assert violations(deck(elektra, armament=[(1, n) for n in ARMAMENTS[:7]])) == []
    assert violations(deck(elektra)) == []  # the EX deck is optional
    v = only(deck(elektra, armament=[(1, n) for n in ARMAMENTS]))
    assert (v.code, v.rule, v.section, v.found, v.limit) == ("FC101", "armament-size", "armament", 8, "exactly 0 or 7")
    v = only(deck(elektra, armament=[(1, n) for n in ARMAMENTS[:6]] + [(1, "Devil Spear")]))
    assert (v.code, v.rule, v.section, v.card) == ("FC301", "armament-cards", "armament", "Devil Spear")  # High Armament
    v = only(deck(elektra, armament=[(2, ARMAMENTS[0])] + [(1, n) for n in ARMAMENTS[1:6]]))
    assert (v.code, v.rule, v.card, v.found, v.limit) == ("FC201", "sub-ruler-copy-limit", ARMAMENTS[0], 2, "at most 1")
    v = only(deck("Faria", armament=[(1, n) for n in ARMAMENTS[:7]]))
    assert (v.code, v.rule, v.section, v.found) == ("FC701", "armament-requires-keyword", "armament", 7)


def test_reunion_crew_ex_deck_shares_no_name_with_the_deck():
    reunion = "Reunion, Moon Battleship"
    crew = [(1, n) for n in CREW]
    assert violations(deck(reunion, crew=crew)) == []
    v = only(deck(reunion, main=DARK[:9] + [(3, "Mad Hatter"), (1, "Black Moon")], crew=crew))
    assert (v.code, v.rule, v.section, v.card, v.found, v.limit) == ("FC202", "crew-names-apart", "crew", "Mad Hatter", 3, "0")
    assert v.message.startswith("Mad Hatter is in the Crew EX Deck and also in the Main Deck")
    v = only(deck(reunion, crew=crew[:9] + [(1, "Red Wizard (Stranger)")]))
    assert (v.code, v.rule, v.card) == ("FC301", "crew-cards", "Red Wizard (Stranger)")  # no Stranger in a Crew EX Deck (CR 319.5a-1)
    v = only(deck(reunion, crew=crew, side=[(1, "Mad Hatter")]))
    assert (v.rule, v.card, v.found) == ("crew-names-apart", "Mad Hatter", 1)


# --- the same, on the real catalog -----------------------------------------------------------------

@needs_shared
def test_conditions_hold_on_the_real_catalog(real_fow_catalog):
    text = deck("Wolfgang, Exiled Demon Prince", main=DARK[:-1] + [(4, "Gawain, the Knight of the Sun")])
    v = only_with(text, real_fow_catalog)
    assert (v.code, v.rule, v.card, v.found) == ("FC703", "ruler-conditions", "Gawain, the Knight of the Sun", 4)
    assert violations(deck("Wolfgang, Exiled Demon Prince"), catalog=real_fow_catalog) == []
    v = only_with(deck("Asmodeus", main=DARK + DARK_MORE[:-1] + [(3, "Awakening at the End")]), real_fow_catalog)
    assert (v.rule, v.found, v.limit) == ("ruler-conditions", 59, "exactly 60")


def only_with(text, catalog):
    found = violations(text, catalog=catalog)
    assert len(found) == 1, [f"{v.rule}: {v.message}" for v in found]
    return found[0]


def test_faria_has_no_conditions():
    assert violations(deck_text(ruler="Faria", main=FARIA_MAIN, stones=STONES)) == []


# --- what the command line shows -------------------------------------------------------------------

def test_catalog_info_counts_cards_with_unchecked_text_and_check_warns(tmp_path):
    from forcecheck.cli import app

    runner = cli_runner()
    cards = [c.to_dict() for c in sample_catalog().cards()]
    cards.append({"name": "Odd Ruler", "game": "fow", "types": ["ruler"], "attributes": ["darkness"],
                  "unchecked": ["You may have only cards with an even total cost in your deck."]})
    path = tmp_path / "catalog.json"
    path.write_text(json.dumps({"schema": "forcecheck-catalog/1", "cards": cards}), encoding="utf-8")
    info = runner.invoke(app, ["catalog", "info", "--db", str(path), "--warnings"])
    assert info.exit_code == 0
    assert "cards with construction text forcecheck does not check: 1" in info.stdout
    assert "not checked: Odd Ruler: You may have only cards with an even total cost in your deck." in info.stdout
    assert "does not check: 0" in runner.invoke(app, ["catalog", "info"]).stdout  # the sample catalog: none
    deck = tmp_path / "d.txt"
    deck.write_text(deck_text(ruler="Odd Ruler", main=DARK, stones=STONES), encoding="utf-8")
    result = runner.invoke(app, ["check", str(deck), "-f", "bifrost", "--catalog", str(path), "-o", "concise"])
    assert result.exit_code == 0  # a warning: the deck is not failed, and not passed silently either
    assert "FC704 [warning] ruler condition not checked: You may have only cards with an even total cost in your deck. (Odd Ruler)" in result.stdout


def test_catalog_show_lists_a_cards_conditions():
    from forcecheck.cli import app

    shown = cli_runner().invoke(app, ["catalog", "show", "Wolfgang, Exiled Demon Prince"]).stdout
    assert "condition:  only darkness or Cthulhu cards in the deck" in shown


def test_formats_show_lists_the_conditions_it_checks():
    from forcecheck.cli import app

    shown = cli_runner().invoke(app, ["formats", "show", "bifrost"]).stdout
    block = shown.split("card conditions checked")[1].split("input checks")[0]
    for kind in ("only:", "forbid:", "deck-size:", "distinct-names:", "copies:", "partner:", "tag:", "aid:", "with-ruler:"):
        assert f"\n  {kind}" in block, kind
    assert "card conditions checked" not in cli_runner().invoke(app, ["formats", "show", "ygo-5ds"]).stdout


@needs_shared
def test_the_real_catalog_has_no_unchecked_ruler(real_fow_catalog):
    assert real_fow_catalog.unchecked() == []


def test_an_imported_catalog_counts_its_unchecked_rulers(tmp_path):
    from forcecheck.cards.store import SqliteCatalog
    from forcecheck.importers.pipeline import import_files

    source = tmp_path / "cards.json"
    source.write_text(json.dumps([
        _ruler("Strange Ruler", "You may have only cards with an even total cost in your deck."),
        _ruler("Known Ruler", "You must have exactly forty cards in your deck."),
    ]), encoding="utf-8")
    import_files("fowsim", [source], tmp_path / "c.db")
    catalog = SqliteCatalog(tmp_path / "c.db")
    assert [c.name for c in catalog.unchecked()] == ["Strange Ruler"]
    assert catalog.by_name("fow", "Known Ruler").conditions[0]["text"] == "You must have exactly forty cards in your deck."


def test_a_catalog_file_with_conditions_of_the_wrong_shape_is_refused_naming_the_record(tmp_path):
    from forcecheck.cards.catalog import load_catalog_file
    from forcecheck.errors import CatalogError

    path = tmp_path / "catalog.json"
    for bad in ({"conditions": "only darkness"}, {"conditions": ["only darkness"]}, {"unchecked": "text"}):
        path.write_text(json.dumps({"schema": "forcecheck-catalog/1", "cards": [dict({"name": "R", "game": "fow", "types": ["ruler"]}, **bad)]}))
        with pytest.raises(CatalogError, match="card record 0 is malformed"):
            load_catalog_file(path)


def test_an_old_catalog_file_with_deck_attributes_keeps_its_meaning():
    card = Card.from_dict({"name": "Old Arcana", "game": "fow", "types": ["ruler"], "deck_attributes": ["fire", "light"]})
    assert card.conditions == ({"kind": "only", "attributes": ["fire", "light"], "within": True},)
    assert card.deck_attributes == {"fire", "light"}


TREASURES = ["Jeweled Branch of Horai", "Robe of Fire-Rat", "Heavenly Feathered Robe", "Stone Bowl of Buddha", "Cowrie of Swallows", "Apollosphere, the Moon Lance"]


def test_an_aid_sub_ruler_grants_a_treasury_ex_deck_of_five():
    """Trials from Kaguya starts beside Seer of the Blue Moon ([Aid]) and brings a <Treasury> EX Deck (5)."""
    rulers = [(1, "Seer of the Blue Moon"), (1, "Trials from Kaguya")]
    assert violations(deck(rulers, treasury=[(1, n) for n in TREASURES[:5]])) == []
    v = only(deck(rulers, treasury=[(1, n) for n in TREASURES]))
    assert (v.code, v.rule, v.section, v.found, v.limit) == ("FC101", "treasury-size", "treasury", 6, "exactly 0 or 5")
    assert "Trials from Kaguya's treasury-ex-deck 5" in v.message
    v = only(deck(rulers, treasury=[(1, n) for n in TREASURES[:4]] + [(1, "Black Goat")]))
    assert (v.code, v.rule, v.card) == ("FC301", "treasury-cards", "Black Goat")
    v = only(deck("Seer of the Blue Moon", treasury=[(1, n) for n in TREASURES[:5]]))
    assert (v.code, v.rule, v.found) == ("FC701", "treasury-requires-keyword", 5)
    assert "has no <Treasury> EX Deck" in v.message
