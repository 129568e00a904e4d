"""A first run that tells the truth (issue 29, items 2, 3, 5, 6 and 7): the sample catalog says
what it is, a deck of the other game is named, standard input is read, set-up mistakes are one
line each (not decks), lists saved as UTF-16 or with a BOM are read, suggestions are quoted and
format names forgive case and spelling."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT, SAMPLES, cli_runner, faria

from forcecheck.cli import app

runner = cli_runner()
FARIA = SAMPLES / "bifrost" / "legal-faria-stranger.txt"
YDK = SAMPLES / "ygo-5ds" / "legal-synchro.ydk"
SYNCHRO_BY_NAME = SAMPLES / "ygo-5ds" / "legal-synchro-by-name.txt"


def run(*args, input=None, env=None):
    result = runner.invoke(app, [str(a) for a in args], input=input, env=env)
    assert "Traceback" not in result.output + (result.stderr or "")
    return result


def violations(result) -> list[dict]:
    return json.loads(result.stdout)["decks"][0]["violations"]


# -- item 2: the sample catalog says what it is ----------------------------------------------------

def sample_cards(game: str) -> int:
    from forcecheck.cards.catalog import sample_catalog

    return len(sample_catalog().cards(game))


def test_a_report_on_the_sample_catalog_says_so_at_its_top_and_on_each_unknown_card(tmp_path):
    deck = tmp_path / "d.txt"
    deck.write_text(faria(main=[(4, "Gawain, the Knight of the Moon"), (36, "Viviane")]).replace("4 Viviane\n", ""))
    result = run("check", deck, "-f", "bifrost", "--color", "never")
    lines = result.stdout.splitlines()
    assert lines[0] == ("note: checked against the embedded sample catalog, which knows only the cards of the sample decks and tests, "
                        "not real card data: 'forcecheck catalog fetch fow' (or ygo) imports every card")
    [unknown] = [v for v in violations(run("check", deck, "-f", "bifrost", "-o", "json")) if v["code"] == "FC001"]
    assert unknown["message"].startswith("unknown card 'Gawain, the Knight of the Moon'; did you mean 'Gawain, the Knight of the Sun'")
    assert unknown["message"].endswith(f"? It is not in the embedded sample catalog, which holds only the {sample_cards('fow')} Force of "
                                       "Will cards of the sample decks and tests: 'forcecheck catalog fetch fow' imports every card")
    assert lines[-1] == ("note: unknown cards were looked up in the embedded sample catalog, which holds only the cards of the sample "
                         "decks and tests: run 'forcecheck catalog fetch fow' once (it imports every Force of Will card into the "
                         "catalog checks use), then check again")
    concise = run("check", deck, "-f", "bifrost", "-o", "concise")
    assert concise.stderr.startswith("forcecheck: note: checked against the embedded sample catalog")


def test_a_passcode_the_sample_lacks_names_the_ygo_fetch_and_a_real_catalog_says_nothing_of_a_sample(tmp_path):
    deck = tmp_path / "d.ydk"
    deck.write_text("#main\n99999999\n")
    [unknown] = [v for v in violations(run("check", deck, "-f", "ygo-5ds", "-o", "json")) if v["code"] == "FC001"]
    assert unknown["message"] == ("unknown passcode 99999999 (not in the catalog); not in the embedded sample catalog, which holds only "
                                  f"the {sample_cards('ygo')} Yu-Gi-Oh! cards of the sample decks and tests: 'forcecheck catalog fetch ygo' "
                                  "imports every card")
    from forcecheck.cards.catalog import sample_catalog

    catalog = tmp_path / "mine.json"
    catalog.write_text(json.dumps({"schema": "forcecheck-catalog/1", "cards": [c.to_dict() for c in sample_catalog().cards()]}))
    result = run("check", deck, "-f", "ygo-5ds", "--catalog", catalog, "--color", "never")
    assert "sample catalog" not in result.stdout and "unknown passcode 99999999 (not in the catalog)\n" in result.stdout


def test_a_legal_run_on_the_sample_still_says_what_it_was_checked_against():
    result = run("check", FARIA, "-f", "bifrost", "--color", "never")
    assert result.exit_code == 0 and result.stdout.startswith("note: checked against the embedded sample catalog")
    assert "note: unknown cards" not in result.stdout  # no unknown card: no closing advice


# -- item 3: the other game is named ------------------------------------------------------------------

def test_a_ydk_under_a_force_of_will_format_is_named_with_the_formats_that_fit():
    found = violations(run("check", YDK, "-f", "bifrost", "-o", "json"))
    assert found[0]["code"] == "FC017" and found[0]["rule"] == "other-game" and found[0]["severity"] == "error"
    assert found[0]["message"] == ("a .ydk file is a Yu-Gi-Oh! decklist, not a Force of Will one: check it with " + YGO_FORMATS)
    assert sum(v["code"] == "FC017" for v in found) == 1
    assert not any("sample catalog" in v["message"] for v in found)  # the fix is the format, not more cards
    assert "note: unknown cards" not in run("check", YDK, "-f", "bifrost", "--color", "never").stdout


YGO_FORMATS = "--format ygo-5ds, --format ygo-edison, --format ygo-genesys, --format ygo-goat, --format ygo-master-rule, --format ygo-ocg, --format ygo-speed, --format ygo-tcg, --format ygo-traditional or --format ygo-worlds"


def test_unknown_names_that_are_cards_of_the_other_game_name_it():
    found = violations(run("check", SYNCHRO_BY_NAME, "-f", "bifrost", "-o", "json"))
    [other] = [v for v in found if v["code"] == "FC017"]
    assert other["message"] == ("20 of the first 20 unknown names are Yu-Gi-Oh! cards (e.g. 'Junk Synchron'): this is a Yu-Gi-Oh! deck, "
                                "not a Force of Will one; check it with " + YGO_FORMATS)
    found = violations(run("check", FARIA, "-f", "ygo-5ds", "-o", "json"))
    [other] = [v for v in found if v["code"] == "FC017"]
    assert other["message"].endswith("this is a Force of Will deck, not a Yu-Gi-Oh! one; check it with --format abc, --format bifrost or --format wanderer")


def test_a_deck_of_its_own_game_with_a_stray_name_of_the_other_is_not_called_the_other_games(tmp_path):
    deck = tmp_path / "d.txt"
    deck.write_text(faria(main=[(1, "Junk Synchron"), (39, "Viviane")]).replace("4 Viviane\n", ""))
    found = violations(run("check", deck, "-f", "bifrost", "-o", "json"))
    assert not [v for v in found if v["code"] == "FC017"] and [v["card"] for v in found if v["code"] == "FC001"] == ["Junk Synchron"]
    text = YDK.read_text()
    (tmp_path / "x.ydk").write_text(text)
    assert not [v for v in violations(run("check", tmp_path / "x.ydk", "-f", "ygo-5ds", "-o", "json")) if v["code"] == "FC017"]


# -- item 5: standard input ------------------------------------------------------------------------------

def test_check_reads_standard_input_and_names_it():
    result = run("check", "-", "-f", "bifrost", "-o", "json", input=FARIA.read_text())
    doc = json.loads(result.stdout)
    assert result.exit_code == 0 and doc["decks"][0]["path"] == "-" and doc["decks"][0]["legal"]
    result = run("check", "-", "-f", "ygo-5ds", "--stdin-filename", "mine.ydk", "-o", "json", input=YDK.read_text())
    deck = json.loads(result.stdout)["decks"][0]
    assert deck["path"] == "mine.ydk" and deck["sections"] == {"main": 40, "extra": 14, "side": 5}
    # the name tells the kind: the same passcodes named as a text list are no .ydk
    result = run("check", "-", "-f", "ygo-5ds", "--stdin-filename", "mine.txt", "-o", "json", input=YDK.read_text().replace("#main\n", ""))
    assert json.loads(result.stdout)["decks"][0]["path"] == "mine.txt"


def test_the_stdin_filename_chooses_the_configured_format(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".forcecheck.yaml").write_text("paths:\n  'ygo/**': ygo-5ds\n")
    (tmp_path / ".git").mkdir()
    result = run("check", "-", "--stdin-filename", "ygo/mine.ydk", "-o", "json", input=YDK.read_text())
    assert result.exit_code == 0 and json.loads(result.stdout)["decks"][0]["format"] == "ygo-5ds"
    result = run("check", "-", "--stdin-filename", "other/mine.txt", input=FARIA.read_text())
    assert result.exit_code == 2 and "no format for the text list other/mine.txt" in result.stderr


def test_the_direct_check_reads_standard_input_too():
    done = subprocess.run([sys.executable, "-m", "forcecheck", "check", "-", "-f", "bifrost", "--stdin-filename", "deck.txt", "-o", "concise"],
                          input=FARIA.read_text(), capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and "1 deck checked: 1 legal" in done.stderr
    done = subprocess.run([sys.executable, "-m", "forcecheck", "check", "-", "-f", "bifrost"], input="", capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and "-: empty decklist" in done.stdout


def test_fingerprint_stats_verify_and_fmt_read_standard_input(tmp_path):
    from_file = run("fingerprint", FARIA, "-f", "bifrost").stdout
    assert run("fingerprint", "-", "-f", "bifrost", input=FARIA.read_text()).stdout == from_file
    stats = json.loads(run("stats", "-", "-f", "bifrost", "-o", "json", input=FARIA.read_text()).stdout)
    assert stats["decks"][0]["path"] == "-" and stats["decks"][0]["legal"]
    played = tmp_path / "played.txt"
    played.write_text(FARIA.read_text())
    assert run("verify", "-", played, "-f", "bifrost", input=FARIA.read_text()).exit_code == 0
    assert run("verify", played, "-", "-f", "bifrost", "-o", "json", input=FARIA.read_text()).exit_code == 0
    result = run("verify", "-", "-", "-f", "bifrost", input=FARIA.read_text())
    assert result.exit_code == 2 and "standard input ('-') can be read only once" in result.stderr
    messy = "Ruler: Faria\n" + "".join(f"{n} {name}\n" for n, name in [(2, "Viviane"), (2, "Viviane"), (4, "Excalibur")])
    result = run("fmt", "-", "-f", "bifrost", input=messy)
    assert result.exit_code == 0 and result.stdout == "Ruler:\n1 Faria\n\nMain Deck:\n4 Excalibur\n4 Viviane\n"
    assert "would reformat 1 file(s)" in result.stderr
    result = run("fmt", "-", "-f", "bifrost", "--check", input=messy)
    assert result.exit_code == 1 and result.stdout == "-: not in canonical form\n"
    assert run("fmt", "-", "-f", "bifrost", "--check", input="Ruler:\n1 Faria\n\nMain Deck:\n4 Excalibur\n4 Viviane\n").exit_code == 0


def test_a_stdin_filename_without_stdin_is_a_mistake():
    result = run("check", FARIA, "-f", "bifrost", "--stdin-filename", "x.txt")
    assert result.exit_code == 2 and "--stdin-filename names the decklist read from standard input, but no PATH is '-'" in result.stderr


# -- item 6: set-up mistakes are one line, not a deck -----------------------------------------------------

def test_set_up_mistakes_are_one_line_each_and_no_deck_is_counted(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.pdf").write_text("not a list")
    result = run("check", empty, tmp_path / "gone.txt", FARIA, "-f", "bifrost")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"forcecheck: error: {empty}: no decklists (.txt .yaml .yml .deck .dek .ydk files) in this folder; nothing was checked",
        f"forcecheck: error: {tmp_path / 'gone.txt'}: no such file or directory",
    ]
    for command in (["stats"], ["fmt", "--check"]):
        result = run(*command, tmp_path / "gone.txt", "-f", "bifrost")
        assert result.exit_code == 2 and result.stderr == f"forcecheck: error: {tmp_path / 'gone.txt'}: no such file or directory\n"


def test_text_lists_with_no_format_are_one_line_but_a_yaml_list_names_its_own(tmp_path):
    folder = tmp_path / "decks"
    folder.mkdir()
    for name in ("a.txt", "b.txt", "c.txt", "d.txt"):
        (folder / name).write_text(faria())
    result = run("check", folder)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"forcecheck: error: no format for the text lists {folder / 'a.txt'}, {folder / 'b.txt'}, {folder / 'c.txt'} and 1 more: "
                             "pass --format NAME, or set 'format:' (or a 'paths:' glob) in .forcecheck.yaml\n")
    assert run("check", SAMPLES / "bifrost" / "legal-atom-runes.yaml").exit_code == 0  # a YAML list names its format
    assert run("check", folder, "-f", "bifrost").exit_code == 0


def test_a_catalog_that_cannot_be_opened_is_one_line_not_a_row_per_deck(tmp_path):
    bad = tmp_path / "broken.sqlite3"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    result = run("check", SAMPLES / "bifrost", "-f", "bifrost", "--catalog", bad)
    assert result.exit_code == 2 and result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith(f"forcecheck: error: {bad}: ") and line.endswith("(the catalog set by command line --catalog)")
    config = tmp_path / "c.yaml"
    config.write_text(f"formats:\n  ygo-5ds:\n    catalog: {tmp_path / 'none.sqlite3'}\n")
    result = run("check", FARIA, "-f", "bifrost", "--config", config)
    assert result.exit_code == 2 and f"{tmp_path / 'none.sqlite3'}: no such file or directory (the catalog set by {config}:3)" in result.stderr


def test_register_keeps_every_file_of_a_folder_without_decklists_as_a_row(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "scan.pdf").write_text("%PDF")
    result = run("register", subs, "-f", "bifrost", "--output-dir", tmp_path / "out")
    assert result.exit_code == 2 and "not-a-decklist" in (tmp_path / "out" / "registrations.csv").read_text()


# -- item 7: encodings, quoted suggestions, format names ---------------------------------------------

@pytest.mark.parametrize("codec, bom", [("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"), ("utf-8", b"\xef\xbb\xbf"), ("utf-32-le", b"\xff\xfe\x00\x00")])
def test_lists_saved_as_utf16_or_with_a_bom_are_read(tmp_path, codec, bom):
    deck = tmp_path / "notepad.txt"
    deck.write_bytes(bom + faria().replace("\n", "\r\n").encode(codec))
    result = run("check", deck, "-f", "bifrost", "-o", "json")
    assert result.exit_code == 0 and json.loads(result.stdout)["decks"][0]["sections"]["main"] == 40


def test_utf16_without_its_mark_or_broken_is_still_refused_by_line(tmp_path):
    deck = tmp_path / "nobom.txt"
    deck.write_bytes(faria().encode("utf-16-le"))  # no byte-order mark: nothing says it is UTF-16
    result = run("check", deck, "-f", "bifrost", "--color", "never")
    assert result.exit_code == 2 and "binary file (contains NUL bytes)" in result.stdout
    deck.write_bytes(b"\xff\xfe" + "Ruler:\n".encode("utf-16-le") + b"\x00\xd8")  # a lone surrogate
    result = run("check", deck, "-f", "bifrost", "-o", "json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["decks"][0]["error"] == (f"{deck}:2: not valid UTF-16 although it starts with a UTF-16 byte-order "
                                                              "mark; save the file as UTF-8")


def test_suggestions_are_quoted_because_names_hold_commas(tmp_path):
    from forcecheck.wording import did_you_mean

    assert did_you_mean(["Misty Isle, Island of the Mumu Tribe", "Mumu Tribe of Misty Isle"]) == \
        "did you mean 'Misty Isle, Island of the Mumu Tribe' or 'Mumu Tribe of Misty Isle'?"
    assert did_you_mean(["A", "B", "C"]) == "did you mean 'A', 'B' or 'C'?"
    assert did_you_mean(["Odin's Judgment"]) == "did you mean \"Odin's Judgment\"?"
    assert did_you_mean([]) == ""
    result = run("catalog", "show", "Excalibr")
    assert result.exit_code == 1 and "did you mean 'Excalibur'" in result.stderr


@pytest.mark.parametrize("written", ["Bifrost", "BIFROST", "bifrost"])
def test_format_names_are_case_insensitive(written, tmp_path):
    result = run("check", FARIA, "-f", written, "-o", "json")
    assert result.exit_code == 0 and json.loads(result.stdout)["decks"][0]["format"] == "bifrost"
    deck = tmp_path / "d.yaml"
    deck.write_text(f"format: {written}\nsections:\n  Ruler: Faria\n")
    assert json.loads(run("check", deck, "-o", "json").stdout)["decks"][0]["format"] == "bifrost"


def test_a_misspelt_format_gets_did_you_mean(tmp_path):
    result = run("check", FARIA, "-f", "bifrots")
    assert result.exit_code == 2
    from forcecheck.format_spec.loader import available_formats

    every = ", ".join(sorted(available_formats()))
    assert f"unknown format 'bifrots'; did you mean 'bifrost'? (available: {every})" in result.stderr
    result = run("check", FARIA, "-f", "ygo5ds")
    assert result.exit_code == 2 and "did you mean 'ygo-5ds'?" in result.stderr
    result = run("check", FARIA, "-f", "chess")
    assert result.exit_code == 2 and "unknown format 'chess' (available:" in result.stderr
    config = tmp_path / "c.yaml"
    config.write_text("formats:\n  Bifrost:\n    ignore: [FC005]\n")
    result = run("check", FARIA, "-f", "bifrost", "--config", config)
    assert result.exit_code == 2 and "formats: no format 'Bifrost'; did you mean 'bifrost'?" in result.stderr


def test_settings_per_format_apply_whatever_case_the_format_is_written_in(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text("formats:\n  bifrost:\n    ignore: [main-size]\n")
    short = tmp_path / "short.txt"
    short.write_text(faria(main=[(4, "Viviane")]))
    assert run("check", short, "-f", "BIFROST", "--config", config).exit_code == 0
    assert run("check", short, "-f", "BIFROST").exit_code == 1
