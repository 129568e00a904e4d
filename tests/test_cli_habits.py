"""The command line's habits, as the tools its users know have them (ruff, pre-commit, typer):
``-h`` for ``--help`` and ``-V`` for ``--version`` on every command, typer's shell completion,
each option's environment variable in ``--help`` (``[env: FORCECHECK_...]``), and one style for
every usage error: one ``forcecheck: error: ...; see '... --help'`` line and exit 2, never
click's "Usage: ... Error: ..." box. Each is tested both ways: what is understood runs, what
is not is one line."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SAMPLES, cli_runner, is_usage_error

from forcecheck import __version__
from forcecheck.cli import app

runner = cli_runner()
BIN = Path(sys.executable).parent
DECK = str(SAMPLES / "bifrost" / "legal-faria-stranger.txt")
YDK = str(SAMPLES / "ygo-5ds" / "legal-synchro.ydk")


def run(*args, env=None):
    result = runner.invoke(app, [str(a) for a in args], env=env, prog_name="forcecheck")
    assert "Traceback" not in result.output + (result.stderr or ""), result.output + result.stderr
    return result


def _commands():
    """Every command and group, as the words that name it (the root is [])."""
    import typer.main

    root = typer.main.get_command(app)
    yield []
    for name, sub in sorted(root.commands.items()):
        yield [name]
        for leaf in sorted(getattr(sub, "commands", {})):
            yield [name, leaf]


COMMANDS = list(_commands())


LEAVES = [w for w in COMMANDS if w and not any(len(c) == 2 and c[0] == w[0] for c in COMMANDS)] + [w for w in COMMANDS if len(w) == 2]
"""The commands that run (not the groups)."""


# --- -h and -V -------------------------------------------------------------------------------------

@pytest.mark.parametrize("words", COMMANDS, ids=lambda w: " ".join(w) or "forcecheck")
def test_h_is_help_and_V_is_the_version_on_every_command(words):
    long, short = run(*words, "--help"), run(*words, "-h")
    assert long.exit_code == short.exit_code == 0 and short.stdout == long.stdout
    assert long.stdout.startswith(f"Usage: forcecheck {' '.join(words)}".rstrip() + " ")
    assert re.search(r"^  -V, --version +Print the version and exit\.$", long.stdout, re.M), long.stdout
    assert re.search(r"^  -h, --help +Show this message and exit\.$", long.stdout, re.M), long.stdout
    for flag in ("-V", "--version"):
        version = run(*words, flag)
        assert (version.exit_code, version.stdout) == (0, f"forcecheck {__version__}\n"), (flag, version.stdout + version.stderr)
    other = run(*words, "-Q")  # a letter no command takes: a usage error, not help
    assert other.exit_code == 2 and other.stdout == "" and is_usage_error(other.stderr), other.stderr


def test_V_alone_is_answered_without_typer_as_version_is():
    """``forcecheck -V``, like ``forcecheck --version``, is printed before typer loads."""
    probe = ("import sys; from forcecheck.cli.direct import run_direct; code = run_direct(sys.argv[1:]); "
             "print(code, sorted(m for m in sys.modules if m.split('.')[0] == 'typer'))")
    for flag in ("-V", "--version"):
        done = subprocess.run([sys.executable, "-c", probe, flag], capture_output=True, text=True, cwd=ROOT, timeout=60, check=True)
        assert done.stdout == f"forcecheck {__version__}\n0 []\n", (flag, done.stdout, done.stderr)


def test_h_before_a_command_is_the_root_s_help():
    """``forcecheck -h check`` is the root's help, as ``--help check`` is (all commands listed)."""
    short, long = run("-h", "check"), run("--help", "check")
    assert short.exit_code == long.exit_code == 0 and short.stdout == long.stdout and "Commands:" in short.stdout


# --- shell completion --------------------------------------------------------------------------------

def _complete(words: str, env_base: dict) -> list[str]:
    """What bash completion offers after ``words`` (typer's protocol: COMP_WORDS, COMP_CWORD)."""
    env = {**env_base, "_FORCECHECK_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))}
    done = subprocess.run([str(BIN / "forcecheck")], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout.split()


def test_shell_completion_completes_commands_options_and_values(tmp_path):
    env = {**os.environ, "HOME": str(tmp_path), "FORCECHECK_CACHE_DIR": str(tmp_path / "cache")}
    assert _complete("forcecheck ch", env) == ["check"]
    assert set(_complete("forcecheck formats s", env)) == {"show", "schema"}
    assert set(_complete("forcecheck check --for", env)) == {"--format", "--formats-dir"}
    assert set(_complete("forcecheck check x -o j", env)) == {"json", "junit"}
    assert {"bifrost", "ygo-tcg"} <= set(_complete("forcecheck check x --format ", env))  # the formats forcecheck knows
    assert _complete("forcecheck check x --format ygo-tc", env) == ["ygo-tcg"]
    assert _complete("forcecheck chx", env) == []  # nothing to offer: nothing, and no error


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts_are_typer_s_own(shell, tmp_path):
    env = {**os.environ, "HOME": str(tmp_path)}
    shown = subprocess.run([str(BIN / "forcecheck"), "--show-completion", shell], capture_output=True, text=True, env=env, timeout=60)
    assert shown.returncode == 0 and "_FORCECHECK_COMPLETE" in shown.stdout and "forcecheck" in shown.stdout, shown.stderr
    installed = subprocess.run([str(BIN / "forcecheck"), "--install-completion", shell], capture_output=True, text=True, env=env, timeout=60)
    assert installed.returncode == 0, installed.stderr
    written = [p for p in tmp_path.rglob("*") if p.is_file() and "_FORCECHECK_COMPLETE" in p.read_text(errors="replace")]
    assert written, f"{shell}: no completion script under {tmp_path}: {installed.stdout}"


def test_completion_is_offered_in_the_root_s_help():
    text = run("--help").stdout
    assert "--install-completion" in text and "--show-completion" in text
    assert "--install-completion" not in run("check", "--help").stdout  # the root's, not every command's


# --- environment variables in --help ---------------------------------------------------------------

def _help_records(words):
    """(option names, help text) of a command's options, as its --help shows them (unwrapped)."""
    import typer.main

    command = typer.main.get_command(app)
    ctx = command.make_context("forcecheck", list(words) + ["--help"], resilient_parsing=True)
    for word in words:
        command = command.commands[word]
        ctx = command.make_context(word, [], parent=ctx, resilient_parsing=True)
    return [(p.opts, p.get_help_record(ctx)[1]) for p in command.get_params(ctx) if p.param_type_name == "option" and p.get_help_record(ctx)]


def _expected_variable(opts) -> str | None:
    from forcecheck.config import CONFIG_ENV, SETTINGS

    if "--config" in opts:
        return CONFIG_ENV
    return next((s.env for s in SETTINGS.values() if s.flag in opts and s.env), None)


PLAIN_OUTPUT = {("rules",), ("verify",), ("stats",)}
"""Commands whose -o is their own short list (text, json, ...), not the output_format setting."""


@pytest.mark.parametrize("words", LEAVES, ids=" ".join)
def test_help_shows_each_option_s_variable_and_no_other(words):
    for opts, text in _help_records(words):
        shown = re.findall(r"\[env: ([A-Z_]+)\]", text)
        expected = _expected_variable(opts)
        if "--output-format" in opts and tuple(words) in PLAIN_OUTPUT:
            expected = None
        assert shown == ([expected] if expected else []), (words, opts, text)
    wrapped = run(*words, "--help", env={"COLUMNS": "80"}).stdout
    assert not re.search(r"\[env:\s*\n", wrapped) and "\u00a0" not in wrapped  # never split over two lines


BAD = {
    "FORCECHECK_FORMAT": "no-such-format", "FORCECHECK_CATALOG": "{tmp}/not-a-catalog.sqlite3",
    "FORCECHECK_CONFIG": "/nonexistent/forcecheck.yaml", "FORCECHECK_FORMATS_PATH": "/nonexistent/formats",
    "FORCECHECK_BANLIST": "no-such-list", "FORCECHECK_BANLIST_FILE": "/nonexistent/lflist.conf", "FORCECHECK_AS_OF": "not-a-date",
    "FORCECHECK_SELECT": "FC999", "FORCECHECK_EXTEND_SELECT": "FC999", "FORCECHECK_IGNORE": "FC999",
    "FORCECHECK_OUTPUT_FORMAT": "xml", "FORCECHECK_COLOR": "sometimes", "FORCECHECK_FAIL_ON": "sometimes", "FORCECHECK_JOBS": "0",
    "FORCECHECK_FETCH_SOURCE": "/nonexistent/mirror", "FORCECHECK_POINTS_CAP": "lots",
}
"""A value each variable cannot take: a command that reads the variable stops on it (exit 2).
Nothing is written at these paths (the catalog is a file of text, never a database to create)."""

ARGS = {
    ("check",): [YDK, "-f", "ygo-5ds"], ("stats",): [YDK, "-f", "ygo-5ds"], ("fingerprint",): [YDK, "-f", "ygo-5ds"],
    ("fmt",): [YDK, "-f", "ygo-5ds", "--check"], ("verify",): [YDK, YDK, "-f", "ygo-5ds"],
    ("register",): [str(SAMPLES / "ygo-5ds"), "-f", "ygo-5ds", "--output-dir", "{tmp}/reg"],
    ("rules",): ["FC201"], ("formats", "show"): ["bifrost"], ("catalog", "show"): ["Junk Synchron", "--game", "ygo"], ("catalog", "search"): ["junk", "--game", "ygo"],
    ("catalog", "fetch"): ["fow"], ("catalog", "import"): ["ygopro", "{tmp}/cards.cdb"],
    ("banlist", "import"): ["{tmp}/lflist.conf"], ("banlist", "show"): ["2011.3.1"],
    ("sheet",): [YDK, "-f", "ygo-5ds", "--output-file", "{tmp}/sheet.pdf"],
}
"""What each command needs besides its options ({tmp}: the test's folder, laid out by ``_card_data``)."""


def _card_data(tmp_path: Path) -> Path:
    """A card database, a Forbidden/Limited list and a catalog imported from both, in tmp_path."""
    from conftest import make_cdb

    from forcecheck.importers.pipeline import import_banlists, import_files

    make_cdb(tmp_path / "cards.cdb", [(63977008, 0, 0x1 | 0x20 | 0x1000, 3, 0x8, 0x8, "Junk Synchron")])
    (tmp_path / "lflist.conf").write_text("!2011.3.1\n#forbidden\n63977008 0 --Junk Synchron\n", encoding="utf-8")
    (tmp_path / "not-a-catalog.sqlite3").write_text("not a catalog\n", encoding="utf-8")
    catalog = tmp_path / "catalog.sqlite3"
    import_files("ygopro", [tmp_path / "cards.cdb"], catalog)
    import_banlists([tmp_path / "lflist.conf"], catalog)
    return catalog


def _variable_cases():
    for words in LEAVES:
        if words == ["serve"]:
            continue  # a server: it reads its settings as check does (forcecheck.web.server), and runs until stopped
        for _opts, text in _help_records(words):
            for variable in re.findall(r"\[env: ([A-Z_]+)\]", text):
                yield pytest.param(words, variable, id=f"{' '.join(words)} {variable}")


@pytest.mark.parametrize(("words", "variable"), list(_variable_cases()))
def test_every_variable_a_command_shows_is_one_it_reads(words, variable, tmp_path, monkeypatch):
    """Both ways: the command with a value the variable cannot take stops naming it (exit 2);
    without the variable it runs."""
    monkeypatch.chdir(tmp_path)
    if words == ["sheet"]:
        pytest.importorskip("fpdf", reason="forcecheck sheet needs the sheets extra (pip install -e '.[sheets]')")
    catalog = _card_data(tmp_path)
    args = [a.replace("{tmp}", str(tmp_path)) for a in ARGS.get(tuple(words), [])]
    if variable == "FORCECHECK_FORMAT":  # the flag beats the variable: leave it out
        args = [a for i, a in enumerate(args) if a != "-f" and (i == 0 or args[i - 1] != "-f")]
    env = {"FORCECHECK_CATALOG": str(catalog)} if words[0] in ("catalog", "banlist") else {}
    if words == ["catalog", "fetch"]:
        env["FORCECHECK_FETCH_SOURCE"] = str(tmp_path / "empty-mirror")  # never the network
        (tmp_path / "empty-mirror").mkdir()
    value = BAD[variable].replace("{tmp}", str(tmp_path))
    bad = run(*words, *args, env={**env, variable: value})
    said = bad.stdout + bad.stderr
    assert bad.exit_code == 2 and (variable in said or value in said), (words, variable, said)
    if words == ["catalog", "fetch"]:
        return  # an empty mirror: no run to compare with
    usable = {"FORCECHECK_FORMAT": "ygo-5ds", "FORCECHECK_CATALOG": env.get("FORCECHECK_CATALOG")}.get(variable)
    good = run(*words, *args, env={**env, variable: usable})
    assert good.exit_code in (0, 1) and not is_usage_error(good.stderr), (words, variable, good.stdout + good.stderr)


# --- one style for every usage error -------------------------------------------------------------

USAGE = [
    (["check", "--formt", "x", DECK], "no option --formt for 'forcecheck check' (did you mean '--format'?); see 'forcecheck check --help'",
     ["check", "--format", "bifrost", DECK]),
    (["chek", DECK], "no command 'chek' in 'forcecheck' (did you mean 'check'?); see 'forcecheck --help'", ["check", DECK, "-f", "bifrost"]),
    (["formats", "shw", "bifrost"], "no command 'shw' in 'forcecheck formats' (did you mean 'show'?); see 'forcecheck formats --help'",
     ["formats", "show", "bifrost"]),
    (["frobnicate"], "no command 'frobnicate' in 'forcecheck' (commands: check, stats, fmt, fingerprint, register, verify, rules, serve, "
     "sheet, formats, banlist, catalog, config); see 'forcecheck --help'", ["rules"]),
    (["check"], "'forcecheck check' needs PATH...; see 'forcecheck check --help'", ["check", DECK, "-f", "bifrost"]),
    (["verify", DECK], "'forcecheck verify' needs PLAYED; see 'forcecheck verify --help'", ["verify", DECK, DECK, "-f", "bifrost"]),
    (["check", DECK, "--format"], "-f/--format needs a value; see 'forcecheck check --help'", ["check", DECK, "--format", "bifrost"]),
    (["check", DECK, "-f", "bifrost", "--exit-zero=yes"], "--exit-zero takes no value; see 'forcecheck check --help'",
     ["check", DECK, "-f", "bifrost", "--exit-zero"]),
    (["rules", "FC201", "FC202"], "unexpected argument 'FC202' for 'forcecheck rules'; see 'forcecheck rules --help'", ["rules", "FC201"]),
    (["--bogus", "rules"], "no option --bogus for 'forcecheck'; see 'forcecheck --help'", ["rules"]),
    (["catalog", "show", "Excalibur", "--gme", "fow"], "no option --gme for 'forcecheck catalog show' (did you mean '--game'?); "
     "see 'forcecheck catalog show --help'", ["catalog", "show", "Excalibur", "--game", "fow"]),
]


@pytest.mark.parametrize(("bad", "line", "good"), USAGE, ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_a_usage_error_is_one_forcecheck_line_and_exit_2(bad, line, good):
    refused = run(*bad)
    assert (refused.exit_code, refused.stdout, refused.stderr) == (2, "", f"forcecheck: error: {line}\n")
    ran = run(*good)
    assert ran.exit_code in (0, 1) and not is_usage_error(ran.stderr) and "Usage:" not in ran.stderr, ran.stdout + ran.stderr


BAD_VALUES = [
    (["check", DECK, "-j", "0"], "-j/--jobs", "0", ["check", DECK, "-f", "bifrost", "-j", "1"]),
    (["check", DECK, "--jobs", "two"], "-j/--jobs", "two", ["check", DECK, "-f", "bifrost", "--jobs", "2"]),
    (["check", DECK, "-o", "xml"], "-o/--output-format", "xml", ["check", DECK, "-f", "bifrost", "-o", "junit"]),
    (["check", DECK, "--color", "sometimes"], "--color", "sometimes", ["check", DECK, "-f", "bifrost", "--color", "never"]),
    (["fmt", DECK, "--to", "yaml"], "--to", "yaml", ["fmt", YDK, "-f", "ygo-5ds", "--to", "ydke"]),
    (["catalog", "search", "excal", "--limit", "0"], "--limit", "0", ["catalog", "search", "excal", "--limit", "1"]),
]


@pytest.mark.parametrize(("bad", "option", "value", "good"), BAD_VALUES, ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_a_value_an_option_refuses_is_one_line_naming_the_option_and_the_value(bad, option, value, good):
    refused = run(*bad)
    command = " ".join(w for w in bad[:2] if not w.startswith(("-", "/")))
    assert refused.exit_code == 2 and refused.stdout == "", refused.stdout + refused.stderr
    (said,) = refused.stderr.splitlines()
    assert said.startswith(f"forcecheck: error: invalid value for {option}: ") and said.endswith(f"; see 'forcecheck {command} --help'"), said
    assert repr(value) in said or f" {value} " in said, said
    ran = run(*good)
    assert ran.exit_code in (0, 1) and not is_usage_error(ran.stderr), ran.stdout + ran.stderr


def test_direct_coercion_words_bad_values_as_the_configuration_does():
    """On typer releases whose conversion forcecheck does itself, a bad number or choice reads as
    the same mistake in a FORCECHECK_* variable reads."""
    from forcecheck.cli.application import _direct_kinds

    if _direct_kinds() is None:
        pytest.skip("this typer converts option values through its own click types")
    said = run("check", DECK, "-j", "0").stderr
    assert said == "forcecheck: error: invalid value for -j/--jobs: 0 is not a whole number from 1 to 64; see 'forcecheck check --help'\n"
    said = run("check", DECK, "-o", "xml").stderr
    assert said == ("forcecheck: error: invalid value for -o/--output-format: 'xml' is not one of text, concise, json, sarif, github, junit; "
                    "see 'forcecheck check --help'\n")
    variable = run("check", DECK, "-f", "bifrost", env={"FORCECHECK_JOBS": "0"}).stderr
    assert variable == "forcecheck: error: FORCECHECK_JOBS: 0 is not a whole number from 1 to 64\n", variable


def test_a_usage_error_from_the_program_names_the_program_as_run():
    """Through the console script and ``python -m forcecheck``: one line, exit 2, no click box."""
    for program in ([str(BIN / "forcecheck")], [sys.executable, "-m", "forcecheck"]):
        done = subprocess.run([*program, "check", DECK, "--formt", "x"], capture_output=True, text=True, cwd=ROOT, timeout=60)
        name = "forcecheck" if len(program) == 1 else "python -m forcecheck"
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr == f"forcecheck: error: no option --formt for '{name} check' (did you mean '--format'?); see '{name} check --help'\n"


@pytest.mark.parametrize("words", [[], ["formats"], ["catalog"]], ids=lambda w: " ".join(w) or "forcecheck")
def test_a_bare_group_prints_its_help_on_stderr_and_exits_2(words):
    """Nothing asked: the group's help (what there is to ask), on stderr, exit 2 (as ruff does)."""
    done = run(*words)
    assert done.exit_code == 2 and done.stdout == "" and done.stderr.startswith(f"Usage: forcecheck {' '.join(words)}".rstrip() + " ")
    assert "Commands:" in done.stderr
