"""The direct check (``forcecheck.cli.direct``): a plain ``check`` command line is read without
typer, with typer's answers. Its option table must be the check command's options; on any line
it accepts it must hand ``run_check`` exactly what typer hands it; and a run either way must
print and exit the same."""

import errno
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
import typer.main
from conftest import ROOT, SAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import forcecheck.cli.check as check_module
from forcecheck import __version__
from forcecheck.cli import app
from forcecheck.cli.direct import CHECK_OPTIONS, read_check_line
from forcecheck.cli.runtime import Color, FailOn, OutputFormat

DECK = str(SAMPLES / "bifrost" / "legal-faria-stranger.txt")


def _check_command():
    return typer.main.get_command(app).commands["check"]


def _declarations() -> dict:
    """What the check command's signature declares for each parameter: (the value's type, without
    Optional, and typer's OptionInfo or ArgumentInfo). Read from the signature, which says the
    same on every typer release (the click parameters typer builds differ between them)."""
    import inspect
    import typing

    hints = typing.get_type_hints(check_module.check, include_extras=True)
    declared = {}
    for name, parameter in inspect.signature(check_module.check).parameters.items():
        hint, info = hints[name], parameter.default
        if typing.get_origin(hint) is typing.Annotated:
            hint, info = typing.get_args(hint)
        if typing.get_origin(hint) is typing.Union:
            (hint,) = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        declared[name] = (hint, info)
    return declared


def _kind(annotation) -> tuple[str, bool]:
    import typing
    from enum import Enum

    repeats = typing.get_origin(annotation) is list
    if repeats:
        (annotation,) = typing.get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return "choice", repeats
    return {str: "text", Path: "path", int: "int", bool: "flag"}[annotation], repeats


def test_the_option_table_is_the_check_commands_options():
    """Names as the command line's parser has them, kinds, repetition, choices and ranges as the
    command declares them, in the same order; and the path options are of the one kind the
    reader checks (need not exist, readable if they do)."""
    declarations = _declarations()
    declared = []
    for param in _check_command().params:
        if param.param_type_name != "option":
            continue
        annotation, info = declarations[param.name]
        kind, repeats = _kind(annotation)
        choices = annotation if kind == "choice" else None
        declared.append((param.name, tuple(param.opts), kind, repeats, choices, info.min, info.max))
        assert not param.secondary_opts and param.envvar is None and param.nargs == 1
        assert param.multiple == repeats and bool(param.is_flag) == (kind == "flag")
        if kind == "path":
            assert (info.exists, info.file_okay, info.dir_okay, info.readable, info.writable, info.resolve_path, info.allow_dash) == (False, True, True, True, False, False, False)
        if kind == "choice":
            assert info.case_sensitive
    table = [(o.keyword, o.names, o.kind, o.repeats, o.choices, o.low, o.high) for o in CHECK_OPTIONS]
    assert table == declared


def test_the_paths_argument_is_what_the_reader_assumes():
    (argument,) = [p for p in _check_command().params if p.param_type_name == "argument"]
    annotation, info = _declarations()["paths"]
    assert (argument.name, argument.nargs, argument.required, _kind(annotation)) == ("paths", -1, True, ("path", True))
    assert (info.exists, info.readable, info.writable, info.resolve_path, info.allow_dash) == (False, False, False, False, False)


class Recorder:
    """Stands in for ``run_check`` under typer: what typer would have run."""

    def __init__(self):
        self.calls = []

    def __call__(self, paths, **keywords):
        self.calls.append((list(paths), keywords))
        return 0


def typer_reading(line: list[str]):
    """(exit code, what typer hands run_check) for ``forcecheck check *line``."""
    recorder = Recorder()
    with mock.patch.object(check_module, "run_check", recorder):
        result = CliRunner().invoke(app, ["check", *line])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, recorder.calls


PLAIN_LINES = [
    [DECK],
    [DECK, "-f", "bifrost"],
    ["-f", "bifrost", DECK, str(SAMPLES / "abc")],
    [DECK, "--format=abc", "-o", "json", "--exit-zero"],
    [DECK, "-fbifrost", "-ojunit", "-j2", "--jobs", "3"],
    [DECK, "--select", "FC2,copy-limit", "--select", "FC1", "--ignore=FC201", "--warn", "FC3", "--extend-select", "ALL"],
    [DECK, "--catalog", str(ROOT / "forcecheck"), "--db", "x.sqlite3", "--formats-dir", "a", "--formats-dir=b"],
    [DECK, "--color", "never", "--fail-on", "warning", "--as-of", "2024-01-01", "--banlist", "none"],
    [DECK, "--banlist-file", "lflist.conf", "--config", "c.yaml", "--output-file", "out.json", "-o", "sarif"],
    ["--", "-f", DECK],
    ["-", DECK, "-j", " 7 "],
    [DECK, "--format", "--exit-zero"],  # the next token is the value, whatever it looks like
    [DECK, "-f=bifrost"],  # a short name's value is the rest of the token: "=bifrost"
    [DECK, "--format="],
]


@pytest.mark.parametrize("line", PLAIN_LINES, ids=range(len(PLAIN_LINES)))
def test_a_plain_line_is_read_as_typer_reads_it(line):
    direct = read_check_line(["check", *line])
    assert direct is not None, "the reader declined a plain check line"
    code, calls = typer_reading(line)
    assert code == 0 and calls == [direct]


def test_values_arrive_converted():
    paths, keywords = read_check_line(["check", DECK, "a", "-o", "json", "--color", "never", "--fail-on", "warning", "-j", "4", "--select", "FC2", "--formats-dir", "d", "--exit-zero"])
    assert paths == [Path(DECK), Path("a")]
    assert keywords["output_format"] is OutputFormat.json and keywords["color"] is Color.never and keywords["fail_on"] is FailOn.warning
    assert keywords["jobs"] == 4 and keywords["select"] == ["FC2"] and keywords["formats_dir"] == [Path("d")] and keywords["exit_zero"] is True
    assert keywords["format_name"] is None and keywords["ignore"] is None


DECLINED = [
    [],  # no paths: typer says they are missing
    ["-f", "bifrost"],
    [DECK, "--help"],
    [DECK, "-h"],
    [DECK, "-V"],  # the version, as on every command
    [DECK, "--formt", "bifrost"],  # typer suggests --format
    [DECK, "--exit-zero=1"],
    [DECK, "-o", "yaml"],
    [DECK, "-o", "JSON"],
    [DECK, "--jobs", "0"],
    [DECK, "--jobs", "65"],
    [DECK, "-j", "two"],
    [DECK, "--format"],  # no value
    [DECK, "-f"],
    [DECK, "-x"],
    [DECK, "-e"],  # --exit-zero has no short name
]


@pytest.mark.parametrize("line", DECLINED, ids=range(len(DECLINED)))
def test_lines_typer_must_answer_are_declined(line):
    assert read_check_line(["check", *line]) is None
    code, calls = typer_reading(line)
    assert code == 2 or {"--help", "-h", "-V"} & set(line), (code, line)  # a usage error, or the help or version typer prints
    assert calls == []


def test_other_commands_and_root_options_are_typer_s():
    assert read_check_line(["--version"]) is None
    assert read_check_line(["fmt", DECK]) is None
    assert read_check_line(["--help", "check", DECK]) is None
    assert read_check_line([]) is None


def test_shell_completion_is_typer_s(monkeypatch):
    monkeypatch.setenv("_FORCECHECK_COMPLETE", "bash_complete")
    assert read_check_line(["check", DECK]) is None


@pytest.fixture(scope="module")
def places(tmp_path_factory):
    folder = tmp_path_factory.mktemp("direct")
    (folder / "deck.txt").write_text("x\n", encoding="utf-8")
    return folder


NAMES = [name for option in CHECK_OPTIONS for name in option.names] + ["--help", "-h", "--formt", "-x", "--", "-", "--version", "-fo"]
VALUES = ["bifrost", "json", "JSON", "text", "never", "warning", "error", "0", "1", "64", "65", " 2", "x", "", "=a", "-f", "--exit-zero", "a b", "é.txt"]


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_line_the_reader_accepts_is_read_as_typer_reads_it(places, data):
    """Generated lines of option names, values (good and bad), paths and glued forms: where the
    reader answers, typer runs the check with exactly the same paths and options."""
    values = VALUES + [str(places / "deck.txt"), str(places / "missing"), str(places)]
    token = st.one_of(
        st.sampled_from(NAMES),
        st.sampled_from(values),
        st.tuples(st.sampled_from(NAMES), st.sampled_from(values)).map(lambda pair: f"{pair[0]}={pair[1]}"),
        st.tuples(st.sampled_from(["-f", "-o", "-j"]), st.sampled_from(values)).map("".join),
    )
    line = data.draw(st.lists(token, max_size=7))
    direct = read_check_line(["check", *line])
    if direct is None:
        return
    code, calls = typer_reading(line)
    assert (code, calls) == (0, [direct])


# -- the same run either way ------------------------------------------------------------------------

RUN_EITHER_WAY = """
import contextlib, io, json, sys
mode, args = sys.argv[1], sys.argv[2:]
out, err = io.StringIO(), io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
    try:
        if mode == "direct":
            from forcecheck.cli.direct import read_check_line
            assert read_check_line(args) is not None, "declined"
            sys.argv = ["forcecheck", *args]
            from forcecheck.cli import main
            main()
        else:
            from forcecheck.cli.application import app
            app.load_for(args)
            app(args=args, prog_name="forcecheck")
        code = 0
    except SystemExit as done:
        code = done.code
print(json.dumps([code, out.getvalue(), err.getvalue(), sorted(m for m in sys.modules if m.split(".")[0] in ("typer", "click"))]))
"""


def _run(mode: str, args: list[str], cwd: Path) -> list:
    env = {**os.environ, "FORCECHECK_CACHE_DIR": str(cwd / "cache"), "NO_COLOR": "1"}
    env.pop("GITHUB_ACTIONS", None)
    env.pop("GITHUB_STEP_SUMMARY", None)
    done = subprocess.run([sys.executable, "-c", RUN_EITHER_WAY, mode, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    code, out, err, modules = json.loads(done.stdout)
    return [code, re.sub(r'time="[0-9.]+"', 'time="T"', out), err, modules]  # JUnit's timings differ run to run


def test_a_run_prints_and_exits_the_same_either_way(tmp_path):
    illegal = tmp_path / "illegal.txt"
    illegal.write_text("[Ruler]\n1 Nobody Of Note\n[Main Deck]\n5 Ceaseless Devotion\n", encoding="utf-8")
    broken = tmp_path / "broken.yaml"
    broken.write_text("format: [unclosed\n", encoding="utf-8")
    lines = [
        ["check", DECK, "-f", "bifrost"],
        ["check", DECK, str(illegal), "-f", "bifrost", "-o", "concise"],
        ["check", str(illegal), str(tmp_path / "missing.txt"), "-f", "bifrost", "-o", "json"],
        ["check", str(illegal), "-f", "bifrost", "--exit-zero", "-o", "junit"],
        ["check", DECK, "-f", "no-such-format"],
        ["check", str(broken), "-f", "bifrost"],
        ["check", DECK, "-f", "bifrost", "--as-of", "yesterday"],
        ["check", DECK, "-f", "bifrost", "--output-file", str(tmp_path / "out.sarif"), "-o", "sarif"],
        ["check", DECK, "-f", "bifrost", "--catalog", str(tmp_path / "no-catalog.sqlite3")],
    ]
    for args in lines:
        direct, through_typer = _run("direct", args, tmp_path), _run("typer", args, tmp_path)
        assert direct[:3] == through_typer[:3], args
        assert direct[3] == [] and through_typer[3] != []
    codes = [_run("direct", args, tmp_path)[0] for args in lines]
    assert codes == [0, 1, 2, 0, 2, 2, 2, 0, 2]  # legal, illegal, a missing file, --exit-zero, then unusable input


def test_a_reader_that_goes_away_ends_the_run_quietly(tmp_path):
    """``forcecheck check ... | head -1``: exit 1 with nothing on stderr, as click does."""
    args = [sys.executable, "-m", "forcecheck", "check", *[DECK] * 3000, "-f", "bifrost", "--jobs", "1"]
    env = {**os.environ, "FORCECHECK_CACHE_DIR": str(tmp_path / "cache")}
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    assert process.stdout.readline().startswith(b"note: checked against the embedded sample catalog")
    assert process.stdout.readline().startswith(b"legal")
    process.stdout.close()
    stderr = process.stderr.read()
    assert process.wait(timeout=120) == 1
    assert stderr == b""


@pytest.mark.parametrize("direct", [True, False], ids=["direct", "typer"])
def test_an_interrupted_check_ends_the_same_either_way(direct, monkeypatch, capsys):
    """Ctrl-C during a check: one line and exit 130, whichever way the line was read."""
    import forcecheck.cli.runtime as runtime
    from forcecheck.cli import main

    def interrupted(paths, **keywords):
        raise KeyboardInterrupt

    monkeypatch.setattr(runtime, "run_check", interrupted)
    monkeypatch.setattr(check_module, "run_check", interrupted)
    if not direct:  # typer reads the line
        monkeypatch.setattr("forcecheck.cli.direct.read_check_line", lambda args: None)
    monkeypatch.setattr(sys, "argv", ["forcecheck", "check", DECK])
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code == 130
    assert capsys.readouterr().err == "forcecheck: interrupted\n"


def _closed(fd: int):
    """Start the program with descriptor ``fd`` closed (``>&-``, ``2>&-``)."""
    return lambda: os.close(fd)


def test_standard_output_closed_is_one_line_either_way(tmp_path):
    """``forcecheck check ... >&-``: the report has nowhere to go; one line and exit 2, no
    traceback, whichever way the line is read; with --output-file the run needs no stdout."""
    env = {**os.environ, "FORCECHECK_CACHE_DIR": str(tmp_path / "cache")}
    base = [sys.executable, "-m", "forcecheck", "check", DECK, "-f", "bifrost"]

    def run(*extra):
        return subprocess.run([*base, *extra], stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env, preexec_fn=_closed(1), timeout=120)

    direct = run("-o", "json")
    assert (direct.returncode, direct.stderr) == (2, "forcecheck: error: standard output is closed, so the json report has nowhere to go; write it to a file with --output-file PATH\n")
    usage = run("--formt", "x")  # a usage error, read by typer: one line on stderr
    assert (usage.returncode, usage.stderr) == (2, "forcecheck: error: no option --formt for 'python -m forcecheck check' (did you mean '--format'?); see 'python -m forcecheck check --help'\n")
    written = run("--output-file", str(tmp_path / "report.txt"))
    assert written.returncode == 0 and (tmp_path / "report.txt").read_text(encoding="utf-8").splitlines()[1].startswith("legal")


@pytest.mark.parametrize("args", [
    ["--version"], ["--help"], ["check", "--help"], ["rules"], ["formats", "list"], ["formats", "show", "bifrost"],
    ["config", "show"], ["catalog", "info"], ["stats", DECK, "-f", "bifrost"], ["fingerprint", DECK, "-f", "bifrost"],
    ["verify", DECK, DECK, "-f", "bifrost"], ["fmt", DECK, "-f", "bifrost", "--diff"],
], ids=lambda args: " ".join(a for a in args if a != DECK))
def test_every_command_with_output_stops_when_standard_output_is_closed(args, tmp_path):
    """``>&-`` under any command that prints: print() writes nothing where sys.stdout is None, so
    the output would vanish with exit 0 (``stats`` even failed inside); one line and exit 2."""
    env = {**os.environ, "FORCECHECK_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "forcecheck", *args], stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env,
                          preexec_fn=_closed(1), timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1].startswith("forcecheck: error: standard output is closed, so the")
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


def test_an_import_with_standard_output_closed_changes_nothing(tmp_path):
    """The import's report would be lost after the catalog changed: it stops first (exit 2)."""
    source = tmp_path / "cards.json"
    source.write_text(json.dumps({"fow": {"clusters": [{"sets": [{"cards": [
        {"id": "X-1", "name": "X Card", "type": ["Chant"], "cost": "{R}", "colour": ["R"], "abilities": [], "race": []}]}]}]}}))
    env = {**os.environ, "FORCECHECK_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "forcecheck", "catalog", "import", "fowsim", str(source), "--catalog", str(tmp_path / "c.db")],
                          stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env, preexec_fn=_closed(1), timeout=120)
    assert done.returncode == 2 and "nothing was imported" in done.stderr and not (tmp_path / "c.db").exists()


@pytest.mark.parametrize("kind", ["png", "svg"])
def test_a_picture_to_a_closed_standard_output_is_one_line(kind, tmp_path):
    pytest.importorskip("matplotlib", reason='SVG/PNG need the plots extra: pip install -e ".[plots]"')
    env = {**os.environ, "FORCECHECK_CACHE_DIR": str(tmp_path / "cache"), "MPLCONFIGDIR": str(tmp_path / "mpl")}
    done = subprocess.run([sys.executable, "-m", "forcecheck", "stats", DECK, "-f", "bifrost", "-o", kind], stderr=subprocess.PIPE,
                          text=True, cwd=ROOT, env=env, preexec_fn=_closed(1), timeout=120)
    assert (done.returncode, done.stderr) == (2, "forcecheck: error: standard output is closed, so the output has nowhere to go\n")


def test_fmt_in_place_needs_no_standard_output(tmp_path):
    """fmt rewriting files writes nothing to stdout: closed, it still does its work (exit 0)."""
    deck = tmp_path / "deck.txt"
    deck.write_bytes(Path(DECK).read_bytes())
    env = {**os.environ, "FORCECHECK_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "forcecheck", "fmt", str(deck), "-f", "bifrost"], stderr=subprocess.PIPE,
                          text=True, cwd=ROOT, env=env, preexec_fn=_closed(1), timeout=120)
    assert done.returncode == 0, done.stderr
    assert "reformatted 1 file(s)" in done.stderr and deck.read_bytes() != Path(DECK).read_bytes()


@pytest.mark.parametrize("command", ["check", "stats"])
def test_the_report_never_overwrites_a_decklist_the_run_reads(command, tmp_path):
    """``--output-file`` naming an input decklist (itself, or one under a folder being read):
    one line, exit 2, the decklist untouched; a report beside the decks is written as ever."""
    deck = tmp_path / "decks" / "mine.txt"
    deck.parent.mkdir()
    deck.write_bytes(Path(DECK).read_bytes())
    env = {**os.environ, "FORCECHECK_CACHE_DIR": str(tmp_path / "cache")}

    def run(*args):
        return subprocess.run([sys.executable, "-m", "forcecheck", command, *args, "-f", "bifrost"], capture_output=True,
                              text=True, cwd=ROOT, env=env, timeout=120)

    for target in (str(deck), str(deck.parent)):
        done = run(target, "--output-file", str(deck))
        assert done.returncode == 2 and done.stderr.startswith(f"forcecheck: error: --output-file {deck} is "), done.stderr
        assert "which this run reads; the report would overwrite it" in done.stderr
        assert deck.read_bytes() == Path(DECK).read_bytes()
    done = run(str(deck.parent), "--output-file", str(tmp_path / "report.txt"))
    assert done.returncode == 0 and (tmp_path / "report.txt").stat().st_size > 0
    hidden = deck.parent / ".reports" / "last.txt"  # the walk skips hidden folders: not an input
    hidden.parent.mkdir()
    hidden.write_text("old report\n")
    assert run(str(deck.parent), "--output-file", str(hidden)).returncode == 0 and hidden.read_text() != "old report\n"


def test_the_report_never_overwrites_a_decklist_read_through_a_link(tmp_path):
    """The files are compared as the walk reads them: a symbolic link in the folder to the
    output file (under any name), or a hard link to it, is that decklist too."""
    folder = tmp_path / "d"
    (folder / "store").mkdir(parents=True)
    data = folder / "store" / "faria.deckdata"  # no decklist extension: read only through the link
    data.write_bytes(Path(DECK).read_bytes())
    (folder / "faria.txt").symlink_to("store/faria.deckdata")
    outside = tmp_path / "out.txt"
    outside.write_bytes(Path(DECK).read_bytes())
    os.link(outside, folder / "hard.txt")
    env = {**os.environ, "FORCECHECK_CACHE_DIR": str(tmp_path / "cache")}
    for target, read in ((folder / "faria.txt", "faria.txt"), (data, "faria.txt"), (outside, "hard.txt")):
        done = subprocess.run([sys.executable, "-m", "forcecheck", "check", str(folder), "-f", "bifrost", "--output-file", str(target)],
                              capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
        assert done.returncode == 2 and f"is the decklist {folder / read} under {folder}, which this run reads" in done.stderr, done.stderr
    assert data.read_bytes() == outside.read_bytes() == Path(DECK).read_bytes()


def test_standard_error_closed_keeps_messages_out_of_the_report(tmp_path):
    """``2>&-``: messages are dropped (they have nowhere to go), never written into stdout."""
    env = {**os.environ, "FORCECHECK_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "forcecheck", "check", DECK, "-f", "bifrost", "-o", "json"],
                          stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env, preexec_fn=_closed(2), timeout=120)
    assert done.returncode == 0
    assert json.loads(done.stdout)["summary"]["decks"] == 1


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux) to stand for a full disk")
def test_a_full_disk_under_the_report_is_one_line_either_way(tmp_path):
    """``> /dev/full``: exit 2 and one line naming the cause, not an internal error, for a
    direct check and for a command typer runs."""
    env = {**os.environ, "FORCECHECK_CACHE_DIR": str(tmp_path / "cache")}
    for args in (["check", DECK, "-f", "bifrost", "-o", "json"], ["formats", "list"], ["--version"]):
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", "forcecheck", *args], stdout=full, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env, timeout=120)
        assert (done.returncode, done.stderr) == (2, f"forcecheck: error: cannot write the output: {os.strerror(errno.ENOSPC)}\n"), args


VERSION_EITHER_WAY = """
import contextlib, io, sys
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        if sys.argv[1] == "direct":
            sys.argv = ["forcecheck", "--version"]
            from forcecheck.cli import main
            main()
        else:
            from forcecheck.cli.application import app
            app(args=["--version"], prog_name="forcecheck")
    except SystemExit as done:
        code = done.code
print(repr((code, out.getvalue(), sorted(m for m in sys.modules if m.split(".")[0] in ("typer", "click")))))
"""


def test_the_version_alone_is_printed_without_typer_as_typer_prints_it():
    """``forcecheck --version`` alone is answered before typer loads (typer and click are most
    of its start) and prints what the typer application's --version prints, with its exit code."""
    import ast

    runs = {mode: ast.literal_eval(subprocess.run([sys.executable, "-c", VERSION_EITHER_WAY, mode], capture_output=True, text=True,
                                                  cwd=ROOT, timeout=60, check=True).stdout)
            for mode in ("direct", "typer")}
    assert runs["direct"][:2] == runs["typer"][:2] == (0, f"forcecheck {__version__}\n")
    assert runs["direct"][2] == [] and runs["typer"][2] != []


def test_the_version_to_a_reader_that_went_away_ends_quietly():
    """``forcecheck --version`` into a pipe nobody reads any more: exit 1 and nothing on stderr,
    as click does. The reading end is closed before the program starts."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([sys.executable, "-m", "forcecheck", "--version"], stdout=write_end, stderr=subprocess.PIPE, cwd=ROOT, timeout=60)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (1, b"")


def test_the_version_during_shell_completion_is_left_to_typer(monkeypatch, capsys):
    """With click's completion variable set, typer answers ``--version`` too, as it answers a
    check line (``_completing``)."""
    from forcecheck.cli.direct import run_direct

    monkeypatch.setenv("_FORCECHECK_COMPLETE", "bash_complete")
    assert run_direct(["--version"]) is None
    assert capsys.readouterr().out == ""
    monkeypatch.delenv("_FORCECHECK_COMPLETE")
    assert run_direct(["--version"]) == 0
    assert capsys.readouterr().out == f"forcecheck {__version__}\n"


def test_a_run_that_loaded_one_command_module_leaves_every_command_to_the_next_reader(monkeypatch, capsys):
    """``main`` imports only the module of the command it runs; afterwards, a program (or a
    test's CliRunner) reading the command tree in the same process still finds every command."""
    import forcecheck.cli.application as application
    from forcecheck.cli import main

    monkeypatch.setattr(application.RootTyper, "_commands_loaded", False)
    monkeypatch.setattr(sys, "argv", ["forcecheck", "rules"])
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code in (0, None)
    assert application.RootTyper._commands_loaded is False
    names = {info.name or info.callback.__name__ for info in app.registered_commands}
    assert {"check", "fmt", "register", "stats"} <= names
