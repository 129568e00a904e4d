"""The command line: exit codes, text and JSON output, formats, and bad input without tracebacks."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from conftest import SAMPLES, cli_runner, faria

from forcecheck.cli import app

runner = cli_runner()


def run(*args, env=None):
    result = runner.invoke(app, list(args), env=env)
    assert "Traceback" not in result.output and "Traceback" not in (result.stderr or "")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_version():
    result = run("--version")
    assert result.exit_code == 0 and result.stdout.startswith("forcecheck 0.")


def test_check_a_legal_deck_exits_0():
    result = run("check", str(SAMPLES / "bifrost" / "legal-faria-stranger.txt"), "--format", "bifrost")
    assert result.exit_code == 0
    assert "legal" in result.stdout and "1 deck checked: 1 legal, 0 illegal" in result.stdout
    assert "catalog: embedded sample catalog" in result.stdout


def test_check_the_sample_folder_text_output():
    result = run("check", str(SAMPLES / "bifrost"), "--format", "bifrost", "--color", "never")
    assert result.exit_code == 1
    out = result.stdout
    assert "14 decks checked: 6 legal, 8 illegal" in out
    assert "ILLEGAL" in out and "copy-limit" in out and "FC201" in out
    assert "\x1b[" not in out
    # deterministic: sorted paths
    paths = [line.split()[1] for line in out.splitlines() if line.startswith(("legal", "ILLEGAL"))]
    assert paths == sorted(paths)


def test_json_output_schema():
    result = run("check", str(SAMPLES / "bifrost"), "-f", "bifrost", "--output-format", "json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["schema_version"] == 1
    assert set(doc) == {"schema_version", "decks", "summary"}
    notes = doc["summary"].pop("notes")
    assert doc["summary"] == {
        "decks": 14, "legal": 6, "illegal": 8, "unreadable": 0, "violations": 8, "warnings": 8,
        "catalog": "embedded sample catalog", "catalog_sources": [], "config": None, "banlists": [],
    }
    assert notes and "embedded sample catalog" in notes[0] and "forcecheck catalog fetch fow" in notes[0]  # an unknown card name
    deck = next(d for d in doc["decks"] if d["path"].endswith("illegal-five-copies-main-and-side.txt"))
    assert set(deck) == {"path", "format", "legal", "banlist", "banlist_reason", "fingerprint", "name", "player", "ruler", "sections",
                         "corrections", "violations"}
    assert deck["sections"] == {"ruler": 1, "main": 40, "stones": 10, "stranger": 10, "side": 7} and deck["ruler"] == "Faria"
    typo = next(d for d in doc["decks"] if d["path"].endswith("legal-typo-corrected.txt"))
    assert typo["legal"] is True and typo["corrections"] == [
        {"line": 8, "written": "Gawain, the Knigt of the Sun", "read_as": "Gawain, the Knight of the Sun"}
    ]
    assert deck["fingerprint"].startswith("fc1-") and len(deck["fingerprint"]) == 36
    assert deck["legal"] is False and deck["format"] == "bifrost" and deck["banlist"] is None
    (v,) = deck["violations"]
    assert v == {
        "code": "FC201", "rule": "copy-limit", "severity": "error",
        "message": "5 copies of Gawain, the Knight of the Sun (Main Deck 4, Sideboard 1); at most 4 allowed",
        "section": "main, side", "card": "Gawain, the Knight of the Sun", "line": 7, "lines": [7, 33], "found": 5, "limit": "at most 4",
        "url": "https://forcecheck.readthedocs.io/en/latest/rules/#fc201",  # the rule's entry in the documentation
    }


def test_format_named_inside_a_yaml_decklist():
    result = run("check", str(SAMPLES / "bifrost" / "legal-atom-runes.yaml"))
    assert result.exit_code == 0


def test_text_deck_without_a_format_is_an_input_error(tmp_path):
    path = tmp_path / "d.txt"
    path.write_text(faria())
    result = run("check", str(path))
    assert result.exit_code == 2 and "no format for the text list" in result.stderr and result.stdout == ""  # a set-up mistake, no deck
    odd = tmp_path / "d.deck"  # a list that might be YAML is read first: it says why it has no format
    odd.write_text(faria())
    result = run("check", str(odd))
    assert result.exit_code == 2 and "no format: pass --format NAME" in result.stdout


def test_unknown_format_is_exit_2_with_choices():
    result = run("check", str(SAMPLES / "bifrost"), "--format", "bifrots")
    assert result.exit_code == 2
    assert "unknown format 'bifrots'" in result.stderr and "bifrost" in result.stderr
    assert result.stdout == ""


def test_bad_catalog_is_exit_2(tmp_path):
    bad = tmp_path / "cat.json"
    bad.write_text("{not json")
    result = run("check", str(SAMPLES / "bifrost"), "-f", "bifrost", "--catalog", str(bad))
    assert result.exit_code == 2 and "not a forcecheck catalog" in result.stderr
    other = tmp_path / "other.json"
    other.write_text('{"cards": []}')
    result = run("check", str(SAMPLES / "bifrost"), "-f", "bifrost", "--catalog", str(other))
    assert result.exit_code == 2 and "schema" in result.stderr


def test_catalog_file_is_used_and_named(tmp_path):
    from forcecheck.cards.catalog import sample_catalog

    data = {"schema": "forcecheck-catalog/1", "cards": [c.to_dict() for c in sample_catalog().cards()]}
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    result = run("check", str(SAMPLES / "bifrost" / "legal-faria-stranger.txt"), "-f", "bifrost", "--catalog", str(path), "-o", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["summary"]["catalog"] == str(path)  # the file, once, not "catalog: catalog PATH"


BAD_FILES = {
    "malformed.yaml": (b"format: bifrost\nsections: [\n", "malformed YAML", ":3:"),
    "unknown-key.yaml": (b"format: bifrost\ncolour: red\nsections: {}\n", "unknown key 'colour'", ":2:"),
    "empty.txt": (b"", "empty decklist", ""),
    "comments-only.txt": (b"# nothing here\n\n", "empty decklist", ""),
    "binary.txt": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file", ":3:"),
    "shift-jis.txt": ("Ruler:\n1 ファリア\n".encode("shift_jis"), "not valid UTF-8", ":2:"),
    "huge.txt": (b"Main Deck:\n" + b"4 Viviane\n" * 120_000, "over the 1,048,576-byte limit", ""),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_unusable_files_give_one_line_and_exit_2_but_the_batch_goes_on(tmp_path, name):
    content, fragment, line_marker = BAD_FILES[name]
    (tmp_path / name).write_bytes(content)
    (tmp_path / "good.txt").write_text(faria())
    result = run("check", str(tmp_path), "-f", "bifrost", "--color", "never")
    assert result.exit_code == 2
    error_lines = [ln for ln in result.stdout.splitlines() if ln.startswith("ERROR")]
    assert len(error_lines) == 1 and fragment in error_lines[0] and name in error_lines[0]
    assert line_marker in error_lines[0]
    assert "good.txt" in result.stdout and "1 legal" in result.stdout


def test_a_missing_path_is_a_set_up_mistake_not_a_deck():
    result = run("check", "no/such/deck.txt", str(SAMPLES / "bifrost" / "legal-faria-stranger.txt"), "-f", "bifrost", "-o", "json")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "forcecheck: error: no/such/deck.txt: no such file or directory\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    result = run("check", str(fifo), "-f", "bifrost")
    assert result.exit_code == 2 and "not a regular file" in result.stdout


def test_bad_deck_content_is_a_violation_not_an_error(tmp_path):
    path = tmp_path / "d.txt"
    path.write_text("4 Viviane\n" + faria() + "Sideboard:\n0 Relief Aid\n")
    result = run("check", str(path), "-f", "bifrost", "-o", "json")
    assert result.exit_code == 1
    rules = [v["rule"] for v in json.loads(result.stdout)["decks"][0]["violations"]]
    assert rules == ["card-placed", "copy-limit", "invalid-count"]  # the stray line is placed in the main deck: a fifth Viviane


def test_formats_list_and_show():
    result = run("formats", "list")
    assert result.exit_code == 0 and "bifrost" in result.stdout and "wanderer" in result.stdout
    result = run("formats", "show", "bifrost")
    assert result.exit_code == 0
    for needle in ("main-size [FC101 section-size, error]", "Main Deck: at least 40 cards", "copy-limit [FC201", "unknown-card [FC001"):
        assert needle in result.stdout
    result = run("formats", "show", "wanderer")
    assert "extends: bifrost" in result.stdout and "Main Deck: 40 to 60 cards" in result.stdout
    result = run("formats", "show", "nope")
    assert result.exit_code == 2 and "unknown format" in result.stderr


def test_python_dash_m_and_console_script_work():
    out = subprocess.run([sys.executable, "-m", "forcecheck", "--version"], capture_output=True, text=True, check=False)
    assert out.returncode == 0 and out.stdout.startswith("forcecheck ")
    out = subprocess.run(
        [sys.executable, "-m", "forcecheck", "check", str(SAMPLES / "bifrost" / "illegal-39-main-cards.txt"), "-f", "bifrost", "-o", "json"],
        capture_output=True, text=True, check=False,
    )
    assert out.returncode == 1 and json.loads(out.stdout)["decks"][0]["violations"][0]["rule"] == "main-size"
    assert out.stderr == ""


def test_exit_zero_reports_but_does_not_fail():
    result = run("check", str(SAMPLES / "bifrost"), "-f", "bifrost", "--exit-zero")
    assert result.exit_code == 0 and "8 illegal" in result.stdout
    result = run("check", "missing.txt", "-f", "bifrost", "--exit-zero")
    assert result.exit_code == 2


def test_formats_schema_is_json_schema():
    result = run("formats", "schema")
    schema = json.loads(result.stdout)
    assert result.exit_code == 0 and schema["additionalProperties"] is False and "rules" in schema["properties"]


def test_a_game_the_catalog_does_not_have_is_an_error_not_no_card():
    for command in (["catalog", "show", "Faria"], ["catalog", "search", "Faria"]):
        result = run(*command, "--game", "mtg")
        assert result.exit_code == 2
        assert "--game 'mtg': embedded sample catalog has no cards of that game (games: fow, ygo)" in result.stdout + result.stderr
    assert run("catalog", "show", "Faria", "--game", "fow").exit_code == 0


def test_a_card_of_another_game_is_named_with_the_game_to_ask():
    result = run("catalog", "show", "Stardust Dragon")
    assert result.exit_code == 1
    assert "no card 'Stardust Dragon' in embedded sample catalog; it is a card of ygo: add --game ygo" in result.stdout + result.stderr


def test_catalog_info_without_an_import_says_the_sample_is_used_and_where_an_import_would_go(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("FORCECHECK_CATALOG", raising=False)
    shown = run("catalog", "info").stdout.splitlines()[0]
    assert shown.startswith("embedded sample catalog (nothing imported yet at the per-user default location ")


def test_a_catalog_holding_only_banlists_is_said_at_import_and_at_every_check(tmp_path):
    """``banlist import`` into a new catalog makes a catalog with no cards; checks that use it
    read every card as unknown, so both the import and each check say why."""
    db = tmp_path / "c.db"
    lflist = tmp_path / "l.conf"
    lflist.write_text("!2024.1 test\n89631139 1\n")
    imported = run("banlist", "import", str(lflist), "--catalog", str(db))
    assert imported.exit_code == 0 and "holds no cards yet, and checks that use it know no card" in imported.stderr
    checked = run("check", str(SAMPLES / "ygo-5ds" / "legal-synchro.ydk"), "-f", "ygo-5ds", "--catalog", str(db), "-o", "json")
    notes = json.loads(checked.stdout)["summary"]["notes"]
    assert any(n.endswith("has no ygo cards, so every card of a ygo-5ds deck reads as unknown; import the card data "
                          "(forcecheck catalog import ...)") for n in notes), notes
    full = run("check", str(SAMPLES / "ygo-5ds" / "legal-synchro.ydk"), "-f", "ygo-5ds", "-o", "json")
    assert not any("has no ygo cards" in n for n in json.loads(full.stdout)["summary"]["notes"])


def test_the_text_report_says_each_findings_level_in_words_with_or_without_colour(tmp_path):
    """Issue 39: warnings and errors looked the same without colour (CI logs, pipes, colour-blind
    readers); the level column says error or warning in words, in every text output."""
    deck = tmp_path / "d.txt"
    deck.write_text(faria().replace("4 Viviane", "5 Viviane").replace("Perceval, the Seeker of Holy Grail", "Perceval, the Seeker of Holy Grial"))
    for colour in ("never", "always"):
        out = run("check", str(deck), "-f", "bifrost", "--color", colour).stdout
        plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
        rows = {line.split()[1]: line.split()[2] for line in plain.splitlines() if re.match(r"\s+\d+\s+FC\d{3}\s", line)}
        assert rows == {"FC012": "warning", "FC201": "error"}, plain
        assert "line  code   level    rule" in plain
