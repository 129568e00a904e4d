"""Canonical decklists and fingerprints.

Both start from the same view of a deck: every entry bound to its card (or kept as written
when unknown), grouped by the format's sections. ``canonical_text`` writes it back in one
standard form (``forcecheck fmt``); ``fingerprint`` hashes what it contains.

Fingerprint (``fc1-`` + 32 hex digits), exactly: the SHA-256 of the UTF-8 text made of the line
``forcecheck-fingerprint/1`` and then, sorted, one line ``SECTION<TAB>CARD<TAB>COUNT`` per card
and section, where SECTION is the format's section id (``-`` for cards before any header,
``?`` + the header as written, lower-cased, for a section the format does not know), CARD is
the catalog's canonical card name (``?`` + the name as normalised by forcecheck for an unknown
card) and COUNT the copies summed over every line and printing. Lines with an invalid count
are not counted. So line order, spacing, case, punctuation, printing codes, comments and the
file's format (text, YAML, .ydk) do not change it; the cards, counts and sections do.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from forcecheck.cards.catalog import Catalog, written_language
from forcecheck.cards.names import normalize_name
from forcecheck.decklists.lines import MAX_COUNT, MAX_LINE_CHARS
from forcecheck.decklists.model import Decklist, header_key
from forcecheck.decklists.readers import parse_decklist
from forcecheck.errors import ForcecheckError
from forcecheck.resolve import resolve
from forcecheck.rules.announced import announced_count_findings

FINGERPRINT_VERSION = "forcecheck-fingerprint/1"


@dataclass
class CanonEntry:
    count: int
    name: str
    """The canonical card name, or the name as written when the card is unknown."""
    printing: str | None = None
    known: bool = True
    count_ok: bool = True
    count_text: str | None = None


@dataclass
class CanonSection:
    key: str
    """Section id, ``-`` for cards no section takes, ``?title`` for an unknown section."""
    title: str
    entries: list[CanonEntry] = field(default_factory=list)


def canonical_sections(deck: Decklist, fmt, catalog: Catalog, resolution=None, names: str | None = None) -> list[CanonSection]:
    """The deck as forcecheck reads it (cards placed, names corrected, groups merged into their
    section): sections in the format's order (cards no section takes first, unknown sections
    last), duplicate lines of one card and printing summed, cards sorted by name. A section
    written with no cards is kept (empty): fmt drops nothing the user wrote. Known cards are
    named in the language ``names`` (``Card.name_in``); None: the card's identity, its base name."""

    if resolution is None or resolution.layout is None:
        resolution = resolve(deck, fmt, catalog, layout=True)
    groups: dict[str, CanonSection] = {}
    for section in deck.sections:  # headers with no cards under them stay
        if section.loose or section.group or section.entries:
            continue
        section_id = section.target or fmt.section_id(section.title)
        key = section_id if section_id else "?" + header_key(section.title)
        groups.setdefault(key, CanonSection(key, fmt.titles[section_id] if section_id else section.title))
    for key, title, entry, card in resolution.layout:
        group = groups.setdefault(key, CanonSection(key, title))
        name = card.name_in(names) if card else entry.name.strip()
        group.entries.append(CanonEntry(entry.count, name, entry.printing, card is not None, entry.count_ok, entry.count_text))
    for group in groups.values():
        group.entries = _merged(group.entries)
    order = {section.id: index for index, section in enumerate(fmt.spec.sections)}

    def rank(group: CanonSection):
        if group.key == "-":
            return (-1, "")
        return (order.get(group.key, len(order)), group.key)

    return sorted((g for g in groups.values() if g.entries or g.key != "-"), key=rank)


def _merged(entries: list[CanonEntry]) -> list[CanonEntry]:
    """Sum lines of the same card and printing (never past the count a line may hold); keep
    invalid-count lines as they were."""

    summed: dict[tuple, list[CanonEntry]] = {}
    kept: list[CanonEntry] = []
    for entry in entries:
        if not entry.count_ok:
            kept.append(entry)
            continue
        key = (entry.name if entry.known else normalize_name(entry.name), entry.printing, entry.known)
        lines = summed.setdefault(key, [])
        if lines and lines[-1].count + entry.count <= MAX_COUNT:
            lines[-1].count += entry.count
        else:
            lines.append(CanonEntry(entry.count, entry.name, entry.printing, entry.known))
    ordered = sorted((e for lines in summed.values() for e in lines), key=lambda e: (normalize_name(e.name), e.name, e.printing or ""))
    return ordered + kept


def fingerprint(deck: Decklist, fmt, catalog: Catalog) -> str:
    """The deck's content hash (see the module docstring for exactly what it covers)."""

    return fingerprint_of(resolve(deck, fmt, catalog).content)


def fingerprint_of(content: dict[tuple[str, str], int]) -> str:
    """Hash of (section key, card key) -> copies, as resolve() collects it."""
    lines = [f"{s}\t{c}\t{n}" for (s, c), n in content.items()]
    lines.sort()
    lines.insert(0, FINGERPRINT_VERSION)
    return "fc1-" + hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()[:32]


def _leading_block(text: str, markers: tuple[str, ...] = ("#", "//")) -> tuple[list[str], int]:
    """The comment block at the top of a file and the number of the first line after it."""
    out = []
    number = 0
    for number, line in enumerate(text.split("\n"), start=1):  # noqa: B007 - read after the loop: the block's end
        stripped = line.strip()
        if not stripped:
            if out:
                out.append("")
            continue
        if stripped.startswith(markers):
            out.append(line.rstrip())
            continue
        break
    else:
        number += 1
    while out and out[-1] == "":
        out.pop()
    return out, number


def _line(entry: CanonEntry) -> str:
    count = entry.count_text if not entry.count_ok and entry.count_text is not None else str(entry.count)
    printing = f" ({entry.printing})" if entry.printing else ""
    return f"{count} {entry.name}{printing}"


class NotRewritable(Exception):
    """fmt would lose or change what the list says: the file is left as it is."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


def rewrite(deck: Decklist, fmt, catalog: Catalog, original: str, kind: str, names: str | None = None, path: str = "") -> str:
    """The canonical text of a list, proven to say what the list says: every line was read
    (a line that is no card forcecheck knows and has no count may be prose, and is never
    rewritten as a card), no line is longer than a reader takes, and reading the result back
    gives the same sections, cards and counts, title and metadata, and the same canonical text
    (fmt is idempotent). Raises NotRewritable otherwise."""

    resolution = resolve(deck, fmt, catalog, layout=True)
    refuse_what_fmt_would_drop(deck, fmt, resolution)
    card_lines = _card_lines(resolution)
    for note in deck.notes:
        if note.kind == "trailing-comment" and note.line in card_lines:
            raise NotRewritable(f"the comment {note.text!r} follows a card on its line; fmt keeps comments on lines of "
                                "their own, as cards are sorted and merged (move it onto a line of its own)", note.line)
    for _key, _title, entry, card in resolution.layout:
        if card is None and entry.count_text is None:
            raise NotRewritable(f"{entry.name!r} is no card forcecheck knows and has no count; "
                                "fmt does not write it as a card line (fix or remove it first)", entry.line)
    new = canonical_text(deck, fmt, catalog, original, kind, names, resolution)
    if kind in ("yaml", "ydk"):  # every comment kept (moved to the top): proven, not assumed
        written = {line.strip() for line in new.split("\n")}
        for number, comment in yaml_comments(original) if kind == "yaml" else ydk_comments(original):
            if comment.strip() not in written:
                raise NotRewritable(f"the comment {comment.strip()!r} would be lost", number)
    for number, line in enumerate(new.split("\n"), start=1):
        if len(line) > MAX_LINE_CHARS and not line.lstrip().startswith(("#", "//")):
            raise NotRewritable(f"its canonical line {number} would be {len(line):,} characters, over the {MAX_LINE_CHARS} a reader takes")
    suffix = {"ydk": ".ydk", "yaml": ".yaml"}.get(kind, ".txt")
    try:
        again = parse_decklist(new, path, fmt.known_headers, suffix=suffix)
    except ForcecheckError as exc:
        raise NotRewritable(f"its canonical form would not read back ({exc})") from None
    read_back = resolve(again, fmt, catalog, layout=True)
    lost = _difference(resolution.content, read_back.content)
    if lost or again.problems:
        raise NotRewritable(f"its canonical form would read as another deck ({lost or again.problems[0].message})")
    if (read_back.title or None) != (resolution.title or None) or any(again.metadata.get(k) != v for k, v in deck.metadata.items()):
        raise NotRewritable("its canonical form would lose the list's title or metadata")
    if canonical_text(again, fmt, catalog, new, kind, names, read_back) != new:
        raise NotRewritable("its canonical form is not stable (fmt of it would change it again)")
    return new


def refuse_what_fmt_would_drop(deck: Decklist, fmt, resolution) -> None:
    """NotRewritable where the canonical form would lose or replace what the user wrote: a
    count a header or total line announces that the cards do not match (the number would
    vanish, and with it the sign of a missing card), a name a printing code contradicts (the
    code's card would be written in its place), a line that reads two ways, words of a line read as a remark, a set code
    alone on a line. Announced counts that match, and a card's cost or a table row's other
    cells, are the card's own facts: the canonical form may leave them out."""

    for _slug, finding in announced_count_findings(deck, fmt, resolution):
        raise NotRewritable(f"{finding.message}; fmt would drop the announced count (make the two agree first)", finding.line)
    for item in resolution.findings:
        finding = item.finding
        if item.rule == "printing-mismatch":
            raise NotRewritable(f"{finding.message}; fmt would write the code's card in place of the name written "
                                "(correct the name or the code first)", finding.line)
        if item.rule == "ambiguous-line":
            raise NotRewritable(f"{finding.message}; fmt would write one reading in place of a line that says two "
                                "(write the line plainly first)", finding.line)
        if item.reading is not None and item.reading.drops_words:
            raise NotRewritable(f"{finding.message}; fmt would drop those words (put them in a comment line, or remove them, first)",
                                finding.line)


def _card_lines(resolution) -> set[int | None]:
    """The lines that hold cards (known or not), as resolve laid them out."""
    return {entry.line for _key, _title, entry, _card in resolution.layout}


def _difference(before: dict, after: dict) -> str:
    for key in sorted(set(before) | set(after)):
        if before.get(key, 0) != after.get(key, 0):
            section, card = key
            return f"{card.lstrip('?')} in {section}: {before.get(key, 0)} before, {after.get(key, 0)} after"
    return ""


def canonical_text(deck: Decklist, fmt, catalog: Catalog, original: str, kind: str, names: str | None = None,
                   resolution=None) -> str:
    """The deck written in canonical form, as text, YAML or .ydk (``kind``), with card names in
    the language ``names`` (``fmt --names``), by default the language the deck is written in."""
    if names is None:

        names = written_language(catalog, fmt.spec.game, (e.name for s in deck.sections for e in s.entries))
    if resolution is None or resolution.layout is None:

        resolution = resolve(deck, fmt, catalog, layout=True)
    groups = canonical_sections(deck, fmt, catalog, resolution, names=names)
    if kind == "ydk":
        return _ydk(groups, original)
    if kind == "yaml":
        return _yaml(deck, groups, original, resolution.title)
    lines, after = _leading_block(original)
    described = _described(deck, resolution, lines)
    # comments further down (a note under a title line, a remark between cards, one after a
    # header) join the block at the top: cards are sorted and merged, so a comment cannot keep
    # its place among them (one on a card's own line stops rewrite: it would lose its card)
    card_lines = _card_lines(resolution)
    described += [note.text for note in deck.notes
                  if (note.kind in ("comment", "remark") and note.line is not None and note.line >= after)
                  or (note.kind == "trailing-comment" and note.line not in card_lines)]
    if described:
        lines.extend(([""] if lines else []) + described)
    for group in groups:
        if lines:
            lines.append("")
        if group.key != "-":
            lines.append(f"{_title_in(fmt, group, names)}:")
        lines.extend(_line(e) for e in group.entries)
    return "\n".join(lines) + "\n"


def _title_in(fmt, group: CanonSection, names: str | None) -> str:
    """A section's title in the list's language: a Japanese list gets the format's Japanese title
    (one with kana: a title in kanji alone is the Chinese one, as ABC's 主牌库)."""
    if names == "ja" and not group.key.startswith("?"):
        from forcecheck.cards.names import has_kana

        spec = next((s for s in fmt.spec.sections if s.id == group.key), None)
        japanese = [a for a in (spec.aliases if spec else ()) if has_kana(a)]
        if japanese:
            return japanese[0]
    return group.title


_METADATA_ORDER = ("player", "event", "date", "author", "place", "format")


def _described(deck: Decklist, resolution, kept: list[str]) -> list[str]:
    """The deck's title and metadata as the comments the reader takes back (``# Name: ...``),
    unless the kept comment block says them already; headings as plain comments."""
    from forcecheck.decklists.text import comment_metadata

    said = {key for key, _value in filter(None, (comment_metadata(line) for line in kept))}
    out = []
    if resolution.title and "name" not in said and "deck" not in said:
        out.append(f"# Name: {resolution.title}")
    for key in sorted(deck.metadata, key=lambda k: (_METADATA_ORDER.index(k) if k in _METADATA_ORDER else len(_METADATA_ORDER), k)):
        if key not in said:
            out.append(f"# {key.capitalize()}: {deck.metadata[key]}")
    out.extend(f"# {note.text}" for note in [*deck.notes, *resolution.headings]
               if note.kind in ("heading", "label", "table-header", "prose"))
    return out


def _yaml(deck: Decklist, groups: list[CanonSection], original: str, title: str | None) -> str:
    import yaml

    doc: dict = {}
    if deck.format:
        doc["format"] = deck.format
    if title:
        doc["name"] = title
    doc.update(deck.metadata)
    sections: dict = {}
    for group in groups:
        title = group.title or "Cards before any section"
        sections[title] = [
            _line(e) if e.count_ok else {"name": e.name, "count": e.count_text, **({"printing": e.printing} if e.printing else {})}
            for e in group.entries
        ]
    doc["sections"] = sections
    head, after = _leading_block(original, ("#",))
    head += [text for line, text in yaml_comments(original) if line >= after]  # moved up, as in a text list
    body = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, default_flow_style=False, width=1000)
    return ("\n".join(head) + "\n" if head else "") + body


def yaml_comments(text: str) -> list[tuple[int, str]]:
    """(line number, comment) of every comment of a YAML document, full-line or after a value:
    a ``#`` outside every scalar (as YAML's own scanner places them) that starts the text or
    follows a space. A quoted ``'Card #1'`` holds no comment; ``- 4 Card  # note`` does."""
    import yaml

    spans = [(token.start_mark.index, token.end_mark.index) for token in yaml.scan(text) if isinstance(token, yaml.ScalarToken)]
    out: list[tuple[int, str]] = []
    at = 0
    while True:
        at = text.find("#", at)
        if at < 0:
            return out
        inside = any(start <= at < end for start, end in spans)
        if not inside and (at == 0 or text[at - 1] in " \t\n"):
            end = text.find("\n", at)
            end = len(text) if end < 0 else end
            out.append((text.count("\n", 0, at) + 1, text[at:end].rstrip()))
            at = end
        else:
            at += 1


YDK_MARKERS = ("#main", "#extra")
"""The lines starting with ``#`` that are no comment in a .ydk file (any case, as the reader takes them)."""


def ydk_comments(text: str) -> list[tuple[int, str]]:
    """(line number, comment) of every comment line of a .ydk file: ``#`` lines but the markers."""
    return [(number, line.rstrip()) for number, line in enumerate(text.split("\n"), start=1)
            if line.strip().startswith("#") and line.strip().lower() not in YDK_MARKERS]


def _ydk(groups: list[CanonSection], original: str) -> str:
    markers = {"main": "#main", "extra": "#extra", "side": "!side"}
    head = [comment for _number, comment in ydk_comments(original)]  # the ones between sections too, at the top
    lines = head or ["#created by forcecheck fmt"]
    by_key = {g.key: g for g in groups}
    for key, marker in markers.items():
        lines.append(marker)
        group = by_key.get(key)
        for entry in group.entries if group else []:
            lines.extend([entry.printing or entry.name] * entry.count)
    return "\n".join(lines) + "\n"
