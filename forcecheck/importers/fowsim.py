"""Force of Will card data in the fowsim / forceofwind.online JSON shape.

Accepts ``{"fow": {"clusters": [{"sets": [{"cards": [...]}]}]}}`` and flat lists of the same
records. What the source does and how it becomes facts (see ``../shared/README.md``):

* ``type`` is a list (``["Chant", "Rune", "Master Rune"]``) or an old single string
  (``"Spell:Chant-Instant"``, ``"Resonator (Stranger)"``, ``"Chant/Rune"``).
* Ruler and J-ruler faces are separate records (id suffix ``J``); other faces of double-sided
  cards end in ``^`` (or ``B``). They are joined into one card (CR 404.8: while deckbuilding a
  card has the information of both sides).
* One name is one card: all printings of a name merge; malformed printings (a cost like
  ``{R}d[]``) give a warning and a well-formed printing of the name is preferred.
* Deckbuilding keywords are read from ability text: ``[Stranger] 10``, ``[Grimoire] (5)``,
  ``[Divinity] 10``, "any number of copies", "up to twelve copies", the singleton ruler text,
  and a magic stone's ``Produce {R}`` will symbols; a ruler's other deckbuilding text becomes
  ``conditions`` (``fow_conditions``).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from forcecheck.cards.costs import (
    ATTRIBUTE_SYMBOLS,
    CostError,
    canonical_cost,
    total_cost,
)
from forcecheck.cards.model import Card, Face
from forcecheck.importers import ImportWarning, fow_conditions
from forcecheck.records import replace

GAME = "fow"

_FACE_SUFFIX = re.compile(r"(?:J\^|J|\^|B|\*)$")
_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fifteen": 15, "twenty": 20,
}
_KEYWORD_NUMBER = {
    "stranger": re.compile(r"\[Stranger\]\s*\(?(\d+)\)?", re.IGNORECASE),
    "grimoire": re.compile(r"\[Grimoire\]\s*\(?(\d+)\)?", re.IGNORECASE),
    "divinity": re.compile(r"\[Divinity\]\s*\(?(\d+|Inf)?\)?", re.IGNORECASE),
}
_ANY_COPIES = re.compile(r"you may have any number of copies of this card", re.IGNORECASE)
_UP_TO_COPIES = re.compile(r"you may have up to (\w+) copies of this card", re.IGNORECASE)
_SINGLETON = re.compile(
    r"you (?:may not|cannot) have more than one copy of any card in your (?:main )?deck", re.IGNORECASE
)
_PRODUCE = re.compile(r"Produce\s+((?:\{[A-Za-z0-9]\}\s*(?:or|and|,)?\s*)+)", re.IGNORECASE)
_WILL_SYMBOL = re.compile(r"\{([WRUGB])\}")

# Exact type strings of the source to (types, subtypes). Anything else is split and slugged.
_TYPE_WORDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "ruler": (("ruler",), ()),
    "j-ruler": (("j-ruler",), ()),
    "basic ruler": (("ruler", "basic-ruler"), ()),
    "basic j-ruler": (("j-ruler", "basic-ruler"), ()),
    "sub-ruler": (("sub-ruler",), ()),
    "order": (("order",), ()),
    "extension rule": (("extension-rule",), ()),
    "resonator": (("resonator",), ()),
    "chant": (("chant",), ()),
    "spell:chant": (("chant",), ()),
    "spell:chant-instant": (("chant",), ("chant-instant",)),
    "spell:chant-standby": (("chant",), ("chant-standby",)),
    "rune": (("rune",), ()),
    "master rune": (("rune", "master-rune"), ()),
    "addition": (("addition",), ()),
    "regalia": (("regalia",), ()),
    "magic stone": (("magic-stone",), ()),
    "basic magic stone": (("magic-stone", "basic-magic-stone"), ()),
    "special magic stone": (("magic-stone", "special-magic-stone"), ()),
    "true magic stone": (("magic-stone", "special-magic-stone", "true-magic-stone"), ()),
}
_STONE_TYPE = re.compile(r"^(light|fire|water|wind|darkness) magic stone$")
_PAREN_SUBTYPE = re.compile(r"^(.*?)\s*\(([^)]*)\)\s*$")


def slug(text: str) -> str:
    """``"Fairy Tale"`` -> ``"fairy-tale"``: the vocabulary specs use for types and races."""
    return re.sub(r"[^0-9a-z]+", "-", text.strip().lower()).strip("-")


def iter_records(data: Any) -> Iterator[dict]:
    """Card records from either the clustered file or a flat batch (any nesting of lists)."""
    if isinstance(data, dict):
        if "id" in data and "name" in data:
            yield data
            return
        if "fow" in data:
            yield from iter_records(data["fow"])
            return
        for key in ("clusters", "sets", "cards"):
            if key in data:
                yield from iter_records(data[key])
                return
    elif isinstance(data, list):
        for item in data:
            yield from iter_records(item)


def looks_like_fowsim(data: Any) -> bool:
    """True when the JSON has the fowsim shape (so a wrong file is refused, not imported empty)."""
    if isinstance(data, dict) and isinstance(data.get("fow"), dict):
        return isinstance(data["fow"].get("clusters"), list)
    if isinstance(data, list) and data:
        first = next(iter_records(data), None)
        return first is not None and "type" in first
    return False


def parse_types(raw: Any) -> tuple[set[str], set[str]]:
    """Card types and sub-types from the list form or an old single string."""
    items: list[str]
    if raw is None:
        items = []
    elif isinstance(raw, str):
        items = [raw]
    else:
        items = [str(x) for x in raw]
    parts: list[str] = []
    for item in items:
        # "Chant/Rune", "Chant/Master Rune": both types. "Addition:J/Resonator" keeps its slash.
        if "/" in item and ":" not in item:
            parts.extend(p for p in item.split("/") if p.strip())
        else:
            parts.append(item)
    types: set[str] = set()
    subtypes: set[str] = set()
    for part in parts:
        text = part.strip()
        match = _PAREN_SUBTYPE.match(text)
        if match:  # "Resonator (Stranger)", "Regalia (Shift)"
            text = match.group(1)
            subtypes.add(slug(match.group(2)))
        key = re.sub(r"\s*:\s*", ":", text.lower())
        if key in _TYPE_WORDS:
            t, s = _TYPE_WORDS[key]
            types.update(t)
            subtypes.update(s)
        elif _STONE_TYPE.match(key):
            subtypes.add(slug(key))
        elif ":" in key:  # "Addition:Field", "Addition: Resonator"
            head, tail = key.split(":", 1)
            types.add(slug(head))
            subtypes.add(slug(head + "-" + tail))
        elif key:
            types.add(slug(key))
    if "magic-stone" in types and not types & {"basic-magic-stone", "special-magic-stone"}:
        types.add("special-magic-stone")
    return types, subtypes


def parse_attributes(colours: Any) -> set[str]:
    if isinstance(colours, str):
        colours = [colours]
    return {ATTRIBUTE_SYMBOLS[c] for c in colours or () if c in ATTRIBUTE_SYMBOLS}


def _text(record: dict) -> str:
    abilities = record.get("abilities") or []
    if isinstance(abilities, str):
        abilities = [abilities]
    return "\n".join(str(a) for a in abilities)


def parse_keywords(text: str) -> dict[str, int]:
    keywords: dict[str, int] = {}
    for name, pattern in _KEYWORD_NUMBER.items():
        match = pattern.search(text)
        if match:
            value = match.group(1)
            keywords[name] = 0 if not value else (10**6 if value.lower() == "inf" else int(value))
    if _SINGLETON.search(text):
        keywords["singleton"] = 1
    return keywords


def parse_copy_rules(text: str) -> tuple[bool, int | None]:
    if _ANY_COPIES.search(text):
        return True, None
    match = _UP_TO_COPIES.search(text)
    if match:
        word = match.group(1).lower()
        number = int(word) if word.isdigit() else _NUMBER_WORDS.get(word)
        return False, number
    return False, None


def parse_will(text: str) -> set[str]:
    will: set[str] = set()
    for match in _PRODUCE.finditer(text):
        will.update(ATTRIBUTE_SYMBOLS[s] for s in _WILL_SYMBOL.findall(match.group(1)))
    return will


@dataclass
class _Printing:
    """One source record turned into facts, before faces and printings are joined."""

    record_id: str
    name: str
    types: set[str]
    subtypes: set[str]
    attributes: set[str]
    cost: str
    total: int
    cost_ok: bool
    text: str

    def face(self) -> Face:
        return Face(
            name=self.name,
            types=frozenset(self.types),
            subtypes=frozenset(self.subtypes),
            attributes=frozenset(self.attributes),
            cost=self.cost,
            total_cost=self.total,
        )


@dataclass
class _Group:
    """A front record with its other faces, under the base printing id."""

    front: _Printing | None = None
    faces: list[_Printing] = field(default_factory=list)


def _printing(record: dict, warnings: list[ImportWarning]) -> _Printing | None:
    record_id = str(record.get("id") or "?")
    name = record.get("name")
    if not isinstance(name, str) or not name.strip():
        warnings.append(ImportWarning(record_id, "record has no name; skipped"))
        return None
    types, subtypes = parse_types(record.get("type"))
    if not types:
        warnings.append(ImportWarning(record_id, f"record has no card type ({record.get('type')!r})"))
    for race in record.get("race") or []:
        if isinstance(race, str) and race.strip():
            subtypes.add(slug(race))
    raw_cost = record.get("cost")
    try:
        cost = canonical_cost(raw_cost)
        total = total_cost(raw_cost)
        cost_ok = True
        if raw_cost and raw_cost != cost and raw_cost != "0":
            warnings.append(ImportWarning(record_id, f"cost {raw_cost!r} read as {cost!r}"))
    except CostError:
        warnings.append(ImportWarning(record_id, f"malformed cost {raw_cost!r}"))
        cost, total, cost_ok = "", 0, False
    return _Printing(
        record_id=record_id,
        name=name.strip(),
        types=types,
        subtypes=subtypes,
        attributes=parse_attributes(record.get("colour")),
        cost=cost,
        total=total,
        cost_ok=cost_ok,
        text=_text(record),
    )


def convert(records: Iterable[dict]) -> tuple[list[Card], list[ImportWarning]]:
    """Join faces and printings of fowsim records into one ``Card`` per name."""
    warnings: list[ImportWarning] = []
    groups: dict[str, _Group] = defaultdict(_Group)
    order: list[str] = []
    for record in records:
        if not isinstance(record, dict):
            warnings.append(ImportWarning("?", "record is not an object; skipped"))
            continue
        printing = _printing(record, warnings)
        if printing is None:
            continue
        record_id = printing.record_id
        base = _FACE_SUFFIX.sub("", record_id)
        group = groups[base]
        if base not in order:
            order.append(base)
        if base != record_id or group.front is not None:
            group.faces.append(printing)
        else:
            group.front = printing

    by_name: dict[str, list[tuple[str, _Group]]] = defaultdict(list)
    for base in order:
        group = groups[base]
        if group.front is None:  # a face whose front record is missing: it stands alone
            group.front, group.faces = group.faces[0], group.faces[1:]
        by_name[group.front.name].append((base, group))

    cards = [_card(name, printings, warnings) for name, printings in by_name.items()]
    return cards, warnings


def _card(name: str, printings: list[tuple[str, _Group]], warnings: list[ImportWarning]) -> Card:
    # Prefer a printing whose every face has a well-formed cost (Dark Prominence: ADW-080).
    def quality(item: tuple[str, _Group]) -> tuple[int, int]:
        group = item[1]
        ok = group.front.cost_ok and all(f.cost_ok for f in group.faces)
        return (0 if ok else 1, 0 if group.front.text.strip() else 1)

    best_base, best = min(printings, key=quality)
    if not best.front.cost_ok:
        warnings.append(ImportWarning(best_base, f"no well-formed cost for {name!r}; total cost taken as 0"))
    front = best.front
    other = [f for f in best.faces if f.name != front.name or f.types != front.types]
    faces = tuple(f.face() for f in other)
    split = _is_alternative(front, other)
    # CR 404.8: while deckbuilding a card has the information of all its sides; an Alternative
    # card outside the chase and field has both halves' characteristics, types too (1307.5).
    attributes = set(front.attributes)
    subtypes = set(front.subtypes)
    types = set(front.types)
    for face in other:
        attributes |= face.attributes
        subtypes |= face.subtypes
        if split:
            types |= face.types
    text = "\n".join([front.text] + [f.text for f in best.faces])
    all_text = "\n".join(
        t for _b, g in printings for t in [g.front.text] + [f.text for f in g.faces]
    )
    keywords = parse_keywords(text) or parse_keywords(all_text)
    derived = fow_conditions.derive(name, types | {t for f in other for t in f.types}, text)
    keywords.update(derived.keywords)
    unlimited, limit = parse_copy_rules(text)
    if not unlimited and limit is None:
        unlimited, limit = parse_copy_rules(all_text)
    will = _will(front, printings)
    codes: list[str] = []
    for _base, group in printings:
        for p in [group.front] + group.faces:
            if p.record_id not in codes:
                codes.append(p.record_id)
    if split:
        name = _ALTERNATIVE_TAG.sub("", name)
        faces = tuple(replace(f, name=_ALTERNATIVE_TAG.sub("", f.name)) for f in faces)
    aliases = tuple(dict.fromkeys(f.name for f in faces if f.name != name))
    return Card(
        name=name,
        game=GAME,
        types=frozenset(types),
        subtypes=frozenset(subtypes),
        attributes=frozenset(attributes),
        cost=front.cost,
        total_cost=front.total,
        faces=faces,
        keywords=keywords,
        copy_limit=limit,
        unlimited_copies=unlimited,
        will=frozenset(will),
        conditions=tuple(derived.conditions),
        unchecked=tuple(derived.unchecked),
        printings=tuple(codes),
        aliases=aliases,
        split=split,
    )


_ALTERNATIVE_TAG = re.compile(r"\s*\[Alternative\]\s*$", re.IGNORECASE)


def _is_alternative(front: _Printing, faces: list[_Printing]) -> bool:
    """An Alternative card (CR 1307), as the source marks it: a half named ``... [Alternative]``.

    The source files other faces of double-sided cards and second halves of Alternative cards
    alike under ``^``; only the tag tells them apart. Untagged pairs count as double-faced, which
    is also the reading under which the official ABC 2023 decks keep the ABC cost curve."""
    return len(faces) == 1 and any(_ALTERNATIVE_TAG.search(p.name) for p in (front, faces[0]))


def _will(front: _Printing, printings: list[tuple[str, _Group]]) -> set[str]:
    """Will a magic stone produces: a basic stone's by its stone type, a special one's by its text."""
    if "magic-stone" not in front.types:
        return set()
    if "basic-magic-stone" in front.types:
        return {s.removesuffix("-magic-stone") for s in front.subtypes if s.endswith("-magic-stone")}
    # Printings may disagree (data errors); the most common non-empty reading wins.
    readings = Counter(
        frozenset(parse_will(group.front.text)) for _b, group in printings if parse_will(group.front.text)
    )
    return set(readings.most_common(1)[0][0]) if readings else set()


def read_source(path) -> list[dict]:
    """Card records of a fowsim JSON file; an unusable file raises a one-line ImportSourceError."""
    import json

    from forcecheck.importers import ImportSourceError
    from forcecheck.textfile import read_bytes

    data_bytes = read_bytes(path, max_bytes=512 * 1024 * 1024)
    if not data_bytes.strip():
        raise ImportSourceError("empty file, no card records", path)
    try:
        data = json.loads(data_bytes)
    except UnicodeDecodeError as exc:
        raise ImportSourceError(f"not JSON text ({exc.reason})", path) from None
    except json.JSONDecodeError as exc:
        raise ImportSourceError(f"not JSON: {exc.msg} (column {exc.colno})", path, exc.lineno) from None
    except RecursionError:  # "[[[[..." deeper than the parser goes
        raise ImportSourceError("not fowsim card data (JSON nested too deeply)", path) from None
    if not looks_like_fowsim(data):
        raise ImportSourceError(
            'not fowsim card data: expected {"fow": {"clusters": [{"sets": [{"cards": [...]}]}]}} or a list of card records',
            path,
        )
    records = list(iter_records(data))
    if not records:
        raise ImportSourceError("no card records in the file", path)
    return records
