"""One consistent tool (issue 16): every command resolves its settings the same way, the same
concept has the same name everywhere, and every report says what the run used.

Each test names the issue's item it holds to; each failed before the change it guards."""

from __future__ import annotations

import csv
import json
import os
import re
from pathlib import Path

import pytest
from conftest import ROOT, SAMPLES, faria, is_usage_error
from typer.testing import CliRunner

from forcecheck.cli import app

runner = CliRunner()
LFLIST = ROOT / "tests" / "fixtures" / "test-lflist.conf"
YGO = SAMPLES / "ygo-5ds"
FARIA = SAMPLES / "bifrost" / "legal-faria-stranger.txt"


def run(*args, env=None):
    result = runner.invoke(app, [str(a) for a in args], env=env)
    assert "Traceback" not in result.output + (result.stderr or ""), result.output
    return result


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A repository folder (with .git) as the working directory, outside any CI."""
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    for name in ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "FORCECHECK_OUTPUT_FORMAT", "FORCECHECK_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def lflist(path: Path, *names: str) -> Path:
    """An lflist.conf of made-up lists (not official ones): each forbids Pot of Greed."""
    path.write_text("".join(f"!{name}\n55144522 0 --Pot of Greed\n" for name in names))
    return path


# --- item 1: register takes the player, not the deck's title ------------------------------------

def test_register_player_is_the_player_line_or_the_file_name_never_the_title(repo):
    subs = repo / "subs"
    subs.mkdir()
    (subs / "ann.txt").write_text("Faria knights\n" + faria())  # a title line, no player: the file name
    (subs / "bob.txt").write_text("Faria knights\n" + faria().replace("4 Viviane", "3 Viviane\n1 Excalibur").replace("4 Excalibur", "4 Excalibur"))
    (subs / "cat.yaml").write_text("format: bifrost\nname: Faria knights\nplayer: Cat Doe\nsections:\n  Ruler: Faria\n")
    (subs / "dan.txt").write_text("# Player: Dan Roe\n# Name: Faria knights\n" + faria())
    result = run("register", subs, "-f", "bifrost", "--output-dir", repo / "out")
    rows = {r["file"]: r for r in csv.DictReader(open(repo / "out" / "registrations.csv", encoding="utf-8"))}
    assert {f: (r["player"], r["title"]) for f, r in rows.items()} == {
        "ann.txt": ("ann", "Faria knights"),
        "bob.txt": ("bob", "Faria knights"),
        "cat.yaml": ("Cat Doe", "Faria knights"),
        "dan.txt": ("Dan Roe", "Faria knights"),
    }
    assert not any(r["duplicate_player"] == "True" for r in rows.values())
    assert "registered twice" not in result.stdout
    assert result.exit_code == 1  # Cat's deck is illegal (a ruler alone), nobody is there twice


def test_register_flags_identical_decks_of_different_players_and_keeps_every_message(repo):
    subs = repo / "subs"
    subs.mkdir()
    (subs / "ann.txt").write_text("# Player: Ann\n" + faria())
    (subs / "bob.txt").write_text("# Player: Bob\n" + faria().replace("4 Excalibur", "2 Excalibur\n2 excalibur"))  # the same deck
    (subs / "cid.txt").write_text("# Player: Cid\n" + faria(main=[(5, "Excalibur"), (35, "Viviane")]))
    result = run("register", subs, "-f", "bifrost", "--output-dir", repo / "out")
    assert result.exit_code == 1
    doc = json.loads((repo / "out" / "registrations.json").read_text(encoding="utf-8"))
    rows = {r["file"]: r for r in doc["registrations"]}
    assert rows["ann.txt"]["same_deck_as"] == "Bob" and rows["bob.txt"]["same_deck_as"] == "Ann" and rows["cid.txt"]["same_deck_as"] == ""
    assert doc["summary"]["identical_decks"] == [{"fingerprint": rows["ann.txt"]["fingerprint"], "players": ["Ann", "Bob"]}]
    assert "identical decks handed in by Ann, Bob" in result.stdout
    messages = rows["cid.txt"]["messages"]
    assert any(m.startswith("line ") and "FC201 5 copies of Excalibur in Main Deck; at most 4 allowed" in m for m in messages)
    assert any("Viviane" in m for m in messages)
    csv_row = next(r for r in csv.DictReader(open(repo / "out" / "registrations.csv", encoding="utf-8")) if r["file"] == "cid.txt")
    assert csv_row["messages"] == " | ".join(messages)


# --- item 2: settings per format and per path; what does not apply is ignored with a note ----------

def test_a_banlist_for_another_game_is_ignored_for_force_of_will_decks_with_one_note(repo):
    (repo / ".forcecheck.yaml").write_text(f"format: bifrost\nbanlist_file: {LFLIST}\n")
    decks = repo / "decks"
    decks.mkdir()
    for name in ("a.txt", "b.txt"):
        (decks / name).write_text(faria())
    result = run("check", "decks")
    assert result.exit_code == 0, result.output
    notes = [line for line in result.stdout.splitlines() if line.startswith("note:") and "sample catalog" not in line]
    assert notes == [f"note: the banlist file {LFLIST} (set by {repo / '.forcecheck.yaml'}:2) does not apply to format bifrost (it has no banlist rule); ignored for its decks"]
    doc = json.loads(run("check", "decks", "-o", "json").stdout)
    assert len(doc["summary"]["notes"]) == 1 and all(d["legal"] and d["banlist"] is None for d in doc["decks"])
    assert run("check", "decks", "-o", "json", "--jobs", "2").stdout == run("check", "decks", "-o", "json").stdout  # noted in workers too


def test_settings_per_format_and_per_path(repo):
    (repo / ".forcecheck.yaml").write_text(
        "format: bifrost\n"
        "paths:\n"
        "  'decks/ygo/**': ygo-5ds\n"
        "  'decks/wip/**': {format: bifrost, ignore: [main-size]}\n"
        "formats:\n"
        f"  ygo-5ds: {{banlist_file: {LFLIST}, banlist: whitelist test}}\n"
    )
    for folder in ("ygo", "wip", "fow"):
        (repo / "decks" / folder).mkdir(parents=True)
    (repo / "decks" / "ygo" / "d.ydk").write_text((YGO / "legal-synchro.ydk").read_text())
    (repo / "decks" / "wip" / "d.txt").write_text(faria(main=[(4, "Viviane")]))
    (repo / "decks" / "fow" / "d.txt").write_text(faria(main=[(4, "Viviane")]))
    doc = json.loads(run("check", "decks", "-o", "json").stdout)
    by_path = {d["path"]: d for d in doc["decks"]}
    fow, wip, ygo = (by_path[f"decks/{f}"] for f in ("fow/d.txt", "wip/d.txt", "ygo/d.ydk"))
    assert ygo["format"] == "ygo-5ds" and ygo["banlist"] == "whitelist test" and not ygo["legal"]  # the format's banlist
    assert [v["rule"] for v in fow["violations"]] == ["main-size"] and wip["violations"] == []  # the path's ignore
    assert doc["summary"]["notes"] == []  # the list applies to the one format it was set for
    shown = run("config", "show").stdout
    assert "formats: ygo-5ds" in shown and "paths: decks/wip/**" in shown and "ignore       main-size" in shown


def test_a_format_error_names_the_deck_file(repo):
    (repo / ".forcecheck.yaml").write_text("format: bifrots\n")
    (repo / "d.txt").write_text(faria())
    result = run("check", "d.txt")
    assert result.exit_code == 2 and "ERROR d.txt: unknown format 'bifrots'" in result.stdout


@pytest.mark.parametrize(
    "config,fragment",
    [
        ("formats:\n  'decks/**': abc\n", "formats: decks/**: expected a mapping of settings, got 'abc' (a format per path glob goes under paths:"),
        ("formats:\n  ygo-5d: {banlist: none}\n", "formats: no format 'ygo-5d'"),
        ("formats:\n  bifrost: {format_dirs: [x]}\n", "'format_dirs' cannot be set here"),
        ("formats:\n  ygo-5ds: {banlist: 2011.10}\n", 'write it in quotes: "2011.1"'),
        ("as_of: someday\n", "as_of: 'someday' is not a date"),
    ],
)
def test_bad_scoped_settings_are_exit_2_with_file_and_line(repo, config, fragment):
    (repo / ".forcecheck.yaml").write_text("format: bifrost\n" + config)
    (repo / "d.txt").write_text(faria())
    result = run("check", "d.txt")
    assert result.exit_code == 2 and fragment in result.stderr and ".forcecheck.yaml:" in result.stderr


# --- item 3: one precedence: flag > environment > configuration > CI default > built-in ------------

def test_output_format_precedence(repo):
    deck = "d.txt"
    (repo / deck).write_text(faria(main=[(4, "Viviane")]))
    gha = {"GITHUB_ACTIONS": "true"}
    assert run("check", deck, "-f", "bifrost").stdout.splitlines()[1].startswith("ILLEGAL")  # built-in: text (under the sample's note)
    assert run("check", deck, "-f", "bifrost", env=gha).stdout.startswith("::error ")  # the CI default
    (repo / ".forcecheck.yaml").write_text("output_format: concise\n")
    assert run("check", deck, "-f", "bifrost", env=gha).stdout.startswith("d.txt:")  # the configuration beats the CI default
    env = {**gha, "FORCECHECK_OUTPUT_FORMAT": "json"}
    assert run("check", deck, "-f", "bifrost", env=env).stdout.startswith("{")  # the environment beats the configuration
    assert run("check", deck, "-f", "bifrost", "-o", "github", env=env).stdout.startswith("::error ")  # the flag beats all
    (repo / ".forcecheck.yaml").write_text("fail_on: error\n")
    shown = run("config", "show", env=gha).stdout
    assert "output_format  github" in shown and "(CI default (GITHUB_ACTIONS=true))" in shown


# --- item 4: catalog and banlist commands use the configuration as check does ---------------------

def test_banlist_import_writes_the_configured_catalog_and_every_command_reads_it(repo):
    (repo / ".forcecheck.yaml").write_text("catalog: cards/catalog.sqlite3\nformat: ygo-5ds\n")
    made = lflist(repo / "lists.conf", "2011.3.1", "2012.3")
    result = run("banlist", "import", made)
    assert result.exit_code == 0 and f"into {repo / 'cards' / 'catalog.sqlite3'} (set by {repo / '.forcecheck.yaml'}:1)" in result.stdout
    info = run("catalog", "info")
    assert info.stdout.startswith(f"{Path('cards') / 'catalog.sqlite3'} (set by {repo / '.forcecheck.yaml'}:1)")
    assert "2011.3.1" in run("banlist", "list").stdout
    # a typo suggests the list; the configured catalog was searched
    result = run("check", YGO / "legal-synchro.ydk", "--banlist", "2011.3")
    assert result.exit_code == 2
    assert f"no banlist '2011.3' in catalog {repo / 'cards' / 'catalog.sqlite3'}; did you mean '2011.3.1'? (banlist set by command line --banlist)" in result.stderr
    result = run("banlist", "show", "2011.3")
    assert result.exit_code == 2 and "did you mean '2011.3.1'?" in result.stderr


def test_register_reads_the_configuration_and_needs_no_format_flag(repo):
    (repo / "event.yaml").write_text("format: bifrost\nignore: [copy-limit]\n")
    subs = repo / "subs"
    subs.mkdir()
    (subs / "a.txt").write_text("# Player: Ann\n" + faria(main=[(5, "Excalibur"), (35, "Viviane")]))
    result = run("register", subs, "--config", repo / "event.yaml", "--output-dir", repo / "out")
    assert result.exit_code == 0, result.output
    assert "config: event.yaml" in result.stdout
    assert json.loads((repo / "out" / "registrations.json").read_text())["summary"]["config"] == "event.yaml"


# --- item 5: the same concept has the same name everywhere ---------------------------------------

CATALOG_COMMANDS = [
    ["check", FARIA, "-f", "bifrost"], ["fmt", FARIA, "-f", "bifrost", "--check"], ["fingerprint", FARIA, "-f", "bifrost"],
    ["verify", FARIA, FARIA, "-f", "bifrost"], ["catalog", "info"], ["catalog", "show", "Excalibur"],
    ["catalog", "search", "excal"], ["banlist", "list"], ["stats", FARIA, "-f", "bifrost"],
]


@pytest.mark.parametrize("args", CATALOG_COMMANDS, ids=lambda a: " ".join(map(str, a[:2])))
def test_catalog_is_named_catalog_everywhere_and_db_is_a_hidden_alias(tmp_path, args):
    from forcecheck.cards.catalog import sample_catalog

    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"schema": "forcecheck-catalog/1", "cards": [c.to_dict() for c in sample_catalog().cards()]}))
    for option in ("--catalog", "--db"):
        result = run(*args, option, path)
        assert not is_usage_error(result.stderr), (option, result.output + result.stderr)
        assert result.exit_code in (0, 1), result.output + result.stderr
    help_text = run(*args[:2 if args[0] in ("catalog", "banlist") else 1], "--help").stdout
    assert "--catalog PATH" in help_text and "--db" not in help_text


def test_check_jobs_gives_the_output_of_one_job(monkeypatch):
    monkeypatch.chdir(ROOT)
    for fmt in ("text", "json", "sarif"):
        one = run("check", "sample_decks", "missing.txt", "-f", "bifrost", "-o", fmt, "--color", "never")
        two = run("check", "sample_decks", "missing.txt", "-f", "bifrost", "-o", fmt, "--color", "never", "--jobs", "2")
        assert one.exit_code == two.exit_code == 2 and one.stdout == two.stdout


def test_register_takes_output_format_and_output_dir_like_check(repo):
    subs = repo / "subs"
    subs.mkdir()
    (subs / "a.txt").write_text(faria(main=[(4, "Viviane")]))
    result = run("register", subs, "-f", "bifrost", "-o", "json", "--output-dir", repo / "reg")
    doc = json.loads(result.stdout)  # the check report, and nothing else, on stdout
    assert doc["decks"][0]["violations"][0]["rule"] == "main-size" and result.exit_code == 1
    assert (repo / "reg" / "registrations.csv").is_file() and "wrote" in result.stderr
    result = run("register", subs, "-f", "bifrost", "--output-dir", repo / "reg", "--select", "FC2", "--warn", "FC1")
    assert result.exit_code == 0, result.output  # main-size is not selected


def test_verify_takes_the_banlist_options_and_lists_its_output_choices(tmp_path):
    deck = YGO / "legal-synchro.ydk"
    result = run("verify", deck, deck, "-f", "ygo-5ds", "-o", "yaml")
    assert result.exit_code == 2 and "text" in result.stderr and "json" in result.stderr
    banned = tmp_path / "banned.ydk"
    banned.write_text(deck.read_text().replace("#extra", "55144522\n#extra", 1))
    result = run("verify", banned, banned, "-f", "ygo-5ds", "--banlist-file", LFLIST, "--as-of", "2099-06-01")  # Pot of Greed is forbidden there
    assert result.exit_code == 1 and "identical to the registered list" in result.stdout and "but the played deck breaks" in result.stdout
    result = run("verify", banned, banned, "-f", "ygo-5ds", "--banlist-file", LFLIST, "--banlist", "none", "-o", "json")
    assert result.exit_code in (0, 1) and json.loads(result.stdout)["banlist"] is None
    result = run("verify", deck, deck, "-f", "ygo-5ds", "--as-of", "2011-06-01", "-o", "json")
    assert result.exit_code == 0 and json.loads(result.stdout)["status"] == "identical"


def test_rules_shows_one_rule():
    result = run("rules", "FC201")
    assert result.exit_code == 0 and result.stdout.startswith("FC201 copy-limit (copies, default severity error)")
    assert "copy-limit (bifrost)" in result.stdout and "copy-limit (ygo-5ds)" in result.stdout
    assert run("rules", "unknown-card").stdout.startswith("FC001 unknown-card")
    doc = json.loads(run("rules", "copy-limit", "-o", "json").stdout)
    assert doc["code"] == "FC201" and {"format": "abc", "rule": "singleton"} in doc["formats"]
    result = run("rules", "FC999")
    assert result.exit_code == 2 and "no rule 'FC999'" in result.stderr


# --- item 6: Yu-Gi-Oh! reports ------------------------------------------------------------------

def test_a_card_on_several_ydk_lines_is_one_finding_listing_its_lines(tmp_path):
    text = (YGO / "illegal-xyz-and-pendulum.ydk").read_text().replace("19613556\n16178681", "16178681\n16178681")
    deck = tmp_path / "d.ydk"
    deck.write_text(text)
    doc = json.loads(run("check", deck, "-f", "ygo-5ds", "-o", "json").stdout)
    pendulum = [v for v in doc["decks"][0]["violations"] if v["rule"] == "no-later-card-kinds" and v["section"] == "main"]
    assert len(pendulum) == 1
    (v,) = pendulum
    lines = [i for i, line in enumerate(text.splitlines(), start=1) if line == "16178681"]
    assert v["line"] == lines[0] and v["lines"] == lines and v["found"] == 2
    assert v["message"].endswith(f"(lines {lines[0]}, {lines[1]})")


def test_the_catalog_is_named_once_in_the_summary_not_on_every_line(tmp_path):
    from forcecheck.cards.catalog import sample_catalog

    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"schema": "forcecheck-catalog/1", "cards": [c.to_dict() for c in sample_catalog().cards()]}))
    result = run("check", YGO / "illegal-unknown-passcode.ydk", "-f", "ygo-5ds", "--catalog", path)
    assert result.stdout.count(str(path)) == 1 and f"catalog: {path}" in result.stdout
    assert "catalog: catalog" not in result.stdout


def test_formats_show_says_which_list_the_5ds_format_applies_by_default():
    shown = run("formats", "show", "ygo-5ds").stdout
    assert "none by default" not in shown
    assert "else the latest imported list whose name matches" in shown and "that took effect by --as-of (default today)" in shown


# --- item 7: CI reports ---------------------------------------------------------------------------

def test_sarif_start_line_always_and_uris_relative_to_the_repository(repo):
    (repo / "decks").mkdir()
    deck = repo / "decks" / "no main.txt"
    deck.write_text("Ruler:\n1 Faria\n")  # no main deck at all: a section-wide finding with no line
    doc = json.loads(run("check", deck.resolve(), "-f", "bifrost", "-o", "sarif").stdout)  # an absolute input
    (sarif_run,) = doc["runs"]
    assert sarif_run["originalUriBaseIds"]["SRCROOT"]["uri"] == repo.resolve().as_uri() + "/"
    for result in sarif_run["results"]:
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"] == {"uri": "decks/no%20main.txt", "uriBaseId": "SRCROOT"}
        assert location["region"]["startLine"] >= 1
    assert any(r["locations"][0]["physicalLocation"]["region"]["startLine"] == 1 and r["properties"]["rule"] == "main-size" for r in sarif_run["results"])
    assert sarif_run["properties"]["config"] is None and sarif_run["properties"]["catalog"] == "embedded sample catalog"


def test_sarif_artifact_is_relative_only_inside_the_repository(tmp_path):
    """A file inside the root is relative to SRCROOT; a sibling folder whose name starts with
    the root's, or a file elsewhere, is an absolute file: URI."""
    from forcecheck.report.machine import _artifact

    root = tmp_path / "repo"
    assert _artifact(str(root / "decks" / "a b.txt"), str(root)) == {"uri": "decks/a%20b.txt", "uriBaseId": "SRCROOT"}
    assert _artifact(str(root), str(root)) == {"uri": ".", "uriBaseId": "SRCROOT"}
    sibling = tmp_path / "repo-old" / "x.txt"
    assert _artifact(str(sibling), str(root)) == {"uri": sibling.as_uri()}
    assert _artifact("/elsewhere/x.txt", str(root)) == {"uri": "file:///elsewhere/x.txt"}
    assert _artifact("/x.txt", "/") == {"uri": "x.txt", "uriBaseId": "SRCROOT"}
    for odd in ("/tmp/a b/c#d?.txt", "/tmp/ünï/x%y.txt", "/tmp/" + os.fsdecode(b"\xff\xfe.txt"), "/a/b;c=d@e:f&g+h$i,j"):
        assert _artifact(odd, str(root)) == {"uri": Path(odd).as_uri()}, odd  # the URI pathlib writes


def test_junit_carries_times_that_report_tools_read(monkeypatch, tmp_path):
    from junitparser import JUnitXml

    monkeypatch.chdir(ROOT)
    out = tmp_path / "report.xml"
    run("check", "sample_decks/bifrost", "tests/fixtures/unreadable-deck.txt", "-f", "bifrost", "-o", "junit", "--output-file", out)
    xml = JUnitXml.fromfile(str(out))
    suite = next(iter(xml))
    assert suite.time is not None and suite.time == suite.time  # not NaN
    cases = list(suite)
    assert len(cases) == len(list((ROOT / "sample_decks" / "bifrost").iterdir())) + 1
    assert all(case.time is not None and case.time >= 0 for case in cases)
    assert {p.name: p.value for p in suite.properties()}["catalog"] == "embedded sample catalog"


def test_step_summary_in_markdown_when_github_asks(repo):
    summary = repo / "summary.md"
    summary.write_text("earlier step\n")
    (repo / "a|b.txt").write_text(faria(main=[(4, "Viviane")]))
    (repo / "ok.txt").write_text(faria())
    env = {"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)}
    result = run("check", "a|b.txt", "ok.txt", "-f", "bifrost", env=env)
    assert result.exit_code == 1 and result.stdout.startswith("::error ")
    text = summary.read_text()
    assert text.startswith("earlier step\n### forcecheck: 1 of 2 decks are illegal or unreadable\n")
    assert "| a\\|b.txt | bifrost | 1 | 0 | FC101 |" in text
    assert "2 decks checked: 1 legal, 1 illegal" in text and "config: none" in text


def test_an_unknown_card_against_the_sample_catalog_says_to_import_a_real_one():
    result = run("check", SAMPLES / "bifrost" / "illegal-unknown-card-name.txt", "-f", "bifrost")
    assert "note: unknown cards were looked up in the embedded sample catalog" in result.stdout
    assert "run 'forcecheck catalog fetch fow' once" in result.stdout
    assert "note: unknown cards" not in run("check", FARIA, "-f", "bifrost").stdout


# --- item 8: small things -------------------------------------------------------------------------

def test_text_tables_carry_no_trailing_spaces(monkeypatch):
    monkeypatch.chdir(ROOT)
    out = run("check", "sample_decks/abc", "-f", "abc", env={"COLUMNS": "200"}).stdout
    assert out.count("\n") > 20 and not [line for line in out.splitlines() if line != line.rstrip()]


def test_rule_docs_have_no_markup_and_english_descriptions_no_japanese():
    from forcecheck.checking import FormatCache
    from forcecheck.rules.registry import KINDS

    assert "``" not in run("rules").stdout and not any("``" in k.doc for k in KINDS.values())
    cjk = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
    for name in ("bifrost", "wanderer", "abc", "ygo-5ds"):
        for rule in FormatCache().get(name).spec.rules:
            assert not cjk.search(rule.description), (name, rule.id, rule.description)


def test_banlist_show_sorts_passcodes_as_numbers(tmp_path):
    db = tmp_path / "c.db"
    path = tmp_path / "l.conf"
    path.write_text("!order test\n100 0 --c\n85 0 --a\n9 0 --b\n1000 0 --d\n")
    run("banlist", "import", path, "--catalog", db)
    shown = run("banlist", "show", "order test", "--catalog", db).stdout
    assert [line.split()[0] for line in shown.splitlines() if line.startswith("    ")] == ["9", "85", "100", "1000"]


def test_json_unreadable_deck_names_its_known_format_and_has_no_fingerprint(tmp_path):
    (tmp_path / "binary.txt").write_bytes(b"\x00")
    doc = json.loads(run("check", tmp_path / "binary.txt", "-f", "bifrost", "-o", "json").stdout)
    (deck,) = doc["decks"]
    assert deck["format"] == "bifrost" and "fingerprint" not in deck and deck["error"]
    (tmp_path / ".forcecheck.yaml").write_text("format: abc\n")
    doc = json.loads(run("check", tmp_path / "binary.txt", "--config", tmp_path / ".forcecheck.yaml", "-o", "json").stdout)
    assert doc["decks"][0]["format"] == "abc"


def _commands(group=None):
    import typer.main

    command = typer.main.get_command(app)
    for name, sub in sorted(command.commands.items()):
        if hasattr(sub, "commands"):
            for leaf in sorted(sub.commands):
                yield [name, leaf]
        else:
            yield [name]


@pytest.mark.parametrize("words", list(_commands()), ids=" ".join)
def test_help_reads_well(words):
    text = run(*words, "--help", env={"COLUMNS": "100"}).stdout
    assert text.startswith(f"Usage: forcecheck {' '.join(words)} [OPTIONS]")
    for ugly in ("<list[", "<str>", "<path>", "<int", "{", "\\["):
        assert ugly not in text, (ugly, text)


# --- the configuration file: where the search stops, and every report names it --------------------

def test_the_configuration_search_stops_at_the_repository_root(tmp_path, monkeypatch):
    (tmp_path / ".forcecheck.yaml").write_text("ignore: [FC]\n")  # above the repository: never read
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "decks").mkdir()
    deck = project / "decks" / "d.txt"
    deck.write_text(faria(main=[(4, "Viviane")]))
    monkeypatch.chdir(project / "decks")
    result = run("check", "d.txt", "-f", "bifrost")
    assert result.exit_code == 1 and "config: none" in result.stdout
    (project / ".forcecheck.yaml").write_text("ignore: [main-size]\n")  # the repository's own is
    result = run("check", "d.txt", "-f", "bifrost")
    assert result.exit_code == 0 and "config: ../.forcecheck.yaml" in result.stdout


def test_the_configuration_search_stops_at_home_and_outside_both_reads_only_here(tmp_path, monkeypatch):
    from forcecheck.config_files import find_config_file

    (tmp_path / ".forcecheck.yaml").write_text("ignore: [FC]\n")
    home = tmp_path / "home"
    (home / "work" / "decks").mkdir(parents=True)
    assert find_config_file(home / "work" / "decks", home=home) is None
    (home / ".forcecheck.yaml").write_text("format: bifrost\n")
    assert find_config_file(home / "work" / "decks", home=home) == home / ".forcecheck.yaml"
    elsewhere = tmp_path / "shared" / "job"
    elsewhere.mkdir(parents=True)
    assert find_config_file(elsewhere, home=home) is None  # neither in a repository nor below home
    (elsewhere / ".forcecheck.yaml").write_text("format: abc\n")
    assert find_config_file(elsewhere, home=home) == elsewhere / ".forcecheck.yaml"


def test_every_report_names_the_configuration(repo, monkeypatch):
    (repo / ".forcecheck.yaml").write_text("format: bifrost\n")
    (repo / "d.txt").write_text(faria())
    assert "config: .forcecheck.yaml" in run("check", "d.txt").stdout
    assert json.loads(run("check", "d.txt", "-o", "json").stdout)["summary"]["config"] == ".forcecheck.yaml"
    assert json.loads(run("check", "d.txt", "-o", "sarif").stdout)["runs"][0]["properties"]["config"] == ".forcecheck.yaml"
    assert 'name="config" value=".forcecheck.yaml"' in run("check", "d.txt", "-o", "junit").stdout
    for fmt in ("concise", "github"):
        assert "config: .forcecheck.yaml" in run("check", "d.txt", "-o", fmt).stderr
    assert "config: .forcecheck.yaml" in run("verify", "d.txt", "d.txt").stdout
    assert json.loads(run("verify", "d.txt", "d.txt", "-o", "json").stdout)["config"] == ".forcecheck.yaml"
    assert "config: .forcecheck.yaml" in run("fingerprint", "d.txt").stderr
    assert "config: .forcecheck.yaml" in run("fmt", "d.txt", "--check").stderr


def test_the_library_session_gives_the_cli_verdict(repo):
    """The web desk and every command check through one Session: a text upload and the file give
    the same deck object under the same configuration."""
    from forcecheck.session import Session

    (repo / ".forcecheck.yaml").write_text("format: bifrost\nignore: [copy-limit]\nseverity:\n  main-size: warning\n")
    text = faria(main=[(5, "Excalibur"), (4, "Viviane")])
    (repo / "d.txt").write_text(text)
    session = Session.from_options({})
    from_text = session.check_text(text, "bifrost", "d.txt").to_dict()
    from_file = session.check_file("d.txt").to_dict()
    from_cli = json.loads(run("check", "d.txt", "-o", "json").stdout)["decks"][0]
    assert from_text == from_file == from_cli
    assert [(v["rule"], v["severity"]) for v in from_cli["violations"]] == [("main-size", "warning")]
    assert session.about() == {"catalog": "embedded sample catalog", "catalog_sources": [], "config": ".forcecheck.yaml", "notes": []}
