"""The reader's steps alone (issue 28, design.md "The reader as a pipeline"): what kind a line is,
and how a card line reads, each a row that names the pattern when it regresses."""

from __future__ import annotations

import pytest

from forcecheck.cards.catalog import sample_catalog
from forcecheck.checking import FormatCache
from forcecheck.decklists.classify import LineKind, classify
from forcecheck.decklists.lines import parse_entry

FORMATS = FormatCache((), "none", sample_catalog())
K = LineKind


@pytest.mark.parametrize("format_name, line, kind", [
    ("bifrost", "Main Deck (40):", K.HEADER), ("bifrost", "Ruler: Faria", K.HEADER), ("bifrost", "## Sideboard", K.HEADER),
    ("bifrost", "Resonators: (20 of 40)", K.HEADER), ("ygo-5ds", "Synchros (2):", K.HEADER), ("ygo-5ds", "モンスター(18)", K.HEADER),
    ("ygo-5ds", "Main Deck x 42", K.HEADER), ("ygo-5ds", "Here's my sideboard:", K.HEADER),
    ("bifrost", "Total: 41", K.TOTAL), ("bifrost", "43 cards total", K.TOTAL), ("ygo-5ds", "合計 40枚", K.TOTAL),
    ("bifrost", "Player: Jane D.", K.METADATA), ("bifrost", "# Player: Jane D.", K.COMMENT_METADATA),
    ("bifrost", "# a note", K.COMMENT), ("bifrost", "// 1 Gawain", K.COMMENT), ("bifrost", "#1 Gawain", K.COMMENT),
    ("bifrost", "| Qty | Name | Type |", K.TABLE_HEADER), ("bifrost", "Decklist:", K.LABEL),
    ("bifrost", "Main Deck Stone Deck Side Board", K.COLUMNS), ("bifrost", "---", K.BLANK), ("bifrost", "|--:|:--|", K.BLANK),
    ("bifrost", "[deck]", K.BLANK), ("bifrost", "[... the page ends here ...]", K.REMARK),
    ("bifrost", "Jane Ruler: Faria Main Deck: 40 4 Gawain 4 Viviane", K.COLLAPSED),
    ("bifrost", "2:Gawain, the Knight of the Sun, 3:Viviane", K.LIST), ("ygo-5ds", "2 Mirror Force | 3 Dark Hole", K.LIST),
    ("bifrost", "4 Gawain, the Knight of the Sun", K.CARD), ("bifrost", "Top 8: 1 Gawain", K.CARD),
    ("bifrost", "Here's what Jane is playing:", K.TEXT),  # a sentence naming no section: text of the page (resolve looks it up whole)
    ("abc", "ABC - Arcana: Musician of Flame, Hero of Water", K.CARD),  # one title inside a line is no collapsed list
])
def test_a_line_is_classified_by_itself(format_name, line, kind):
    assert classify(line, FORMATS.get(format_name).known_headers).kind is kind


@pytest.mark.parametrize("line, count, name", [
    ("4 Name", 4, "Name"), ("4x Name", 4, "Name"), ("3 x Name", 3, "Name"), ("x4 – Name", 4, "Name"), ("Name x4", 4, "Name"),
    ("Name ×２枚", 2, "Name"), ("Name 2枚", 2, "Name"), ("Name (x3)", 3, "Name"), ("3《Name》", 3, "Name"),
    ("4: Name", 4, "Name"), ("4) Name", 4, "Name"), ("4. Name", 4, "Name"), ("4- Name", 4, "Name"), ("Name [4]", 4, "Name"),
    ("Name (4)", 4, "Name"), ("4pcs Name", 4, "Name"), ("(4) Name", 4, "Name"), ("3:名前", 3, "名前"), ("名前：3", 3, "名前"),
    ("名前×3", 3, "名前"), ("名前 3枚", 3, "名前"), ("Name", 1, "Name"), ("Number 39: Utopia", 1, "Number 39: Utopia"),
    ("1st Place: x1 – Name", 1, "1st Place: x1 – Name"),  # a label, then a card line: never "1st Place:" once
])
def test_a_card_line_reads_its_count_and_name(line, count, name):
    entry = parse_entry(line, 1)
    assert (entry.count, entry.name) == (count, name)
