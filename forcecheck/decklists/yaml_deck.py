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
deck content and become violations on their line.
"""

from __future__ import annotations

from typing import Any

from forcecheck.decklists.model import Decklist, Entry, ReadProblem, Section
from forcecheck.decklists.text import MAX_COUNT, parse_entry
from forcecheck.errors import InputFileError
from forcecheck.yamlsafe import LinedYaml, load_yaml

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
        section.add(parse_entry(body, doc.line_of(at)))
    elif isinstance(body, list):
        for index, item in enumerate(body):
            _read_item(section, item, at + (index,), doc, deck)
    elif isinstance(body, dict):
        for name, count in body.items():
            section.add(_entry(str(name), count, None, doc.line_of(at + (name,))))
    else:
        deck.problems.append(
            ReadProblem("invalid-entry", f"cannot read {body!r} as cards", doc.line_of(at), section.title)
        )


def _read_item(section: Section, item: Any, at: tuple, doc: LinedYaml, deck: Decklist) -> None:
    line = doc.line_of(at)
    if isinstance(item, str):
        section.add(parse_entry(item, line))
        return
    if isinstance(item, dict) and isinstance(item.get("name"), str):
        extra = set(item) - {"name", "count", "printing"}
        if extra:
            deck.problems.append(
                ReadProblem(
                    "invalid-entry",
                    f"unknown key(s) {', '.join(sorted(map(str, extra)))} in card entry (allowed: name, count, printing)",
                    line,
                    section.title,
                    item["name"],
                )
            )
        printing = item.get("printing")
        section.add(_entry(item["name"], item.get("count", 1), str(printing) if printing is not None else None, line))
        return
    deck.problems.append(
        ReadProblem("invalid-entry", f"cannot read {item!r} as a card entry", line, section.title)
    )


def _entry(name: str, count: Any, printing: str | None, line: int | None) -> Entry:
    if isinstance(count, bool) or not isinstance(count, int):
        return Entry(name=name, count=0, line=line, printing=printing, count_ok=False, count_text=str(count))
    ok = 0 < count <= MAX_COUNT
    return Entry(name=name, count=count, line=line, printing=printing, count_ok=ok, count_text=str(count))
