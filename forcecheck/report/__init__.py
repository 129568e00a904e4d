"""Reports: violation records and the renderers that print them.

``RENDERERS`` maps each ``--output-format`` name to a function ``(RunReport, color) -> str``;
machine formats are never coloured.
"""

from __future__ import annotations

from typing import Callable


def _text(report, color: str) -> str:
    import io

    from forcecheck.report.text import make_console, render_text

    buffer = io.StringIO()
    console = make_console(buffer, color, terminal=color == "always")
    render_text(report, console)
    return buffer.getvalue()


def _json(report, color: str) -> str:
    from forcecheck.report.json_out import render_json

    return render_json(report) + "\n"


def _machine(name: str) -> Callable:
    def render(report, color: str) -> str:
        from forcecheck.report import machine

        return getattr(machine, f"render_{name}")(report)

    return render


RENDERERS: dict[str, Callable] = {
    "text": _text,
    "concise": _machine("concise"),
    "json": _json,
    "sarif": _machine("sarif"),
    "github": _machine("github"),
    "junit": _machine("junit"),
}
