"""JSON output: the documented, stable document (README "JSON output"), and nothing else on stdout.

Written deck by deck, so a run of any size holds one deck at a time; the text is the same as
``json.dumps(document, indent=2)`` would give.
"""

from __future__ import annotations

from typing import TextIO

from forcecheck.report.escape import json_text
from forcecheck.report.jsontext import pretty
from forcecheck.report.model import RunReport

JSON_SCHEMA_VERSION = 1


def render_json(report: RunReport, out: TextIO) -> None:
    out.write('{\n  "schema_version": %d,\n  "decks": [' % JSON_SCHEMA_VERSION)
    first = True
    for deck in report.iter_decks():
        text = json_text(pretty(deck.to_dict(), 2))
        out.write(("" if first else ",") + "\n    " + text)
        first = False
    out.write(("\n  " if not first else "") + "],\n")
    summary = json_text(pretty(report.summary(), 1))
    out.write('  "summary": ' + summary + "\n}\n")
