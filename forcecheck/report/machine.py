"""Machine output formats: concise lines, SARIF 2.1.0, GitHub workflow commands, JUnit XML.

Each renderer takes the RunReport and returns the whole document as text; nothing else is
printed to stdout with it. Unreadable files are reported as code FC000 ``unreadable-input``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO
from xml.etree import ElementTree as ET

from forcecheck import __version__
from forcecheck.report.model import DeckReport, RunReport, Violation

UNREADABLE = ("FC000", "unreadable-input")


def _rows(deck: DeckReport):
    """(code, rule, severity, line, message) for every problem of a deck, the unreadable one too."""
    if deck.error is not None:
        line = _error_line(deck.error, deck.path)
        yield UNREADABLE[0], UNREADABLE[1], "error", line, deck.error
        return
    for v in deck.violations:
        yield v.code, v.rule, v.severity, v.line, v.message


def _error_line(error: str, path: str) -> int | None:
    """The line an unreadable-file message names (``path:12: ...``), if any."""
    if error.startswith(path + ":"):
        rest = error[len(path) + 1 :]
        number = rest.split(":", 1)[0]
        if number.isdigit():
            return int(number)
    return None


def render_concise(report: RunReport, out: TextIO) -> None:
    """``path:line:col: CODE [severity] message``, one line per violation (grep-friendly)."""
    for deck in report.iter_decks():
        for code, rule, severity, line, message in _rows(deck):
            out.write(f"{deck.path}:{line or 1}:1: {code} [{severity}] {message} ({rule})\n")


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(report: RunReport, out: TextIO) -> None:
    """GitHub Actions workflow commands: an annotation on the decklist line per violation."""
    for deck in report.iter_decks():
        for code, rule, severity, line, message in _rows(deck):
            level = "error" if severity == "error" else "warning"
            props = [f"file={_escape_property(deck.path)}"]
            if line:
                props.append(f"line={line}")
            props.append(f"title={_escape_property(f'{code} {rule}')}")
            out.write(f"::{level} {','.join(props)}::{_escape_data(message)}\n")


def _uri(path: str) -> str:
    p = Path(path)
    return p.as_posix() if not p.is_absolute() else p.as_uri()


def _indented(value, depth: int) -> str:
    """``value`` as pretty JSON to sit ``depth`` levels deep in a streamed document."""
    return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + "  " * depth)


def render_sarif(report: RunReport, out: TextIO) -> None:
    """One SARIF 2.1.0 run: the tool's rules (every kind) and one result per violation, streamed."""
    from forcecheck.rules.registry import KINDS

    rules = []
    index: dict[str, int] = {}
    for kind in sorted(KINDS.values(), key=lambda k: k.code):
        index[kind.code] = len(rules)
        rules.append(
            {
                "id": kind.code,
                "name": kind.slug,
                "shortDescription": {"text": kind.doc.split(". ")[0].rstrip(".") + "."},
                "fullDescription": {"text": kind.doc},
                "help": {"text": f"{kind.code} {kind.slug}: {kind.doc} See 'forcecheck rules' and 'forcecheck formats show FORMAT'."},
                "defaultConfiguration": {"level": "error" if kind.severity == "error" else "warning"},
                "properties": {"family": kind.family},
            }
        )
    driver = {"name": "forcecheck", "version": __version__, "rules": rules}
    out.write('{\n  "$schema": "https://json.schemastore.org/sarif-2.1.0.json",\n  "version": "2.1.0",\n  "runs": [\n    {\n')
    out.write('      "tool": {\n        "driver": ' + _indented(driver, 4) + "\n      },\n")
    out.write('      "results": [')
    first = True
    successful = True
    for deck in report.iter_decks():
        successful = successful and deck.error is None
        for code, rule, severity, line, message in _rows(deck):
            location: dict = {"artifactLocation": {"uri": _uri(deck.path)}}
            if line:
                location["region"] = {"startLine": line}
            result = {
                "ruleId": code,
                "ruleIndex": index[code],
                "level": "error" if severity == "error" else "warning",
                "message": {"text": message},
                "locations": [{"physicalLocation": location}],
                "properties": {"rule": rule, "format": deck.format},
            }
            violation = next((v for v in deck.violations if v.code == code and v.line == line and v.message == message), None)
            if violation is not None:
                result["properties"].update(
                    {k: getattr(violation, k) for k in ("section", "card", "found", "limit") if getattr(violation, k) is not None}
                )
            out.write(("" if first else ",") + "\n        " + _indented(result, 4))
            first = False
    out.write(("\n      " if not first else "") + "],\n")
    out.write('      "invocations": ' + _indented([{"executionSuccessful": successful}], 3) + ",\n")
    out.write('      "properties": ' + _indented({"catalog": report.catalog}, 3) + "\n    }\n  ]\n}\n")


def render_junit(report: RunReport, out: TextIO) -> None:
    """One testsuite per run, one testcase per deck; an illegal deck fails with its violations.

    The suite's counts come first in the XML, so this format holds the run in memory."""
    decks = report.decks
    summary = report.summary()
    failures = summary["illegal"]
    errors = summary["unreadable"]
    suites = ET.Element("testsuites", name="forcecheck", tests=str(len(decks)), failures=str(failures), errors=str(errors))
    suite = ET.SubElement(
        suites, "testsuite", name="forcecheck", tests=str(len(decks)), failures=str(failures), errors=str(errors), skipped="0"
    )
    for deck in decks:
        case = ET.SubElement(suite, "testcase", classname=f"forcecheck.{deck.format or 'unknown'}", name=deck.path, file=deck.path)
        if deck.error is not None:
            ET.SubElement(case, "error", message=deck.error, type=UNREADABLE[1]).text = deck.error
            continue
        errors_ = [v for v in deck.violations if v.severity == "error"]
        lines = [_junit_line(v) for v in deck.violations]
        if errors_:
            failure = ET.SubElement(case, "failure", message=f"{len(errors_)} violation{'s' if len(errors_) != 1 else ''}", type="illegal-deck")
            failure.text = "\n".join(lines)
        elif lines:
            ET.SubElement(case, "system-out").text = "\n".join(lines)
    ET.indent(suites)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n")


def _junit_line(v: Violation) -> str:
    return f"line {v.line or '-'}: {v.code} {v.rule} [{v.severity}] {v.message}"
