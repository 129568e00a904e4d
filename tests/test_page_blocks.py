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
TOP8 = ("We had 28 duelists tonight, thanks to everyone who came out!\n\nTOP 8\n1. Andre W. - X-Saber\n2. Lucas P. - Lightsworn\n"
        "3. Jeremy N. - Blackwing\n4. Tom R. - Tele-DAD\n\nBest record in Swiss: Lucas P. (5-0)\nRogue deck of the night: frogs\n\n")
STRUCTURE = "Event info\n- Date: Saturday, 8 August 2015\n- Players: 22\n- Structure: 5 rounds Swiss, best of 3, 50 minutes, top 4 cut\n\n"
ROUNDS_ALONE = "\nRounds\n\nR1 vs Burn (Tom) - 2-0\nHe never found his outs.\n\nR2 vs Zombies (Ann) - 2-1\nLost game 1, sided in 2 cards.\n"
RESULTS_JA = "\n――――――――――――――――――――\n\n■対戦結果\n予選1回戦　BF　○○\n予選2回戦　剣闘獣　○×○\n決勝T1回戦　ゾンビ　××\n"
COMMENTS_WP = ("\nShare this: Facebook · Twitter · Email\n\n12 Responses to \"Quickdraw: Going Fast\"\n\n  Kirik says:\n  3 May 2015 at 09:47\n"
               "  Great write-up! Have you tried a third copy of the tuner? It is really hard to deal with.\n\n"
               "      Ann_Rider says:\n      4 May 2015 at 15:05\n      Don't own them, honestly :)\n")


@pytest.mark.parametrize("page, first", [
    (LIST + REPORT, "Thanks for reading!"),
    (INFO + LIST, "Time: 10:00 AM"),
    (LIST + "\nThanks for reading!\n" + HEADED, "Thanks for reading!"),
    (LIST + ROUNDS, "Round by round"),
    (LIST + COMMENTS, "Thanks for reading!"),
    (TOP8 + LIST, "We had 28 duelists"),  # a top 8 above the list: its numbers are places, not counts
    (STRUCTURE + LIST, "Event info"),  # an info line cut at its commas ("50 minutes") is no card line
    (LIST + ROUNDS_ALONE, "Rounds"),  # a word alone above a report is its heading
    (LIST + RESULTS_JA, "■対戦結果"),  # a rule of ―, Japanese round results (予選1回戦 ... ○×○)
    (LIST + COMMENTS_WP, "Share this"),  # a blog's comments: "Kirik says:", "3 May 2015 at 09:47", "12 Responses to"
], ids=["report", "info", "headed", "rounds", "comments", "top8", "structure", "rounds-alone", "results-ja", "comments-wp"])
def test_the_text_of_a_page_around_a_legal_list_leaves_it_legal_with_one_finding(page, first):
    report = check(page)
    assert report.legal and report.sections == {"main": 40, "extra": 6}, errors(report)
    finding = text_finding(report)
    assert finding.severity == "warning" and finding.line == line_of(page, first)


@pytest.mark.parametrize("text, above", [(REPORT, False), (HEADED, False), (ROUNDS, False), (COMMENTS, False), (TOP8, True),
                                         (STRUCTURE, True), (ROUNDS_ALONE, False), (RESULTS_JA, False), (COMMENTS_WP, False)])
def test_the_same_text_beside_an_illegal_list_leaves_it_illegal_for_its_own_reason(text, above):
    report = check(text + ILLEGAL if above else ILLEGAL + text)
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


# --- the shapes of a second probe of new pages (12 pages: 6 -> 11 read right) ----------------------------

def test_a_numbered_block_of_cards_above_the_list_stays_cards():
    """The top 8's exemption is for lines that name no card: '1. Dark Hole' ... are cards."""
    page = "TOP 3\n1. Dark Hole\n2. Book of Moon\n3. Mystic Tomato\n\n" + LIST
    report = check(page)
    assert report.sections["main"] == 46 and ("FC101", None, 1) not in errors(report)
    assert [v.code for v in report.violations if v.code == "FC016"] == []


def test_a_word_alone_above_cards_is_no_heading_of_text():
    """'Rounds' is text above a report; above card lines it is what it was: an unknown card."""
    report = check(LIST + "\nSide Deck:\n2 Sangan\n\nRounds\n\n1 Giant Trunade\n")
    assert ("FC001", "Rounds", line_of(LIST + "\nSide Deck:\n2 Sangan\n\nRounds\n", "Rounds")) in errors(report)


def test_a_counted_line_that_is_no_date_stays_a_card_among_comments():
    """A blog's comment lines are text; '2 Mystic Tomato' in them is still a card line."""
    page = LIST + COMMENTS_WP.replace("  3 May 2015 at 09:47\n", "  2 Mystic Tomato\n")
    report = check(page)
    assert report.sections == {"main": 40, "extra": 6, "side": 2}  # counted, placed after the extra deck (FC011)
    assert errors(report) == [("FC201", "Mystic Tomato", line_of(page, "2 Mystic Tomato"))]  # 2 main + 2 side: 4 copies


@pytest.mark.parametrize("rarity", ["*(Super Rare)* — $4.50 ea", "_(Common)_ — $0.50", "**(Ultra Rare)** - $9.99"])
def test_a_markdown_rarity_and_a_price_after_a_name_are_annotations(rarity):
    page = LIST.replace("3 Junk Synchron\n", f"- 3x Junk Synchron {rarity}\n")
    report = check(page)
    assert report.legal and report.sections == {"main": 40, "extra": 6}, errors(report)
    unknown = check(page.replace("Junk Synchron", "Junk Synchrom Zzz"))
    assert [code for code, _card, line in errors(unknown) if line == 2] == ["FC001"]


def test_a_line_of_section_totals_is_checked_against_each_section():
    good = LIST + "\nMain deck total: 40 · Extra: 6\n"
    report = check(good)
    assert report.legal and report.sections == {"main": 40, "extra": 6}, errors(report)
    assert [v for v in report.violations if v.code == "FC006"] == []
    wrong = check(good.replace("Extra: 6", "Extra: 7"))
    found = [(v.code, v.line, v.found, v.limit) for v in wrong.violations if v.code == "FC006"]
    assert found == [("FC006", line_of(good, "Main deck total"), 6, "7")]


@pytest.mark.parametrize("written", ["Book of Moon (x{n}) - $2.49 ea", "Book of Moon ({n}) - $2.49 ea", "Book of Moon （×{n}） 300円"])
def test_a_count_in_brackets_before_a_price_is_the_count(written):
    """The price is an annotation; the bracketed count before it is not (the mutation hunt's false
    legal: 'Oz, the Great Wizard (x2) - $2.49 ea' read as one copy in a singleton deck)."""
    page = LIST.replace("2 Book of Moon\n", written.format(n=2) + "\n")
    report = check(page)
    assert report.legal and report.sections == {"main": 40, "extra": 6}, errors(report)
    over = check(LIST.replace("2 Book of Moon\n", written.format(n=4) + "\n"))
    found = [(v.code, v.card, v.line, v.found, v.limit) for v in over.violations if v.severity == "error"]
    assert found == [("FC201", "Book of Moon", line_of(LIST, "2 Book of Moon"), 4, "at most 3")], found


@pytest.mark.parametrize("written", ["Book of Moon ({n}) (Rare)", "Book of Moon (x{n}) (Super Rare)", "Book of Moon （×{n}） (Rare)"])
def test_a_count_in_brackets_before_a_remark_is_the_count(written):
    """A remark in brackets is taken off, the bracketed count before it is not (the full hunt's
    false legal: 'The First Monarch (4) (Rare)' read as one copy)."""
    report = check(LIST.replace("2 Book of Moon\n", written.format(n=2) + "\n"))
    assert report.legal and report.sections == {"main": 40, "extra": 6}, errors(report)
    over = check(LIST.replace("2 Book of Moon\n", written.format(n=4) + "\n"))
    found = [(v.code, v.card, v.line, v.found, v.limit) for v in over.violations if v.severity == "error"]
    assert found == [("FC201", "Book of Moon", line_of(LIST, "2 Book of Moon"), 4, "at most 3")], found
