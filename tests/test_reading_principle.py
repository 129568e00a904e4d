"""Issue 28: a reading never turns an illegal deck legal, and reads what players paste.

Each test states a shape both ways: the legal list it makes readable and the illegal one it must
never make legal, asserting the exact rule, section, card, line and numbers."""

from __future__ import annotations

from conftest import faria

from forcecheck.cards.catalog import sample_catalog
from forcecheck.checking import FormatCache
from forcecheck.decklists.readers import parse_decklist
from forcecheck.engine import check_decklist
from forcecheck.resolve import resolve

CATALOG = sample_catalog()
FORMATS = FormatCache((), "none", CATALOG)


def read(text: str, format_name: str = "bifrost"):
    fmt = FORMATS.get(format_name)
    return parse_decklist(text, "deck.txt", fmt.known_headers), fmt


def check(text: str, format_name: str = "bifrost"):
    deck, fmt = read(text, format_name)
    return check_decklist(deck, fmt, CATALOG)


def found(report, severity: str | None = None):
    return [(v.code, v.section, v.card, v.line) for v in report.violations if severity is None or v.severity == severity]


# --- resolve reads, never writes ---------------------------------------------------------------

def test_resolving_a_list_twice_gives_the_same_resolution_and_leaves_the_list_as_read():
    deck, fmt = read("Champion Deck Profile: Faria\nThe Knights' Version\n" + faria())
    before = (deck.name, list(deck.notes))
    first, second = resolve(deck, fmt, CATALOG), resolve(deck, fmt, CATALOG)
    assert (deck.name, list(deck.notes)) == before == (None, [])
    assert first.title == second.title == "Champion Deck Profile: Faria"
    assert [n.text for n in first.headings] == [n.text for n in second.headings] == ["The Knights' Version"]
    assert [f.finding for f in first.findings] == [f.finding for f in second.findings]
