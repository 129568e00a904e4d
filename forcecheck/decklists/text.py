"""The plain text decklists players publish.

    Ruler: Faria            (a header may carry one card inline)
    Main Deck (40):
    4 Name                  4x Name, 4 x Name, Name x4, or just Name (one copy)
    2 Name (CMF-001)        an optional trailing printing code
    # comment, // comment

A header is a line ending in ``:`` (optionally ``Title (N):``) or a line whose text is a
known section title of the format. Card names may contain colons (``Arcana: Guardian of the
Temple``), so a colon alone does not make a header.
"""

from __future__ import annotations

import re
from typing import Collection

from forcecheck.decklists.model import Decklist, Entry, ReadProblem, Section, header_key, split_header_count

MAX_COUNT = 9_999
MAX_LINE_CHARS = 500

_METADATA = re.compile(r"^\s*(?:#|//)\s*(player|name|deck|event|date)\s*:\s*(\S.*?)\s*$", re.IGNORECASE)
_TRAILING_COMMENT = re.compile(r"\s+(?://|#\s).*$")
_COUNT_FIRST = re.compile(r"^(?P<count>[+-]?\d+)\s*(?:[x\u00d7]\s*)?\s(?P<name>.*\S)\s*$|^(?P<count2>[+-]?\d+)[x\u00d7](?P<name2>\S.*?)\s*$", re.IGNORECASE)
_COUNT_LAST = re.compile(r"^(?P<name>.*?\S)\s+[x\u00d7]\s*(?P<count>[+-]?\d+)\s*$", re.IGNORECASE)
_MALFORMED_COUNT = re.compile(r"^(?P<count>[+-]?\d+(?:[.,/]\d+)+)\s*[x\u00d7]?\s+(?P<name>\S.*?)\s*$", re.IGNORECASE)
_PRINTING = re.compile(r"\s*[\(\[](?P<code>[A-Za-z0-9]+(?:[- ][A-Za-z0-9^*]+)*)[\)\]]\s*$")
_MARKDOWN = re.compile(r"^(?:#+|//)\s*|[*_]{2}|\s*[=-]{2,}\s*$|^[=-]{2,}\s*")
_BULLET = re.compile(r"^[-*\u2022]\s+")
_INLINE_COUNT = re.compile(r"^\(?\s*\d{1,3}\s*\)?(?:\s*cards?)?$", re.IGNORECASE)


_LINE = re.compile(
    r"^[ \t\f\v]*(?:(\d{1,4})[ \t]*[xX\u00d7]?[ \t]+([^\s()\[\]#/:][^\n()\[\]#/]*(?:\([^\d()\[\]\n#/]*\))?)|[^\n]*)$",
    re.MULTILINE,
)
"""One match per line. Groups 1-2 catch the common ``4 Name`` / ``4x Name`` card line (no
printing code, comment or colon at the end); every other line goes the general way."""


def read_text_decklist(text: str, path: str, known_headers: Collection[str] = ()) -> Decklist:
    """Parse text into a Decklist; ``known_headers`` are the format's section titles (header keys)."""
    deck = Decklist(path=path)
    current: Section | None = None
    known = known_headers if isinstance(known_headers, (set, frozenset)) else set(known_headers)
    for number, match in enumerate(_LINE.finditer(text), start=1):
        count_text = match.group(1)
        if count_text is not None and current is not None and match.end() - match.start() <= MAX_LINE_CHARS:
            name = match.group(2).rstrip()  # greedy (a lazy pattern is 5x slower): trim here
            if not name.endswith(":"):
                count = int(count_text)
                count_ok = 0 < count <= MAX_COUNT
                current.entries.append(Entry(name, count, number, None, count_ok, count_text))
                if not count_ok:
                    current.uniform = None
                continue
        raw = match.group(0)
        if len(raw) > MAX_LINE_CHARS:
            deck.problems.append(
                ReadProblem("line-too-long", f"line is {len(raw):,} characters (limit {MAX_LINE_CHARS}); not read", number)
            )
            continue
        line = raw.strip()
        if not line:
            continue
        current = _read_line(deck, line, number, current, known)
    return deck


def _read_line(deck: Decklist, line: str, number: int, current: Section | None, known: Collection[str]) -> Section | None:
    """Any line but the plain card line: comments, metadata, headers, other card lines.
    Returns the section later lines belong to."""
    if line.startswith(("#", "//")):
        meta = _METADATA.match(line)
        if meta:  # "# Player: Jane Doe" comments carry registration metadata
            key = meta.group(1).lower()
            if key in ("name", "deck"):
                deck.name = deck.name or meta.group(2)
            else:
                deck.metadata.setdefault(key, meta.group(2))
            return current
        heading = _MARKDOWN.sub("", line)
        if not (heading and header_key(heading) in known):
            return current
        line = heading  # "## Main Deck (40)": a Markdown heading that names a section
    if line[0] in "-*\u2022" and _BULLET.match(line):
        line = _BULLET.sub("", line)  # "- 4x Name": a Markdown list item
        if not line:
            return current
    if "#" in line or "//" in line:
        line = _TRAILING_COMMENT.sub("", line).strip()
        if not line:
            return current
    if current is not None and line[0].isdigit() and not line.endswith(":"):
        current.add(parse_entry(line, number))
        return current
    header = _header(line, known)
    if header is not None:
        title, inline = header
        bare, declared = split_header_count(title)
        section = Section(title=bare, line=number, declared=declared, uniform="name")
        deck.sections.append(section)
        if inline and _INLINE_COUNT.match(inline):  # "Main Deck: 40" announces a count
            section.declared = int(re.sub(r"\D", "", inline))
        elif inline:
            section.add(parse_entry(inline, number))
        return section
    entry = parse_entry(line, number)
    if current is None:
        if deck.loose is None:
            deck.loose = Section(title="", line=number)
        deck.loose.entries.append(entry)
        return None
    current.add(entry)
    return current


def _header(line: str, known: set[str]) -> tuple[str, str] | None:
    """``(title, inline card text)`` when the line is a section header."""
    if line[0].isdigit() or line[0] in "+-":
        if _COUNT_FIRST.match(line):
            return None
    if "**" in line or line.startswith(("==", "--")):
        bare = _MARKDOWN.sub("", line).strip()  # "**Main Deck**", "== Main Deck =="
        if bare and header_key(bare.rstrip(":")) in known:
            return bare.rstrip(":").strip(), ""
    if line.endswith(":"):
        return line[:-1].strip(), ""
    if header_key(line) in known:
        return line, ""
    if ":" in line:
        head, rest = line.split(":", 1)
        if header_key(head) in known:
            return head.strip(), rest.strip()
    return None


_SIMPLE = re.compile(r"^(\d{1,4})\s*[xX\u00d7]?\s+([^\s()\[\]#/][^()\[\]]*?)\s*$")
"""The common line ``4 Name`` / ``4x Name`` with no printing code: read without the general path."""


def parse_entry(text: str, line: int | None) -> Entry:
    """One card line into an Entry; a bad count is kept and flagged, never dropped."""
    simple = _SIMPLE.match(text)
    if simple:
        count = int(simple.group(1))
        return Entry(name=simple.group(2), count=count, line=line, count_ok=0 < count <= MAX_COUNT, count_text=simple.group(1))
    printing = None
    match = _PRINTING.search(text)
    if match and any(ch.isdigit() for ch in match.group("code")) and match.start() > 0:
        printing = match.group("code")
        text = text[: match.start()].strip()
    count_text: str | None = None
    name = text
    match = _MALFORMED_COUNT.match(text)
    if match:  # "4.5 Name", "1,000 Name": a count, but not a whole number
        return Entry(name=match.group("name"), count=0, line=line, printing=printing, count_ok=False, count_text=match.group("count"))
    match = _COUNT_FIRST.match(text)
    if match:
        count_text = match.group("count") or match.group("count2")
        name = match.group("name") or match.group("name2")
    else:
        match = _COUNT_LAST.match(text)
        if match:
            count_text, name = match.group("count"), match.group("name")
    if count_text is None:
        return Entry(name=name, count=1, line=line, printing=printing)
    count = int(count_text)
    ok = 0 < count <= MAX_COUNT
    return Entry(name=name.strip(), count=count, line=line, printing=printing, count_ok=ok, count_text=count_text)
