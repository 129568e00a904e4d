"""Finding the list in a pasted page (issue 38, ``resolve.page_text``), each shape both ways: the
page's text around a legal list leaves it legal with one FC016 finding that names the lines; the
same text beside an illegal list leaves it illegal for its own reason; and a block that might be
cards (a counted line, a line that names a card, the block a section header heads) stays cards.

Also the readings of lines such pages write inside their lists: a time of day is no count, a
price or rarity after a name is an annotation, a total said per section, a table's header row
with counts in its cells, a ruler and its J-ruler on one line.
"""

from __future__ import annotations

import pytest
from conftest import faria
from test_reading_shapes import YGO_EXTRA, YGO_MAIN, lines

from forcecheck.cards.catalog import sample_catalog
from forcecheck.checking import FormatCache
from forcecheck.decklists.readers import parse_decklist
from forcecheck.engine import check_decklist

CATALOG = sample_catalog()
FORMATS = FormatCache((), "none", CATALOG)
LIST = "Main Deck:\n" + lines(YGO_MAIN) + "\nExtra Deck:\n" + lines(YGO_EXTRA)
"""A legal ygo-5ds deck: main 40, extra 6."""
ILLEGAL = LIST.replace("1 Mirror Force", "4 Mirror Force").replace("3 Junk Synchron", "")
"""The same, with four Mirror Force (main still 40): FC201 on Mirror Force."""


def check(text: str, format_name: str = "ygo-5ds"):
    fmt = FORMATS.get(format_name)
    return check_decklist(parse_decklist(text, "page.txt", fmt.known_headers), fmt, CATALOG)


def errors(report) -> list[tuple[str, str | None, int | None]]:
    return [(v.code, v.card, v.line) for v in report.violations if v.severity == "error"]


def text_finding(report):
    found = [v for v in report.violations if v.code == "FC016"]
    assert len(found) == 1, [v.message for v in report.violations]
    return found[0]


def line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if line.startswith(start))


REPORT = ("\nThanks for reading!\n\nHow I did:\nRound 1 vs. Burn - win 2-0, he never drew his outs\n"
          "Round 2 vs. Zombies - 2-1\nTop 4 vs. Chaos - 2-0\n")
INFO = "Event: Regional Qualifier\nDate: May 21st, 2005\nTime: 10:00 AM (registration 8:30 - 9:45)\nEntry fee: $15\nPlayers: 38\n\n"
HEADED = "\nThanks to:\nDave for the ride\nthe Chicago crew\n"
ROUNDS = "\nRound by round:\n\n1. Burn - WW\n2. Zombies - WLW\n3. ID\n"
COMMENTS = "\nThanks for reading!\n\nPosted by Jane at 10:42 PM\n3 comments:\n\nBlog Archive\n► 2009 (12)\n▼ 2008 (34)\n▼ December (3)\n"


@pytest.mark.parametrize("page, first", [
    (LIST + REPORT, "Thanks for reading!"),
    (INFO + LIST, "Time: 10:00 AM"),
    (LIST + "\nThanks for reading!\n" + HEADED, "Thanks for reading!"),
    (LIST + ROUNDS, "Round by round"),
    (LIST + COMMENTS, "Thanks for reading!"),
])
def test_the_text_of_a_page_around_a_legal_list_leaves_it_legal_with_one_finding(page, first):
    report = check(page)
    assert report.legal and report.sections == {"main": 40, "extra": 6}, errors(report)
    finding = text_finding(report)
    assert finding.severity == "warning" and finding.line == line_of(page, first)


@pytest.mark.parametrize("text", [REPORT, HEADED, ROUNDS, COMMENTS])
def test_the_same_text_beside_an_illegal_list_leaves_it_illegal_for_its_own_reason(text):
    report = check(ILLEGAL + text)
    assert not report.legal
    assert [(code, card) for code, card, _line in errors(report)] == [("FC201", "Mirror Force")]
    assert report.sections == {"main": 40, "extra": 6}


def test_info_lines_above_an_illegal_list_hide_nothing():
    report = check(INFO + ILLEGAL)
    assert [(code, card) for code, card, _line in errors(report)] == [("FC201", "Mirror Force")]


def test_a_counted_line_in_a_text_block_keeps_the_block_in_the_list():
    """``3 Xyzzy`` after the report's lines: a card line that names no card is an unknown card,
    never the page's text (dropping it could make an illegal deck legal)."""
    page = LIST + REPORT + "3 Xyzzy Dragon\n"
    report = check(page)
    assert not report.legal
    assert ("FC001", "Xyzzy Dragon", line_of(page, "3 Xyzzy")) in errors(report)


def test_a_line_that_names_a_card_keeps_its_block_in_the_list():
    """Mirror Force among the report's lines is a card: counted (placed after the Extra Deck, in
    the Side Deck, and said on its line), never dropped with the text."""
    page = LIST + REPORT.replace("Top 4 vs. Chaos - 2-0", "Mirror Force")
    report = check(page)
    assert report.sections == {"main": 40, "extra": 6, "side": 1}
    placed = [v for v in report.violations if v.code == "FC011"]
    assert placed and placed[0].line == line_of(page, "Mirror Force")


def test_names_under_no_text_stay_unknown_cards():
    """A block after the list with no sign of the page's text (no sentence, no heading, no info
    line before it): its names are unknown cards, as before."""
    page = LIST + "\nXyzzy Dragon\nFoo Bar Baz\n"
    report = check(page)
    assert {(code, card) for code, card, _line in errors(report)} >= {("FC001", "Xyzzy Dragon"), ("FC001", "Foo Bar Baz")}
    assert not any(v.code == "FC016" for v in report.violations)


def test_an_unknown_header_that_names_a_section_stays_an_unknown_section():
    """``Alt Side Cards:`` may be a section written wrong, not a heading: FC004, its lines not text."""
    page = LIST + "\nThanks for reading!\n\nAlt Side Cards:\nXyzzy Dragon\n"
    report = check(page)
    assert ("FC004", None, line_of(page, "Alt Side")) in errors(report)


def test_a_heading_over_text_is_no_unknown_section_but_one_over_cards_is():
    assert not any(v.code == "FC004" for v in check(LIST + "\nThanks for reading!\n" + HEADED).violations)
    page = LIST + "\nThanks for reading!\n\nThanks to:\n2 Mirror Force\n"
    assert ("FC004", None, line_of(page, "Thanks to")) in errors(check(page))


def test_numbered_lines_are_an_enumeration_only_in_order():
    """``1. Burn - WW``, ``2. ...``, ``3. ...`` number the rounds; ``2. Xyzzy``, ``2. Foo`` count copies."""
    assert check(LIST + ROUNDS).legal
    page = LIST + ROUNDS.replace("1. Burn", "2. Burn")
    report = check(page)
    assert not report.legal and ("FC001", "Burn - WW", line_of(page, "2. Burn")) in errors(report)


# --- lines inside the list ---------------------------------------------------------------------

def test_a_time_of_day_is_no_count():
    from forcecheck.decklists.classify import LineKind, classify
    from forcecheck.decklists.model import HeaderTable

    for written in ("Time: 10:00 AM", "December 4, 2008 1:15 AM"):
        assert classify(written, HeaderTable.of(())).kind is not LineKind.LIST, written
    token = classify("1 Debris Dragon:3 Spore", HeaderTable.of(()))
    assert token.kind is LineKind.LIST and token.pieces == ["1 Debris Dragon", "3 Spore"]


@pytest.mark.parametrize("written, card", [
    ("3 Card Trooper (Super Rare) - $2.49 ea", "Card Trooper"),
    ("1 Dark Hole - $1.00", "Dark Hole"),
    ("2 Book of Moon - BOM-??? (forgot)", "Book of Moon"),
    ("1 Heavy Storm - 300円", "Heavy Storm"),
])
def test_a_price_rarity_or_half_written_code_after_the_name_is_an_annotation(written, card):
    original = next(f"{c} {n}" for c, n in YGO_MAIN if n == card)
    page = LIST.replace(original + "\n", written + "\n")
    report = check(page)
    assert report.legal and report.sections == {"main": 40, "extra": 6}, errors(report)
    said = [v for v in report.violations if v.code == "FC013" and "price, rarity or set code" in v.message]
    assert said and said[0].line == line_of(page, written)


def test_an_annotated_line_over_the_limit_is_still_over_it():
    report = check(LIST.replace("1 Dark Hole\n", "4 Dark Hole - $1.00 ea\n").replace("3 Junk Synchron\n", ""))
    assert [(code, card) for code, card, _line in errors(report)] == [("FC201", "Dark Hole")]


def test_a_set_code_of_another_card_after_the_name_is_no_annotation():
    """``4 Excalibur - SDAO1-026 (Rare)``: the words name Excalibur, the code Faria; the line is
    never read as one of them silently (it stays unknown: FC001 on its line)."""
    text = faria()
    page = text.replace("4 Excalibur\n", "4 Excalibur - SDAO1-026 (Rare)\n")
    assert page != text
    report = check(page, "bifrost")
    assert errors(report) == [("FC001", "Excalibur - SDAO1-026 (Rare)", line_of(page, "4 Excalibur"))]
    unknown = page.replace("SDAO1-026 (Rare)", "ZZZ9-999 (Rare)")  # a code of no card: the name is read, said on its line
    assert check(unknown, "bifrost").legal


def test_a_total_said_per_section_is_a_total():
    """``Total Cards: 40 main, 6 extra`` is a total, checked like one (its first number, the main deck's)."""
    report = check(LIST + "\nTotal Cards: 40 main, 6 extra\n")
    assert report.legal and errors(report) == [] and not any(v.code == "FC001" for v in report.violations)
    wrong = check(LIST + "\nTotal Cards: 41 main, 6 extra\n")
    assert any("41" in v.message for v in wrong.violations if v.code not in ("FC016",)), [v.message for v in wrong.violations]


def test_a_table_header_row_with_counts_in_its_cells():
    """``Main Deck (40)<TAB>Magic Stone Deck (10)``, then rows of two cells: each column its section."""
    from conftest import FARIA_MAIN, FARIA_STONES

    stones = [f"{c} {n}" for c, n in FARIA_STONES]
    rows = [f"{c} {n}\t{stones[at] if at < len(stones) else ''}" for at, (c, n) in enumerate(FARIA_MAIN)]
    page = "Ruler: Faria\n\nMain Deck (40)\tMagic Stone Deck (10)\n" + "\n".join(rows) + "\n"
    report = check(page, "bifrost")
    assert report.sections == {"ruler": 1, "main": 40, "stones": 10}, errors(report)
    assert not any(v.code in ("FC001", "FC004") for v in report.violations)


def test_a_ruler_and_its_j_ruler_on_one_line():
    text = faria()
    page = text.replace("Ruler:\n1 Faria\n", "Ruler: Faria (SDAO1-026) / J-Ruler: Faria [J-Ruler] (SDAO1-026J)\n")
    assert page != text
    report = check(page, "bifrost")
    assert report.legal and report.sections == check(text, "bifrost").sections, errors(report)
    two = check(text.replace("Ruler:\n1 Faria\n", "Ruler: Faria (SDAO1-026) / J-Ruler: Faria (SDAO1-026)\n"), "bifrost")
    assert two.sections["ruler"] == 2  # the same face written twice is two copies (CR 404.3)


def test_a_card_under_a_group_of_another_kind_is_said_on_its_line():
    """``Celestia x1`` under ``Monsters``: the Field Spell of that name is counted (it is the card
    written) and said on its line (FC011), where the player may mean a monster of a longer name."""
    monsters = YGO_MAIN[:11]
    spells = YGO_MAIN[11:]
    grouped = "Main Deck:\nMonsters:\n" + lines(monsters) + "Spells & Traps:\n" + lines(spells) + "\nExtra Deck:\n" + lines(YGO_EXTRA)
    clean = check(grouped)
    assert clean.legal and not any(v.code == "FC011" for v in clean.violations)
    moved = grouped.replace("1 Dark Hole\n", "").replace("Monsters:\n", "Monsters:\n1 Dark Hole\n")
    report = check(moved)
    assert report.legal and report.sections == {"main": 40, "extra": 6}
    said = [v for v in report.violations if v.code == "FC011"]
    assert [(v.card, v.line) for v in said] == [("Dark Hole", line_of(moved, "1 Dark Hole"))]
    assert "'Monsters'" in said[0].message
