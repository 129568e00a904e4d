"""One line of a published decklist: what it is (a card, a header, a total, metadata) and,
for a card line, its count, name, printing code and the other ways it could be read.

Players write counts in every position (``4 Name``, ``4x Name``, ``3 x Name``, ``x4 – Name``,
``Name x4``, ``Name ×４``, ``Name 2枚``, ``Name (x3)``, ``3《Name》``), printing codes anywhere
(``SDAO1-033 Name``, ``Name [SET-001] x2``, ``Name (SDAO1-033)``), both faces of a ruler on
one line (``Ruler // J-ruler``) and, in tables flattened by a web page, several cards on one
line. This module turns such a line into an Entry whose ``alternatives`` hold every other
plausible reading; the catalog, later, says which one names real cards. Nothing here knows
any card.

Why one module of this size: the readings of one card line are weighed against each other
(a count, a printing code, a face, a note, a collapsed list), so they are kept side by side.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from forcecheck.decklists.model import Entry, HeaderTable, fold_width, header_key, header_parts
from forcecheck.decklists.readings import Reading, ReadingKind
from forcecheck.lazyre import lazy
from forcecheck.memo import BoundedMemo, IdentityMemo

MAX_COUNT = 9_999
MAX_LINE_CHARS = 500

_CODE = r"[A-Za-z][A-Za-z0-9]*-[A-Za-z]{0,3}\d{1,4}[A-Za-z]{0,2}\^?\*?|\d{5,10}"
"""A printing code (``SDAO1-033``, ``TST-067J``, ``PofA-038``, ``MP01-079``) or a passcode."""
_CODE_IN_BRACKETS = lazy(rf"\s*[\(\[]\s*(?P<code>{_CODE})\s*[\)\]]")
_CODE_FIRST = lazy(r"^(?P<code>[A-Za-z][A-Za-z0-9]*-[A-Za-z]{0,3}\d{1,4}[A-Za-z]{0,2}\^?\*?)\s+(?=\S)")
"""A printing code before the name (``SDAO1-033 Name``); a number first is a count, never a passcode."""

_COUNT_FIRST = lazy(
    r"^(?P<count>[+-]?\d+(?:[.,/]\d+)?)(?:\s*[xX×*]\s+|\s*(?:pcs?\.?|copies)\s+(?:of\s+)?|\s*[xX×*]?\s+)(?:[-–—:.]\s+)?(?P<name>\S.*)$"
    r"|^(?P<count2>[+-]?\d+)[xX×](?P<name2>\S.*)$"
    r"|^(?P<count3>\d+)\s*(?=[《「『【\[])(?P<name3>\S.*)$"
    r"|^(?P<count4>\d{1,4})\s*(?:[:.)]|-(?!\d))\s*(?P<name4>(?:[^\s\d]|\d+[^\d\s:.,]).*)$"
    r"|^\((?P<count5>\d{1,2})\)\s*(?P<name5>\S.*)$"
)
"""``4 Name``, ``4x Name``, ``3 x Name``, ``4xName``, ``2 – Name``, ``3《Name》``, ``4pcs Name``,
``4: Name``, ``4) Name``, ``4. Name``, ``4- Name``, ``3:名``, ``(4) Name``."""
_PLAIN_NUMBER_FIRST = lazy(r"^\d{1,2}(?: +|[-:.)] *)[^\sxX×*\d]")
"""``7 Colored Fish``, ``4-Starred Ladybug of Doom``: a number before the name, which may be part of the name."""
_RANGE_FIRST = lazy(r"^(?P<count>\d{1,3}\s*[-–~〜]\s*\d{1,3})\s*[xX×]?\s+(?P<name>\S.*)$")
_X_FIRST = lazy(r"^[xX×*]\s*(?P<count>\d+)\s*(?:[-–—:.]\s*)?(?P<name>\S.*)$")
"""``x4 – Name``, ``x 2 – Name``, ``×3 Name``."""
_COUNT_LAST = lazy(
    r"^(?P<name>.*?\S)(?:\s+[xX]|\s*[×*])\s*(?P<count>\d+)\s*枚?\s*(?P<note>\(.*\))?$"
    r"|^(?P<name2>.*?\S)\s*[\(\[]\s*[xX×]\s*(?P<count2>\d+)\s*[\)\]]$"
    r"|^(?P<name3>.*?\S)\s*(?P<count3>\d+)\s*枚$"
    r"|^(?P<name4>.*?\S)\s+\((?P<count4>\d{1,2})\)$"
    r"|^(?P<name5>.*?\S)\s+[xX×]\s*(?P<count5>\d+)\s+[-–—]\s.*$"
    r"|^(?P<name6>.*?\S)(?:\s+[-–—]|\s*:)\s*(?P<count6>\d{1,2})$"
    r"|^(?P<name7>.*?\S)\s*\[\s*(?P<count7>\d{1,2})\s*\]$"
)
"""``Name x4``, ``Name ×４``, ``Name*3``, ``Name ×2枚``, ``Name (x3)``, ``Name 2枚``, ``Name (4)``,
``Name - 3``, ``Name: 3``, ``名：3``, ``Name [4]``."""
_BARE_NUMBER_LAST = lazy(r"^(?P<name>.*?\S)\s+(?P<count>\d{1,2})$|^(?P<name2>.*[^\x00-\x7f])(?P<count2>\d{1,2})$")
"""``Name 3`` (or ``名前3`` in Japanese): a count, unless the number is part of the name."""
_TABLE_JUNK = lazy(r"\.(?:png|jpe?g|gif|webp)\b|\b(?:common|uncommon|rare|super rare|secret rare|ultra rare|promo)\s*$",
                         re.IGNORECASE)
_GLUED_COUNT = lazy(r"[^\W\d_](\d{1,2}[xX×]\s+\S.*)$")
_SPLIT_COUNTS = lazy(r"(?:^|\s)(?=(?:\d{1,2}\s*[xX×]?|[xX×]\s*\d{1,2})\s+\S)")
"""Where a flattened table row starts another ``N Name`` cell."""
_SPLIT_COUNTS_FIRST = lazy(r"(?:^|\s)(?=\d{1,2}\s*[xX×]?\s+\S)")
"""The same, for a row whose first cell starts with its count: an ``X`` before a number is then
the end of a name (``2 Salamangreat Zebroid X 1 Phantasmal Lord``), not an ``x1`` count."""
_NOTE = lazy(r"\s*(?:\((?![xX×]?\s*\d+\s*\))[^()]*\)|（(?![xX×]?\s*\d+\s*）)[^（）]*）|\{[^{}]*\})\s*$")
"""A trailing remark in brackets (``(制限)``, ``(Strictly better than X)``) or cost symbols."""
_COST_FIRST = lazy(r"^\(\s*\d{1,2}\s*\)\s*(?=\S)")
_LABEL_FIRST = lazy(r"^[A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z-]*){0,2}\s+[\u2013\u2014]\s+(\S.*)$")
"""One to three words and an en or em dash before the name (a type label: ``ADDITION – Name``).
The ASCII `` - `` is left alone: it is part of names (``Blackwing - Gale the Whirlwind``)."""
_ANY_NOTE = lazy(r"\s*(?:\([^()]*\)|（[^（）]*）|\{[^{}]*\})\s*$")
_WRAPPERS = lazy(r"^[《「『](.*)[》」』]$")
_TABLE_EDGE = lazy(r"\s*\|\s*$")
_FACE_SPLIT = lazy(r"\s*(?://|／／)\s*|\s+/\s*|(?<=\S)/(?=\S)|(?<=\S)/\s+")


_TRAILING_ANNOTATION = lazy(
    r"\s*(?:[-–—@:]\s*|\s)(?:[$€£¥]\s?\d{1,5}(?:[.,]\d{1,2})?(?:\s*(?:ea\.?|each|apiece|/ea))?"
    r"|\d{1,5}(?:[.,]\d{1,2})?\s*(?:円|yen|USD|EUR)"
    r"|(?P<code>[A-Za-z][A-Za-z0-9]{1,5}-[A-Za-z]{0,3}[0-9?]{2,4}[A-Za-z]{0,2})\??)\s*$"
    r"|\s*(?P<em>[*_]{1,2})?(?:\((?!\s*[xX×]?\s*\d+\s*[xX×]?\s*\))[^()]*\)|（(?!\s*[xX×]?\s*\d+\s*[xX×]?\s*）)[^（）]*）)"
    r"(?(em)[*_]{1,2})\s*$")
"""What a shop's or a report's list writes after a card's name: a price (``- $2.49 ea``, ``300円``),
a set code after a dash, even one written half (``- PSV-???``, ``- DCR-001?``), a rarity or a
remark in brackets (``(Super Rare)``, ``(forgot, sorry)``, Markdown's ``*(Super Rare)*``); never a
count in brackets (``Name (x2) - $2.49 ea`` keeps its ``(x2)``)."""


def without_annotations(name: str) -> tuple[str, str | None] | None:
    """``Zombie Master (Super Rare) - $2.49 ea`` -> ``("Zombie Master", None)``; ``Name - IOC-000
    (Secret Rare)`` -> ``("Name", "IOC-000")``: the name without what follows it, and the set code
    taken off (the resolver checks it names no other card). None when nothing is taken off or
    nothing is left, or no price or code was there (brackets alone are ``strip_notes``'s)."""
    text, code, priced = name, None, False
    while True:
        match = _TRAILING_ANNOTATION.search(text)
        if match is None or match.start() == 0:
            break
        piece = match.group(0)
        if match.group("code"):
            code = code or match.group("code")
        elif not piece.strip().lstrip("*_").startswith(("(", "（")):
            priced = True
        text = text[: match.start()].rstrip(" -–—@:")
    if text == name or not text or not (priced or code):
        return None
    return text, (code if code and "?" not in code else None)


def strip_notes(name: str) -> str:
    """``Dorothy {G} (1)`` -> ``Dorothy``: every trailing remark or cost, or the name itself if
    nothing else is left."""
    previous = None
    text = name
    while text != previous:
        previous = text
        text = _ANY_NOTE.sub("", text).strip()
    return text or name


def _count(text: str) -> tuple[int, bool]:
    if len(text.lstrip("+-").lstrip("0")) > 6:  # a count of thousands of digits is no count (and int() of it may refuse)
        return 0, False
    try:
        count = int(text)
    except ValueError:  # "4.5", "1,000": a count, but not a whole number
        return 0, False
    return count, 0 < count <= MAX_COUNT


def _strip_name(name: str) -> str:
    name = _TABLE_EDGE.sub("", name).strip()
    wrapped = _WRAPPERS.match(name)
    if wrapped:
        name = wrapped.group(1).strip()
    return name


_CODE_AFTER_DASH = lazy(r"\s+[-–—]\s+(?P<code>[A-Za-z][A-Za-z0-9]*-[A-Za-z]{0,3}\d{1,4}[A-Za-z]{0,2})\s*$")
"""``Mirror Force - LOB-001``: a set code after a dash at the end of the line (a shop's or a wiki's list)."""
_SQUARE_COUNT_FIRST = lazy(r"^\[\s*\d{1,3}\s*\](?=\s*\S)")
"""``[3] Name``: a count in square brackets first (a forum's or shop's list)."""


def _printing_of(name: str) -> tuple[str, str | None]:
    """``(name without its printing code, code)``: a bracketed code anywhere, a code first, or
    a set code after a dash at the end."""
    match = _CODE_FIRST.match(name)
    if match:
        return name[match.end():].strip(), match.group("code")
    dashed = _CODE_AFTER_DASH.search(name) if "-" in name or "–" in name or "—" in name else None
    if dashed and dashed.start() > 0:
        return name[: dashed.start()].strip(), dashed.group("code")
    codes = list(_CODE_IN_BRACKETS.finditer(name))
    if len(codes) > 1 and _FACE_SPLIT.search(name):
        return name, None  # "Faria (SDAO1-026) // Melgis (SDAO1-028)": each face has its code, the line has none
    if codes and codes[-1].start() > 0:
        code = codes[-1]
        return (name[: code.start()] + name[code.end():]).strip(), code.group("code")
    return name, None


_COUNT_FORMS = (
    (_COUNT_FIRST, (("count", "name"), ("count2", "name2"), ("count3", "name3"), ("count4", "name4"), ("count5", "name5"))),
    (_X_FIRST, (("count", "name"),)),
    (_COUNT_LAST, (("count", "name"), ("count2", "name2"), ("count3", "name3"), ("count4", "name4"), ("count5", "name5"),
                   ("count6", "name6"), ("count7", "name7"))),
)
BRACKETED_FIRST = "count5"
"""The form group of ``(4) Name``: a count in brackets before the name, where cost may be meant."""


def _count_and_name(folded: str) -> tuple[str, int, int, str] | None:
    """``(count as written, start, end of the name, the form's group)`` in a width-folded line,
    for the first count form that fits (count first, ``x4`` first, count last), or None."""
    for pattern, groups in _COUNT_FORMS:
        match = pattern.match(folded)
        if match:
            for count_group, name_group in groups:
                if match.group(count_group) is not None:
                    if pattern is _COUNT_FIRST and count_group == BRACKETED_FIRST and _COUNT_LAST.match(folded):
                        break  # "(2) Viviane x2": the count follows the name, the number in brackets is its cost
                    if pattern is _COUNT_FIRST and count_group == "count4" and _COUNT_LAST.match(folded):
                        break  # "8-Claws Scorpion x3", "... 3枚": the count is written after, the number before is the name's
                    if pattern is _COUNT_LAST and folded[: match.end(name_group)].rstrip().endswith((":", "：", "-", "–", "—")):
                        return None  # "1st Place: x1 – Name", "Winner - x3 – Name": a label, then a card line
                    return match.group(count_group), match.start(name_group), match.end(name_group), count_group
            else:
                return None
    return None


def parse_entry(text: str, line: int | None) -> Entry:
    """One card line into an Entry (count, name, printing), with its other readings; a bad
    count is kept and flagged, never dropped."""
    if text.count("|") >= 2:
        row = _pipe_row(text, line)
        if row is not None:
            return row
    folded = fold_width(text).strip()
    raw = text.strip()
    if folded.startswith("[") and len(folded) == len(raw):
        square = _SQUARE_COUNT_FIRST.match(folded)
        if square:  # "[3] Name": the count without its brackets, every character in its place
            plain = " " + folded[1: square.end() - 1] + " "
            folded, raw = plain + folded[square.end():], plain + raw[square.end():]
            folded, raw = folded.strip(), raw.strip()
    code_first = _CODE_FIRST.match(folded)
    if code_first:  # "SDAO1-033 4 Attoractia's Memoria": the printing code before the count
        folded, raw = folded[code_first.end():], raw[code_first.end():]
    count_text: str | None = None
    name = raw
    number_may_be_name = bool(_PLAIN_NUMBER_FIRST.match(folded))
    note_free: str | None = None
    bare: tuple[str, str] | None = None
    ranged = _RANGE_FIRST.match(folded)
    if ranged:  # "2-3 Name": a brewer's range is no count
        name, printing = _printing_of(_strip_name(raw[ranged.start("name"):]))
        return Entry(name=name, count=0, line=line, printing=printing, count_ok=False, count_text=ranged.group("count"))
    found = _count_and_name(folded)
    count_last: tuple[str, str] | None = None
    bracketed = False
    if found is not None:
        count_text, start, end, form = found
        name = raw[start:end]
        count_last = (form, raw) if start == 0 and name else None
        bracketed = form == BRACKETED_FIRST and start > 0
    if count_text is None:
        match = _BARE_NUMBER_LAST.match(folded)
        if match:  # "墓守の司令官 3": a count after the name, unless the number is part of it
            key = "" if match.group("count") is not None else "2"
            bare = (raw, "")
            count_text = match.group("count" + key)
            name = raw[match.start("name" + key): match.end("name" + key)]
            count_last = ("bare", raw)
    name = _strip_name(name)
    name, printing = _printing_of(name)
    if printing is None and code_first:
        printing = code_first.group("code")
    if _NOTE.search(name):
        stripped = strip_notes(name)
        if stripped != name:
            note_free = _strip_name(stripped)
    if count_text is None:
        count, ok = 1, True
    else:
        count, ok = _count(count_text)
    entry = Entry(name=name, count=count, line=line, printing=printing, count_ok=ok, count_text=count_text, count_last=count_last,
                  bracketed=bracketed)
    entry.alternatives = partial(_alternatives, entry, raw, folded, note_free, bare, number_may_be_name)  # worked out if asked for
    return entry


_COUNT_CELL = lazy(r"^[xX×]?\s*(\d{1,4})\s*[xX×]?$")


def _pipe_row(text: str, line: int | None) -> Entry | None:
    """A Markdown or wiki table row (``| 4 | Blessed Holy Wolf | Resonator | Common |``): the
    count cell and the first other cell as the name; the other cells are other readings."""
    cells = [cell.strip() for cell in fold_width(text).strip().strip("|").split("|")]
    raw_cells = [cell.strip() for cell in text.strip().strip("|").split("|")]
    counts = [i for i, cell in enumerate(cells) if _COUNT_CELL.match(cell)]
    names = [raw_cells[i] for i, cell in enumerate(cells) if cell and i not in counts[:1] and not _CODE_ALONE.match(cell)]
    codes = [raw_cells[i] for i, cell in enumerate(cells) if _CODE_ALONE.match(cell)]
    if not names:
        return None
    count_text = _COUNT_CELL.match(cells[counts[0]]).group(1) if counts else None
    count, ok = _count(count_text) if count_text else (1, True)
    entry = Entry(name=_strip_name(names[0]), count=count, line=line, printing=codes[0] if codes else None, count_ok=ok,
                  count_text=count_text)
    entry.alternatives = tuple(_reading(_strip_name(other), entry.printing, count, count_text, ok, ReadingKind.TABLE_CELL)
                               for other in names[1:4])
    return entry


_CODE_ALONE = lazy(rf"^(?:{_CODE})$")


_GLUED_TAG = lazy(r"(?<=\S)\[/[A-Za-z]{1,20}\]|^\[[A-Za-z]{1,20}(?:=[^\]]*)?\](?=\S)")
"""A forum tag glued to a name's end (closing) or start (opening): markup, never part of a name."""
_FACE_COUNT = lazy(r"^(\d{1,4})\s*[xX×]?\s+(?=\S)")
"""``1 B`` after ``1 A //``: the part after the slashes is a card line of its own, with its count."""


def _face_with_code(raw: str, printing: str | None, faces: int) -> int | None:
    """Which of a line's faces its printing code was written beside (``1 A (CODE) // B``: the
    first), or None when the code is beside none of them alone: the code names that part only,
    so the other part is read as a card of its own, never as the coded card again."""
    if not printing:
        return None
    pieces = _FACE_SPLIT.split(raw)
    if len(pieces) != faces:
        return None
    found = [at for at, piece in enumerate(pieces) if printing.casefold() in piece.casefold()]
    return found[0] if len(found) == 1 else None


_BRACKETED_COUNT = lazy(r"\s*[(（]\s*[xX×]?\s*(?P<n>\d{1,4})\s*[)）]\s*$")


def _remarks_before_count(entry: Entry) -> Reading | None:
    """``Book of Moon (4) (Rare)``: the remark taken off, the count in brackets before it kept (the
    line's only count; taking every bracket off read one copy, a false legal)."""
    kept, previous = entry.name, None
    while kept != previous:
        previous = kept
        kept = _NOTE.sub("", kept).strip()
    match = _BRACKETED_COUNT.search(kept)
    if match is None or match.start() == 0:
        return None
    count, ok = _count(match.group("n"))
    return _reading(_strip_name(kept[: match.start()]), entry.printing, count, match.group("n"), ok, ReadingKind.REMARK_IN_BRACKETS)


def _reading(name: str, printing: str | None, count: int, count_text: str | None, ok: bool, kind: ReadingKind) -> Reading:
    return Reading((Entry(name, count, None, printing, ok, count_text),), kind)


def _alternatives(entry: Entry, raw: str, folded: str, note_free: str | None, bare: tuple[str, str] | None,
                  number_may_be_name: bool) -> tuple[Reading, ...]:
    """Other readings of the line, most likely first."""
    out: list[Reading] = []
    args = (entry.count, entry.count_text, entry.count_ok)
    if note_free:
        counted = _remarks_before_count(entry) if entry.count_text is None else None
        out.append(counted or _reading(note_free, entry.printing, *args, ReadingKind.REMARK_IN_BRACKETS))
    if "$" in entry.name or "-" in entry.name or "–" in entry.name or "円" in entry.name or "€" in entry.name or "£" in entry.name:
        annotated = without_annotations(entry.name)
        if annotated is not None:  # "Mezuki (Rare) - $1.25 ea", "Fiber Jar - PSV-??? (forgot, sorry)"
            plain, code = annotated
            out.append(_reading(_strip_name(plain), code or entry.printing, *args, ReadingKind.ANNOTATIONS_AFTER))
    if "[" in entry.name:
        untagged = _strip_name(_GLUED_TAG.sub(" ", entry.name))
        if untagged and untagged != entry.name:  # "Torrential Tribute[/ccDeck]" with no "[ccDeck]" on the page
            out.append(_reading(untagged, entry.printing, *args, ReadingKind.MARKUP_GLUED))
    cost = _COST_FIRST.match(entry.name)
    if cost:  # "(3) Reunion of Sisters": the card's cost before its name
        out.append(_reading(_strip_name(entry.name[cost.end():]), entry.printing, *args, ReadingKind.COST_FIRST))
    label = _LABEL_FIRST.match(entry.name[cost.end():] if cost else entry.name)
    if label:  # "(3) ADDITION – Zero's Circle of Protection": the card's type as a label, then a dash
        out.append(_reading(_strip_name(label.group(1)), entry.printing, *args, ReadingKind.LABEL_FIRST))
    faces = _FACE_SPLIT.split(note_free or entry.name)
    if 1 < len(faces) <= 3 and all(faces):
        coded = _face_with_code(raw, entry.printing, len(faces))
        parts = []
        for at, face in enumerate(faces):
            name, printing = _printing_of(_strip_name(face))
            count, count_text, ok = entry.count, entry.count_text, entry.count_ok
            counted = _FACE_COUNT.match(name) if at else None
            if counted:  # "1 A // 1 B": each face a card line with its own count
                name, count_text = name[counted.end():], counted.group(1)
                count, ok = _count(count_text)
            parts.append(Entry(name, count, None, printing or (entry.printing if coded in (None, at) else None), ok, count_text))
        out.append(Reading(tuple(parts), ReadingKind.FACES))
        if "//" in entry.name and coded in (None, 0) and not _FACE_COUNT.match(faces[1]):
            # "Name // my remark"; never a card line ("// 1 Name") nor the face a code was written beside
            first = _printing_of(_strip_name(entry.name.split("//", 1)[0]))
            out.append(_reading(first[0], first[1] or entry.printing, *args, ReadingKind.REMARK_AFTER_SLASHES))
    if bare is not None:  # the whole line as one name, the number part of it
        name, printing = _printing_of(_strip_name(bare[0]))
        out.append(_reading(name, printing, 1, None, True, ReadingKind.NUMBER_AT_END_IN_NAME))
    if number_may_be_name and entry.count_text is not None:
        # "7 Colored Fish": the number may be part of the name
        out.append(_reading(_strip_name(raw), None, 1, None, True, ReadingKind.NUMBER_FIRST_IN_NAME))
    cells = split_cells(raw, folded)
    if cells:
        out.append(Reading(cells, ReadingKind.TABLE_ROW, f"a table row of {len(cells)} cards"))
    if _TABLE_JUNK.search(entry.name):  # "Blessed Holy Wolf Resonator Light L.png Common": a flattened wiki row
        words = entry.name.split()
        for cut in range(len(words) - 1, 0, -1):
            out.append(_reading(" ".join(words[:cut]), entry.printing, *args, ReadingKind.ROW_REST))
    titled = _TITLE_BEFORE_CARD.match(folded) if entry.count_text is None or bare is not None else None
    if titled:  # "Top 8: 1 Junk Synchron": a card line after a title-like label is a card line
        card = parse_entry_simple(raw[titled.start("rest"):])
        if card.count_text is not None:
            out.append(_reading(card.name, card.printing, card.count, card.count_text, card.count_ok,
                                ReadingKind.TITLE_BEFORE_CARD))
    glued = _GLUED_COUNT.search(folded)
    if glued:  # "Acolyte of the Abyss4x Nyarlathotep": an image caption glued before the card's count
        tail = parse_entry_simple(raw[glued.start(1):])
        out.append(_reading(tail.name, tail.printing, tail.count, tail.count_text, tail.count_ok,
                            ReadingKind.GLUED_REMARK))
    return tuple(out)


_TITLE_BEFORE_CARD = lazy(r"^(?P<head>[^:：]{1,60}?)\s*(?:[:：]|\s[-–—]\s)\s*(?P<rest>(?:\d|[xX×]\s*\d|\(\d).*)$")
"""``Top 8: 1 Junk Synchron``, ``1st Place - 1 Magical Dragon``: a label, then a card line with its count."""

def with_title_in_name(entry: Entry, title: str) -> Entry:
    """The card a header carries inline (``Ruler: Faria``), with one more reading: the header's
    title as the start of the card's name (every ABC ruler's name begins ``Arcana:``, an ABC
    section title: ``Arcana: Leader of the Kabuki x1`` is that card, once)."""
    others = entry._readings  # worked out only if asked for, as parse_entry leaves them

    def readings() -> tuple[Reading, ...]:
        named = Entry(f"{title}: {entry.name}", entry.count, None, entry.printing, entry.count_ok, entry.count_text)
        return (Reading((named,), ReadingKind.TITLE_IN_NAME), *(others() if callable(others) else others))

    entry.alternatives = readings
    return entry


_SUFFIX_CELL_END = lazy(r"(?<=\S)[*×xX]\d{1,2}枚?(?=\s+\S)")


def cell_texts(raw: str) -> list[str] | None:
    """A line of several ``N Name`` cells cut before each count (or of ``Name*3`` cells cut
    after each), or None when it has one."""
    folded = fold_width(raw)
    ends = [m.end() for m in _SUFFIX_CELL_END.finditer(folded)]
    if ends and not _SPLIT_COUNTS.search(folded):
        bounds = [0] + ends + [len(raw)]
        cells = [raw[a:b].strip() for a, b in zip(bounds, bounds[1:])]
        return [cell for cell in cells if cell] if len(cells) > 1 else None
    splitter = _SPLIT_COUNTS_FIRST if folded[:1].isdigit() else _SPLIT_COUNTS
    starts = [m.end() for m in splitter.finditer(folded)]
    if len(starts) < 2:
        return None
    cells = []
    bounds = starts + [len(raw)]
    if starts[0] > 0:  # text before the first count: a cell without one ("Blessing of Athena")
        head = raw[: starts[0]].strip()
        if len(head) < 3 or not any(ch.isalpha() for ch in head) or head.lower() in ("x", "×"):
            return None  # "x 2 – Name" is one card with its count, not a row
        cells.append(head)
    cells.extend(raw[a:b].strip() for a, b in zip(bounds, bounds[1:]))
    return [cell for cell in cells if cell]


def face_names(name: str) -> list[str]:
    """``A // B``, ``A / B``, ``A/B`` -> the names of the faces (``[name]`` when there is one)."""
    faces = [face.strip() for face in _FACE_SPLIT.split(name)]
    return faces if 1 < len(faces) <= 3 and all(faces) else [name]


def split_cells(raw: str, folded: str) -> tuple | None:
    """A flattened table row (``4 Magic Stone of X 3 Guinevere 3 Thunder``) as its cards, or
    None when the line holds one count only."""
    cells = cell_texts(raw)
    if cells is None:
        return None
    merged: list[str] = []
    for cell in (c.strip() for c in cells):
        if not cell:
            continue
        if merged and _NAME_NUMBER_CELL.match(fold_width(cell)):
            merged[-1] = f"{merged[-1]} {cell}"  # "Tricky Spell 4", "Karakuri Shogun mdl 00 "Burei"": the number ends a name
            continue
        merged.append(cell)
    parts = []
    for cell in merged:
        entry = parse_entry_simple(cell)
        if len(entry.name) < 2:
            return None
        parts.append(entry)
    return tuple(parts) if len(parts) > 1 else None


_NAME_NUMBER_CELL = lazy(r"^(?:\d{1,4}|0\d*\s.*)$")
"""A cell that is a number alone, or a count of 0 written with a leading zero (``00 "Burei"``): no
card line of its own, but the end of the name before it."""


def parse_entry_simple(text: str) -> Entry:
    """A cell of a table row: count and name, with no further readings (no recursion)."""
    folded = fold_width(text).strip()
    raw = text.strip()
    found = _count_and_name(folded)
    if found is not None:
        count_text, start, end, _form = found
        count, ok = _count(count_text)
        name, printing = _printing_of(_strip_name(raw[start:end]))
        return Entry(strip_notes(name), count, None, printing, ok, count_text)
    name, printing = _printing_of(_strip_name(raw))
    return Entry(strip_notes(name), 1, None, printing)


# --- lines that are not cards --------------------------------------------------------------

_TOTAL = lazy(
    r"^(?:total\b(?P<what>[^0-9]*?)[:\-–—=]*\s*(?P<n1>\d{1,4})\s*(?:cards?|枚)?"
    r"|(?:合計|計|総数)\s*[:：]?\s*(?P<n2>\d{1,4})\s*枚?"
    r"|(?P<n3>\d{1,4})\s*(?:cards?|枚)(?:\s+(?:in\s+)?total)?)\s*\.?$",
    re.IGNORECASE,
)
_METADATA = lazy(
    r"^(?P<key>player|name|deck ?name|deck title|title|event|tournament|date|author|builder|by|format|"
    r"archetype|placement|place|rank|result|location|store|プレイヤー|使用者|使用デッキ|デッキ名|大会|日付)\s*[:：]\s*(?P<value>\S.*?)\s*$",
    re.IGNORECASE,
)
_METADATA_KEYS = {"deck name": "name", "deckname": "name", "deck title": "name", "title": "name", "builder": "author",
                  "by": "author", "プレイヤー": "player", "使用者": "player", "使用デッキ": "name", "デッキ名": "name", "大会": "event",
                  "日付": "date", "tournament": "event", "placement": "place", "rank": "place", "result": "place"}


_X_BEFORE_COUNT = lazy(r"(?:^|\s)[xX×*]\s*$")
_TOTAL_WORD = lazy(r"[^\W\d_]+")
_TOTAL_WORDS = frozenset({"card", "cards", "count", "in", "the", "of", "for", "main", "deck", "side", "board", "sideboard",
                          "extra", "stone", "stones", "magic", "rune", "runes", "stranger", "ruler", "monsters", "spells",
                          "traps", "number", "all", "amount"})
"""The words a total line may say what it counts with (``Total cards main deck - 40``)."""


_TOTAL_BY_SECTION = lazy(
    r"^total(?:\s+cards?)?\s*[:\-–—=]?\s*(?P<n>\d{1,4})\s+(?P<what>[a-z][a-z ]{0,20}?)\s*"
    r"(?:[,/;]\s*\d{1,4}\s+[a-z][a-z ]{0,20}?\s*){1,4}\.?$", re.IGNORECASE)
"""``Total Cards: 40 main, 5 fusion, 15 side``: a total said per section (the first is checked)."""


_TOTALS_SEPARATOR = lazy(r"\s+[·•|/]\s+|\s*[;,]\s+")
_SECTION_TOTAL = lazy(r"^(?:total\s+)?(?P<title>[^\W\d_](?:[^\W\d_]|\s){0,30}?)(?:\s+total)?\s*[:：=\-–—]\s*(?P<n>\d{1,3})(?:\s+cards?)?$",
                      re.IGNORECASE)


def section_totals(line: str, headers) -> tuple[tuple[int, str], ...] | None:
    """``Main deck total: 40 · Stones: 11 · Side: 12`` -> ((40, "Main deck"), (11, "Stones"),
    (12, "Side")): a line of two or more section totals, each titled by a section the format knows
    (a header's title, never a card line: none writes its count after a colon beside another)."""
    pieces = _TOTALS_SEPARATOR.split(fold_width(line).strip())
    if len(pieces) < 2:
        return None
    totals = []
    for piece in pieces:
        match = _SECTION_TOTAL.match(piece.strip())
        if match is None or header_key(match.group("title")) not in headers.sections:
            return None
        totals.append((int(match.group("n")), match.group("title")))
    return tuple(totals)


def total_of(line: str) -> tuple[int, str | None] | None:
    """``Total: 41`` / ``43 cards total`` / ``Total cards main deck - 40`` -> (41, None) /
    (43, None) / (40, "main deck"); ``Total Cards: 40 main, 5 fusion, 15 side`` -> (40, "main")."""
    folded = fold_width(line).strip()
    match = _TOTAL.match(folded)
    if not match:
        by_section = _TOTAL_BY_SECTION.match(folded) if folded[:5].lower() == "total" else None
        if by_section is not None:
            return int(by_section.group("n")), by_section.group("what").strip()
        return None
    number = match.group("n1") or match.group("n2") or match.group("n3")
    if match.group("n1") and (_X_BEFORE_COUNT.search(match.group("what") or "")
                              or not set(_TOTAL_WORD.findall((match.group("what") or "").lower())) <= _TOTAL_WORDS):
        return None  # "Total Eclipse x3", "Total Eclipse 3枚": a card and its copies, not a total
    what = (match.group("what") or "").strip(" :-–—")
    what = re.sub(r"^cards?\s*(?:in\s+)?(?:the\s+)?", "", what, flags=re.IGNORECASE).strip()
    return int(number), (what or None)


def metadata_of(line: str) -> tuple[str, str] | None:
    """``Player: Jane D.`` -> ("player", "Jane D."); ``Event:``, ``Date:``, ``Deck name:`` too."""
    match = _METADATA.match(fold_width(line).strip())
    if not match:
        return None
    key = match.group("key").lower()
    return _METADATA_KEYS.get(key, key), match.group("value")


# --- a whole list on one line -----------------------------------------------------------

_BBCODE = lazy(r"\[/?(?:deck|decklist|list|b|i|u|s|spoiler|quote|code|center|left|right|size|color|font|url|img|\*)"
               r"(?:=[^\]]*)?\]", re.IGNORECASE)
"""Forum markup (``[deck]...[/deck]``, ``[b]``, ``[list][*]``): decoration around a list, never a card."""
_LIST_SEPARATOR = lazy(r"\s*(?:\||;|,(?=\s*(?:\d{1,2}\s*[:xX×]?\s*\S|[xX×]\s*\d))|(?<=\d),|(?<=[^\d\s]):(?=\d{1,2}\s+[^\W\d]))\s*")
"""Where a list written on one line is cut: at ``|`` and ``;``, and at a comma before or after a
count (a comma inside a name, ``Gawain, the Knight of the Sun``, has neither); at a colon glued to the
next card's count (``1 Debris Dragon:3 Spore``, a forum's deck tag), never between digits (``10:00 AM``
is a time of day, not a count of 10 and a card ``00 AM``)."""
_COUNTED_PIECE = lazy(r"^(?:\d{1,2}\s*(?:[:.)xX×]\s*|\s+)\S|[xX×]\s*\d{1,2}\s+\S)|\S.*?(?:\s*[xX×*]\s*|\s+|\s*[:：]\s*)\d{1,2}$")


def strip_markup(line: str) -> str:
    """A line without forum markup (BBCode tags)."""
    return _BBCODE.sub(" ", line).strip() if "[" in line else line


_CLOSING_TAG = lazy(r"\[/([A-Za-z][A-Za-z0-9]{0,15})\]")


def without_paired_tags(text: str, headers: HeaderTable | None = None) -> str:
    """The text without the forum tags it closes somewhere (``[ccDeck]...[/ccDeck]``, a site's
    own tags that no list of BBCode names): a closing tag is never part of a card's name, and an
    opening tag of the same name is its pair. Each tag becomes a space, so a tag glued to a name
    (``Torrential Tribute[/ccDeck]``) leaves the name, and no line moves; an opening tag whose
    value is a section's title (``[ccDeck="Extra Deck"]``) becomes that header (``Extra Deck:``)."""
    lowered = text.lower()
    names = {name.lower() for name in _CLOSING_TAG.findall(text)}
    names = {name for name in names if f"[{name}]" in lowered or f"[{name}=" in lowered}  # paired: "x[/x]" alone is text
    if not names:
        return text
    pattern = re.compile(r"\[(/?)(?:" + "|".join(sorted(map(re.escape, names))) + r")(?:=([^\]\n]*))?\]", re.IGNORECASE)

    def replaced(match: re.Match) -> str:
        value = (match.group(2) or "").strip().strip("\"'“”").strip()
        if not match.group(1) and value and headers is not None and header_key(value) in headers.sections:
            return f" {value}: "
        return " "

    return pattern.sub(replaced, text)


def list_on_one_line(line: str) -> list[str] | None:
    """A list collapsed onto one line with separators (``2:Name, 3:Name, 1:Name``, ``2 A | 3 B |
    1 C``, a forum post's ``[deck]...[/deck]``): its card lines, or None when the line is not
    such a list (one piece, or a piece without a count)."""
    if not any(mark in line for mark in ("|", ";", ",", ":")):
        return None
    pieces = [piece for piece in _LIST_SEPARATOR.split(line) if piece.strip()]
    if len(pieces) < 2 or not all(_COUNTED_PIECE.match(fold_width(piece).strip()) for piece in pieces):
        return None
    return [piece.strip() for piece in pieces]


# --- prose ------------------------------------------------------------------------------

_PROSE_WORDS = frozenset({
    "i", "i'm", "im", "i've", "i'd", "i'll", "me", "my", "mine", "you", "your", "you're", "we", "our", "us", "he", "his", "him",
    "she", "her", "they", "their", "them", "it's", "its", "is", "are", "was", "were", "be", "been", "being", "am", "have", "has",
    "had", "do", "does", "did", "don't", "doesn't", "didn't", "will", "would", "can", "can't", "could", "should", "this", "that",
    "these", "those", "here", "here's", "there", "there's", "what", "what's", "which", "who", "how", "why", "when", "thanks",
    "thank", "please", "any", "so", "but", "if", "because", "just", "also", "really", "very", "think", "playing", "played",
    "look", "take", "let", "let's", "anyone", "help", "advice", "question", "feel", "free", "comments", "below",
})
"""Words of sentences that card names (nearly) never hold: pronouns, auxiliaries, the words of a
question or a sign-off. ``the``, ``of``, ``and``, ``a``, ``in`` are in card names, so not here."""
_SENTENCE_END = lazy(r"[.!?,;:…。！？、]\s*$|[!?！？]|[。]")
_JAPANESE_SENTENCE = lazy(r"(?:です|ます|でした|ました|ません|だった|ください|思う|思います)[。！!？?]?\s*$")
_WORD = lazy(r"[A-Za-z']+")


_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_FOOTER = lazy(r"^(?:posted|written|edited|submitted|published)\s+(?:by|on|at)\b|^(?:labels?|tags?|share this|permalink|"
              r"newer posts?|older posts?|leave a (?:comment|reply)|\d+\s+(?:comments?|responses?|replies)|reply|quote)\b"
              r"|^\S+(?: \S+)? (?:says|said|wrote|replied):?$"
              r"|^(?:\d{1,2}(?:st|nd|rd|th)?\s+" + _MONTH + r",?|" + _MONTH + r"\s+\d{1,2}(?:st|nd|rd|th)?,?)\s+\d{4}"
              r"(?:,?\s+(?:at\s+)?\d{1,2}[:.]\d{2}(?:\s*[ap]\.?m\.?)?)?$", re.IGNORECASE)
"""A blog's or forum's footer line under a post or a comment (``Posted by Jane at 10:42 PM``,
``3 comments``, ``12 Responses to "..."``, ``Kirik says:``, ``2 May 2015 at 21:10``)."""


def looks_like_prose(text: str) -> bool:
    """Whether a line that names no card and has no count reads as a sentence (``Thanks in
    advance,``, ``Here's what X is playing:``, ``どうでしょうか？``) rather than a card name the
    catalog does not know: at least three words, and a sentence's end or two words of
    sentences; in Japanese, a sentence's end or polite verb ending."""
    text = text.strip()
    if _JAPANESE_SENTENCE.search(text) or _FOOTER.match(text):
        return True
    words = [w.lower().strip("'") for w in _WORD.findall(text.replace("\u2019", "'"))]
    if len(words) < 3:
        from forcecheck.cards.names import has_kana_or_kanji

        return len(text) >= 8 and has_kana_or_kanji(text) and bool(_SENTENCE_END.search(text))
    said = sum(1 for w in words if w in _PROSE_WORDS)
    return said >= 2 or (said >= 1 and bool(_SENTENCE_END.search(text)))


_SENTENCE_INSIDE = lazy(r"[a-z)\]][.!?] +[A-Z\"'(]|[。！？]\S")
"""A sentence ending inside the line and the next one beginning: a paragraph, not a name."""
_COUNT_START = lazy(r"^\d{1,4}\s*[xX×*]?\s+\S|(?:\s[xX×*]\s*|[xX×*]|\s)\d{1,2}枚?\s*$")
"""A count first (``3 Name``) or last (``Name X 1``, ``Name x3``): the shape of a card line."""
_IN_BRACKETS = lazy(r"\([^()]*\)|（[^（）]*）")


def looks_like_text(text: str) -> bool:
    """Whether a line is text of the page around the list before any card is looked up: a
    paragraph or a sentence so plainly worded that no card name is written so. Stricter than
    ``looks_like_prose`` (which the resolver asks of a line that names no card): at least six
    words with two words of sentences, four with one and a sentence's end, twelve with a
    sentence ending inside the line, or a Japanese sentence. A line that begins with a count
    is a card line unless it is a paragraph (twelve words, three of sentences). The resolver
    still looks such a line up whole, so a card written so is never lost as text."""
    text = text.strip()
    if len(text) >= 6 and not text[0].isdigit() and (text.endswith("。") or _JAPANESE_SENTENCE.search(text)):
        from forcecheck.cards.names import has_kana_or_kanji

        if has_kana_or_kanji(text):
            return True  # "参加してきました!", "...から。": a Japanese sentence (no card name ends in 。 or a polite verb)
    if len(text) < 12:
        return False
    if _FOOTER.match(text):
        return True
    if "(" in text or "（" in text:  # "Name (which sounds stupid, you know) X 1": a remark in brackets is no sentence of the line
        text = _IN_BRACKETS.sub(" ", text).strip()
    words = [w.lower().strip("'") for w in _WORD.findall(text.replace("\u2019", "'"))]
    count = len(words)
    if count < 4:
        return False
    said = sum(1 for w in words if w in _PROSE_WORDS)
    if _COUNT_START.search(text):
        return count >= 12 and said >= 3
    return (said >= 2 and count >= 6) or (said >= 1 and bool(_SENTENCE_END.search(text)) and count >= 4) or (
        count >= 12 and _SENTENCE_INSIDE.search(text) is not None)


# --- headers -----------------------------------------------------------------------------

_DECORATION = lazy(r"^(?:#+\s*|[*_]{2}|[=~]{2,}\s*|-{2,}\s*|[-•·●◆◇■□▪►>|]\s*|[【\[『「<〈])+|(?:[*_]{2}|\s*[=~]{2,}|\s*-{2,}|\s*\|\s*|[】\]』」>〉])+$")
def undecorated(line: str) -> str:
    """A header line without Markdown or bracket decoration: ``## Main Deck``, ``**Side:**``,
    ``-Sideboard``, ``【モンスター24枚】``, ``[魔法 5〜6枚]``, ``■サイドデッキ15枚`` -> the title."""
    previous = None
    text = line.strip()
    while text != previous:
        previous = text
        text = _DECORATION.sub("", text).strip()
    return text


_LIST_LABELS = frozenset({
    "decklist", "deck list", "the list", "list", "deck profile", "deck", "card list", "cards", "full list", "the deck",
    "deck recipe", "recipe", "my list", "my deck", "レシピ", "デッキレシピ", "サンプルレシピ", "デッキリスト", "構築", "デッキ構築",
})


_TABLE_WORDS = frozenset({
    "qty", "quantity", "count", "copies", "#", "no", "no.", "card", "cards", "name", "card name", "type", "card type", "rarity",
    "set", "code", "card no.", "card no", "number", "attribute", "cost", "race", "level", "atk", "def", "notes", "price",
    "枚数", "カード名", "種類", "レアリティ",
})


def is_table_header_row(line: str) -> bool:
    """``| Qty | Name | Type |`` or ``Card No. Quantity Name Type Attribute Rarity``: the header row
    of a table of cards, no card."""
    if "|" not in line:  # words: stop at the first that is no column title (most lines: the first)
        words = line.lower().replace("card no.", "card-no").split()
        return len(words) >= 2 and all(w.replace("card-no", "card no.") in _TABLE_WORDS for w in words)
    cells = [c for c in (c.strip().lower() for c in line.strip().strip("|").split("|")) if c]
    return len(cells) >= 2 and all(c in _TABLE_WORDS for c in cells)


def is_list_label(line: str) -> bool:
    """``Decklist:``, ``The List``, ``デッキレシピ``, ``サンプルレシピ(未発売カードが含まれる場合があります)``: a
    line announcing the list that names no section, maybe with a remark in brackets (cards under
    it are placed as if under no header). A format that names a section so wins."""
    text = undecorated(line).rstrip(":： ").strip()
    if text.endswith((")", "）")):
        text = _ANY_NOTE.sub("", text).rstrip(":： ").strip()
    return text.lower() in _LIST_LABELS


class HeaderLine:
    """What a header line says: the title, the section or group it names, counts, inline text."""

    __slots__ = ("title", "section", "group", "declared", "declared_section", "inline", "known", "corrected")

    def __init__(self, title: str, section: str | None, group: str | None, declared: int | None,
                 declared_section: int | None, inline: str, known: bool, corrected: bool = False):
        self.title, self.section, self.group = title, section, group
        self.declared, self.declared_section, self.inline, self.known = declared, declared_section, inline, known
        self.corrected = corrected
        """A misspelt title read as the known one (``misspelt_header``): the resolver says so on its line."""


def read_header(line: str, headers: HeaderTable) -> HeaderLine | None:
    """The header this line is, or None. A known section or group title, alone or with a count
    or one card inline (``Ruler: Faria``); or any short line ending in a colon (a section the
    format does not know, reported as such)."""
    text = undecorated(line)
    if not text:
        return None
    ends_colon = text.endswith((":", "："))
    body = text.rstrip(":：").strip()
    found = _known(body, headers)
    if found is not None:
        return found
    for separator in (":", "：", " – ", " — ", " - "):
        if separator in body:
            head = undecorated(body.split(separator, 1)[0])
            known = _known(head.rstrip(":：").strip(), headers)
            rest = line.split(separator, 1)[1] if separator in line else ""
            rest = re.sub(r"^[*_\s]+|(?:\s*[*_]{2})+\s*$", "", rest)  # "**Ruler:** Name**": the bold marks go
            if known is not None and rest.strip():
                inline = rest.strip()
                announced = re.match(r"^\(?\s*(\d{1,3})\s*\)?\s+(?=[xX×]?\d)", fold_width(inline))
                if announced:  # "Main Deck: 40 4 Familiar ...": a count, then the cards
                    known.declared = int(announced.group(1))
                    inline = inline[announced.end():]
                if _INLINE_COUNT.match(fold_width(inline)):
                    known.declared = int(re.sub(r"\D", "", fold_width(inline).split("of")[0]))
                else:
                    known.inline = re.sub(r"^[*_\s]+", "", inline)
                return known
    qualified = _qualified_title(body, headers) if not body.isascii() and len(body) <= 30 else None
    if qualified is not None:
        return qualified
    if body and not body[0].isdigit() and len(body) <= 60 and looks_like_prose(text):
        # "Here's what Jane is playing:" is prose, unless its words name a section: "Here's my sideboard:",
        # or without a colon, a sentence that ends with the section's title ("And here is the side deck")
        named = _named_in(body, headers, at_end=not ends_colon)
        return named if ends_colon or (named is not None and named.section is not None) else None
    if ends_colon and body and not body[0].isdigit() and len(body) <= 60:
        misspelt = misspelt_header(body, headers)
        if misspelt is not None:
            return misspelt  # "Extar Deck:": the Extra Deck's header, misspelt
        bare, count, of = header_parts(body)
        return HeaderLine(bare, None, None, count, of, "", False)
    return None


def _qualified_title(body: str, headers: HeaderTable) -> HeaderLine | None:
    """``必須エクストラ(3枚)``, ``おすすめサイド 15枚``: a Japanese title with a word before it (required,
    recommended, ...) and a count: the section or group title it ends with (two characters or
    more; the longest). Japanese writes no space between the word and the title."""
    bare, count, of = header_parts(body)
    key = header_key(undecorated(bare).rstrip(":： "))
    if not key or key.isascii() or count is None:
        return None  # without a count, 【シンクロデッキ】 is a deck's name as often as a header
    best = None
    for title in (*headers.sections, *headers.groups):
        if len(title) >= 2 and not title.isascii() and key.endswith(title) and key != title:
            if best is None or len(title) > len(best):
                best = title
    if best is None:
        return None
    found = _known(best, headers)
    if found is not None:
        found.title, found.declared, found.declared_section = undecorated(bare).rstrip(":： "), count, of
    return found


def _named_in(sentence: str, headers: HeaderTable, at_end: bool = False) -> HeaderLine | None:
    """The section or group a sentence ending in a colon names (``Here's my sideboard:``), the
    longest title first, or None: a sentence naming none is prose, and the cards under it are
    placed as cards under no header. ``at_end``: only a title that ends the sentence counts."""
    words = [w for w in re.split(r"[^\w'-]+", sentence) if w]
    for width in range(min(4, len(words)), 0, -1):
        for at in (range(len(words) - width + 1) if not at_end else (len(words) - width,)):
            found = _known(" ".join(words[at: at + width]), headers)
            if found is not None and found.declared is None:
                found.title = sentence.rstrip(":： ")
                return found
    return None


_INLINE_COUNT = lazy(r"^\(?\s*\d{1,3}\s*\)?(?:\s*cards?|枚)?$", re.IGNORECASE)


_X_COUNT = lazy(r"[xX×]\s*\d{1,3}\s*[)\]]?\s*$")


def _known(text: str, headers: HeaderTable) -> HeaderLine | None:
    bare, count, of = header_parts(text)
    bare = undecorated(bare).rstrip(":： ")
    key = header_key(bare)
    if key in headers.sections:
        return HeaderLine(bare, headers.sections[key], None, count, of, "", True)
    if count is not None and _X_COUNT.search(fold_width(text)):
        return None  # "Magic x1", "Trap ×2": an x marks a card's copies; only a section's title takes one ("Main Deck x 42")
    if key in headers.groups:
        return HeaderLine(bare, None, headers.groups[key], count, of, "", True)
    if headers.kinds is not None and bare:
        section = headers.kinds.group(bare)  # "Synchros", "XYZs", "Spells & Traps", "モンスター": cards of these kinds
        if section is not None:
            return HeaderLine(bare, None, section, count, of, "", True)
    return None


_TITLE_WORDS = lazy(r"^[A-Za-z]+(?: [A-Za-z]+){0,2}$")
_MISSPELT_TITLES: BoundedMemo[int, tuple[str, ...]] = BoundedMemo(64)
"""The titles a header may be a misspelling of, per header table (``id()``; a batch shares one)."""


_COPIES_MARK = lazy(r"(?i)(?:^\d+\s*[x×]|[x×]\s*\d+$)")
"""``3x Name``, ``Name x3``: an x beside the number marks a card's copies."""


def misspelt_header(line: str, headers: HeaderTable) -> HeaderLine | None:
    """The header a short line misspells (``Spels``, ``Sidebaord:``, ``Monstres (12)``), or None:
    one to three words of letters, one edit from exactly one section or group title of five
    letters or more (two from one of nine or more; a swap of two letters is one edit). The
    reader marks the line (``Note("header-corrected")``) and the resolver says so on it, or
    calls it ambiguous where the words name a card."""
    text = undecorated(line).rstrip(":： ").strip()
    bare, count, of = header_parts(text)
    bare = bare.rstrip(":： ").strip()
    if len(bare) < 5 or not _TITLE_WORDS.match(bare) or _COPIES_MARK.search(text):
        return None  # "Magic x1", "3x Spels": an x marks a card's copies, never a group's size
    titles = _MISSPELT_TITLES.get(id(headers))
    if titles is None:
        found = {key for key in (*headers.sections, *headers.groups) if key.isascii()}
        if headers.kinds is not None:
            from forcecheck.decklists.kinds import vocabulary

            words = vocabulary(headers.kinds.game)[0]
            found.update(w for key in words if key.isascii() and " " not in key for w in (key, key + "s"))
        titles = _MISSPELT_TITLES.remember(id(headers), tuple(sorted(t for t in found if len(t) >= 5)))
    from rapidfuzz.distance import OSA

    key = header_key(bare)
    limit = 2 if len(key) >= 9 else 1
    distances = {title: OSA.distance(key, title, score_cutoff=limit) for title in titles if abs(len(title) - len(key)) <= limit}
    best = min(distances.values(), default=limit + 1)
    near = [title for title, distance in distances.items() if distance == best]
    if best > limit or best == 0:
        return None  # the exact title was already refused as a header by the header reader
    heads = [_known(title, headers) for title in near]
    targets = {(h.section, h.group) for h in heads if h is not None}
    if len(targets) != 1 or heads[0] is None:
        return None
    head = heads[0]
    title = max(near, key=lambda t: (len(t), t))  # "Spels": one edit from "spell" and "spells", one group: the longer
    return HeaderLine(title[:1].upper() + title[1:], head.section, head.group, count, of, "", True, corrected=True)


def column_titles(line: str, headers: HeaderTable) -> list[HeaderLine] | None:
    """A table's header row flattened into one line (``Main Deck Stone Deck Side Board``,
    ``Monsters Spells Traps``): the known titles it is made of, left to right, or None."""
    if "\t" in line:  # "Main Deck (40)<TAB>Magic Stone Deck (10)<TAB>Side Board (15)": one title per cell, counts allowed
        cells = [cell.strip() for cell in line.split("\t") if cell.strip()]
        titled = [_known(cell, headers) for cell in cells]
        if len(cells) >= 2 and all(header is not None for header in titled):
            return titled
    words = undecorated(line).replace("|", " ").split()
    if len(words) < 2 or len(words) > 12:
        return None
    found: list[HeaderLine] = []
    at = 0
    while at < len(words):
        for width in range(min(4, len(words) - at), 0, -1):
            title = " ".join(words[at: at + width])
            header = _known(title, headers)
            if header is not None and width > 1 and header.group is not None and headers.kinds is not None \
                    and len(headers.kinds.kinds(title)) > 1:
                continue  # "Monsters Spells Traps" in a row of titles: three columns, not one group
            if header is not None and header.declared is None:
                found.append(header)
                at += width
                break
        else:
            return None
    return found if len(found) >= 2 else None


_HEADER_LINES: IdentityMemo[HeaderTable, dict] = IdentityMemo(64)
HEADER_LINES_KEPT = 4_096


def known_header_lines(headers: HeaderTable) -> BoundedMemo[str, HeaderLine]:
    """Header lines met before with this format's headers, each with what ``read_header`` made
    of it (no card inline): a batch writes ``Main Deck:`` thousands of times, and reading it
    again costs a dict lookup. Bounded; kept per format."""
    lines = _HEADER_LINES.get(headers)
    if lines is None:
        lines = _HEADER_LINES.remember(headers, BoundedMemo(HEADER_LINES_KEPT))
    return lines


_HEADER_PATTERNS: IdentityMemo[HeaderTable, re.Pattern | None] = IdentityMemo(64)
_NO_PATTERN: Any = object()


def _header_pattern(headers: HeaderTable) -> re.Pattern | None:
    """A pattern finding any of the format's section titles followed by a colon."""
    cached = _HEADER_PATTERNS.get(headers, _NO_PATTERN)
    if cached is not _NO_PATTERN:
        return cached
    keys = sorted((k for k in headers.sections if k), key=len, reverse=True)
    words = [r"[\s\-_/]+".join(re.escape(word) for word in key.split()) for key in keys]
    pattern = re.compile(r"(?<!\S)(?:" + "|".join(words) + r")\s*[:：]", re.IGNORECASE) if words else None
    return _HEADER_PATTERNS.remember(headers, pattern)


_COUNT_BEFORE = lazy(r"(?:(?<!\S)\d{1,4}\s*[xX×]?|(?<!\S)[xX×]\s*\d{1,4}|\d{1,4}\s*[:.)])\s*$")


def split_at_headers(line: str, headers: HeaderTable) -> list[str] | None:
    """A list collapsed onto one line (``Jane Doe Ruler: A/B Main Deck: 40 4 X 4 Y Stone Deck:
    10 ...``) cut before each section title: the pieces, or None when no title stands inside."""
    if ":" not in line and "：" not in line:
        return None
    pattern = _header_pattern(headers)
    if pattern is None:
        return None
    starts = [m.start() for m in pattern.finditer(line) if m.start() > 0 and not _COUNT_BEFORE.search(line, 0, m.start())]
    if not starts:
        return None  # "2x Arcana: Holy Protector, 1x ...": a title right after a count is the start of a card's name
    if len(starts) == 1 and not _SPLIT_COUNTS.search(line[starts[0]:]) and not line[: starts[0]].rstrip().endswith("/"):
        return None  # one title inside a line with no counts after it ("ABC - Arcana: Musician of ..."): no collapsed list
    # "Pandora (ACN-020) / J-Ruler: Pandora (ACN-020J)": a title after a face's slash heads the other face
    bounds = [0] + starts + [len(line)]
    pieces = [line[a:b].strip().rstrip("/").strip() for a, b in zip(bounds, bounds[1:])]
    return [p for p in pieces if p]
