"""The whole-line and whole-file readings that turned an illegal deck legal (issue 38), each both
ways: the legal list stays legal, the list with the hidden card is illegal with the exact rule,
card and numbers, or ambiguous (FC014) with both readings named.

1. A printing code names only the part of the line it is written beside.
2. A deck code in a text file does not make the file that code's deck.
3. A metadata line whose value is a card line, or a card's exact name, is ambiguous.
4. The same ruler face written twice is two copies (CR 404.3); its other face is the same card.
(5, a date before every list, is tests/test_banlist_choice.py; .ydk content read by its content,
whatever the file is called, is under 2.)
"""

from __future__ import annotations

import pytest
from test_reading_shapes import YGO_EXTRA, YGO_MAIN, lines

from forcecheck.cards.catalog import sample_catalog
from forcecheck.checking import FormatCache
from forcecheck.decklists.readers import parse_decklist
from forcecheck.decklists.ydke import encode
from forcecheck.engine import check_decklist

CATALOG = sample_catalog()
FORMATS = FormatCache((), "none", CATALOG)
MAIN = "Main Deck:\n" + lines(YGO_MAIN)
EXTRA = "Extra Deck:\n" + lines(YGO_EXTRA)
MIRROR_FORCE = "44095762"


def check(text: str, format_name: str = "ygo-5ds", name: str = "page.txt", suffix: str = ".txt"):
    fmt = FORMATS.get(format_name)
    return check_decklist(parse_decklist(text, name, fmt.known_headers, suffix=suffix), fmt, CATALOG)


def errors(report) -> list[tuple[str, str | None, int | None]]:
    return [(v.code, v.card, v.line) for v in report.violations if v.severity == "error"]


def passcode(name: str) -> int:
    return int(next(p for p in CATALOG.by_name("ygo", name).printings if p.isdigit()))


def passcodes(entries) -> list[int]:
    return [passcode(name) for count, name in entries for _ in range(count)]


# --- 1. a printing code and another card on one line ----------------------------------------------

def test_a_line_with_its_own_printing_code_is_that_card():
    report = check(MAIN.replace("1 Mirror Force", f"1 Mirror Force ({MIRROR_FORCE})") + EXTRA)
    assert report.legal and report.sections == {"main": 40, "extra": 6} and errors(report) == []


@pytest.mark.parametrize("written", [
    f"1 Mirror Force ({MIRROR_FORCE}) // Junk Synchron",
    f"1 Junk Synchron // Mirror Force ({MIRROR_FORCE})",
    "1 Mirror Force // 1 Junk Synchron",
])
def test_the_other_card_beside_a_code_or_after_slashes_is_read_too(written):
    """The fourth Junk Synchron was lost with no finding: it is counted, and over its limit."""
    report = check(MAIN.replace("1 Mirror Force", written) + EXTRA)
    assert report.sections == {"main": 41, "extra": 6}
    over = next(v for v in report.violations if v.code == "FC201")
    assert (over.card, over.found, over.limit) == ("Junk Synchron", 4, "at most 3")


@pytest.mark.parametrize("written", [f"Mirror Force ({MIRROR_FORCE}), Junk Synchron", f"Mirror Force ({MIRROR_FORCE}) Junk Synchron"])
def test_a_code_and_a_second_name_without_a_separator_the_reader_splits_at_is_ambiguous(written):
    report = check(MAIN.replace("1 Mirror Force", written) + EXTRA)
    assert not report.legal and ("FC014", "Mirror Force", 19) in errors(report)
    message = next(v.message for v in report.violations if v.code == "FC014")
    assert f"names Mirror Force by its code {MIRROR_FORCE} and Junk Synchron by its words" in message


def test_a_name_the_code_contradicts_is_ambiguous_not_judged_on_the_code():
    report = check(MAIN.replace("1 Mirror Force", f"1 Monster Reborn ({MIRROR_FORCE})") + EXTRA)
    assert errors(report) == [("FC014", "Mirror Force", 19)]
    assert "names Mirror Force by its code 44095762 and Monster Reborn by its words" in report.violations[0].message


def test_words_beside_a_code_that_name_no_card_are_said_and_the_code_is_read():
    report = check(MAIN.replace("1 Mirror Force", f"1 Mirror Force ({MIRROR_FORCE}) my tech card") + EXTRA)
    assert report.legal and report.sections == {"main": 40, "extra": 6}
    said = next(v for v in report.violations if v.code == "FC009")
    assert said.line == 19 and said.message == (f"printing {MIRROR_FORCE} is Mirror Force; the words 'Mirror Force my tech card' "
                                                "beside it name no card: read by the code")


def test_a_remark_after_slashes_stays_a_remark():
    report = check(MAIN.replace("1 Mirror Force", "1 Mirror Force // my best trap") + EXTRA)
    assert report.legal and report.sections == {"main": 40, "extra": 6}


# --- 2. a deck code and a text list in one file ---------------------------------------------------

CODE = encode(passcodes(YGO_MAIN), passcodes(YGO_EXTRA), [])


def test_a_code_and_the_same_deck_as_text_is_one_deck_said_twice():
    report = check(f"My deck, the code below\n{CODE}\n\n" + MAIN + EXTRA)
    assert report.legal and report.sections == {"main": 40, "extra": 6}
    said = next(v for v in report.violations if v.code == "FC013")
    assert said.message == "the text list on lines 5-30 is the same deck as the deck code on line 2: read once"


@pytest.mark.parametrize("where", ["after", "comment"])
def test_a_code_and_another_deck_as_text_is_an_error_that_says_where_they_differ(where):
    text = MAIN.replace("3 Junk Synchron", "4 Junk Synchron") + EXTRA
    page = f"{CODE}\n\n{text}" if where == "after" else f"{text}# ydke: {CODE}\n"
    report = check(page)
    assert not report.legal
    [differ] = [v for v in report.violations if v.code == "FC014"]
    assert differ.card == "Junk Synchron" and "3 in the code, 4 in the text" in differ.message
    assert "two different decks" in differ.message


def test_chat_around_a_code_stays_the_codes_comments():
    report = check(f"hey all, here's my deck, thoughts?\n{CODE}\nthanks!\n")
    assert report.legal and report.sections == {"main": 40, "extra": 6} and report.violations == []


def test_ydk_content_is_a_ydk_whatever_the_file_is_called():
    """A .ydk saved as deck.txt (or on standard input, or pasted into the desk) read '!side' as
    an unknown card and counted the side deck into the extra deck."""
    body = "\n".join(["#created by me", "#main", *map(str, passcodes(YGO_MAIN)), "#extra", *map(str, passcodes(YGO_EXTRA)),
                      "!side", str(passcode("Heavy Storm"))]) + "\n"
    for name, suffix in (("deck.txt", ".txt"), ("-", ""), ("pasted", "")):
        report = check(body, name=name, suffix=suffix)
        assert report.sections == {"main": 40, "extra": 6, "side": 1} and report.legal, (name, report.violations)
    text = check("#main\n3 Junk Synchron\n", name="deck.txt")  # a '#main' heading over card names is a text list
    assert text.sections == {"main": 3}


# --- 3. metadata lines ----------------------------------------------------------------------------

@pytest.mark.parametrize("line, key, count", [("Player: 1 Junk Synchron", "player", 1), ("Date: 2 Junk Synchron", "date", 2),
                                              ("Event: Junk Synchron", "event", 1)])
def test_a_metadata_value_that_is_a_card_is_ambiguous(line, key, count):
    report = check(line + "\n" + MAIN + EXTRA)
    assert errors(report) == [("FC014", "Junk Synchron", 1)]
    assert f"reads as the list's {key} or as {count} Junk Synchron" in report.violations[0].message


def test_metadata_with_plain_values_and_a_deck_named_after_a_card_stay_metadata():
    report = check("Player: Jane Doe\nDate: 2009-05-02\nEvent: Regional Qualifier\nDeck name: Junk Synchron\n" + MAIN + EXTRA)
    assert report.legal and report.violations == []


# --- 4. the same ruler twice ----------------------------------------------------------------------

RULER_MAIN = "Main Deck:\n" + "".join(f"4 {name}\n" for name in ("Thunder",)) + "\n"


def ruler_errors(ruler_lines: str):
    report = check(ruler_lines + "\n" + RULER_MAIN, "bifrost")
    return [(v.code, v.card, v.found) for v in report.violations if v.code in ("FC201", "FC702")], report


@pytest.mark.parametrize("ruler_lines", ["Ruler:\nAlmerius\nAlmerius\n", "Ruler:\n1 Almerius\n1 MSW-002\n",
                                         "Ruler:\n1 Almerius\n1 Almerius\n"])
def test_the_same_ruler_face_twice_is_two_copies(ruler_lines):
    found, report = ruler_errors(ruler_lines)
    assert ("FC201", "Almerius", 2) in found and report.sections["ruler"] == 2


@pytest.mark.parametrize("ruler_lines", ["Ruler:\nAlmerius\nAlmerius [J-Ruler]\n", "Ruler:\n1 Almerius\n1 MSW-002J\n",
                                         "Ruler: Almerius // Almerius [J-Ruler]\n", "Ruler:\nAlice, Tales of Creation\nOrder of Genesis\n"])
def test_a_rulers_other_face_is_the_same_card(ruler_lines):
    found, report = ruler_errors(ruler_lines)
    assert found == [] and report.sections["ruler"] == 1


def test_a_yaml_ruler_list_naming_one_ruler_twice_is_two_copies():
    report = check("format: bifrost\nsections:\n  Ruler: [Almerius, Almerius]\n  Main Deck:\n    - 4 Thunder\n",
                   "bifrost", name="deck.yaml", suffix=".yaml")
    assert [(v.code, v.card, v.found) for v in report.violations if v.code == "FC201"] == [("FC201", "Almerius", 2)]


# --- found by a probe on new pages (session 2026-12-03): a note among the cards, a deck named after a card ----------

@pytest.mark.parametrize("note", ["Junk Synchron: my best tuner, it wins games on its own.", "Junk Synchron - one more would be too many, I think.",
                                  "Junk Synchron\u3000チューナーとして採用しています。"])
def test_a_sentence_among_the_cards_that_begins_with_a_cards_name_is_ambiguous(note):
    """Read as prose, it hid a fourth Junk Synchron (a judge may read one with a note): ambiguous,
    naming the card. The same sentence away from the cards (a blank line between) is the page's text."""
    report = check(MAIN + note + "\n" + EXTRA)
    assert errors(report) == [("FC014", "Junk Synchron", 23)]  # the line right under the last card
    assert "reads as a note about Junk Synchron or as 1 Junk Synchron with a note" in report.violations[0].message
    apart = check(MAIN + EXTRA + "\n" + note + "\n")
    assert apart.legal and [v.code for v in apart.violations] == ["FC016"]


def test_a_deck_named_after_a_card_above_its_main_deck_header_is_its_name_not_a_card():
    """``Deck: Junk Synchron`` above ``Main Deck: 40`` was read as the Deck header with one card,
    and a main deck of 39 passed as 40."""
    short = "Main Deck: 40\n" + lines(YGO_MAIN[:-1] + [(0, "")])[: -len("0 \n")]
    text = "Player: Jane Doe\nDeck: Junk Synchron\n\n" + short + EXTRA
    report = check(text)
    assert [(v.code, v.found) for v in report.violations if v.severity == "error"] == [("FC101", 39)]
    named = next(v for v in report.violations if v.code == "FC010")
    assert named.line == 2 and named.message == "'Deck: Junk Synchron' is read as the deck's name, not as a card: a header of the same section follows it"
    whole = check("Player: Jane Doe\nDeck: Junk Synchron\n\nMain Deck: 40\n" + lines(YGO_MAIN) + EXTRA)
    assert whole.legal and [v.code for v in whole.violations] == ["FC010"]
