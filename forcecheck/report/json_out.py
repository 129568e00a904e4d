"""JSON output: the documented, stable document (docs/output.md, "JSON output"), and nothing else on stdout.

Written deck by deck, so a run of any size holds one deck at a time; the text is the same as
``json.dumps(document, indent=2)`` would give.
"""

from __future__ import annotations

from json.encoder import encode_basestring as _string
from typing import TextIO

from forcecheck import rule_url
from forcecheck.escape import json_text
from forcecheck.report.jsontext import pretty, scalar
from forcecheck.report.model import DeckReport, RunReport, Violation

JSON_SCHEMA_VERSION = 1


def render_json(report: RunReport, out: TextIO) -> None:
    out.write('{\n  "schema_version": %d,\n  "decks": [' % JSON_SCHEMA_VERSION)
    first = True
    for deck in report.iter_decks():
        text = json_text(deck_text(deck))
        out.write(("" if first else ",") + "\n    " + text)
        first = False
    out.write(("\n  " if not first else "") + "],\n")
    summary = json_text(pretty(report.summary(), 1))
    out.write('  "summary": ' + summary + "\n}\n")


def deck_text(deck: DeckReport) -> str:
    """``pretty(deck.to_dict(), 2)``, written field by field: the keys are always the same, so
    only the values are encoded (a batch writes thousands of decks; building each dict and
    walking it generically cost most of the document's time). A value of an unexpected type
    goes the general way. tests/test_fast_paths.py holds it to ``pretty(deck.to_dict(), 2)``."""
    error = deck.error
    sections = deck.sections
    if type(sections) is dict and sections and all([type(k) is str and type(n) is int for k, n in sections.items()]):
        sections = "{\n        " + ",\n        ".join([_string(k) + ": " + int.__repr__(n) for k, n in sections.items()]) + "\n      }"
    else:
        sections = pretty(sections, 3)
    violations = deck.violations
    return _DECK % (
        scalar(deck.path, 3),
        scalar(deck.format, 3),
        "true" if deck.legal else "false",
        scalar(deck.banlist, 3),
        scalar(deck.banlist_reason, 3),
        "" if error is not None else '\n      "fingerprint": ' + scalar(deck.fingerprint, 3) + ",",
        scalar(deck.name, 3),
        scalar(deck.player, 3),
        scalar(deck.ruler, 3),
        sections,
        pretty(deck.corrections, 3),
        "" if deck.points is None else ',\n      "points": ' + pretty(deck.points, 3),
        "[\n        " + ",\n        ".join([_violation_text(v) for v in violations]) + "\n      ]" if violations else "[]",
        "" if error is None else ',\n      "error": ' + scalar(error, 3),
    )


_DECK = """{
      "path": %s,
      "format": %s,
      "legal": %s,
      "banlist": %s,
      "banlist_reason": %s,%s
      "name": %s,
      "player": %s,
      "ruler": %s,
      "sections": %s,
      "corrections": %s%s,
      "violations": %s%s
    }"""


def _violation_text(v: Violation) -> str:
    """``pretty(v.to_dict(), 4)``, written field by field (as ``deck_text``)."""
    lines = v.all_lines
    if not lines:
        lines = "[]"
    elif all([type(n) is int for n in lines]):
        lines = "[\n            " + ",\n            ".join([int.__repr__(n) for n in lines]) + "\n          ]"
    else:
        lines = pretty(lines, 5)
    return _VIOLATION % (
        scalar(v.code, 5), scalar(v.rule, 5), scalar(v.severity, 5), scalar(v.message, 5), scalar(v.section, 5),
        scalar(v.card, 5), scalar(v.line, 5), lines, scalar(v.found, 5), scalar(v.limit, 5), _url_text(v.code),
    )


_URLS: dict[str, str] = {}


def _url_text(code) -> str:
    """A rule code's documentation address as JSON text, encoded once per code."""
    text = _URLS.get(code)
    if text is None:
        text = _URLS[code] = scalar(rule_url(code), 5)
    return text


_VIOLATION = """{
          "code": %s,
          "rule": %s,
          "severity": %s,
          "message": %s,
          "section": %s,
          "card": %s,
          "line": %s,
          "lines": %s,
          "found": %s,
          "limit": %s,
          "url": %s
        }"""
