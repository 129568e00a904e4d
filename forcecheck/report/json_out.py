"""JSON output: the documented, stable document (README "JSON output"), and nothing else on stdout."""

from __future__ import annotations

import json

from forcecheck.report.model import RunReport

JSON_SCHEMA_VERSION = 1


def render_json(report: RunReport) -> str:
    document = {"schema_version": JSON_SCHEMA_VERSION, **report.to_dict()}
    return json.dumps(document, ensure_ascii=False, indent=2)
