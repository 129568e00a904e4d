"""YAML decklists: the structured form, with the format named inside.

    format: bifrost              # optional; --format overrides
    name: Faria Strangers        # optional
    player: Jane Doe             # optional; also event, date, notes
    sections:
      Ruler: Faria               # one card
      Main Deck:                 # a list of "N Name" strings or {name, count, printing}
        - 4 Name
        - {name: Other Name, count: 2, printing: CMF-001}
      Sideboard:                 # or a mapping of name -> count
        Name: 2

Unknown top-level keys and malformed YAML make the file unusable (exit 2); bad counts are
deck content and become violations on their line. A card entry is bounded as a text line is
(``MAX_LINE_CHARS``): a longer name or entry is reported on its line and not read, so no
message carries (and no catalog search is run on) a 50,000-character name.
"""

from __future__ import annotations

from typing import Any

from forcecheck.decklists.model import Decklist, Entry, ReadProblem, Section
from forcecheck.decklists.text import MAX_COUNT, MAX_LINE_CHARS, parse_entry
from forcecheck.errors import InputFileError
from forcecheck.escape import short
from forcecheck.yamlsafe import LinedYaml, load_yaml

MAX_COUNT_CHARS = 24
"""A count written longer than this is reported by its length, not quoted (nor converted)."""

TOP_LEVEL_KEYS = ("format", "name", "player", "event", "date", "notes", "sections")


def read_yaml_decklist(text: str, path: str) -> Decklist:
    doc = load_yaml(text, path)
    data = doc.data
    if not isinstance(data, dict):
        raise InputFileError("a YAML decklist must be a mapping with a 'sections' key", path, doc.line_of(()))
    for key in data:
        if key not in TOP_LEVEL_KEYS:
            raise InputFileError(
                f"unknown key {key!r} in YAML decklist (allowed: {', '.join(TOP_LEVEL_KEYS)})",
                path,
                doc.line_of((key,)),
            )
    if "sections" not in data:
        raise InputFileError("YAML decklist has no 'sections' mapping", path, doc.line_of(()))
    sections = data["sections"]
    if not isinstance(sections, dict):
        raise InputFileError("'sections' must map section titles to cards", path, doc.line_of(("sections",)))
    deck = Decklist(path=path)
    fmt = data.get("format")
    if fmt is not None:
        if not isinstance(fmt, str) or not fmt.strip():
            raise InputFileError("'format' must be a format name", path, doc.line_of(("format",)))
        deck.format = fmt.strip()
    for key in ("name", "player", "event", "date", "notes"):  # shown as text everywhere: a list or mapping would show as Python
        if isinstance(data.get(key), (list, dict)):
            raise InputFileError(f"'{key}' must be text, not a {'list' if isinstance(data[key], list) else 'mapping'}", path,
                                 doc.line_of((key,)))
    if data.get("name") is not None:
        deck.name = str(data["name"])
    deck.metadata = {k: data[k] for k in ("player", "event", "date", "notes") if data.get(k) is not None}
    for title, body in sections.items():
        at = ("sections", title)
        section = Section(title=str(title), line=doc.line_of(at), uniform="name")
        deck.sections.append(section)
        _read_section(section, body, at, doc, deck)
    return deck


def _read_section(section: Section, body: Any, at: tuple, doc: LinedYaml, deck: Decklist) -> None:
    if body is None:
        return
    if isinstance(body, str):
        _read_string(section, body, doc.line_of(at), deck)
    elif isinstance(body, list):
        for index, item in enumerate(body):
            _read_item(section, item, at + (index,), doc, deck)
    elif isinstance(body, dict):
        for name, count in body.items():
            _add(section, str(name), count, None, doc.line_of(at + (name,)), deck)
    else:
        deck.problems.append(
            ReadProblem("invalid-entry", f"cannot read {_shown(body)} as cards", doc.line_of(at), section.title)
        )


def _read_string(section: Section, text: str, line: int | None, deck: Decklist) -> None:
    """A ``"4 Name"`` entry, read as a text line is, with the same length cap."""
    if len(text) > MAX_LINE_CHARS:
        deck.problems.append(_too_long("entry", text, line, section))
        return
    section.add(parse_entry(text, line))


def _read_item(section: Section, item: Any, at: tuple, doc: LinedYaml, deck: Decklist) -> None:
    line = doc.line_of(at)
    if isinstance(item, str):
        _read_string(section, item, line, deck)
        return
    if isinstance(item, dict) and isinstance(item.get("name"), str):
        extra = set(item) - {"name", "count", "printing"}
        if extra:
            deck.problems.append(
                ReadProblem(
                    "invalid-entry",
                    short(f"unknown key(s) {', '.join(sorted(map(str, extra)))} in card entry (allowed: name, count, printing)", 200),
                    line,
                    section.title,
                    short(item["name"]),
                )
            )
        printing = item.get("printing")
        _add(section, item["name"], item.get("count", 1), str(printing) if printing is not None else None, line, deck)
        return
    deck.problems.append(
        ReadProblem("invalid-entry", f"cannot read {_shown(item)} as a card entry", line, section.title)
    )


def _add(section: Section, name: str, count: Any, printing: str | None, line: int | None, deck: Decklist) -> None:
    """One ``{name, count, printing}`` entry; a name, count or printing past the line cap is
    reported on its line instead."""
    for what, value in (("card name", name), ("printing", printing)):
        if value is not None and len(value) > MAX_LINE_CHARS:
            deck.problems.append(_too_long(what, value, line, section))
            return
    written = str(count) if isinstance(count, (int, str)) and not isinstance(count, bool) else None
    if written is not None and len(written) > MAX_COUNT_CHARS:
        deck.problems.append(
            ReadProblem(
                "invalid-count",
                f"count of {len(written):,} characters for {short(name)} is not a whole number from 1 to {MAX_COUNT:,}; not counted",
                line, section.title, short(name),
            )
        )
        return
    section.add(_entry(name, count, printing, line))


def _too_long(what: str, text: str, line: int | None, section: Section) -> ReadProblem:
    return ReadProblem(
        "line-too-long", f"{what} is {len(text):,} characters (limit {MAX_LINE_CHARS}); not read", line, section.title
    )


def _shown(value: Any) -> str:
    """A value quoted in a message, cut short."""
    return short(repr(value), 80)


def _entry(name: str, count: Any, printing: str | None, line: int | None) -> Entry:
    if isinstance(count, bool) or not isinstance(count, int):
        return Entry(name=name, count=0, line=line, printing=printing, count_ok=False, count_text=str(count))
    ok = 0 < count <= MAX_COUNT
    return Entry(name=name, count=count, line=line, printing=printing, count_ok=ok, count_text=str(count))
