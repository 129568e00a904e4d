"""Readers keep every line's number and never drop what was written."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES as SAMPLES_DIR
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forcecheck.decklists.readers import parse_decklist
from forcecheck.decklists.text import parse_entry, read_text_decklist
from forcecheck.errors import ForcecheckError

HEADERS = {"ruler", "main deck", "sideboard", "side deck", "magic stone deck"}


@pytest.mark.parametrize(
    "line,count,name,printing",
    [
        ("4 Viviane", 4, "Viviane", None),
        ("4x Viviane", 4, "Viviane", None),
        ("4 x Viviane", 4, "Viviane", None),
        ("4X Viviane", 4, "Viviane", None),
        ("Viviane x4", 4, "Viviane", None),
        ("Viviane", 1, "Viviane", None),
        ("2 Viviane (SDAO1-031)", 2, "Viviane", "SDAO1-031"),
        ("2 Viviane [SDAO1-031]", 2, "Viviane", "SDAO1-031"),
        ("1 White Wizard (Stranger)", 1, "White Wizard (Stranger)", None),
        ("1 Arcana: Guardian of the Temple", 1, "Arcana: Guardian of the Temple", None),
        ("3 Number 39: Utopia", 3, "Number 39: Utopia", None),
    ],
)
def test_card_lines(line, count, name, printing):
    entry = parse_entry(line, 7)
    assert (entry.count, entry.name, entry.printing, entry.line, entry.count_ok) == (count, name, printing, 7, True)


@pytest.mark.parametrize("line,count", [("0 Viviane", 0), ("-1 Viviane", -1), ("10000 Viviane", 10000), ("4.5 Viviane", 0), ("1,000 Viviane", 0), ("2/3x Viviane", 0)])
def test_bad_counts_are_kept_and_flagged(line, count):
    entry = parse_entry(line, 1)
    assert (entry.count, entry.name, entry.count_ok) == (count, "Viviane", False)


def test_headers_comments_and_inline_ruler():
    text = """# a comment
Ruler: Faria
// another comment

MAIN DECK (40):
4 Viviane   // trailing comment
4 Excalibur # trailing comment
Side Deck
2 Relief Aid
Magic Stone Deck:
"""
    deck = read_text_decklist(text, "d.txt", HEADERS)
    assert [(s.title, s.line, s.declared) for s in deck.sections] == [
        ("Ruler", 2, None),
        ("MAIN DECK", 5, 40),
        ("Side Deck", 8, None),
        ("Magic Stone Deck", 10, None),
    ]
    assert [(e.name, e.line) for e in deck.sections[0].entries] == [("Faria", 2)]
    assert [(e.count, e.name, e.line) for e in deck.sections[1].entries] == [(4, "Viviane", 6), (4, "Excalibur", 7)]
    assert deck.sections[3].entries == []


def test_a_card_name_with_a_colon_is_not_a_header():
    deck = read_text_decklist("Ruler:\nArcana: Guardian of the Temple\n", "d.txt", HEADERS)
    assert [e.name for e in deck.sections[0].entries] == ["Arcana: Guardian of the Temple"]


def test_crlf_and_bom_are_read(tmp_path):
    from forcecheck.decklists.readers import read_decklist

    path = tmp_path / "d.txt"
    path.write_bytes("\ufeffRuler: Faria\r\nMain Deck:\r\n4 Viviane\r\n".encode("utf-8"))
    deck = read_decklist(path, HEADERS)
    assert [(s.title, [(e.count, e.name, e.line) for e in s.entries]) for s in deck.sections] == [
        ("Ruler", [(1, "Faria", 1)]),
        ("Main Deck", [(4, "Viviane", 3)]),
    ]


def test_yaml_decklist_shapes_and_lines():
    text = """format: bifrost
name: Test
player: Jane
sections:
  Ruler: Faria
  Main Deck:
    - 4 Viviane
    - {name: Excalibur, count: 4, printing: SDAO1-025}
  Sideboard:
    Relief Aid: 2
"""
    deck = parse_decklist(text, "d.yaml", suffix=".yaml")
    assert (deck.format, deck.name, deck.metadata) == ("bifrost", "Test", {"player": "Jane"})
    got = [(s.title, [(e.count, e.name, e.printing, e.line) for e in s.entries]) for s in deck.sections]
    assert got == [
        ("Ruler", [(1, "Faria", None, 5)]),
        ("Main Deck", [(4, "Viviane", None, 7), (4, "Excalibur", "SDAO1-025", 8)]),
        ("Sideboard", [(2, "Relief Aid", None, 10)]),
    ]


def test_yaml_decklist_is_sniffed_without_extension():
    deck = parse_decklist("format: bifrost\nsections:\n  Ruler: Faria\n", "deck")
    assert deck.format == "bifrost"


@pytest.mark.parametrize(
    "text,line,fragment",
    [
        ("format: bifrost\nsections: [\n", 3, "malformed YAML"),
        ("format: bifrost\ncolour: red\nsections: {}\n", 2, "unknown key 'colour'"),
        ("format: bifrost\n", 1, "no 'sections'"),
        ("format: bifrost\nsections:\n  Ruler: Faria\n  Ruler: Melgis\n", 4, "duplicate key 'Ruler'"),
        ("- just\n- a list\n", 1, "must be a mapping"),
    ],
)
def test_unusable_yaml_decklists_name_file_and_line(text, line, fragment):
    with pytest.raises(ForcecheckError) as info:
        parse_decklist(text, "bad.yaml", suffix=".yaml")
    assert info.value.line == line and fragment in str(info.value)
    assert str(info.value).startswith(f"bad.yaml:{line}: ")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400))
def test_text_reader_never_crashes_and_never_loses_a_card_line(text):
    deck = read_text_decklist(text, "fuzz.txt", HEADERS)
    entries = sum(len(s.entries) for s in deck.sections)
    long_lines = sum(1 for p in deck.problems if p.rule == "line-too-long")
    rule = re.compile(r"^[\s|+=_~*・･·•\-–—:]*$")  # a table border or rule, or a lone colon: no text
    lines = [ln for ln in text.split("\n") if ln.strip() and not ln.strip().startswith(("#", "//")) and not rule.match(ln)]
    headers = len(deck.sections)
    # every other line is a header, an entry (an inline header holds one), a note (metadata, a total) or a reported problem
    assert entries + headers + long_lines + len(deck.notes) >= len(lines)


def test_decklists_as_people_post_them_online():
    text = """## Ruler
- 1 Faria, the Sacred Queen // Faria, the Ruler of God Sword
**Main Deck**
* 4x Gawain, the Knight of the Sun
\u2022 4 Viviane
== Magic Stones ==
- 10 Light Magic Stone
# a comment that only mentions the main deck
-1 Viviane
Sideboard: 15
"""
    deck = read_text_decklist(text, "post.md", {"ruler", "main deck", "magic stones", "sideboard"})
    got = [(s.title, s.declared, [(e.count, e.name, e.count_ok) for e in s.entries]) for s in deck.sections]
    assert got == [
        ("Ruler", None, [(1, "Faria, the Sacred Queen // Faria, the Ruler of God Sword", True)]),  # both faces: resolve reads one card
        ("Main Deck", None, [(4, "Gawain, the Knight of the Sun", True), (4, "Viviane", True)]),
        ("Magic Stones", None, [(10, "Light Magic Stone", True), (-1, "Viviane", False)]),
        ("Sideboard", 15, []),
    ]


@pytest.mark.parametrize(
    "title,declared",
    [("Main Deck (40):", 40), ("Main Deck - 40", 40), ("Main Deck [40]", 40), ("MAIN DECK 40 cards", 40), ("Main Deck: 40", 40), ("Main Deck", None)],
)
def test_header_counts_in_the_forms_people_write(title, declared):
    deck = read_text_decklist(f"{title}\n4 Viviane\n", "d.txt", {"main deck"})
    (section,) = deck.sections
    assert (section.title.lower(), section.declared, [e.name for e in section.entries]) == ("main deck", declared, ["Viviane"])


def test_japanese_and_chinese_section_titles():
    from conftest import violations

    text = "ルーラー:\n1 Faria\nメインデッキ (40)\n" + "".join(
        f"4 {n}\n" for n in ["Gawain, the Knight of the Sun", "Perceval, the Seeker of Holy Grail", "Bedivere, the Restorer of Souls",
                              "Kai, the Resonant Knight", "Avalon, Illusionary Home of Knights", "Excalibur", "Awakening of the Sacred Queen",
                              "Sacred Wave Blade", "Traveler in Wonderland", "Viviane"]
    ) + "魔石デッキ\n10 Light Magic Stone\n"
    assert violations(text) == []
    abc = (SAMPLES_DIR / "abc" / "legal-official-wb-holy-protector.txt").read_text()
    abc = abc.replace("Ruler:", "奥秘领主:").replace("Main Deck:", "主牌库 (60)").replace("Magic Stone Deck:", "魔石牌库:")
    assert violations(abc, "abc") == []


@pytest.mark.parametrize("line, message", [
    ("player: [1, 2]", "'player' must be text, not a list"),
    ("name: {a: b}", "'name' must be text, not a mapping"),
])
def test_yaml_metadata_that_is_no_text_is_an_error_on_its_line(tmp_path, line, message):
    """A list or mapping as a player or title would reach the reports as Python's text ([1, 2])."""
    from forcecheck.decklists.readers import read_decklist
    from forcecheck.errors import InputFileError

    path = tmp_path / "d.yaml"
    path.write_text(f"format: bifrost\n{line}\nsections:\n  Ruler: Faria\n")
    with pytest.raises(InputFileError) as caught:
        read_decklist(path)
    assert (caught.value.message, caught.value.line) == (message, 2)
    path.write_text("format: bifrost\nplayer: 42\nsections:\n  Ruler: Faria\n")  # a number is text enough
    assert read_decklist(path).metadata["player"] == 42
