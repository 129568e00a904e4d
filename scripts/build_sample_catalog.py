"""Rebuild ``forcecheck/data/sample_catalog.json`` from the shared fowsim card data.

The embedded sample catalog holds *facts only* (names, with the Japanese printed names of the
Yu-Gi-Oh cards; types, sub-types, attributes, costs, keywords, construction conditions as data,
printing codes) in forcecheck's own schema, for the cards the sample decks and the tests use.
No ability or flavour text is copied. Run from the repository root:

    python scripts/build_sample_catalog.py [--shared ../shared]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from forcecheck.cards.catalog import (
    CATALOG_SCHEMA,  # noqa: E402
    MemoryCatalog,  # noqa: E402
)
from forcecheck.cards.names import normalize_name  # noqa: E402
from forcecheck.decklists.readers import read_decklist  # noqa: E402
from forcecheck.importers import fowsim, locales, ygopro  # noqa: E402
from forcecheck.records import replace  # noqa: E402  (cards are records: dataclasses.replace refuses them)

# Cards the tests use beyond the sample decks: each shows one fact a rule reads.
EXTRA_FOW_CARDS = [
    "Croco-Shark",  # any number of copies
    "Parallel World Schrödinger",  # any number of copies
    "Water Kimono of Twelve Parts",  # up to twelve copies
    "Ayu, Lunar Swordswoman",  # singleton ruler
    "Melgis",  # stranger ruler, fire/darkness
    "Mini Meteor",  # a sixth light rune
    "Zeus' Grand Lightning",  # a second master rune
    "Brunhild",  # divinity ruler
    "Magic Stone of Flame",  # basic magic stone with another name
    "Fire Magic Stone",
    "Magic Stone of Scorched Bales",  # special stone
    "Red Wizard (Stranger)",
    "Shade (Stranger)",
    "Amon, the Demon Prince of Conspiracy (Stranger)",
    "Regulus, the King of Volcano (Stranger)",
    "Cu Chulainn, the Hero in a Far Land (Stranger)",
    "Demonflame",
    "Laevateinn",
    "Volga, the Fire King",
    "Darkest Fire Dragon",
    "Bloody Break",
    "Black Tears",  # a darkness Story chant
    "Disaster at Sasaru Palace",
    "Evil Elemental Uprising",
    "Karmic Retribution",
    "Jewel Step",
    "Heavenly Fruit",
    "End of the World",  # moon will symbols in its cost
    "Alice of Shadow",  # the other face of a shift card
    "Fiery Soldier of Milest",  # a resonator with a magic stone type
    "Arcana: Guardian of the Temple",  # an Arcana ruler
    "Blessing of the Sun",  # a light chant/rune
    "Chain Bind",  # a fire chant/rune
    "Explosion",  # a fire rune (not a chant)
    "Atom Seikhart",
    "Speaker of Eternal Night",
    "Wolfgang, Exiled Demon Prince",  # ruler with an attribute restriction in its text
    "Groundsplitter Rabbit",  # an Alternative card (split): halves' costs combined
    "Split Heaven and Earth",  # a separate card with the name of that half
    "Flourishing Hope",  # a double-faced (inverse) chant: {W} // {B}{2}
    # rulers' construction conditions, partners and EX decks (tests/test_ruler_conditions.py, test_partners.py)
    "Asmodeus",  # exactly sixty cards; [Tag] (Fallen Angel); not in the side deck
    "Beatrice", "Carlina",  # [Tag] (Fallen Angel)
    "Alice, Tales of Creation", "Kaguya, God of Cats and the Moon",  # no [Villains] in deck or stone deck
    "The Villains' Magic Stone", "Dark Alice in Ma'at",  # [Villains]; [Tales] instead while Alice rules
    "Neun", "Sechs",  # nine card names; [Tag] "Sechs" / "Neun"
    "Elektra, Armament Apex", "Devil Spear",  # <Armament> EX Deck (7); a High Armament sub-ruler
    "Bow and Arrows", "Chain-Sickle", "Flame Earrings", "Longsword", "Rapier", "Amulet Orb", "Battle Flag", "Headband",
    "Reunion, Moon Battleship",  # <Crew> EX Deck (10)
    "Archer of the Crescent Moon", "Charles VII", "Hamelin's Pied Piper", "Knight of the New Moon", "One-Inch Boy",
    "Servant of Kaguya", "Swordsman of the Full Moon", "Humpty Dumpty", "Mad Hatter", "March Hare",
    "Aristella", "Mika, Saint of the Solaris Order",  # [Partner] 1 (Moonchild)
    "Child of the Light Moon", "Child of the Fire Moon",  # Moonchild rulers with Bond
    "Almerius", "Zero, Apprentice Sage", "Milest", "Moojdart",  # [Tag] (Six Sages)
    "Typhon, the Infinite Monster", "Typhon's Antibodies",  # no maximum deck size, at least 100; only darkness
    "Snow White", "Basket of Apples", "Poison Apple",  # [Aid] "Snow White"; ten Poison Apples
    "Magna, the Creator of Regalia",  # (Stranger) resonators in the deck, one copy each
    "Zeus, the First Olympian", "Zeus Enters the Game of Gods",  # singleton, and a card that names Zeus
    "Seer of the Blue Moon", "Trials from Kaguya",  # [Aid] "Seer of the Blue Moon"; <Treasury> EX Deck (5)
    "Jeweled Branch of Horai", "Robe of Fire-Rat", "Heavenly Feathered Robe", "Stone Bowl of Buddha",
    "Cowrie of Swallows", "Apollosphere, the Moon Lance",  # Treasury Items
    "Black Goat",  # a fire Cthulhu card
    "Black Coffin of Vampires", "Bloodsucking Impulse", "Deadman Prince", "Midnight Bell", "Servant of Vampire",
    "Vampire Bat", "Ebony Devil", "Acolyte of Darkness", "Black Miasma", "Black Moon",  # darkness cards
    "Lora, the Blood Speaker", "Spiral of Despair", "Necronomicon", "Bind of Gravity", "Awakening at the End",
]


# Yu-Gi-Oh cards the tests use beyond the sample decks.
EXTRA_YGO_CARDS = ["Pot of Greed", "Polymerization", "Dark Magician", "Blue-Eyes White Dragon", "A Legendary Ocean", "Decode Talker",
                   "Neo-Spacian Aqua Dolphin", "Harpie Lady",  # cards "treated as" them are of another kind, or named apart
                   # a common word read as one of these by shortened-name matching (issue 28's mutation suite):
                   # "Dragon", "Bear", "Moon", "Sword"
                   "Brotherhood of the Fire Fist - Dragon", "Brotherhood of the Fire Fist - Bear", "Arcana Force XVIII - The Moon",
                   "Bujin Regalia - The Sword"]


def write_sample_index(text: str) -> None:
    """``forcecheck/data/sample_index.json``: the name index of the catalog file just written
    (a cold check reads it instead of normalising every name; tests/test_fast_paths.py holds
    it to the code). Run this script again after changing name normalisation."""
    from forcecheck.cards.catalog import sample_index

    index = ROOT / "forcecheck" / "data" / "sample_index.json"
    index.write_text(json.dumps(sample_index(text), ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def facts_only(card: dict) -> dict:
    """The card without the text its conditions were read from: the sample catalog holds facts."""
    if "conditions" in card:
        card["conditions"] = [{k: v for k, v in c.items() if k != "text"} for c in card["conditions"]]
    return card


def main() -> int:
    if sys.argv[1:] == ["--index-only"]:  # the catalog as it is; only its name index made again
        write_sample_index((ROOT / "forcecheck" / "data" / "sample_catalog.json").read_text(encoding="utf-8"))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    args = parser.parse_args()
    fow = Path(args.shared) / "data" / "fow"
    records = []
    for source in (fow / "fowsim-cards.json", fow / "fowsim-abc2023-decks-cards.json"):
        records += list(fowsim.iter_records(json.loads(source.read_text(encoding="utf-8"))))
    cards, warnings = fowsim.convert(records)
    index: dict[str, object] = {}
    for card in cards:
        index.setdefault(normalize_name(card.name), card)
        for alias in card.aliases:
            index.setdefault(normalize_name(alias), card)

    wanted = list(EXTRA_FOW_CARDS)
    banlist = json.loads((fow / "fowsim-wanderer-banlist.json").read_text(encoding="utf-8"))
    wanted += [item["name"] for item in banlist["banned"]]  # every Wanderer ban and combination ban is tested
    wanted += [item["name"] for pair in banlist["combination_banned"] for item in pair]
    ygo_wanted = list(EXTRA_YGO_CARDS)
    for deck_file in sorted((ROOT / "sample_decks").rglob("*")):
        if deck_file.suffix not in (".txt", ".yaml", ".yml", ".ydk"):
            continue
        deck = read_decklist(deck_file, known_headers={"ruler"})
        names = [e.name for s in deck.sections for e in s.entries]
        (ygo_wanted if "ygo" in deck_file.parts[-2] else wanted).extend(names)

    chosen: dict[str, object] = {}
    missing = []
    for name in wanted:
        card = index.get(normalize_name(name))
        if card is None:
            missing.append(name)
        else:
            chosen[card.name] = card
    ygo_cards, _ = ygopro.convert(ygopro.read_source(Path(args.shared) / "data" / "ygo" / "cards.cdb"))
    ja_cdb = Path(args.shared) / "data" / "ygo" / "cards-ja.cdb"
    if ja_cdb.is_file():  # the Japanese printed names, joined by passcode as `catalog import` does
        ja_cards, _ = ygopro.convert(ygopro.read_source(ja_cdb))
        ygo_cards = locales.merge_locales(ygo_cards, [("ja", [replace(c, lang="ja") for c in ja_cards])], [])
    ygo_index = MemoryCatalog(ygo_cards, "ygopro")
    ygo_chosen: dict[str, object] = {}
    for name in ygo_wanted:
        card = ygo_index.by_printing("ygo", name) if name.isdigit() else ygo_index.by_name("ygo", name)
        if card is None:
            missing.append(name)
        else:
            ygo_chosen[card.name] = card
    out = {
        "schema": CATALOG_SCHEMA,
        "description": "forcecheck sample catalog: card facts (no card text) for the sample decks and tests; "
        "FoW facts derived from the fowsim card database and Yu-Gi-Oh facts from a YGOPro cards.cdb "
        "by scripts/build_sample_catalog.py",
        "cards": [facts_only(chosen[name].to_dict()) for name in sorted(chosen)]
        + [ygo_chosen[name].to_dict() for name in sorted(ygo_chosen)],
    }
    target = ROOT / "forcecheck" / "data" / "sample_catalog.json"
    text = json.dumps(out, ensure_ascii=False, indent=1) + "\n"
    target.write_text(text, encoding="utf-8")
    write_sample_index(text)
    print(f"wrote {len(chosen)} FoW and {len(ygo_chosen)} Yu-Gi-Oh cards to {target.relative_to(ROOT)}")
    if missing:
        print("not in the source (misspellings in illegal samples are expected):", ", ".join(sorted(set(missing))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
