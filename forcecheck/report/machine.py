"""Machine output formats: concise lines, SARIF 2.1.0, GitHub workflow commands, JUnit XML.

Each renderer takes the RunReport and returns the whole document as text; nothing else is
printed to stdout with it. Unreadable files are reported as code FC000 ``unreadable-input``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TextIO
from xml.etree import ElementTree as ET

from forcecheck import DOCS_URL, __version__
from forcecheck.escape import json_text, printable, xml_text
from forcecheck.report.jsontext import pretty, scalar
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
        path = printable(deck.path)
        for code, rule, severity, line, message in _rows(deck):
            out.write(f"{path}:{line or 1}:1: {code} [{severity}] {printable(message)} ({printable(rule)})\n")


def _escape_data(text: str) -> str:
    """A workflow command's message: GitHub's escapes for % CR LF, then every other control
    character shown as an escape (the runner's log is a terminal too)."""
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


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


SRCROOT = "SRCROOT"
"""The SARIF base id of the repository root: result URIs are relative to it, as code scanning reads them."""


def _repository_root() -> Path:
    """The repository the run is in (the nearest folder up with ``.git``), else the working folder."""
    from forcecheck.config_files import search_stop

    folders = search_stop(Path.cwd())
    top = folders[-1]
    return top if (top / ".git").exists() else Path.cwd().resolve()


def _artifact(path: str, root: str) -> dict:
    """A SARIF artifactLocation: relative to the repository root (``str(root)``) when the file
    is inside it (for inputs given as absolute paths too), else an absolute ``file:`` URI.
    Plain string work: a batch makes one per deck."""
    from urllib.parse import quote

    absolute = os.path.abspath(path)
    prefix = root if root.endswith(os.sep) else root + os.sep
    if absolute == root:
        relative = "."
    elif absolute.startswith(prefix):
        relative = absolute[len(prefix):]
    elif os.name == "posix":  # Path.as_uri's text, without a Path per deck
        return {"uri": "file://" + quote(os.fsencode(absolute))}
    else:  # pragma: no cover - drive letters and UNC paths
        return {"uri": Path(absolute).as_uri()}
    return {"uri": quote(os.fsencode(relative.replace(os.sep, "/"))), "uriBaseId": SRCROOT}  # a name's undecodable bytes too


def _indented(value, depth: int) -> str:
    """``value`` as pretty JSON to sit ``depth`` levels deep in a streamed document."""
    return json_text(pretty(value, depth))


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
                "help": {"text": f"{kind.code} {kind.slug}: {kind.doc} See {kind.url}, 'forcecheck rules {kind.code}' and 'forcecheck formats show FORMAT'."},
                "helpUri": kind.url,
                "defaultConfiguration": {"level": "error" if kind.severity == "error" else "warning"},
                "properties": {"family": kind.family},
            }
        )
    driver = {"name": "forcecheck", "version": __version__, "informationUri": DOCS_URL, "rules": rules}
    root = _repository_root()
    root_text = str(root)
    out.write('{\n  "$schema": "https://json.schemastore.org/sarif-2.1.0.json",\n  "version": "2.1.0",\n  "runs": [\n    {\n')
    out.write('      "tool": {\n        "driver": ' + _indented(driver, 4) + "\n      },\n")
    base = {SRCROOT: {"uri": root.as_uri() + "/", "description": {"text": "The repository root."}}}
    out.write('      "originalUriBaseIds": ' + _indented(base, 3) + ",\n")
    out.write('      "results": [')
    first = True
    successful = True
    for deck in report.iter_decks():
        successful = successful and deck.error is None
        artifact = None
        kind = scalar(deck.format, 6)
        for code, rule, severity, line, message in _rows(deck):
            if artifact is None:
                artifact = pretty(_artifact(deck.path, root_text), 8)
            extra = related = ""
            violation = next((v for v in deck.violations if v.code == code and v.line == line and v.message == message), None)
            if violation is not None:
                for key in ("section", "card", "found", "limit"):
                    value = getattr(violation, key)
                    if value is not None:
                        extra += ',\n            "%s": %s' % (key, scalar(value, 6))
                others = violation.all_lines[1:]
                if others:  # one card on several lines: one result, the other lines related to it
                    related = ',\n          "relatedLocations": [\n            ' + ",\n            ".join(
                        [_RELATED % (i, artifact, scalar(n, 9), scalar(f"also line {n}", 8)) for i, n in enumerate(others, start=1)]
                    ) + "\n          ]"
            # code scanning needs a line: a section-wide finding has its header's, else the file's first
            text = _RESULT % (scalar(code, 5), scalar(index[code], 5), "error" if severity == "error" else "warning",
                              scalar(message, 6), artifact, scalar(line or 1, 9), scalar(rule, 6), kind, extra, related)
            out.write(("" if first else ",") + "\n        " + json_text(text))
            first = False
    out.write(("\n      " if not first else "") + "],\n")
    summary = report.summary()
    notifications = [{"level": "note", "message": {"text": note}} for note in summary["notes"]]
    invocation = {"executionSuccessful": successful, **({"toolExecutionNotifications": notifications} if notifications else {})}
    out.write('      "invocations": ' + _indented([invocation], 3) + ",\n")
    properties = {"catalog": summary["catalog"], "catalog_sources": summary["catalog_sources"], "banlists": summary["banlists"],
                  "config": summary["config"], "notes": summary["notes"]}
    out.write('      "properties": ' + _indented(properties, 3) + "\n    }\n  ]\n}\n")


_RESULT = """{
          "ruleId": %s,
          "ruleIndex": %s,
          "level": "%s",
          "message": {
            "text": %s
          },
          "locations": [
            {
              "physicalLocation": {
                "artifactLocation": %s,
                "region": {
                  "startLine": %s
                }
              }
            }
          ],
          "properties": {
            "rule": %s,
            "format": %s%s
          }%s
        }"""
"""A SARIF result as ``pretty`` writes it four levels deep: written directly, only the values
encoded (a batch writes one per violation; building each result as dicts and walking them
cost most of the document's time). tests/test_fast_paths.py holds the document to the one
built from dicts."""

_RELATED = """{
              "id": %d,
              "physicalLocation": {
                "artifactLocation": %s,
                "region": {
                  "startLine": %s
                }
              },
              "message": {
                "text": %s
              }
            }"""


def render_junit(report: RunReport, out: TextIO) -> None:
    """One testsuite per run, one testcase per deck; an illegal deck fails with its violations.

    The suite's counts come first in the XML but are known only at the end, so the test cases
    are written as the decks stream to a spooled temporary file (memory up to a few MiB, then
    disk) and copied out after the counts: memory stays bounded for a run of any size."""
    import shutil
    import tempfile

    with tempfile.SpooledTemporaryFile(max_size=_SPOOL_BYTES, mode="w+", encoding="utf-8", newline="") as cases:
        count = 0
        elapsed = 0.0
        for deck in report.iter_decks():
            cases.write(("\n    " if count else "") + _junit_case_text(deck))
            count += 1
            elapsed += deck.elapsed
        summary = report.summary()
        total = _seconds(elapsed)
        counts = {"tests": str(count), "failures": str(summary["illegal"]), "errors": str(summary["unreadable"])}
        suites = ET.Element("testsuites", name="forcecheck", **counts, time=total)
        suite = ET.SubElement(suites, "testsuite", name="forcecheck", **counts, skipped="0", time=total)
        properties = ET.SubElement(suite, "properties")
        for name in ("catalog", "config"):
            ET.SubElement(properties, "property", name=name, value=xml_text(summary[name] or "none"))
        for source in summary["catalog_sources"]:
            ET.SubElement(properties, "property", name="catalog_source", value=xml_text(f"{source['address']} sha256:{source['sha256']}"))
        from forcecheck.report.text import banlist_lines

        for line in banlist_lines(summary):
            ET.SubElement(properties, "property", name="banlist", value=xml_text(line))
        for note in summary["notes"]:
            ET.SubElement(properties, "property", name="note", value=xml_text(note))
        if count:
            ET.SubElement(suite, _CASES)
        ET.indent(suites)
        head, _, tail = ET.tostring(suites, encoding="unicode").partition(f"<{_CASES} />")
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n' + head)
        cases.seek(0)
        shutil.copyfileobj(cases, out)
        out.write(tail + "\n")


_SPOOL_BYTES = 8 << 20
_CASES = "forcecheck-cases"
"""Where the streamed test cases go in the suite's skeleton."""


def _junit_case_text(deck: DeckReport) -> str:
    """A deck's JUnit testcase element as ElementTree writes it indented two levels deep,
    written directly (a batch writes thousands; building the tree, indenting and writing it
    cost several times more), escaped by ElementTree's own escapers. tests/test_fast_paths.py
    holds it to ElementTree's text for the same element."""
    path = _xml_attribute(xml_text(deck.path))
    classname = _xml_attribute(xml_text(f"forcecheck.{deck.format or 'unknown'}"))
    head = f'<testcase classname="{classname}" name="{path}" file="{path}" time="{_seconds(deck.elapsed)}"'
    if deck.error is not None:
        error = xml_text(deck.error)
        return head + ">\n      " + _xml_child("error", f'message="{_xml_attribute(error)}" type="{UNREADABLE[1]}"', error) + "\n    </testcase>"
    errors_ = sum(1 for v in deck.violations if v.severity == "error")
    text = "\n".join([_junit_line(v) for v in deck.violations])
    if errors_:
        what = f'message="{errors_} violation{"s" if errors_ != 1 else ""}" type="illegal-deck"'
        return head + ">\n      " + _xml_child("failure", what, text) + "\n    </testcase>"
    if text:
        return head + ">\n      " + _xml_child("system-out", "", text) + "\n    </testcase>"
    return head + " />"


def _xml_child(tag: str, attributes: str, text: str) -> str:
    opening = f"<{tag} {attributes}" if attributes else f"<{tag}"
    return f"{opening}>{ET._escape_cdata(text)}</{tag}>" if text else f"{opening} />"  # type: ignore[attr-defined]


def _xml_attribute(value: str) -> str:
    return ET._escape_attrib(value)  # type: ignore[attr-defined]


def _junit_line(v: Violation) -> str:
    return xml_text(f"line {v.line or '-'}: {v.code} {v.rule} [{v.severity}] {v.message}")


def _seconds(value: float) -> str:
    """A JUnit ``time``: seconds with three decimals (test-report tools compute NaN without it)."""
    return f"{value:.3f}"


def _md(text) -> str:
    """Text for a Markdown table cell: no markup, no HTML, no cell breaks."""
    import html

    return html.escape(printable(str(text)), quote=False).replace("|", "\\|").replace("\n", " ").replace("`", "&#96;").replace("*", "\\*").replace("_", "\\_").replace("[", "\\[")


def render_step_summary(report: RunReport, out: TextIO) -> None:
    """A GitHub job's step summary in Markdown: the verdict, the illegal and unreadable decks
    (the first ones, with their rule codes), and what the run used."""
    from forcecheck.report.text import summary_line

    summary = report.summary()
    bad = summary["illegal"] + summary["unreadable"]
    verdict = "every deck is legal" if not bad else f"{bad} of {summary['decks']} decks are illegal or unreadable"
    out.write(f"### forcecheck: {verdict}\n\n")
    if report.problems:
        out.write("| deck | format | errors | warnings | codes or error |\n|---|---|---|---|---|\n")
        for path, fmt, errors, warnings, what in report.problems:
            out.write(f"| {_md(path)} | {_md(fmt or '-')} | {errors} | {warnings} | {_md(what)} |\n")
        if bad > len(report.problems):
            out.write(f"\n... and {bad - len(report.problems)} more.\n")
        out.write("\n")
    out.write(_md(summary_line(summary)) + "\n")
    from forcecheck.report.text import banlist_lines

    for line in banlist_lines(summary):
        out.write(f"\n{_md(line)}\n")
    for source in summary["catalog_sources"]:
        out.write(f"\ncard data: {_md(source['address'])} (sha256 {source['sha256'][:12]}, {source['retrieved_at']})\n")
    for note in summary["notes"]:
        out.write(f"\n> note: {_md(note)}\n")


def write_step_summary(report: RunReport, path: str) -> None:
    """Append the step summary to ``$GITHUB_STEP_SUMMARY`` (GitHub shows the file on the run's page)."""
    with open(path, "a", encoding="utf-8") as out:
        render_step_summary(report, out)
