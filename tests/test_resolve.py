"""Resolve's one-step lookup of a whole section gives exactly what the entry-by-entry path gives.

A reader marks a section ``uniform`` when every line is a plain name (text) or one passcode
(.ydk); resolve then looks the section up in one go and keeps no per-line objects. These tests
hold the two paths to the same result, and cover the cases where the fast path must step aside.
"""

from __future__ import annotations

import copy

import pytest
from conftest import SAMPLES

from forcecheck.cards import protocol as catalog_protocol
from forcecheck.cards.catalog import sample_catalog
from forcecheck.checking import FormatCache
from forcecheck.decklists.readers import parse_decklist, read_decklist
from forcecheck.engine import check_decklist
from forcecheck.resolve import resolve

_FORMATS = FormatCache()


def _facts(resolution):
    deck = resolution.deck
    sections = {
        section_id: [(id(e.card), e.count, e.line, e.section, e.written) for e in entries]
        for section_id, entries in deck.sections.items()
    }
    tallies = {s: {id(card): n for card, n in t.items()} for s, t in deck.tallies.items() if t}
    findings = sorted((f.rule, f.finding.message, f.finding.line) for f in resolution.findings)
    return sections, tallies, findings, resolution.content, [c.name for c in deck.ruler.cards]


@pytest.mark.parametrize("folder", ["bifrost", "abc", "ygo-5ds"])
def test_whole_section_lookup_equals_entry_by_entry(folder):
    fmt = _FORMATS.get(folder)
    checked = 0
    for path in sorted((SAMPLES / folder).iterdir()):
        deck = read_decklist(path, fmt.known_headers)
        if not any(s.uniform for s in deck.sections):
            continue
        slow = copy.deepcopy(deck)
        for section in slow.sections:
            section.uniform = None
        catalog = sample_catalog()  # fresh: the first resolve meets every card for the first time
        cold = _facts(resolve(deck, fmt, catalog))
        warm = _facts(resolve(copy.deepcopy(deck), fmt, catalog))  # every card remembered: the one-step path
        assert cold == warm == _facts(resolve(slow, fmt, catalog)), path.name
        checked += 1
    assert checked, f"no sample in {folder} has a uniform section"


def _check(text: str, format_name: str = "bifrost"):
    fmt = _FORMATS.get(format_name)
    deck = parse_decklist(text, "deck.txt", fmt.known_headers)
    catalog = sample_catalog()
    check_decklist(copy.deepcopy(deck), fmt, catalog)  # warm the remembered lookups first
    return deck, check_decklist(deck, fmt, catalog)


def test_a_card_on_two_lines_of_one_section_adds_up():
    deck, report = _check("Ruler:\n1 Faria\nMain Deck:\n3 Excalibur\n4 Viviane\n3 Excalibur\n")
    assert deck.sections[1].uniform == "name"
    [over] = [v for v in report.violations if v.rule == "copy-limit"]
    assert (over.card, over.found, over.line) == ("Excalibur", 6, 4)


def test_two_headers_of_one_section_add_up():
    _, report = _check("Ruler:\n1 Faria\nMain Deck:\n3 Excalibur\nMain Deck:\n2 Excalibur\n")
    [over] = [v for v in report.violations if v.rule == "copy-limit"]
    assert (over.found, over.line) == (5, 4)
    [size] = [v for v in report.violations if v.rule == "main-size"]
    assert size.found == 5


def test_a_bad_count_takes_the_section_off_the_fast_path():
    deck, report = _check("Ruler:\n1 Faria\nMain Deck:\n4 Excalibur\n0 Viviane\n")
    assert deck.sections[1].uniform is None
    [bad] = [v for v in report.violations if v.rule == "invalid-count"]
    assert (bad.card, bad.line) == ("Viviane", 5)
    [size] = [v for v in report.violations if v.rule == "main-size"]
    assert size.found == 4  # the bad line is not counted


def test_an_unknown_name_in_a_plain_section_is_reported_and_still_sized():
    _, report = _check("Ruler:\n1 Faria\nMain Deck:\n4 Excalibur\n4 Zzyzx Blade\n")
    [unknown] = [v for v in report.violations if v.rule == "unknown-card"]
    assert (unknown.card, unknown.line) == ("Zzyzx Blade", 5)
    [size] = [v for v in report.violations if v.rule == "main-size"]
    assert size.found == 8


def test_remembered_lookups_start_afresh_past_their_bound(monkeypatch):
    monkeypatch.setattr(catalog_protocol, "MEMO_LIMIT", 3)
    catalog = sample_catalog()
    memo, lookup = catalog.remembered("name", "fow")
    names = ["Excalibur", "Viviane", "Nope", "Kai, the Resonant Knight", "Sacred Wave Blade"]
    found = [lookup(n) for n in names]
    assert [c.name if c else None for c in found] == ["Excalibur", "Viviane", None, "Kai, the Resonant Knight", "Sacred Wave Blade"]
    assert len(memo) <= 3
    assert lookup("Excalibur") is found[0]  # forgotten, looked up again: the same card


@pytest.mark.parametrize(
    "text, suffix, uniform",
    [
        ("Main Deck:\n4 Excalibur\n1 [Variant] Grimmia's Fairy\nViviane\n", ".txt", "name"),  # odd names, no count: still plain
        ("Main Deck:\n4 Excalibur\n2 Viviane (CMF-001)\n", ".txt", None),  # a printing code
        ("Main Deck: 4 Excalibur\n4 Viviane\n", ".txt", "name"),  # a card on the header line
        ("Main Deck:\n4 Excalibur\n4.5 Viviane\n", ".txt", None),  # a count that is no whole number
        ("format: bifrost\nsections:\n  Main Deck:\n    - 4 Excalibur\n    - {name: Viviane, count: 4}\n", ".yaml", "name"),
        ("format: bifrost\nsections:\n  Main Deck:\n    - {name: Viviane, count: 4, printing: CMF-001}\n", ".yaml", None),
        ("#main\n46986414\n046986414\n", ".ydk", "printing"),  # a leading zero is read the general way, still one copy
    ],
)
def test_readers_vouch_for_plain_sections_only(text, suffix, uniform):
    fmt = _FORMATS.get("ygo-5ds" if suffix == ".ydk" else "bifrost")
    deck = parse_decklist(text, "deck" + suffix, fmt.known_headers, suffix=suffix)
    assert deck.sections[0].uniform == uniform


def test_a_ydk_card_repeated_over_two_main_markers_adds_up():
    fmt = _FORMATS.get("ygo-5ds")
    catalog = sample_catalog()
    code = next(c for c in catalog.cards("ygo") if c.printings and "token" not in c.types).printings[0]
    text = f"#main\n{code}\n{code}\n#extra\n#main\n{code}\n{code}\n!side\n"
    deck = parse_decklist(text, "deck.ydk", fmt.known_headers, suffix=".ydk")
    check_decklist(copy.deepcopy(deck), fmt, catalog)  # warm: the whole-section path
    resolved = resolve(deck, fmt, catalog).deck
    assert list(resolved.tallies["main"].values()) == [4]
    [over] = [v for v in check_decklist(deck, fmt, catalog).violations if v.rule == "copy-limit"]
    assert (over.found, over.line) == (4, 2)
