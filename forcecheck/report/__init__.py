"""Reports: violation records and the renderers that print them.

``RENDERERS`` maps each ``--output-format`` name to a function ``(RunReport, out, color)``
that streams the document to ``out``; machine formats are never coloured.
"""

from __future__ import annotations

from collections.abc import Callable


def _text(report, out, color: str) -> None:
    from forcecheck.report.text import render_text

    render_text(report, out, color)


def _json(report, out, color: str) -> None:
    from forcecheck.report.json_out import render_json

    render_json(report, out)


def _machine(name: str) -> Callable:
    def render(report, out, color: str) -> None:
        from forcecheck.report import machine

        getattr(machine, f"render_{name}")(report, out)

    return render


RENDERERS: dict[str, Callable] = {
    "text": _text,
    "concise": _machine("concise"),
    "json": _json,
    "sarif": _machine("sarif"),
    "github": _machine("github"),
    "junit": _machine("junit"),
}
