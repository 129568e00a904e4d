"""What one line of a plain text decklist is, decided from the line alone: the reader's first step.

``classify(line, headers)`` returns a token of one kind out of a closed set (``LineKind``), in
the spirit of Forge's deck reader (one token type per kind of line): a header, a group, a total,
metadata, a comment, a card line, ... It looks at nothing but the line and the format's header
titles (no card, no state of the list), so each decision can be tested alone and named when it
regresses; the reader (``decklists.text``) keeps the state (which section cards go to, blank
gaps) and applies the tokens in order.
"""

from __future__ import annotations

import re
from enum import Enum

from forcecheck.decklists.lines import (
    column_titles,
    is_list_label,
    is_table_header_row,
    list_on_one_line,
    looks_like_prose,
    looks_like_text,
    metadata_of,
    misspelt_header,
    read_header,
    section_totals,
    split_at_headers,
    strip_markup,
    total_of,
)
from forcecheck.decklists.model import HeaderTable, header_key
from forcecheck.lazyre import lazy
from forcecheck.records import Record


class LineKind(Enum):
    """The kinds of line a text decklist holds."""

    BLANK = "blank"
    """Nothing to read: empty, forum markup alone, or a rule of a table (``---``, ``|--:|``)."""
    COMMENT = "comment"
    """``# a note``, ``// a note``: fmt keeps it; a comment that reads as a card line is said (FC015)."""
    COMMENT_METADATA = "comment-metadata"
    """``# Player: Jane Doe``: metadata in a comment."""
    REMARK = "remark"
    """``[... the page ends here ...]``: an editor's mark in a copied page; ``(各一枚ずつ)``: a remark
    in brackets on a line of its own (the resolver looks its words up: a card so written is no remark)."""
    TOTAL = "total"
    """``Total: 41``, ``43 cards total``: no card, checked against the cards."""
    TOTALS = "totals"
    """``Main deck total: 40 · Stones: 11 · Side: 12``: a total of each section named (value: the
    ``(count, section title)`` pairs), each checked as a TOTAL is."""
    METADATA = "metadata"
    """``Player: Jane D.``, ``Event:``, ``Date:``."""
    TABLE_HEADER = "table-header"
    """``| Qty | Name | Type |``: a table's header row."""
    LABEL = "label"
    """``Decklist:``, ``デッキレシピ``: announces the list, names no section."""
    HEADER = "header"
    """A section or group header, maybe with a count or a card inline (``Ruler: Faria``)."""
    COLUMNS = "columns"
    """``Main Deck Stone Deck Side Board``: the titles of a table flattened by a web page."""
    COLLAPSED = "collapsed"
    """A whole list collapsed onto one line, cut at its section titles: each piece is read again."""
    LIST = "list"
    """Card lines written on one line with separators (``2:A, 3:B``, ``2 A | 3 B``)."""
    MISSPELT_HEADER = "misspelt-header"
    """``Spels``, ``Sidebaord:``: a header whose title is one edit from a known one (the resolver says so)."""
    TEXT = "text"
    """A sentence or paragraph of the page around the list (``looks_like_text``): never split
    into pieces nor read as cards; the resolver looks it up whole, so a card so named is not lost."""
    CARD = "card"
    """A card line (or a line that may name a card: resolve decides, with the catalog)."""


class LineToken(Record):
    """A line as classified: its kind, the text that counts (markup, a bullet and a trailing
    comment removed) and what the kind carries."""

    kind: LineKind
    text: str
    header: object
    """HEADER: the ``lines.HeaderLine``; COLUMNS: the list of them."""
    pieces: list[str] | None
    """COLLAPSED: the parts to read again; LIST: the card lines."""
    value: tuple | None
    """METADATA, COMMENT_METADATA: ``(key, value)``; TOTAL: ``(count, section title or None)``;
    TOTALS: a tuple of ``(count, section title)``."""
    trailing: str | None
    """A comment after a card line (``4 Name  // my note``)."""

    __slots__ = ("kind", "text", "header", "pieces", "value", "trailing")

    def __init__(self, kind: LineKind, text: str, header: object = None, pieces: list[str] | None = None,
                 value: tuple | None = None, trailing: str | None = None) -> None:
        self.kind = kind
        self.text = text
        self.header = header
        self.pieces = pieces
        self.value = value
        self.trailing = trailing


_COMMENT_METADATA = lazy(
    r"^\s*(?:#|//)\s*(player|name|deck|event|date|author|place|format)\s*:\s*(\S.*?)\s*$", re.IGNORECASE
)
_TRAILING_COMMENT = lazy(r"\s+#\s.*$|\s{2,}//(?:\s.*)?$")
"""``4 Name # my note``, ``4 Name   // my note``. A `` // `` with single spaces is no comment but
the mark between a card's faces (``Ruler // J-ruler``)."""
_MARKDOWN_HEADING = lazy(r"^(?:#+|//)\s*")
_BULLET = lazy(r"^(?:[-*]\s+|[•·●▪►>|]\s*)+(?=\S)")
"""``- 4x Name``, ``* Name``, ``• Name``: list items (``-1 Name`` is a negative count, no bullet)."""
_RULE_LINE = lazy(r"^[\s|+=_~*・･·•\-–—:\u2010-\u2015\u2500-\u257f＝＿～〜ー－]*$")
"""A line of rule characters (``---``, ``====``, ``――――``, ``━━━━``): a separator, as good as a blank line."""
_EDITORS_NOTE = lazy(r"^[\[［].*(?:\.\.\.|…).*[\]］]$")
"""A whole line in square brackets with an ellipsis: an editor's mark (``[... the page ends here ...]``)."""


_ASIDE = lazy(r"^[(（][^()（）]+[)）]$")
"""A whole line in round brackets (``(各一枚ずつ)``, ``(one of each)``): a remark on the cards around it."""
_COUNT_ASIDE = lazy(r"^[(（]\s*(?:[xX×]?\s*\d+\s*[xX×]?|\d+\s*(?:cards?|枚))\s*[)）]$", re.IGNORECASE)
"""``(3)``, ``(x3)``, ``(40 cards)``: a count in brackets, not a remark."""


_PARAGRAPH = 200
"""A line this long that reads as text is text before any header is looked for in it."""


def comment_metadata(line: str) -> tuple[str, str] | None:
    """``# Player: Jane Doe`` -> ("player", "Jane Doe"): the comments that carry metadata."""
    match = _COMMENT_METADATA.match(line)
    return (match.group(1).lower(), match.group(2)) if match else None


def classify(line: str, headers: HeaderTable) -> LineToken:
    """The kind of a stripped, non-empty line of a text decklist, from the line alone."""
    if "[" in line:
        line = strip_markup(line)  # "[deck]...[/deck]", "[b]Main Deck[/b]": forum markup, never a card
        if not line:
            return LineToken(LineKind.BLANK, line)
    if line.startswith(("#", "//")):
        meta = comment_metadata(line)
        if meta:
            return LineToken(LineKind.COMMENT_METADATA, line, value=meta)
        heading = _MARKDOWN_HEADING.sub("", line)
        header = read_header(heading, headers) if heading and not looks_like_prose(heading) else None
        if header is None or not header.known:
            return LineToken(LineKind.COMMENT, line)
        return LineToken(LineKind.HEADER, line, header=header)  # "## Main Deck"
    if _BULLET.match(line):
        line = _BULLET.sub("", line)  # "- 4x Name", "• Name x2": a list item
    if _RULE_LINE.match(line):
        return LineToken(LineKind.BLANK, line)  # "|", "---", "===", "|--:|": as good as a blank line
    if _EDITORS_NOTE.match(line) or (_ASIDE.match(line) and not _COUNT_ASIDE.match(line)):
        return LineToken(LineKind.REMARK, line)
    trailing = None
    if "#" in line or "  //" in line:
        uncommented = _TRAILING_COMMENT.sub("", line).strip()
        if uncommented != line:
            trailing = line[len(uncommented):].strip()
        line = uncommented
        if not line:
            return LineToken(LineKind.COMMENT, trailing or "")
    totals = section_totals(line, headers)
    if totals is not None:
        return LineToken(LineKind.TOTALS, line, value=totals, trailing=trailing)
    total = total_of(line)
    if total is not None:
        return LineToken(LineKind.TOTAL, line, value=total, trailing=trailing)
    meta = metadata_of(line)
    if meta is not None and header_key(meta[0]) not in headers.sections:
        return LineToken(LineKind.METADATA, line, value=meta, trailing=trailing)
    if is_table_header_row(line):
        return LineToken(LineKind.TABLE_HEADER, line, trailing=trailing)
    if len(line) > _PARAGRAPH and looks_like_text(line):
        return LineToken(LineKind.TEXT, line, trailing=trailing)  # a paragraph: no header's title is this long
    if not line[0].isdigit():
        if is_list_label(line) and header_key(line.rstrip(":： ")) not in headers.sections:
            return LineToken(LineKind.LABEL, line, trailing=trailing)
        header = read_header(line, headers)
        if header is not None:
            kind = LineKind.MISSPELT_HEADER if header.corrected else LineKind.HEADER
            return LineToken(kind, line, header=header, trailing=trailing)
    if looks_like_text(line):
        return LineToken(LineKind.TEXT, line, trailing=trailing)
    if not line[0].isdigit():
        columns = column_titles(line, headers)
        if columns is not None:
            return LineToken(LineKind.COLUMNS, line, header=columns, trailing=trailing)
        pieces = split_at_headers(line, headers)
        if pieces is not None:
            return LineToken(LineKind.COLLAPSED, line, pieces=pieces, trailing=trailing)
    pieces = list_on_one_line(line)
    if pieces is not None:
        return LineToken(LineKind.LIST, line, pieces=pieces, trailing=trailing)
    if len(line) <= 40 and not line[0].isdigit():
        header = misspelt_header(line, headers)
        if header is not None:
            return LineToken(LineKind.MISSPELT_HEADER, line, header=header, trailing=trailing)
    return LineToken(LineKind.CARD, line, trailing=trailing)
