"""Every shape of a published list (issue 12), read right, and the near-miss that must not be.

Each test reads a small list against the embedded sample catalog and asserts what was read
(sections and counts, the card, the line) and what the report says was assumed."""

from __future__ import annotations

import pytest
from conftest import FARIA_MAIN, FARIA_STONES, FARIA_STRANGERS, SAMPLES, faria

from forcecheck.cards.catalog import MemoryCatalog, sample_catalog
from forcecheck.cards.model import Card
from forcecheck.checking import FormatCache
from forcecheck.decklists.readers import parse_decklist
from forcecheck.engine import check_decklist

CATALOG = sample_catalog()
FORMATS = FormatCache((), "none", CATALOG)

YGO_MAIN = [(3, "Junk Synchron"), (3, "Quillbolt Hedgehog"), (3, "Speed Warrior"), (2, "Tuningware"), (2, "Level Eater"),
            (3, "Card Trooper"), (1, "Glow-Up Bulb"), (3, "Debris Dragon"), (2, "Effect Veiler"), (1, "Plaguespreader Zombie"),
            (2, "Mystic Tomato"), (1, "Monster Reborn"), (2, "Mystical Space Typhoon"), (2, "Book of Moon"), (1, "Dark Hole"),
            (2, "Solemn Judgment"), (2, "Bottomless Trap Hole"), (1, "Mirror Force"), (1, "Torrential Tribute"),
            (2, "Dimensional Prison"), (1, "Heavy Storm")]
YGO_EXTRA = [(2, "Stardust Dragon"), (2, "Junk Warrior"), (1, "Black Rose Dragon"), (1, "Goyo Guardian")]


def check(text: str, format_name: str = "bifrost", catalog=CATALOG):
    fmt = FORMATS.get(format_name)
    return check_decklist(parse_decklist(text, "deck.txt", fmt.known_headers), fmt, catalog)


def found(report, severity: str | None = None):
    return [(v.code, v.section, v.card, v.line) for v in report.violations if severity is None or v.severity == severity]


def lines(entries, form: str = "{c} {n}") -> str:
    return "".join(form.format(c=c, n=n) + "\n" for c, n in entries)


# --- counts in every position -----------------------------------------------------------------

@pytest.mark.parametrize("form", [
    "{c} {n}", "{c}x {n}", "{c}X {n}", "{c} x {n}", "x{c} – {n}", "x {c} – {n}", "{n} x{c}", "{n} x {c}", "{n} ×{c}",
    "{n} ×{c}枚", "{n} {c}枚", "{n} (x{c})", "\t{c} {n}", "- {c}x {n}", "• {n} x{c}", "{c} – {n}",
])
def test_every_count_form_reads_the_same_deck(form):
    main = "".join(form.format(c=c, n=n) + "\n" for c, n in FARIA_MAIN)
    report = check("Ruler: Faria\nMain Deck:\n" + main + "Magic Stone Deck:\n" + lines(FARIA_STONES))
    assert report.sections == {"ruler": 1, "main": 40, "stones": 10} and found(report) == []


def test_full_width_digits_and_ideographic_spaces():
    main = "".join(f"{n}\u3000×{chr(0xFF10 + c)}\n" for c, n in FARIA_MAIN)
    report = check("Ruler: Faria\nMain Deck:\n" + main + "Magic Stone Deck:\n" + lines(FARIA_STONES))
    assert report.sections == {"ruler": 1, "main": 40, "stones": 10} and found(report) == []


def test_a_range_is_no_count_and_a_number_in_a_name_is_the_name():
    report = check(faria(side=[(1, "Viviane")]).replace("1 Viviane", "2-3 Viviane"))
    assert found(report, "error") == [("FC002", "side", "Viviane", 25)]
    ygo = check("Main Deck:\n" + lines(YGO_MAIN) + "Extra Deck:\n1 Number 39: Utopia\n", "ygo-5ds")
    assert ("FC302", "extra", "Number 39: Utopia", 24) in found(ygo)  # the card, not "39 copies of Utopia"


# --- lines that are not cards ------------------------------------------------------------------

def test_metadata_title_and_totals_are_never_cards():
    text = ("Champion Deck Profile: Faria – Jane's Version\nPlayer: Jane D.\nEvent: Store Championship\nDate: 2016-05-01\n"
            + faria().replace("Magic Stone Deck:", "Total: 41\nMagic Stone Deck:") + "Total – 20\n61 cards\n")
    report = check(text)
    assert report.sections == {"ruler": 1, "main": 40, "stones": 10, "stranger": 10}
    assert report.name == "Champion Deck Profile: Faria – Jane's Version" and report.player == "Jane D."
    assert found(report) == [("FC010", None, None, 1)]  # the totals agree with the cards above them


def styled_faria(form: str) -> str:
    """The Faria deck with every count written in ``form`` (``{c}`` count, ``{n}`` name)."""
    body = {key: lines(entries, form) for key, entries in (("main", FARIA_MAIN), ("stones", FARIA_STONES), ("stranger", FARIA_STRANGERS))}
    return (f"Ruler:\n{form.format(c=1, n='Faria')}\n\nMain Deck:\n{body['main']}\nMagic Stone Deck:\n{body['stones']}"
            f"\nStranger Deck:\n{body['stranger']}")


@pytest.mark.parametrize("form", ["{c} {n}", "{c}x {n}", "{n} x{c}", "{n} - {c}"])
def test_a_title_ending_in_a_number_written_as_no_card_line_is(form):
    """``Grand Prix Tokyo 2018 - Top 8`` has the shape of ``Name - 3``; above a list whose card
    lines write their counts another way it is the deck's title, kept whole, not 8 copies of an
    unknown card."""
    report = check("Grand Prix Tokyo 2018 - Top 8\n\n" + styled_faria(form))
    assert report.name == "Grand Prix Tokyo 2018 - Top 8"
    assert report.sections == {"ruler": 1, "main": 40, "stones": 10, "stranger": 10}
    assert found(report) == [("FC010", None, None, 1)]
    assert "its number is no count" in report.violations[0].message


def test_a_year_before_a_title_is_no_count_but_a_card_keeps_its_big_count():
    report = check("2010 World Championship - Top 8 Deck\n\n" + faria())
    assert report.name == "2010 World Championship - Top 8 Deck" and found(report) == [("FC010", None, None, 1)]
    assert report.sections == {"ruler": 1, "main": 40, "stones": 10, "stranger": 10}
    # a card it names keeps the count as written: 120 copies of Viviane break the copy limit
    report = check("120 Viviane\n\n" + faria().replace("4 Viviane\n", ""))
    assert report.name is None and report.sections["main"] == 156
    assert ("FC201", "main", "Viviane") in [(code, section, card) for code, section, card, _line in found(report, "error")]


def test_a_number_at_the_end_stays_a_count_where_the_list_counts_so_or_it_names_a_card():
    # a list whose card lines end in their count ("Name 4"): the same line is 8 copies of an unknown card
    report = check("Grand Prix Tokyo 2018 - Top 8\n\n" + styled_faria("{n} {c}"))
    assert ("FC001", 1) in [(code, line) for code, _section, _card, line in found(report, "error")]
    assert report.name is None and report.sections["main"] == 48  # 40 and the 8 the line says
    # a card written "Name - 4" above a list that counts first is that card, not a title
    report = check("Viviane - 4\n\n" + faria().replace("4 Viviane\n", ""))
    assert report.name is None and report.sections["main"] == 40 and not found(report, "error")


def test_deck_colon_a_name_above_a_main_deck_header_is_the_decks_name():
    """``Deck`` is also a title of the main deck; ``Deck: Faria Knights`` above a list that heads
    its main deck ``Main Deck:`` is the deck's name, not a card."""
    report = check("Player: Jane D.\nDeck: Faria Knights\n\n" + faria())
    assert report.name == "Faria Knights" and report.player == "Jane D."
    assert report.sections == {"ruler": 1, "main": 40, "stones": 10, "stranger": 10}
    assert found(report) == [("FC010", None, None, 2)] and "'Main Deck' header on line" in report.violations[0].message


def test_deck_colon_stays_a_header_with_its_card_otherwise():
    # a card after "Deck:" is that card, in the main deck
    report = check("Deck: Viviane\n\n" + faria())
    assert report.name is None and report.sections["main"] == 41
    # read once: the line's other reading is said for its one line
    report = check("Deck: Viviane (foil)\n\n" + faria())
    assert [v.message for v in report.violations if v.code == "FC013"] == ["read 'Viviane (foil)' as 1 Viviane (a remark in brackets after the name)"]
    # with no other main deck header, "Deck:" heads the main deck and an unknown name stays an error
    text = faria().replace("Main Deck:\n", "Deck: Faria Knights\n")
    report = check(text)
    assert ("FC001", "main") in [(code, section) for code, section, _card, _line in found(report, "error")]
    assert report.name is None


def test_a_total_that_disagrees_is_a_warning_on_its_line():
    report = check(faria().replace("Magic Stone Deck:", "Total: 42\nMagic Stone Deck:"))
    (v,) = report.violations
    assert (v.code, v.line, v.found, v.limit) == ("FC006", 14, 41, "42")
    assert v.message == "the line 'Total: 42' says 42 but 41 cards are listed above it"


# --- headers in other shapes, and groups ------------------------------------------------------

@pytest.mark.parametrize("header", ["Main Deck", "-Main Deck", "**Main Deck:**", "## Main Deck", "Main Deck: 40", "Main Deck (40)",
                                    "【メインデッキ】（40枚）", "MAIN DECK - 40", "Maindeck:"])
def test_section_headers_in_other_shapes(header):
    report = check(faria().replace("Main Deck:", header))
    assert report.sections["main"] == 40 and found(report) == []


def test_a_header_count_that_disagrees_is_a_warning():
    report = check(faria().replace("Main Deck:", "Main Deck (41):"))
    assert found(report) == [("FC006", "main", None, 3)]


def test_type_groups_are_the_main_decks_and_their_counts_are_the_groups():
    resonators, chants = FARIA_MAIN[:4], FARIA_MAIN[4:]  # Avalon is an addition: it goes with the chants
    text = ("Ruler: Faria\nMain Deck (40):\nResonators: (16 of 40)\n" + lines(resonators) + "Chants (24)\n" + lines(chants)
            + "Magic Stone Deck:\n" + lines(FARIA_STONES))
    report = check(text)
    assert report.sections == {"ruler": 1, "main": 40, "stones": 10} and found(report) == []
    wrong = check(text.replace("Chants (24)", "Chants (23)").replace("(16 of 40)", "(16 of 41)"))
    assert [(v.code, v.line, v.found, v.limit) for v in wrong.violations] == [("FC006", 3, 40, "41"), ("FC006", 8, 24, "23")]


def test_groups_under_a_side_deck_header_are_the_side_decks():
    text = ("Main Deck:\n" + lines(YGO_MAIN) + "Side Deck (3):\nMonsters:\n2 Sangan\nSpells:\n1 Giant Trunade\n")
    report = check(text, "ygo-5ds")
    assert report.sections == {"main": 40, "side": 3} and found(report) == []


def test_japanese_headers_groups_counts_and_title():
    monsters, spells, traps = YGO_MAIN[:11], YGO_MAIN[11:15] + YGO_MAIN[-1:], YGO_MAIN[15:-1]  # Heavy Storm is a spell
    text = ("【シンクロデッキ】\nモンスター(25)\n" + lines(monsters, "{n}×{c}")
            + "魔法(7)\n" + lines(spells, "{n} {c}枚") + "罠（8）\n" + lines(traps, "{c}《{n}》")
            + "エキストラデッキ(6)\n" + lines(YGO_EXTRA))
    japanese = text
    for _count, name in YGO_MAIN + YGO_EXTRA:
        japanese = japanese.replace(name, CATALOG.by_name("ygo", name).name_in("ja"))
    for version in (text, japanese):
        report = check(version, "ygo-5ds")
        assert report.sections == {"main": 40, "extra": 6} and report.name == "【シンクロデッキ】"
        assert found(report) == [("FC010", None, None, 1)]


# --- rulers ------------------------------------------------------------------------------------

@pytest.mark.parametrize("ruler", [
    "Ruler: Faria // Faria [J-Ruler]", "Ruler: Faria / Faria [J-Ruler]", "J/Ruler: Faria // Faria [J-Ruler]",
    "Ruler:\nFaria (SDAO1-026) //\nFaria [J-Ruler] (SDAO1-026J)", "Ruler: Faria\nJ-Ruler: Faria [J-Ruler]",
    "Faria // Faria [J-Ruler]",
])
def test_a_ruler_and_its_j_ruler_face_are_one_card(ruler):
    report = check(faria().replace("Ruler:\n1 Faria\n", ruler + "\n"))
    assert report.sections["ruler"] == 1 and report.ruler == "Faria"
    assert [v.code for v in report.violations if v.severity == "error"] == []


def test_two_different_rulers_on_one_line_are_two_rulers():
    report = check(faria().replace("Ruler:\n1 Faria\n", "Ruler: Faria / Melgis\n"))
    assert report.sections["ruler"] == 2 and report.ruler == "Faria / Melgis"
    assert ("FC702", "ruler", "Melgis", 1) in found(report, "error")  # Faria has no [Partner] or [Tag] for a second ruler


# --- printing codes anywhere -------------------------------------------------------------------

@pytest.mark.parametrize("line", ["4 SDAO1-031 Viviane", "4 Viviane [SDAO1-031]", "Viviane [SDAO1-031] x4", "4x Viviane (SDAO1-031)",
                                  "SDAO1-031 Viviane x4"])
def test_printing_codes_anywhere_on_the_line(line):
    report = check(faria().replace("4 Viviane", line))
    assert report.sections["main"] == 40 and found(report) == []


# --- names as people type them ------------------------------------------------------------------

@pytest.mark.parametrize("written, meant, why", [
    ("Magic Stone of the Light Vapors", "Magic Stone of Light Vapors", "spelling variant"),   # an article added
    ("Sacred Wave Blades", "Sacred Wave Blade", "spelling variant"),                          # a plural
    ("Traveller in Wonderland", "Traveler in Wonderland", "spelling variant"),                # British spelling
    ("Avalon Illusionary Home of Knights", "Avalon, Illusionary Home of Knights", None),        # punctuation: exact
    ("SacredWave Blade", "Sacred Wave Blade", "spelling variant"),                            # words run together
    ("Gawain, the Knigt of the Sun", "Gawain, the Knight of the Sun", "typo"),                # one letter
    ("Exclaibur", "Excalibur", "typo"),                                                       # two letters swapped
    ("Gawain", "Gawain, the Knight of the Sun", "shortened name"),                            # up to the comma
])
def test_names_as_people_type_them_are_read_and_said(written, meant, why):
    if meant == "Magic Stone of Light Vapors":
        report = check(faria(stones=[(4, written)] + FARIA_STONES[1:]))
    else:
        report = check(faria(main=[(c, written if n == meant else n) for c, n in FARIA_MAIN]))
    assert [v.code for v in report.violations if v.severity == "error"] == []
    if why is None:
        assert found(report) == []
        return
    (v,) = report.violations
    assert (v.code, v.card) == ("FC012", meant) and v.message == f"read {written!r} as {meant!r} ({why})"
    assert report.corrections == [{"line": v.line, "written": written, "read_as": meant}]


def test_a_type_label_and_a_dash_before_the_name_is_read_past():
    """``(2) RESONATOR – Viviane``: a list that writes each card's type before it, with an en
    dash, means the card after the dash; a label before a name no card has stays unknown whole,
    and the ASCII `` - `` (part of names) is no such label."""
    report = check(faria(main=[(c, "(2) RESONATOR \u2013 Viviane" if n == "Viviane" else n) for c, n in FARIA_MAIN]))
    assert [v.code for v in report.violations if v.severity == "error"] == []
    (v,) = [v for v in report.violations if v.code == "FC013"]
    assert v.message == "read '4 (2) RESONATOR \u2013 Viviane' as 4 Viviane (a label and a dash before the name)"
    unknown = check("Ruler: Faria\nMain Deck:\n4 Resonator \u2013 Zorblax the Unseen\n4 Resonator - Viviane\n")
    assert [(v.code, v.card) for v in unknown.violations if v.code == "FC001"] == [
        ("FC001", "Resonator \u2013 Zorblax the Unseen"), ("FC001", "Resonator - Viviane")]


def test_a_correction_never_hides_a_real_error():
    report = check(faria(side=[(1, "Vivianne")]))  # a fifth Viviane, misspelt
    assert [(v.code, v.card, v.found) for v in report.violations if v.severity == "error"] == [("FC201", "Viviane", 5)]


def _tiny(*names, game="fow") -> MemoryCatalog:
    return MemoryCatalog([Card(name=n, game=game, types=frozenset({"resonator"})) for n in names], label="tiny")


@pytest.mark.parametrize("written, names", [
    ("Rune of Fure", ("Rune of Fire", "Rune of Fury")),                 # two cards equally close
    ("Shadow Knigt Lord", ("Shadow Knight Lord", "Shadow Knight Lore")),  # the next card is one edit further only
    ("Thundr", ("Thunder",)),                                            # a short name one letter from another
    ("Perceval", ("Perceval, the Charmed Knight", "Perceval, the Flying Knight")),  # a shortened name two cards share
    ("Gale Force Wind", ("Gale Force Winds Blow", "Wind Force Gale Storm")),          # distant
])
def test_near_misses_stay_unknown_with_suggestions(written, names):
    catalog = _tiny(*names)
    assert catalog.correct("fow", written) is None
    report = check(f"Ruler: Faria\nMain Deck:\n4 {written}\n", catalog=catalog)
    assert ("FC001", "main", written, 3) in found(report)


def test_a_name_of_another_game_is_never_corrected_into_this_one():
    report = check(faria(main=FARIA_MAIN[:-1] + [(4, "Mystical Space Typhoon")]))
    assert ("FC001", "main", "Mystical Space Typhoon", 13) in found(report)
    assert CATALOG.correct("fow", "Mystical Space Typhoon") is None


# --- placement -------------------------------------------------------------------------------------

def test_a_list_with_no_headers_is_placed_by_what_its_cards_are():
    text = ("Faria\n\n" + lines(FARIA_MAIN) + "\n" + lines(FARIA_STONES) + "\n" + lines(FARIA_STRANGERS)
            + "\n3 Miscalculation\n3 Relief Aid\n")
    report = check(text)
    assert report.sections == {"ruler": 1, "main": 40, "stones": 10, "stranger": 10, "side": 6}
    assert report.legal and {v.code for v in report.violations} == {"FC011"}
    side = next(v for v in report.violations if v.section == "side")
    assert side.message == "6 card(s) on lines 24-25 read as the Sideboard: they follow the Magic Stone Deck and cannot be in it"


def test_explicit_headers_always_win_and_an_error_under_one_is_not_moved():
    inside = faria().replace("3 Water Magic Stone\n", "3 Water Magic Stone\n1 Excalibur\n")  # same block: stays, reported
    report = check(inside)
    assert ("FC301", "stones", "Excalibur", 18) in found(report, "error")
    after = faria(stones=None) + "Magic Stone Deck:\n" + lines(FARIA_STONES) + "\n3 Miscalculation\n"  # a block after: the side
    report = check(after)
    assert report.sections["side"] == 3 and not found(report, "error")


def test_a_block_after_a_ruler_written_inline_is_the_main_deck():
    report = check("Ruler: Faria\n" + lines(FARIA_MAIN) + "Magic Stone Deck:\n" + lines(FARIA_STONES))
    assert report.sections == {"ruler": 1, "main": 40, "stones": 10}


def test_yugioh_extra_deck_monsters_go_to_the_extra_deck_and_what_follows_to_the_side():
    text = lines(YGO_MAIN) + "\n" + lines(YGO_EXTRA) + "\n2 Sangan\n1 Giant Trunade\n"
    report = check(text, "ygo-5ds")
    assert report.sections == {"main": 40, "extra": 6, "side": 3} and report.legal
    written = check("Main Deck:\n" + lines(YGO_MAIN) + "1 Stardust Dragon\n", "ygo-5ds")  # a header wins
    assert ("FC302", "main", "Stardust Dragon", 23) in found(written, "error")


def test_a_table_flattened_row_by_row():
    rows = ["Main Deck Stone Deck Side Board"] + [
        f"{c} {n} {s[0]} {s[1]} 1 Miscalculation" if s else f"{c} {n}"
        for (c, n), s in zip(FARIA_MAIN, [(4, "Magic Stone of Light Vapors"), (3, "Light Magic Stone"), (3, "Water Magic Stone")] + [None] * 7)
    ]
    report = check("Ruler: Faria\n" + "\n".join(rows) + "\n")
    assert report.sections == {"ruler": 1, "main": 40, "stones": 10, "side": 3}
    assert next(v.message for v in report.violations if v.code == "FC013").startswith("3 lines read as a table row of 3 cards (lines 3-5)")


def test_a_japanese_list_hears_about_its_cards_in_japanese():
    text = (SAMPLES / "ygo-5ds" / "legal-synchro-japanese.txt").read_text(encoding="utf-8").replace("2 サイクロン", "4 サイクロン")
    report = check(text, "ygo-5ds")
    (v,) = [v for v in report.violations if v.code == "FC201"]
    assert v.card == "サイクロン" and v.message.startswith("4 copies of サイクロン")
    english = check((SAMPLES / "ygo-5ds" / "legal-synchro-by-name.txt").read_text().replace("2 Mystical Space Typhoon", "4 Mystical Space Typhoon"), "ygo-5ds")
    (v,) = [v for v in english.violations if v.code == "FC201"]
    assert v.card == "Mystical Space Typhoon"  # and an English list in English


def test_an_unknown_passcode_on_several_ydk_lines_is_one_finding_naming_them():
    fmt = FORMATS.get("ygo-5ds")
    deck = parse_decklist("#main\n99999999\n99999999\n99999999\n", "deck.ydk", fmt.known_headers, suffix=".ydk")
    (v,) = [v for v in check_decklist(deck, fmt, CATALOG).violations if v.code == "FC001"]
    assert (v.line, v.lines, v.card) == (2, (2, 3, 4), "99999999")
    assert v.message.startswith("unknown passcode 99999999 (not in the catalog) (lines 2, 3, 4); not in the embedded sample catalog")


def test_table_rows_as_wikis_and_markdown_print_them():
    pipes = "| Qty | Name | Type |\n|---|---|---|\n" + "".join(f"| {c} | {n} | Resonator |\n" for c, n in FARIA_MAIN)
    report = check("Ruler: Faria\nMain Deck:\n" + pipes + "Magic Stone Deck:\n" + lines(FARIA_STONES))
    assert report.sections == {"ruler": 1, "main": 40, "stones": 10}
    assert [(v.code, v.line) for v in report.violations] == [("FC013", 3)]  # the header row is no card, and said so
    wiki = check(faria().replace("4 Viviane", "SDAO1-031 4 Viviane Resonator Water W.png Rare"))
    assert wiki.sections["main"] == 40 and found(wiki, "error") == []
    # without table furniture, text after a card's name is never cut off to make it a card
    cut = check(faria().replace("4 Viviane", "4 Viviane Resonator Water"))
    assert ("FC001", "main", "Viviane Resonator Water", 13) in found(cut)


def test_a_count_after_a_dash_and_a_list_label_that_names_no_section():
    report = check(faria().replace("4 Viviane", "Viviane - 4"))
    assert report.sections["main"] == 40 and found(report) == []
    labelled = check("Decklist:\n" + faria().replace("Ruler:\n1 Faria\n", "Faria\n").replace("Main Deck:\n", ""))
    assert labelled.sections == {"ruler": 1, "main": 40, "stones": 10, "stranger": 10}
    assert [(v.code, v.line) for v in labelled.violations if v.code == "FC010"] == [("FC010", 1)]


def test_an_unknown_passcode_above_main_is_an_unknown_card_not_a_title():
    fmt = FORMATS.get("ygo-5ds")
    deck = parse_decklist("99999999\n#main\n44095762\n", "deck.ydk", fmt.known_headers, suffix=".ydk")
    report = check_decklist(deck, fmt, CATALOG)
    assert report.name is None and ("FC001", "main", "99999999", 1) in found(report)
