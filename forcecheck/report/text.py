"""Human output: one compact block per illegal deck, one line per legal deck, a summary line."""

from __future__ import annotations

from typing import TextIO

from forcecheck.escape import printable
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


SAMPLE_HEAD = ("checked against the embedded sample catalog, which knows only the cards of the sample decks and tests, not "
               "real card data: 'forcecheck catalog fetch fow' (or ygo) imports every card")


def sample_head(report: RunReport) -> str | None:
    """What a report that used the embedded sample catalog says at its top (None otherwise)."""
    from forcecheck.cards.catalog import SAMPLE_CATALOG_LABEL

    return SAMPLE_HEAD if report.catalog == SAMPLE_CATALOG_LABEL else None


def banlist_lines(s: dict) -> list[str]:
    """``banlist for ygo-5ds: 2011.9.1 (in force on 2011-10-01 in lflist.conf)``: the list each
    format with a banlist rule applied, and why (never chosen silently)."""
    return [
        printable(f"banlist for {b['format']}: {b['banlist']} ({b['reason']})" if b["banlist"] else f"banlist for {b['format']}: {b['reason']}")
        for b in s.get("banlists", [])
    ]


def render_text(report: RunReport, out: TextIO, color: str = "never", width: int | None = None) -> None:
    """The text report, written line by line as the decks stream: one line per legal deck, a
    compact table per illegal one, the summary. Laid out as a table of aligned columns whose
    message column wraps at ``width`` (a terminal's width; ``COLUMNS`` or 140 otherwise), the
    same on a pipe, in a file and on a terminal, which also gets colour (``color="always"``).

    Written without rich: a table laid out by rich costs milliseconds per illegal deck, which
    a batch of thousands of decks pays in full; the layout here is rich's (the text report
    looked the same before), worked out directly for the few column shapes a report has."""
    paint = _paint if color == "always" else _plain
    width = width or _width(out)
    write = out.write
    head = sample_head(report)
    if head is not None:
        write(paint(f"note: {head}", "33") + "\n")
    for deck in report.iter_decks():
        write(_deck_block(deck, paint, width))
    s = report.summary()
    write(paint(summary_line(s), "1;31" if report.exit_code else "1;32") + "\n")
    for line in banlist_lines(s):
        write(line + "\n")
    for note in s["notes"]:
        write(paint(f"note: {printable(note)}", "33") + "\n")
    out.flush()


def _width(out: TextIO) -> int:
    """A terminal's width (``COLUMNS`` first), else ``COLUMNS`` or 140 columns."""
    import os

    isatty = getattr(out, "isatty", None)
    if isatty is not None and isatty():
        import shutil

        return shutil.get_terminal_size((140, 24)).columns
    return int(os.environ.get("COLUMNS") or 140)


def _plain(text: str, style: str) -> str:
    return text


def _paint(text: str, style: str) -> str:
    """``text`` in an SGR style (``1;31`` bold red), as a terminal shows it."""
    return f"\x1b[{style}m{text}\x1b[0m" if text else text


_HEADER = ("line", "code", "level", "rule", "section", "message")
"""The level column says error or warning in words: colour is not the only sign (CI logs, pipes, colour-blind readers)."""
_NARROW = len(_HEADER) - 1


def curve_lines(deck: DeckReport) -> dict[str, str]:
    """Rule id -> the line of its group of count rules, ``cost <=1: 19/20 · 2: 16 (>=15) · 3+:
    25 (>=10)``, for the groups the engine gave the numbers of (those with a broken rule). The
    words are insight's (``insight.counts``, as the stats print them), loaded only for such a deck."""
    if not deck.curves:
        return {}
    from forcecheck.insight.counts import line_of

    return {rule: line_of(group) for rule, group in deck.curves.items()}


def _deck_block(deck: DeckReport, paint, width: int) -> str:
    """The lines of one deck: its head line, and for a deck with findings their table and a blank
    line. Everything that came from the user (paths, headers, names, messages quoting them) goes
    through ``printable``: never read as terminal codes."""
    fmt = f" [{deck.format}]" if deck.format else ""
    if deck.banlist:
        fmt = f" [{deck.format}, banlist {deck.banlist}]"
    fmt = printable(fmt)
    path = printable(deck.path)
    if deck.error is not None:
        # one line whatever its length: the file and what is wrong with it, whole for grep and CI logs
        return _wrapped([("ERROR ", "1;35"), (printable(deck.error), "")], paint, 1 << 30)
    violations = deck.violations
    errors = sum(1 for v in violations if v.severity == "error")
    warnings = len(violations) - errors
    counts = deck.sections
    if counts:
        fmt += "  " + printable(", ".join(f"{section} {n}" for section, n in counts.items()))
    if deck.points is not None:  # a points format (Genesys): the total against the cap, always
        fmt += f", points {deck.points['total']} of {deck.points['cap']}"
    if deck.legal:
        head = [("legal   ", "1;32"), (f"{path}{fmt}", "")]
        if warnings:
            head.append((f"  ({warnings} warning{'s' if warnings != 1 else ''})", "33"))
    else:
        head = [("ILLEGAL ", "1;31"), (f"{path}{fmt}", ""), (f"  {errors} violation{'s' if errors != 1 else ''}", "31")]
        if warnings:
            head.append((f", {warnings} warning{'s' if warnings != 1 else ''}", "33"))
    block = _wrapped(head, paint, width)
    if not violations:
        return block
    return block + _table(deck, paint, width) + "\n"


def _table(deck: DeckReport, paint, width: int) -> str:
    """The findings of a deck as rich drew them (no box, one space of padding each side of a
    column but the outer ones, the line column right-aligned, only the message wrapping)."""
    rows = []
    shown: set[str] = set()
    curves = curve_lines(deck)
    for v in deck.violations:
        message = printable(v.message)
        curve = curves.get(v.rule)
        if curve and curve not in shown:  # the deck's curve line, once, beside the first rule of its group
            shown.add(curve)
            message = (message, printable(curve))
        else:
            message = (message,)
        rows.append((str(v.line) if v.line is not None else "-", v.code, v.severity, printable(v.rule), printable(v.section or "-"),
                     message, "31" if v.severity == "error" else "33"))
    fixed = [max(_cells(h), *(_cells(row[i]) for row in rows)) for i, h in enumerate(_HEADER[:_NARROW])]
    longest = max(_cells(_HEADER[_NARROW]), *(_cells(part) for row in rows for part in row[_NARROW]))
    room = width - sum(fixed) - 2 * _NARROW  # two spaces between columns
    if room < 1:  # columns wider than the page: rich's last-resort layout, rare enough to hand over
        return _rich_table(deck, paint is _paint, width)
    message_width = min(longest, room)
    indent = " " * (sum(fixed) + 2 * _NARROW)
    header = _wrap(_HEADER[_NARROW], message_width)  # a very narrow page folds the title too (rich sets titles at the bottom)
    lines = [paint((indent + piece).rstrip(" "), "2") for piece in header[:-1]] + [paint(_row(_HEADER[:_NARROW], fixed) + header[-1], "2")]
    for row in rows:
        first = True
        for part, style in zip(row[_NARROW], ("", "2")):
            for piece in _wrap(part, message_width):
                if first:
                    cells = (row[0], paint(row[1], row[6]), paint(row[2], row[6]), row[3], row[4])
                    lines.append((_row(cells, fixed, (row[1], row[2])) + paint(piece, style)).rstrip(" "))
                    first = False
                else:
                    lines.append((indent + paint(piece, style)).rstrip(" "))
    return "\n".join(lines) + "\n"


def _row(cells, widths, raw: tuple = ()) -> str:
    """The narrow columns of a row, padded (the first right-aligned); ``raw`` holds the code and
    level cells as written when the cells themselves carry colour codes."""
    line, code, level, rule, section = cells
    code_len, level_len = (_cells(raw[0]), _cells(raw[1])) if raw else (_cells(code), _cells(level))
    return (
        " " * (widths[0] - _cells(line)) + line + "  "
        + code + " " * (widths[1] - code_len) + "  "
        + level + " " * (widths[2] - level_len) + "  "
        + rule + " " * (widths[3] - _cells(rule)) + "  "
        + section + " " * (widths[4] - _cells(section)) + "  "
    )


def _wrapped(parts: list[tuple[str, str]], paint, width: int) -> str:
    """Styled pieces of one line, wrapped at ``width`` as rich wraps a printed line."""
    text = "".join(piece for piece, _style in parts)
    if _cells(text) <= width and "\n" not in text:
        return "".join(paint(piece, style) if style else piece for piece, style in parts) + "\n"
    lines = _wrap(text, width)
    if paint is _plain:
        return "\n".join(lines) + "\n"
    out, start, spans = [], 0, []
    for piece, style in parts:
        spans.append((start, start + len(piece), style))
        start += len(piece)
    position = 0
    for line in lines:
        offset = text.index(line, position) if line else position
        pieces = []
        for begin, end, style in spans:
            lo, hi = max(begin, offset), min(end, offset + len(line))
            if lo < hi:
                pieces.append(paint(text[lo:hi], style) if style else text[lo:hi])
        out.append("".join(pieces))
        position = offset + len(line)
    return "\n".join(out) + "\n"


_WORD = None


def _wrap(text: str, width: int) -> list[str]:
    """``text`` broken into lines of at most ``width`` cells at spaces, a longer word folded,
    trailing spaces dropped: rich's ``divide_line`` (fold overflow), for the report's texts."""
    if "\n" in text:
        return [line for part in text.split("\n") for line in _wrap(part, width)]
    if _cells(text) <= width:
        return [text.rstrip(" ")] if text.endswith(" ") else [text]
    global _WORD
    if _WORD is None:
        import re

        _WORD = re.compile(r"\s*\S+\s*")
    breaks: list[int] = []
    offset = 0
    for match in _WORD.finditer(text):
        start, word = match.start(), match.group()
        length = _cells(word.rstrip())
        if width - offset >= length:
            offset += _cells(word)
        elif length > width:
            from rich.cells import chop_cells

            folded = chop_cells(word, width)
            for index, piece in enumerate(folded):
                if start:
                    breaks.append(start)
                if index == len(folded) - 1:
                    offset = _cells(piece)
                else:
                    start += len(piece)
        elif offset and start:
            breaks.append(start)
            offset = _cells(word)
    edges = [0, *breaks, len(text)]
    return [text[a:b].rstrip(" ") for a, b in zip(edges, edges[1:])]


def _cells(text: str) -> int:
    """Columns ``text`` takes on a terminal (wide East Asian characters take two)."""
    if text.isascii():
        return len(text)
    from rich.cells import cell_len

    return cell_len(text)


def _rich_table(deck: DeckReport, colour: bool, width: int) -> str:
    """A deck's findings laid out by rich itself, for columns too wide for the page."""
    import io

    from rich.table import Table
    from rich.text import Text

    buffer = io.StringIO()
    console = make_console(buffer, "always" if colour else "never", width=width, terminal=colour)
    table = Table(show_edge=False, box=None, pad_edge=False, padding=(0, 1), show_header=True, header_style="dim")
    table.add_column("line", justify="right", no_wrap=True)
    table.add_column("code", no_wrap=True)
    table.add_column("level", no_wrap=True)
    table.add_column("rule", no_wrap=True)
    table.add_column("section", no_wrap=True)
    table.add_column("message", overflow="fold")
    shown: set[str] = set()
    curves = curve_lines(deck)
    for v in deck.violations:
        message = Text(printable(v.message))
        curve = curves.get(v.rule)
        if curve and curve not in shown:
            shown.add(curve)
            message.append("\n" + printable(curve), style="dim")
        style = "red" if v.severity == "error" else "yellow"
        table.add_row(str(v.line) if v.line is not None else "-", Text(v.code, style=style), Text(v.severity, style=style),
                      Text(printable(v.rule)), Text(printable(v.section or "-")), message)
    console.print(table)
    console.file.flush()
    return buffer.getvalue()
