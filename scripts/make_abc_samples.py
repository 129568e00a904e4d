"""Write sample_decks/abc/ from the official ABC 2023 pre-constructed decks in ../shared.

The legal samples are two official decks (card names and counts are facts); each illegal
sample changes one of them so that exactly one ABC rule breaks, using real cards of the right
attribute and cost picked from the fowsim database. Run from the repository root:

    python scripts/make_abc_samples.py [--shared ../shared]
then python scripts/build_sample_catalog.py to refresh the sample catalog.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from forcecheck.cards.catalog import MemoryCatalog  # noqa: E402
from forcecheck.importers import fowsim  # noqa: E402
from forcecheck.rules.selectors import cost_function  # noqa: E402

OFFICIAL = {  # set code -> (Arcana ruler, basic stones)
    "ABC-WB": ("Arcana: Holy Protector", ["Light Magic Stone", "Water Magic Stone"]),
    "ABC-WD": ("Arcana: Knight of Heavens", ["Light Magic Stone", "Darkness Magic Stone"]),
    "ABC-RG": ("Arcana: The Fairy King", ["Fire Magic Stone", "Wind Magic Stone"]),
    "ABC-RD": ("Arcana: Leader of the Kabuki", ["Fire Magic Stone", "Darkness Magic Stone"]),
    "ABC-BG": ("Arcana: Mermaid of Misty Wind", ["Water Magic Stone", "Wind Magic Stone"]),
}


def official_decks(shared: Path) -> dict[str, dict]:
    """Set code -> {ruler, main: [names], stones: [names], basics: [names]} from the ABC file."""
    data = json.loads((shared / "data" / "fow" / "fowsim-abc2023-decks-cards.json").read_text(encoding="utf-8"))
    decks = {}
    for deck_set in data["fow"]["clusters"][0]["sets"]:
        code = deck_set["code"]
        main, stones = [], []
        for card in deck_set["cards"]:
            match = re.match(r"^ABC-[A-Z]+-(\d+)$", card["id"])
            if match:
                (main if int(match.group(1)) <= 60 else stones).append(card["name"])
        ruler, basics = OFFICIAL[code]
        decks[code] = {"ruler": ruler, "main": main, "stones": stones, "basics": basics}
    return decks


def render(deck: dict, comment: str, extra_sections: str = "") -> str:
    basic_counts = deck.get("basic_counts", [3] * len(deck["basics"]))
    lines = [f"# {comment}", f"Ruler: {deck['ruler']}", "", "Main Deck:"]
    lines += [f"1 {name}" for name in deck["main"]]
    lines += ["", "Magic Stone Deck:"]
    lines += [f"{deck.get('stone_count', {}).get(name, 1)} {name}" for name in deck["stones"]]
    lines += [f"{count} {name}" for count, name in zip(basic_counts, deck["basics"])]
    return "\n".join(lines) + "\n" + extra_sections


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    args = parser.parse_args()
    records = []
    for name in ("fowsim-cards.json", "fowsim-abc2023-decks-cards.json"):
        records += list(fowsim.iter_records(json.loads((args.shared / "data" / "fow" / name).read_text(encoding="utf-8"))))
    cards, _ = fowsim.convert(records)
    catalog = MemoryCatalog(cards, "fowsim")
    cost = cost_function("max")
    decks = official_decks(args.shared)
    out = ROOT / "sample_decks" / "abc"
    out.mkdir(parents=True, exist_ok=True)

    wb = decks["ABC-WB"]
    rd = decks["ABC-RD"]
    (out / "legal-official-wb-holy-protector.txt").write_text(render(wb, "Official ABC 2023 pre-constructed deck WB (light/water). ABC: expected legal."))
    (out / "legal-official-rd-leader-of-the-kabuki.txt").write_text(render(rd, "Official ABC 2023 pre-constructed deck RD (fire/darkness). ABC: expected legal."))

    ruler_attrs = catalog.by_name("fow", wb["ruler"]).attributes
    used = set(wb["main"])

    def pool(test):
        """Singleton-safe replacement cards: in the ruler's attributes, not rulers, not in the deck."""
        found = []
        for card in cards:
            if card.name in used or card.attributes == frozenset() or not card.attributes <= ruler_attrs:
                continue
            if card.types & {"ruler", "j-ruler", "sub-ruler", "magic-stone", "rune"} or "stranger" in card.subtypes:
                continue
            if card.faces or not card.printings or not test(cost(card)):
                continue
            found.append(card.name)
        return sorted(found)

    def costed(names, test):
        return [n for n in names if "ruler" not in catalog.by_name("fow", n).types and test(cost(catalog.by_name("fow", n)))]

    low = costed(wb["main"], lambda c: c <= 1)
    two = costed(wb["main"], lambda c: c == 2)
    high = costed(wb["main"], lambda c: c >= 3)
    rulers = [n for n in wb["main"] if "ruler" in catalog.by_name("fow", n).types]

    def variant(name, comment, main=None, **changes):
        deck = dict(wb, main=main if main is not None else wb["main"], **changes)
        extra = deck.pop("extra_sections", "")
        ruler_text = deck.get("ruler")
        text = render(deck, f"ABC: ILLEGAL - {comment}", extra)
        if ruler_text is None:
            text = text.replace("Ruler: None\n", "")
        (out / f"illegal-{name}.txt").write_text(text)

    def swap(names, old, new):
        return [new[old.index(n)] if n in old else n for n in names]

    variant("59-main-cards", "59 cards in the main deck (exactly 60)", main=wb["main"][:-1])
    extra_low = pool(lambda c: c <= 1)
    extra_two = pool(lambda c: c == 2)
    variant("61-main-cards", "61 cards in the main deck (exactly 60)", main=wb["main"] + extra_two[:1])
    variant("duplicate", "two copies of a card (singleton)", main=[n for n in wb["main"] if n != low[0]] + [low[1]])
    off = [c.name for c in cards if c.attributes == frozenset({"fire"}) and not c.faces and "resonator" in c.types and cost(c) <= 1 and c.name not in used]
    variant("off-attribute-card", "a fire card in a light/water deck", main=swap(wb["main"], [low[0]], [sorted(off)[0]]))
    void = [c.name for c in cards if not c.attributes and c.types & {"resonator", "addition", "chant"} and not c.faces and cost(c) <= 1 and "magic-stone" not in c.types]
    variant("no-attribute-card", "a card with no attribute", main=swap(wb["main"], [low[0]], [sorted(void)[0]]))
    fifth = [c.name for c in cards if "ruler" in c.types and "arcana" not in c.subtypes and c.attributes and c.attributes <= ruler_attrs and c.name not in used]
    variant("fifth-non-arcana-ruler", "five non-Arcana rulers in the main deck (at most 4)", main=swap(wb["main"], [high[0]], [sorted(fifth)[0]]))
    variant("19-cost-one-or-less", "19 cards of total cost 1 or less (exactly 20)", main=swap(wb["main"], [low[0]], pool(lambda c: c == 2)[:1]))
    variant("21-cost-one-or-less", "21 cards of total cost 1 or less (exactly 20)", main=swap(wb["main"], [two[0]], extra_low[:1]))
    need = len(two) - 14
    variant("14-cost-two", "14 cards of total cost 2 (at least 15)", main=swap(wb["main"], two[:need], pool(lambda c: c >= 3)[:need]))
    need = len(high) - 9
    variant("9-cost-three-or-more", "9 cards of total cost 3 or more (at least 10)", main=swap(wb["main"], high[:need], pool(lambda c: c == 2)[:need]))
    off_stone = [c.name for c in cards if "special-magic-stone" in c.types and c.will and not c.will <= ruler_attrs and not c.faces]
    variant("off-attribute-special-stone", "a special magic stone that produces fire will", stones=wb["stones"][:-1] + [sorted(off_stone)[0]])
    variant("two-copies-of-a-special-stone", "two copies of a special magic stone", stone_count={wb["stones"][0]: 2})
    variant("11-magic-stones", "11 magic stones (12-20)", stones=wb["stones"][:5])
    variant("21-magic-stones", "21 magic stones (12-20)", basic_counts=[7, 6])
    variant("sideboard", "a sideboard (ABC has none)", extra_sections="\nSideboard:\n1 " + extra_low[1] + "\n")
    variant("no-arcana-ruler", "no Arcana ruler", ruler=None)
    two_arcana = "Ruler:\n1 Arcana: Holy Protector\n1 Arcana: Guardian of the Temple\n"
    text = render(wb, "ABC: ILLEGAL - two Arcana rulers").replace("Ruler: Arcana: Holy Protector\n", two_arcana)
    (out / "illegal-two-arcana-rulers.txt").write_text(text)
    variant("non-arcana-ruler-in-ruler-slot", "a non-Arcana ruler (Brunhild) in the ruler slot and only 3 rulers in the main deck",
            ruler=rulers[0], main=[n for n in wb["main"] if n != rulers[0]] + extra_two[1:2])
    def first(test):
        return sorted(c.name for c in cards if c.name not in used and not c.faces and test(c))[0]

    in_attrs = lambda c: c.attributes and c.attributes <= ruler_attrs  # noqa: E731
    variant("arcana-ruler-in-main", "an Arcana ruler in the main deck", main=swap(wb["main"], [rulers[0]], [wb["ruler"]]))
    variant("magic-stone-in-main", "a magic stone in the main deck", main=swap(wb["main"], [low[0]], ["Light Magic Stone"]))
    variant("rune-in-main", "a rune that is not a chant in the main deck",
            main=swap(wb["main"], [low[0]], [first(lambda c: "rune" in c.types and "chant" not in c.types and in_attrs(c) and cost(c) <= 1)]))
    variant("stranger-in-main", "a Stranger card in the main deck",
            main=swap(wb["main"], [low[0]], [first(lambda c: "stranger" in c.subtypes and in_attrs(c) and cost(c) <= 1)]))
    variant("sub-ruler-in-main", "a sub-ruler in the main deck",
            main=swap(wb["main"], [low[0]], [first(lambda c: "sub-ruler" in c.types and in_attrs(c) and cost(c) <= 1)]))
    variant("rune-deck", "a rune deck (ABC has none)", extra_sections="\nRune Deck:\n1 " + first(lambda c: "rune" in c.types and in_attrs(c)) + "\n")
    variant("extra-deck", "an extra deck (ABC has none)", extra_sections="\nExtra Deck:\n1 " + extra_low[2] + "\n")
    variant("stranger-deck", "a stranger deck (ABC has none)",
            extra_sections="\nStranger Deck:\n1 " + first(lambda c: "stranger" in c.subtypes and in_attrs(c)) + "\n")
    variant("resonator-in-stone-deck", "a resonator in the magic stone deck", stones=wb["stones"] + [extra_low[3]])
    print("wrote", len(list(out.iterdir())), "decks to", out.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
