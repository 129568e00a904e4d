"""Yu-Gi-Oh! card data from a YGOPro ``cards.cdb`` (SQLite, tables ``datas`` and ``texts``).

Facts: ``datas.type`` bits give card types (monster, spell, trap, fusion, synchro, xyz, ...),
``race`` bits the monster type, ``attribute`` bits the attribute, ``level & 0xff`` the level.
``alias`` links alternate artworks and "treated as" cards to the original passcode: they are
one card (copies are counted and banlists applied under the original), so their passcodes
and names become printings and aliases of the original; a printing with a name of its own (a
card "treated as" the original) keeps it in ``printing_names``, as a card pool tells it apart,
and one of another kind (a Fusion monster treated as an Effect monster) its types in
``printing_types``, as the deck's sections tell it apart.
``ot`` says where a printing was released (bit 0x1 the OCG, 0x2 the TCG; the other bits, anime
or custom cards in EDOPro's databases, are neither): the card's ``regions`` are its
printings' together, and a printing released elsewhere keeps its own (``printing_regions``).
A token that shares its name with a real card is kept apart as ``NAME (token)``.
A Speed Duel Skill card (``type`` bit 0x8000000, EDOPro's TYPE_SKILL) is of type ``skill``; one
that shares its name with a card of the game (the Skill "Destiny Draw" and the Spell) is kept
apart as ``NAME (Skill Card)``, the name EDOPro's data gives most such Skills itself, and is
found by its own name too (an alias, which never takes a card's own name: a format binds it by
section, ``SectionSpec.binds``). EDOPro's hidden rows (``ot`` bit 0x1000, SCOPE_HIDDEN: the
characters whose card backs Skill cards show) are no card of any deck: skipped, with a warning.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from forcecheck.cards.model import Card
from forcecheck.cards.store import read_only_uri
from forcecheck.importers import ImportSourceError, ImportWarning

GAME = "ygo"

TYPE_BITS = {
    0x1: "monster", 0x2: "spell", 0x4: "trap", 0x10: "normal", 0x20: "effect", 0x40: "fusion",
    0x80: "ritual", 0x100: "trap-monster", 0x200: "spirit", 0x400: "union", 0x800: "gemini",
    0x1000: "tuner", 0x2000: "synchro", 0x4000: "token", 0x10000: "quick-play", 0x20000: "continuous",
    0x40000: "equip", 0x80000: "field", 0x100000: "counter", 0x200000: "flip", 0x400000: "toon",
    0x800000: "xyz", 0x1000000: "pendulum", 0x2000000: "special-summon", 0x4000000: "link", 0x8000000: "skill",
}
RACE_BITS = {
    0x1: "warrior", 0x2: "spellcaster", 0x4: "fairy", 0x8: "fiend", 0x10: "zombie", 0x20: "machine",
    0x40: "aqua", 0x80: "pyro", 0x100: "rock", 0x200: "winged-beast", 0x400: "plant", 0x800: "insect",
    0x1000: "thunder", 0x2000: "dragon", 0x4000: "beast", 0x8000: "beast-warrior", 0x10000: "dinosaur",
    0x20000: "fish", 0x40000: "sea-serpent", 0x80000: "reptile", 0x100000: "psychic", 0x200000: "divine-beast",
    0x400000: "creator-god", 0x800000: "wyrm", 0x1000000: "cyberse", 0x2000000: "illusion",
}
REGION_BITS = {0x1: "ocg", 0x2: "tcg"}
HIDDEN = 0x1000
"""``datas.ot`` bit of EDOPro's SCOPE_HIDDEN: an entry its deck editor never shows."""
SKILL = 0x8000000
SKILL_SUFFIX = " (Skill Card)"
"""``datas.ot``: the regions a printing was released in (YGOPro's AVAIL_OCG, AVAIL_TCG; EDOPro's
SCOPE_OCG, SCOPE_TCG)."""
ATTRIBUTE_BITS = {0x1: "earth", 0x2: "water", 0x4: "fire", 0x8: "wind", 0x10: "light", 0x20: "dark", 0x40: "divine"}


def _bits(value: int, table: dict[int, str]) -> frozenset[str]:
    return frozenset(name for bit, name in table.items() if value & bit)


def read_source(path) -> list[dict]:
    """Rows of a YGOPro card database; a file that is not one raises ImportSourceError."""
    path = Path(path)
    if not path.is_file():
        raise ImportSourceError("no such file", path)
    with open(path, "rb") as fh:
        if fh.read(16) != b"SQLite format 3\x00":
            raise ImportSourceError("not a YGOPro card database (not an SQLite file)", path)
    try:
        conn = sqlite3.connect(read_only_uri(path), uri=True)
    except sqlite3.Error as exc:
        raise ImportSourceError(f"cannot open the card database ({exc})", path) from None
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = {"datas", "texts"} - tables
        if missing:
            raise ImportSourceError(f"not a YGOPro card database (no table {', '.join(sorted(missing))})", path)
        rows = conn.execute(
            "SELECT d.id, d.alias, d.type, d.level, d.race, d.attribute, d.ot, t.name "
            "FROM datas d JOIN texts t ON t.id = d.id ORDER BY d.id"
        ).fetchall()
    except sqlite3.DatabaseError as exc:
        raise ImportSourceError(f"cannot read the card database ({exc})", path) from None
    finally:
        conn.close()
    if not rows:
        raise ImportSourceError("no cards in the database", path)
    keys = ("id", "alias", "type", "level", "race", "attribute", "ot", "name")
    return [dict(zip(keys, row)) for row in rows]


def convert(records: list[dict]) -> tuple[list[Card], list[ImportWarning]]:
    """One Card per original passcode, with its alternate artworks and "treated as" cards."""
    warnings: list[ImportWarning] = []
    by_id: dict[int, dict] = {}
    for record in records:
        try:
            record_id = int(record["id"])
            name = str(record["name"]).strip()
            int(record.get("type") or 0)
        except (KeyError, TypeError, ValueError):
            warnings.append(ImportWarning(str(record.get("id", "?")), "malformed row; skipped"))
            continue
        if not name:
            warnings.append(ImportWarning(str(record_id), "row has no name; skipped"))
            continue
        if _int(record.get("ot")) & HIDDEN:
            warnings.append(ImportWarning(str(record_id), f"{name!r} is a hidden entry (EDOPro's SCOPE_HIDDEN: a character "
                                                          "shown on Skill card backs, no card of any deck); skipped"))
            continue
        by_id[record_id] = record
    children: dict[int, list[dict]] = {}
    originals: list[dict] = []
    for record_id, record in by_id.items():
        alias = int(record.get("alias") or 0)
        if alias and alias != record_id and alias in by_id:
            children.setdefault(alias, []).append(record)
        else:
            if alias and alias not in by_id:
                warnings.append(ImportWarning(str(record_id), f"alias {alias} is not in the database; kept as its own card"))
            originals.append(record)

    non_token_names = {r["name"].strip() for r in originals if not int(r.get("type") or 0) & 0x4000}
    card_names = {r["name"].strip() for r in originals if not int(r.get("type") or 0) & (0x4000 | SKILL)}
    cards = []
    for record in originals:
        kinds = _bits(int(record.get("type") or 0), TYPE_BITS)
        name = record["name"].strip()
        own: tuple[str, ...] = ()
        if "token" in kinds and name in non_token_names:
            name = f"{name} (token)"
        elif "skill" in kinds:
            if name.endswith(SKILL_SUFFIX):  # EDOPro's name for a Skill named as a card: found by that name too
                own = (name.removesuffix(SKILL_SUFFIX).strip(),)
            elif name in card_names:
                name, own = name + SKILL_SUFFIX, (name,)
        linked = children.get(int(record["id"]), [])
        printings = tuple(str(r["id"]) for r in [record] + linked)
        aliases = tuple(dict.fromkeys([*own, *(r["name"].strip() for r in linked if r["name"].strip() != name)]))
        regions, printing_regions = _regions([record] + linked)
        printing_names = {str(r["id"]): r["name"].strip() for r in linked if r["name"].strip() != record["name"].strip()}
        printing_types = {str(r["id"]): own for r in linked if (own := _bits(int(r.get("type") or 0), TYPE_BITS)) != kinds}
        level = int(record.get("level") or 0) & 0xFF
        cards.append(
            Card(
                name=name,
                game=GAME,
                types=kinds,
                subtypes=_bits(int(record.get("race") or 0), RACE_BITS) if "monster" in kinds else frozenset(),
                attributes=_bits(int(record.get("attribute") or 0), ATTRIBUTE_BITS) if "monster" in kinds else frozenset(),
                keywords={"level": level} if "monster" in kinds and level else {},
                printings=printings,
                aliases=aliases,
                regions=regions,
                printing_regions=printing_regions,
                printing_names=printing_names,
                printing_types=printing_types,
            )
        )
    return cards, warnings


def _regions(records: list[dict]) -> tuple[frozenset[str] | None, dict[str, frozenset[str]]]:
    """The card's regions (its printings' together) and the printings released elsewhere than
    that. A record without ``ot`` (stored by a forcecheck that did not read it) knows none:
    None, so a card pool asks for a new import instead of guessing."""
    if any(r.get("ot") is None for r in records):
        return None, {}
    each = {str(r["id"]): _bits(_int(r["ot"]), REGION_BITS) for r in records}
    together = frozenset().union(*each.values())
    return together, {code: found for code, found in each.items() if found != together}


def _int(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0
