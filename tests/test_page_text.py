"""A page a player pastes is text around a list (issue 38): finding the list, and every part of
every line accounted for. Each behaviour is tested both ways: the page's text is read as text
(the deck stays as legal as its list), and the same place holding a card (or a violation) is
still a card, counted or reported, never lost as text.

Most tests read against the embedded sample catalog; those that need a real card's name (a
short name, a card named like a sentence) use the real catalogs and skip without ../shared."""

from __future__ import annotations

import pytest
from conftest import needs_shared
from test_reading_shapes import YGO_EXTRA, YGO_MAIN, lines

from forcecheck.cards.catalog import sample_catalog
from forcecheck.checking import FormatCache
from forcecheck.decklists.readers import parse_decklist
from forcecheck.engine import check_decklist

CATALOG = sample_catalog()
FORMATS = FormatCache((), "none", CATALOG)

PARAGRAPH = ("Hello everyone, this is my report from the regional qualifier held last weekend at the local game store. "
             "I played my Synchron deck which I have been testing for weeks with my friends, and I think it did quite well "
             "against the field, which was mostly Blackwing and Gladiator decks. I went 5-1 in the swiss rounds and then "
             "lost in the top 8 to a deck that drew 3 Mirror Force every game, so spots in the Top 8 went to two Synchron "
             "decks. The store was packed and the judges were friendly, and I want to thank them all for the day.")
MAIN = "Main Deck:\n" + lines(YGO_MAIN)
EXTRA = "Extra Deck:\n" + lines(YGO_EXTRA)


def check(text: str, format_name: str = "ygo-5ds", catalog=CATALOG):
    fmt = FORMATS.get(format_name) if catalog is CATALOG else FormatCache((), "none", catalog).get(format_name)
    return check_decklist(parse_decklist(text, "page.txt", fmt.known_headers), fmt, catalog)


def codes(report, severity: str | None = None) -> list[str]:
    return [v.code for v in report.violations if severity is None or v.severity == severity]


def finding(report, code: str):
    return next(v for v in report.violations if v.code == code)


# --- paragraphs and sentences ------------------------------------------------------------------

def test_a_paragraph_of_any_length_is_text_and_the_list_stays_legal():
    assert len(PARAGRAPH) > 500
    report = check(PARAGRAPH + "\n\n" + MAIN + EXTRA + "\n" + PARAGRAPH + "\n")
    assert report.legal and report.sections == {"main": 40, "extra": 6}
    assert codes(report) == ["FC016"]
    text = finding(report, "FC016")
    assert text.line == 1 and text.lines == (1, 31) and text.severity == "warning"
    assert "2 lines read as text of the page" in text.message and "lines 1, 31" in text.message


def test_a_paragraph_never_hides_the_list_s_violation():
    """The same page with a fourth Junk Synchron: the paragraph is text, the violation stands."""
    report = check(PARAGRAPH + "\n\n" + MAIN.replace("3 Junk Synchron", "4 Junk Synchron") + EXTRA)
    assert not report.legal
    assert [(v.code, v.card) for v in report.violations if v.severity == "error"] == [("FC201", "Junk Synchron")]


def test_counts_inside_a_sentence_are_no_cards():
    """'lost in the top 8 to a deck that drew 3 Mirror Force': a sentence is never cut into card lines."""
    report = check(MAIN + EXTRA + "\nI lost in the top 8 to a deck that drew 3 Mirror Force every game, sadly.\n")
    assert report.legal and report.sections == {"main": 40, "extra": 6} and codes(report) == ["FC016"]


def test_a_counted_card_line_with_a_remark_is_no_sentence():
    """'3 Mirror Force (I love it, you know)' is a card line: its count stands."""
    report = check(MAIN.replace("1 Mirror Force", "3 Mirror Force (I love it, you know it is good)") + EXTRA)
    assert report.sections == {"main": 42, "extra": 6}
    assert "FC016" not in codes(report)


@needs_shared
def test_a_card_named_like_a_sentence_is_never_lost_as_text(real_catalogs):
    """A line that reads as a sentence but is a card's exact name: FC014 names both readings."""
    report = check("Ruler: Faria, the Sacred Queen\nMain Deck:\n4 Thunder\nAnd War it Shall Be!\n", "bifrost", real_catalogs["fow"])
    ambiguous = finding(report, "FC014")
    assert ambiguous.line == 4 and ambiguous.card == "And War it Shall Be!" and ambiguous.severity == "error"
    assert "reads as a sentence of the page around the list or as 1 And War it Shall Be!" in ambiguous.message


# --- headings, info lines, remarks beside the text ------------------------------------------------

def test_a_heading_and_info_lines_beside_the_text_are_text():
    page = (MAIN + EXTRA + "\nNOTES\n\nPlaying this deck was a good idea, and I would play it again next week.\n"
            "1st match- Synchron VS. Blackwing\n")
    report = check(page)
    assert report.legal and report.sections == {"main": 40, "extra": 6}
    assert codes(report) == ["FC016"] and finding(report, "FC016").lines == (29, 31, 32)


def test_a_card_beside_the_text_is_still_a_card():
    """A card's name (exact, or a near miss the corrector reads) next to a paragraph is counted."""
    page = MAIN + EXTRA + "\nMirror Force\nPlaying this deck was a good idea, and I would play it again next week.\n"
    report = check(page)
    assert sum(report.sections.values()) == 47 and "FC016" in codes(report)  # counted (placed where a card after the extra deck goes)
    typo = check(page.replace("\nMirror Force\n", "\nMirror Forse\n"))
    assert sum(typo.sections.values()) == 47
    assert {"line": 29, "written": "Mirror Forse", "read_as": "Mirror Force"} in typo.corrections


def test_an_unknown_header_over_no_cards_is_a_heading_and_over_cards_an_unknown_section():
    heading = check(MAIN + EXTRA + "\nAbout the Deck:\nThis deck is the one I played all season, and it is a good one.\n")
    assert heading.legal and "FC004" not in codes(heading)
    section = check(MAIN + EXTRA + "\nMaybe later:\n2 Heavy Storm\n")
    unknown = finding(section, "FC004")
    assert unknown.line == 29 and unknown.severity == "error" and not section.legal


def test_a_remark_in_brackets_on_its_own_line():
    report = check(MAIN + "Extra Deck:\n(one of each)\n" + "".join(f"{n}\n" for _c, n in YGO_EXTRA))
    assert report.legal and report.sections == {"main": 40, "extra": 4}
    card = check(MAIN + "Extra Deck:\n(Stardust Dragon)\n" + "".join(f"{n}\n" for _c, n in YGO_EXTRA[1:]))
    ambiguous = finding(card, "FC014")
    assert ambiguous.line == 24 and ambiguous.card == "Stardust Dragon" and not card.legal
    counted = check(MAIN + "Extra Deck:\n(3)\nStardust Dragon\n")
    assert "FC014" not in codes(counted)  # "(3)" is a count in brackets, no remark


# --- misspelt headers ---------------------------------------------------------------------------

def test_a_misspelt_header_is_corrected_with_a_finding():
    page = MAIN.replace("1 Monster Reborn", "Spels\n1 Monster Reborn") + EXTRA
    report = check(page)
    assert report.legal and report.sections == {"main": 40, "extra": 6}
    said = finding(report, "FC013")
    assert said.line == 13 and said.message == "read 'Spels' as the 'Spells' header (a misspelt section or group title)"


def test_a_misspelt_section_header_puts_its_cards_in_that_section():
    report = check(MAIN + "Extar Deck:\n" + lines(YGO_EXTRA))
    assert report.sections == {"main": 40, "extra": 6} and report.legal
    assert "read 'Extar Deck:' as the 'Extra deck' header" in finding(report, "FC013").message


def test_a_word_two_edits_from_a_short_title_is_no_header():
    """'Spams' is two edits from 'Spells': a card line (unknown), never a header."""
    report = check(MAIN.replace("1 Monster Reborn", "Spams") + EXTRA)
    assert "FC013" not in codes(report) and finding(report, "FC001").card == "Spams"


def test_a_misspelt_title_with_an_x_count_is_a_card_line_not_a_header():
    """'Spels x3' counts copies of a card named Spels (an x marks copies): unknown, never a header
    that would put the lines after it somewhere else; 'Spels (3)' is the header with its size."""
    report = check(MAIN.replace("1 Monster Reborn", "Spels x3\n1 Monster Reborn") + EXTRA)
    assert "FC013" not in codes(report) and (finding(report, "FC001").card, finding(report, "FC001").line) == ("Spels", 13)
    sized = check(MAIN.replace("1 Monster Reborn", "Spels (1)\n1 Monster Reborn") + EXTRA)
    assert finding(sized, "FC013").line == 13 and "FC001" not in codes(sized)


# --- markup -------------------------------------------------------------------------------------

def test_a_site_s_own_tags_are_stripped_and_a_tag_naming_a_section_heads_it():
    main = ":".join(f"{c} {n}" for c, n in YGO_MAIN)
    extra = ":".join(f"{c} {n}" for c, n in YGO_EXTRA)
    page = f'Here is my list:\n[ccDeck="Main Deck"]{main}[/ccDeck] [ccDeck="Extra Deck"]{extra}[/ccDeck]\n'
    report = check(page)
    assert report.sections == {"main": 40, "extra": 6} and report.legal, report.violations
    glued = check("[ccDeck]" + MAIN.replace("1 Heavy Storm", "1 Heavy Storm[/ccDeck]") + EXTRA)
    assert glued.legal and "FC001" not in codes(glued)


def test_a_tag_glued_to_a_name_with_no_pair_on_the_page_is_markup_and_the_card_counts():
    report = check(MAIN.replace("1 Heavy Storm", "1 Heavy Storm[/ccDeck]") + EXTRA)
    assert report.legal and report.sections == {"main": 40, "extra": 6}
    assert finding(report, "FC013").message == "read '1 Heavy Storm[/ccDeck]' as 1 Heavy Storm (a forum tag glued to the name, stripped)"
    over = check(MAIN + "1 Junk Synchron[/deck]\n" + EXTRA)
    assert [(v.code, v.card, v.found) for v in over.violations if v.severity == "error"] == [("FC201", "Junk Synchron", 4)]


def test_a_colon_before_a_count_cuts_a_list_on_one_line_but_a_colon_in_a_name_does_not():
    report = check("Main Deck: " + ":".join(f"{c} {n}" for c, n in YGO_MAIN) + "\n" + EXTRA)
    assert report.sections == {"main": 40, "extra": 6}
    assert check("Main Deck:\n1 Number 39: Utopia\n").sections == {"main": 1}  # no count after the colon: one name


# --- annotations on a card line --------------------------------------------------------------------

@pytest.mark.parametrize("written", ["[1] Mirror Force", "[1] Mirror Force (Super Rare) - LOB-001", "1 Mirror Force - LOB-001"])
def test_a_square_bracket_count_a_rarity_and_a_set_code_after_a_dash(written):
    report = check(MAIN.replace("1 Mirror Force", written) + EXTRA)
    assert report.legal and report.sections == {"main": 40, "extra": 6}, report.violations


def test_a_square_bracket_count_is_a_count():
    report = check(MAIN.replace("1 Mirror Force", "[4] Mirror Force (Super Rare) - LOB-001") + EXTRA)
    assert [(v.code, v.card) for v in report.violations if v.severity == "error"] == [("FC201", "Mirror Force")]


# --- names as players shorten them (real catalogs) -------------------------------------------------

@needs_shared
@pytest.mark.parametrize("written, meant, why", [
    ("La Jinn", "La Jinn the Mystical Genie of the Lamp", "shortened name"),
    ("Mystical Space", "Mystical Space Typhoon", "shortened name"),
    ("Ghost Ogre and Snow Rabbit", "Ghost Ogre & Snow Rabbit", "spelling variant"),
    ("BW Gale the Whirlwind", "Blackwing - Gale the Whirlwind", "its prefix abbreviated"),
])
def test_short_and_renamed_names_bind_where_one_card_alone_is_meant(real_catalogs, written, meant, why):
    found = real_catalogs["ygo"].correct("ygo", written)
    if meant is None:
        assert found is None
    else:
        assert (found[0].name, found[1].why) == (meant, why)


@needs_shared
@pytest.mark.parametrize("written", ["Dark Magic", "Elemental Hero", "AB Gale the Whirlwind", "Raiden, Lightsworn Assailant",
                                     "Gale Force Wind"])
def test_a_short_name_several_cards_begin_with_stays_unknown(real_catalogs, written):
    """Several cards begin so, the capitals stand for no card's prefix, or the words after a comma
    name no part of the card with that first name (``Raiden, Lightsworn Assailant``: binding by the
    first name alone would bind a new card of that name, not yet in the catalog, silently)."""
    game = "fow" if written == "Gale Force Wind" else "ygo"
    assert real_catalogs[game].correct(game, written) is None


def test_and_reads_as_the_ampersand_of_a_name():
    from forcecheck.cards.correct import variant_key

    assert variant_key("ghost ogre and snow rabbit") == variant_key("ghost ogre snow rabbit")


# --- Japanese pages -------------------------------------------------------------------------------

JA_MAIN = "メインデッキ\n" + "".join(f"{n} {c}\n" for c, n in YGO_MAIN)


def test_japanese_sentences_are_text_and_the_deck_s_name_is_metadata():
    page = "大会レポート\n\n参加してきました!\n\n使用デッキ:シンクロン\n\n" + JA_MAIN + "\nまた次の大会も頑張りたいと思います。\n"
    report = check(page)
    assert report.sections == {"main": 40} and report.name == "シンクロン"
    assert finding(report, "FC016").lines == (3, 30)


def test_a_japanese_title_with_a_word_before_it_and_a_count_is_a_header():
    report = check(JA_MAIN + "■必須エクストラ(6枚)\n" + "".join(f"{n} {c}\n" for c, n in YGO_EXTRA))
    assert report.sections == {"main": 40, "extra": 6} and report.legal
    titled = check("【シンクロデッキ】\n" + JA_MAIN)
    assert titled.name == "【シンクロデッキ】" and titled.sections == {"main": 40}  # no count: the deck's name
