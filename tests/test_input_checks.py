"""What the user wrote is never dropped: bad lines become input violations (FC0xx) on their line."""

from __future__ import annotations

from conftest import FARIA_MAIN, faria, only, violations

from forcecheck.cards.catalog import sample_catalog as _catalog


def line_of(text: str, needle: str) -> int:
    """1-based number of the first line containing ``needle``."""
    return next(i for i, line in enumerate(text.split("\n"), 1) if needle in line)


def test_unknown_card_is_reported_with_line_and_suggestions_not_as_a_size_error():
    text = faria(main=FARIA_MAIN[:-1] + [(4, "Viviane the Unseen")])
    v = only(text)
    assert (v.code, v.rule, v.section, v.card, v.line) == ("FC001", "unknown-card", "main", "Viviane the Unseen", 13)
    assert line_of(text, "Viviane the Unseen") == 13
    assert "did you mean 'Viviane'" in v.message


def test_a_one_letter_typo_is_read_as_the_card_and_the_deck_judged_on_it():
    text = faria(main=FARIA_MAIN[:-1] + [(4, "Vivianne")])
    v = only(text)
    assert (v.code, v.rule, v.severity, v.section, v.card, v.line) == ("FC012", "name-corrected", "warning", "main", "Viviane", 13)
    assert v.message == "read 'Vivianne' as 'Viviane' (typo)"
    # judged on the corrected card: a fifth copy in the side breaks the copy limit
    found = violations(faria(main=FARIA_MAIN[:-1] + [(4, "Vivianne")], side=[(1, "Viviane")]))
    assert [(x.code, x.card, x.found) for x in found if x.severity == "error"] == [("FC201", "Viviane", 5)]


def test_names_forgive_case_punctuation_accents_quotes_and_stranger_suffix():
    main = FARIA_MAIN[:-2] + [(4, "TRAVELER IN WONDERLAND"), (4, "vivianE")]
    text = faria(main=main).replace("Water's Mercy (Stranger)", "Water\u2019s Mercy").replace("Bedivere, the Restorer", "Bédivère the Restorer")
    assert violations(text) == []


def test_printing_code_resolves_and_a_name_it_contradicts_is_ambiguous():
    """Issue 38: 'Viviane (SDAO1-025)' was judged on the code (Excalibur) with a warning; a line
    naming two cards is ambiguous (FC014, an error), and the code's card still counts."""
    assert violations(faria(main=FARIA_MAIN[:-1] + [(4, "Viviane (SDAO1-031)")])) == []
    assert violations(faria(main=FARIA_MAIN[:-1] + [(4, "Vivianne (sdao1-031)")])) == []  # the code rescues a typo
    found = violations(faria(main=FARIA_MAIN[:-1] + [(4, "Viviane (SDAO1-025)")]))  # SDAO1-025 is Excalibur
    assert [(v.code, v.rule, v.severity, v.card, v.line) for v in found] == [
        ("FC201", "copy-limit", "error", "Excalibur", 9),
        ("FC014", "ambiguous-line", "error", "Excalibur", 13),
    ]


def test_printing_code_alone_is_a_card():
    text = faria(stones=[(10, "CMF-102")])  # Magic Stone of Flame
    assert violations(text) == []


def test_zero_negative_and_huge_counts_are_violations_on_their_line():
    text = faria(side=[(0, "Miscalculation"), (-2, "Relief Aid"), (123456, "Jewel Step")])
    found = [(v.code, v.rule, v.card, v.line) for v in violations(text)]
    assert found == [
        ("FC002", "invalid-count", "Miscalculation", line_of(text, "0 Miscalculation")),
        ("FC002", "invalid-count", "Relief Aid", line_of(text, "-2 Relief Aid")),
        ("FC002", "invalid-count", "Jewel Step", line_of(text, "123456 Jewel Step")),
    ]
    assert found[0][3] == 25


def test_card_before_any_header_is_placed_where_the_format_says_and_the_report_says_so():
    text = "4 Viviane\n" + faria(main=FARIA_MAIN[:-1])
    found = [(v.code, v.rule, v.severity, v.section, v.line) for v in violations(text)]
    assert found == [("FC011", "card-placed", "warning", "main", 1)]  # the main deck is 36 + 4 = 40: legal
    (placed,) = violations(text)
    assert placed.message == "4 card(s) on line 1 read as the Main Deck: cards under no section header"
    # a misplaced card is judged where it was placed: a fifth Viviane breaks the copy limit
    assert [v.rule for v in violations("4 Viviane\n" + faria())] == ["card-placed", "copy-limit"]


def test_card_before_any_header_in_a_format_that_places_nothing(tmp_path):
    """A format without placement keys keeps the old rule: such a card is outside every section."""
    from forcecheck.checking import FormatCache, check_file

    (tmp_path / "plain.yaml").write_text(
        "name: plain\ntitle: Plain\ngame: fow\nsections:\n  - {id: main, title: Main Deck}\n"
        "rules:\n  - {id: main-size, kind: section-size, sections: [main], min: 1, description: one card}\n"
    )
    (tmp_path / "d.txt").write_text("4 Viviane\nMain Deck:\n4 Excalibur\n")
    report = check_file(tmp_path / "d.txt", _catalog(), FormatCache([tmp_path]), "plain")
    assert [(v.code, v.rule, v.card, v.line) for v in report.violations] == [("FC003", "card-outside-section", "Viviane", 1)]


def test_unknown_section_and_empty_section():
    text = faria() + "Maybeboard:\n2 Viviane\nSideboard:\n"
    found = [(v.code, v.rule, v.severity, v.line) for v in violations(text)]
    # sorted by section in the format's order: the sideboard comes before sections it does not know
    assert found == [("FC005", "empty-section", "warning", 26), ("FC004", "unknown-section", "error", 24)]


def test_an_unknown_sections_announced_count_is_measured_against_its_own_lines():
    """Its cards are not counted in the deck, but its header's count still speaks of its lines:
    ``Maybeboard (2):`` over two copies agrees; over three it does not (found 3, not 0)."""
    assert [v.code for v in violations(faria() + "Maybeboard (2):\n2 Viviane\n")] == ["FC004"]
    found = [(v.code, v.found, v.limit) for v in violations(faria() + "Maybeboard (2):\n3 Viviane\n")]
    assert found == [("FC004", None, None), ("FC006", 3, "2")]
    read = faria() + "Maybeboard (4):\n2 Viviane 2 Brunhild\nTSHD\n"  # as read: a row of two cards, a set code that is none
    assert [v.code for v in violations(read) if v.code in ("FC006", "FC004")] == ["FC004"]


def test_declared_count_mismatch_is_a_warning():
    text = faria().replace("Main Deck:", "Main Deck (41):")
    v = only(text)
    assert (v.code, v.rule, v.severity, v.found, v.limit, v.line) == ("FC006", "declared-count-mismatch", "warning", 40, "41", 3)


def test_warnings_alone_keep_a_deck_legal():
    from forcecheck.report.model import DeckReport

    text = faria().replace("Main Deck:", "Main Deck (41):")
    assert DeckReport("x", "bifrost", violations(text)).legal


def test_yaml_entries_with_bad_counts_and_unknown_keys():
    text = """format: bifrost
sections:
  Ruler: Faria
  Main Deck:
    - {name: Viviane, count: four}
    - {name: Excalibur, count: 4, foil: true}
    - 42
"""
    found = [(v.code, v.rule, v.card, v.line) for v in violations(text, suffix=".yaml", path="d.yaml")]
    assert ("FC002", "invalid-count", "Viviane", 5) in found
    assert ("FC007", "invalid-entry", "Excalibur", 6) in found
    assert ("FC007", "invalid-entry", None, 7) in found


def test_yaml_numbers_are_read_as_a_person_writes_them_not_as_yaml_1_1():
    """YAML 1.1 reads ``010`` as octal 8 and ``1:20`` as base 60's 80: a count or a cap that
    silently became another number. ``04`` is four; ``1:20`` is no count, on its line."""
    text = """format: bifrost
sections:
  Ruler: Faria
  Main Deck:
    - {name: Viviane, count: 04}
    - {name: Excalibur, count: 1:20}
"""
    found = violations(text, suffix=".yaml", path="d.yaml")
    assert [(v.code, v.card, v.line) for v in found if v.code == "FC002"] == [("FC002", "Excalibur", 6)]
    assert "'1:20'" in next(v.message for v in found if v.code == "FC002")
    eight = violations(text.replace("count: 04", "count: 010"), suffix=".yaml", path="d.yaml")
    assert [(v.code, v.card, v.found) for v in eight if v.code == "FC201"] == [("FC201", "Viviane", 10)]  # ten copies, not octal 8


def test_a_settings_number_is_read_as_written(tmp_path):
    """``points_cap: 0100`` was YAML 1.1's octal 64 and ``1:40`` its base 60's 100; the flag read 0100 as 100."""
    from conftest import SAMPLES, cli_runner

    from forcecheck.cli import app
    from forcecheck.config import load_config

    deck = SAMPLES / "ygo-tcg" / "legal-sky-striker.ydk"
    runner = cli_runner()
    config = tmp_path / ".forcecheck.yaml"
    config.write_text("points_cap: 0100\n", encoding="utf-8")
    assert load_config({}, cwd=tmp_path, config_path=config, env={})["points_cap"] == 100
    config.write_text("points_cap: 1:40\n", encoding="utf-8")
    result = runner.invoke(app, ["check", str(deck), "-f", "ygo-genesys", "--config", str(config)])
    assert result.exit_code == 2 and result.stdout == "" and f"{config}:1" in result.stderr and "'1:40' is not a points cap" in result.stderr
    config.write_text("jobs: 010\n", encoding="utf-8")
    assert load_config({}, cwd=tmp_path, config_path=config, env={})["jobs"] == 10
    config.write_text("jobs: 1:4\n", encoding="utf-8")
    assert "'1:4' is not a whole number from 1 to 64" in runner.invoke(app, ["check", str(deck), "--config", str(config)]).stderr


def test_long_line_is_reported_not_read():
    text = faria() + "Sideboard:\n1 " + "x" * 600 + "\n"
    found = [(v.rule, v.line) for v in violations(text)]
    assert ("line-too-long", 25) in found


def test_same_card_in_two_sections_of_the_same_name_sums():
    text = faria(stones=None) + "Magic Stone Deck:\n5 Light Magic Stone\nMagic Stone Deck:\n5 Water Magic Stone\n"
    assert violations(text) == []



def test_a_title_line_above_the_first_header_is_a_warning_not_two_errors():
    text = "Faria Knights by Jane\n" + faria()
    v = only(text)
    assert (v.code, v.rule, v.severity, v.line) == ("FC010", "deck-title", "warning", 1)
    assert v.message == "'Faria Knights by Jane' is read as the deck's title (it is no card and has no count)"
    # a card (or a count) on that line is still what it was: placed in the main deck (a fifth Viviane)
    assert [x.rule for x in violations("4 Viviane\n" + faria())] == ["card-placed", "copy-limit"]
    assert [x.rule for x in violations("Viviane\n" + faria(main=FARIA_MAIN[:-1] + [(3, "Viviane")]))] == ["card-placed"]
    # lines above the first card that are no cards: the first is the title, the others headings
    found = [(x.rule, x.line, x.message) for x in violations("Title\nAnother line\n" + faria())]
    assert found == [("deck-title", 1, "'Title' is read as the deck's title (it is no card and has no count)"),
                     ("deck-title", 2, "'Another line' is read as a heading above the list (it is no card and has no count)")]
    # below the first card, an unknown line is an unknown card
    found = [(x.rule, x.line) for x in violations(faria() + "Sideboard:\nAnother line\n")]
    assert found == [("unknown-card", 25)]
