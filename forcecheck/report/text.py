"""Human output: one compact block per illegal deck, one line per legal deck, a summary line."""

from __future__ import annotations

from typing import TextIO

from forcecheck.report.escape import printable
from forcecheck.report.model import DeckReport, RunReport


def make_console(file: TextIO | None = None, color: str = "never", width: int | None = None, terminal: bool = False):
    """A rich console writing to ``file``; colour only when ``color`` is ``always``."""
    import os

    from rich.console import Console

    kwargs = {"file": file, "highlight": False, "soft_wrap": False, "force_terminal": terminal, "emoji": False}
    if color != "always":
        kwargs["no_color"] = True
        kwargs["color_system"] = None
    kwargs["width"] = width or int(os.environ.get("COLUMNS") or 140)
    if file is not None:
        kwargs["file"] = _LineEnds(file)
    return Console(**kwargs)


class _LineEnds:
    """A file that drops the spaces rich pads table cells with at the end of each line (a
    table is as wide as its widest row; piped output should not carry the padding)."""

    _TRAILING = None

    def __init__(self, out: TextIO):
        self.out = out
        self.pending = ""

    def write(self, text: str) -> int:
        import re

        if _LineEnds._TRAILING is None:
            _LineEnds._TRAILING = re.compile(r"[ ]+((?:\x1b\[[0-9;]*m)*)$", re.MULTILINE)
        self.pending += text
        cut = self.pending.rfind("\n")
        if cut >= 0:
            done, self.pending = self.pending[: cut + 1], self.pending[cut + 1 :]
            self.out.write(_LineEnds._TRAILING.sub(r"\1", done))
        return len(text)

    def flush(self) -> None:
        if self.pending:
            self.out.write(self.pending)
            self.pending = ""
        self.out.flush()

    def isatty(self) -> bool:
        return bool(getattr(self.out, "isatty", lambda: False)())

    def fileno(self) -> int:
        return self.out.fileno()


def summary_line(s: dict) -> str:
    """``12 decks checked: 10 legal, 2 illegal · 3 violations · catalog: ... · config: ...``."""
    parts = [f"{s['decks']} deck{'s' if s['decks'] != 1 else ''} checked: {s['legal']} legal, {s['illegal']} illegal"]
    if s["unreadable"]:
        parts[0] += f", {s['unreadable']} unreadable"
    parts.append(f"{s['violations']} violation{'s' if s['violations'] != 1 else ''}")
    if s["warnings"]:
        parts.append(f"{s['warnings']} warning{'s' if s['warnings'] != 1 else ''}")
    parts.append(f"catalog: {printable(s['catalog'])}")
    parts.append(f"config: {printable(s.get('config') or 'none')}")
    return " · ".join(parts)


def render_text(report: RunReport, console) -> None:
    for deck in report.iter_decks():
        _render_deck(deck, console)
    s = report.summary()
    style = "bold red" if report.exit_code else "bold green"
    console.print(summary_line(s), style=style, markup=False, soft_wrap=True)
    for note in s["notes"]:
        console.print(f"note: {printable(note)}", style="yellow", markup=False, soft_wrap=True)
    console.file.flush()


def _render_deck(deck: DeckReport, console) -> None:
    """Everything that came from the user (paths, headers, names, messages quoting them) goes in
    as ``Text`` through ``printable``: never read as rich markup, never as terminal codes."""
    from rich.table import Table
    from rich.text import Text

    fmt = f" [{deck.format}]" if deck.format else ""
    if deck.banlist:
        fmt = f" [{deck.format}, banlist {deck.banlist}]"
    fmt = printable(fmt)
    path = printable(deck.path)
    if deck.error is not None:
        line = Text()
        line.append("ERROR ", style="bold magenta")
        line.append(printable(deck.error))
        console.print(line)
        return
    errors = sum(1 for v in deck.violations if v.severity == "error")
    warnings = len(deck.violations) - errors
    counts = deck.sections
    if counts:
        fmt += "  " + printable(", ".join(f"{section} {n}" for section, n in counts.items()))
    head = Text()
    if deck.legal:
        head.append("legal   ", style="bold green")
        head.append(f"{path}{fmt}")
        if warnings:
            head.append(f"  ({warnings} warning{'s' if warnings != 1 else ''})", style="yellow")
    else:
        head.append("ILLEGAL ", style="bold red")
        head.append(f"{path}{fmt}")
        head.append(f"  {errors} violation{'s' if errors != 1 else ''}", style="red")
        if warnings:
            head.append(f", {warnings} warning{'s' if warnings != 1 else ''}", style="yellow")
    console.print(head)
    if not deck.violations:
        return
    table = Table(show_edge=False, box=None, pad_edge=False, padding=(0, 1), show_header=True, header_style="dim")
    table.add_column("line", justify="right", no_wrap=True)
    table.add_column("code", no_wrap=True)
    table.add_column("rule", no_wrap=True)
    table.add_column("section", no_wrap=True)
    table.add_column("message", overflow="fold")
    shown: set[str] = set()
    for v in deck.violations:
        colour = "red" if v.severity == "error" else "yellow"
        message = Text(printable(v.message))
        curve = deck.curves.get(v.rule)
        if curve and curve not in shown:  # the deck's curve line, once, beside the first rule of its group
            shown.add(curve)
            message.append("\n" + printable(curve), style="dim")
        table.add_row(
            str(v.line) if v.line is not None else "-",
            Text(v.code, style=colour),
            Text(printable(v.rule)),
            Text(printable(v.section or "-")),
            message,
        )
    console.print(table)
    console.print()
