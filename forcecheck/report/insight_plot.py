"""``forcecheck stats -o svg|png``: one picture per deck, the same charts the text shows.

matplotlib (the optional ``plots`` extra) draws them: it writes SVG and PNG from one figure
with no browser, no system library and no network, it ships its own font (DejaVu Sans, which
has the ≤ and ≥ of the count rules), and it is the most used and best kept Python plotting
library. It is imported here only, and this module only when a picture is asked for, so text
and JSON runs never load it. Figures are made without pyplot (no global state, no GUI
backend), and bars and targets carry ids (``bar-curve-3``, ``target-curve-rules-0``) so the
SVG can be read by tools and tests.
"""

from __future__ import annotations

import io
import textwrap
from pathlib import PurePath

from forcecheck.errors import ForcecheckError
from forcecheck.insight import DeckInsight
from forcecheck.insight.charts import Chart, charts_of

PICTURE_FORMATS = ("svg", "png")
DPI = 110
WIDTH_INCHES = 11.0
"""About the width of an A4 or Letter sheet: the picture prints at registration-sheet size."""

COLOURS = {
    "light": "#e3b505", "fire": "#d1432a", "water": "#2f6fd6", "wind": "#3a9d4f", "darkness": "#5b3f8c", "none": "#9a9a9a",
    "monster": "#c8782b", "spell": "#1f9e89", "trap": "#b0407a", "other": "#9a9a9a",
    "fusion": "#7b4fb0", "synchro": "#7d8a99", "xyz": "#333333", "link": "#2f6fd6", "pendulum": "#3a9d4f",
    "band-0": "#4c9bd6", "band-1": "#57b36b", "band-2": "#e0a030", "band-3": "#b0407a",
    "cost": "#4c72b0", "type": "#6b7f99",
}
DEFAULT = "#4c72b0"
OK, BROKEN = "#2e7d32", "#c62828"
INK, MUTED = "#222222", "#666666"


def _matplotlib():
    """The matplotlib pieces, or a one-line error saying how to install them."""
    try:
        import matplotlib
        from matplotlib.figure import Figure
        from matplotlib.patches import Patch
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        from forcecheck.install_hint import install_extra

        raise ForcecheckError(f"pictures need matplotlib: {install_extra('plots')}") from None
    return matplotlib, Figure, Patch, MaxNLocator


def _symbols(text: str) -> str:
    return text.replace("<=", "≤").replace(">=", "≥")


COLUMNS = 3
ROW_INCHES = 3.2
NOTE_CHARS = 50
FACT_CHARS = 135
LABEL_CHARS = 38
"""Characters of bar labels (9.5 pt) that fit side by side under a one-column panel."""
"""Characters of a header line (9.5 pt) across the picture."""
TITLE_CHARS = 64
"""The deck's title (15 pt bold) beside the verdict; a longer one is cut in the middle."""
"""Characters of a chart's note on one line of a one-column panel (8.5 pt)."""
LINE_INCHES = 0.22


def span_of(chart: Chart) -> int:
    """Grid columns a chart takes: the curve and a long list of bars two, the others one."""
    return 2 if chart.key == "curve" or len(chart.bars) > 6 else 1


def layout(charts: list[Chart]) -> list[list[tuple[Chart, int]]]:
    """Rows of (chart, columns): charts in order, a row filled up by widening its last chart."""
    rows: list[list[tuple[Chart, int]]] = [[]]
    used = 0
    for chart in charts:
        span = span_of(chart)
        if used + span > COLUMNS:
            last, width = rows[-1][-1]
            rows[-1][-1] = (last, width + COLUMNS - used)
            rows.append([])
            used = 0
        rows[-1].append((chart, span))
        used += span
    if rows[-1]:
        last, width = rows[-1][-1]
        rows[-1][-1] = (last, width + COLUMNS - used)
    return [row for row in rows if row]


def figure_of(insight: DeckInsight):
    """The deck's figure: a header (deck, format, verdict, what was read, count rules) above
    the charts, three grid columns a row (the curve takes two)."""
    _mpl, Figure, Patch, MaxNLocator = _matplotlib()
    rows = layout(charts_of(insight))
    facts = [part for line in _facts(insight) for part in textwrap.wrap(line, FACT_CHARS, subsequent_indent="    ")]
    header = 0.75 + LINE_INCHES * len(facts)
    height = header + ROW_INCHES * max(1, len(rows)) + 0.4
    fig = Figure(figsize=(WIDTH_INCHES, height), dpi=DPI, facecolor="white")
    _header(fig, insight, facts)
    if not rows:
        return fig
    grid = fig.add_gridspec(len(rows), COLUMNS, left=0.06, right=0.98, bottom=0.95 / height, top=1 - (header + 0.65) / height,
                            hspace=0.9, wspace=0.28)
    notes = {id(chart): textwrap.wrap(chart.note, NOTE_CHARS * span) if chart.note else [] for row in rows for chart, span in row}
    room = max(len(lines) for lines in notes.values())  # every title at one height, whatever its note
    for number, row in enumerate(rows):
        column = 0
        for chart, span in row:
            ax = fig.add_subplot(grid[number, column:column + span])
            _panel(ax, chart, span, notes[id(chart)], room, Patch, MaxNLocator)
            column += span
    return fig


def _facts(insight: DeckInsight) -> list[str]:
    lines = [f"{insight.format_title} ({insight.format})"]
    read = [f"{s.title} {s.cards}" + (f" (+{s.unknown} unknown)" if s.unknown else "") for s in insight.sections if s.cards or s.unknown]
    ruler = [r.name + (f" ({', '.join(r.attributes)})" if r.attributes else "") for r in insight.ruler]
    lines.append(("Ruler area: " + " · ".join(ruler) + "    " if ruler else "") + " · ".join(read))
    lines += ["Card counts: " + _symbols(line) for line in insight.requirement_lines]
    if insight.banlist is not None:
        listed = "; ".join(c.summary for c in insight.banlist.cards[:6])
        lines.append(f"Banlist {insight.banlist.name}: " + (listed or "no listed card") + (" …" if len(insight.banlist.cards) > 6 else ""))
    elif insight.banlist_rule:
        lines.append("Banlist: none applied")
    return lines


def _header(fig, insight: DeckInsight, facts: list[str]) -> None:
    height = fig.get_figheight()
    title = insight.name or PurePath(insight.path).name  # the folder is the user's business, the deck is ours
    if len(title) > TITLE_CHARS:
        title = title[: TITLE_CHARS // 2 - 1] + "…" + title[-(TITLE_CHARS // 2 - 1):]
    verdict = "legal" if insight.legal else f"illegal ({insight.errors} violation{'s' if insight.errors != 1 else ''})"
    fig.text(0.06, 1 - 0.2 / height, title, fontsize=15, fontweight="bold", color=INK, va="top", gid="deck-title")
    fig.text(0.98, 1 - 0.2 / height, verdict, fontsize=13, fontweight="bold", ha="right", va="top",
             color=OK if insight.legal else BROKEN, gid="deck-verdict")
    fig.text(0.06, 1 - 0.62 / height, "\n".join(facts), fontsize=9.5, color=MUTED, va="top", linespacing=1.5, gid="deck-facts")


def _panel(ax, chart: Chart, span: int, note: list[str], room: int, Patch, MaxNLocator) -> None:
    ax.set_title(chart.title, loc="left", fontsize=11.5, fontweight="bold", color=INK, pad=6 + 12 * room)
    if note:  # right under the title, which stands high enough for the longest note of the figure
        ax.annotate("\n".join(note), xy=(0, 1), xycoords="axes fraction", xytext=(0, 12 * room + 2), textcoords="offset points",
                    fontsize=8.5, color=MUTED, va="top", linespacing=1.3)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(axis="y", color="#e6e6e6", linewidth=0.8)
    ax.set_axisbelow(True)
    if not chart.bars:
        ax.text(0.5, 0.5, "no cards", transform=ax.transAxes, ha="center", color=MUTED)
        ax.set_xticks([])
        return
    count = len(chart.bars)
    positions = range(count)
    colours = [COLOURS.get(bar.tone or "", DEFAULT) for bar in chart.bars]
    bars = ax.bar(positions, [bar.value for bar in chart.bars], width=0.62, color=colours, edgecolor="none")
    for index, patch in enumerate(bars.patches):
        patch.set_gid(f"bar-{chart.key}-{index}")
    targets = any(bar.target is not None for bar in chart.bars)
    labels = [str(bar.value) for bar in chart.bars]
    if targets:  # inside the bars, at their foot: above them is where the targets are drawn
        for index, bar in enumerate(chart.bars):
            inside = bar.value >= chart.top * 0.15
            ax.text(index, chart.top * 0.03 if inside else bar.value, labels[index], ha="center", va="bottom",
                    fontsize=10, fontweight="bold", color="white" if inside else INK)
    else:
        ax.bar_label(bars, labels=labels, padding=2, fontsize=9, color=INK)
    ticks = [_symbols(bar.label) for bar in chart.bars]
    for index, bar in enumerate(chart.bars):
        if bar.target is not None:
            ticks[index] += _symbols(f"\nneeds {bar.target.needed}\n{bar.target.verdict}")
    ax.set_xticks(list(positions), ticks, fontsize=9.5)
    for index, bar in enumerate(chart.bars):
        if bar.target is not None:
            ax.get_xticklabels()[index].set_color(OK if bar.target.ok else BROKEN)
    if sum(len(bar.label) + 2 for bar in chart.bars) > LABEL_CHARS * span:  # side by side they would run together
        for label in ax.get_xticklabels():
            label.set_rotation(30)
            label.set_horizontalalignment("right")
            label.set_rotation_mode("anchor")
    ax.set_ylim(0, max(chart.top, 1) * (1.35 if chart.legend else 1.18))
    slots = max(count, 2.6 * span)  # few bars stay bar-shaped in a wide panel, centred
    pad = (slots - count) / 2
    ax.set_xlim(-0.5 - pad, count - 0.5 + pad)
    for index, bar in enumerate(chart.bars):
        target = bar.target
        if target is None:
            continue
        colour = OK if target.ok else BROKEN
        for value in dict.fromkeys(v for v in (target.min, target.max) if v is not None):
            line = ax.hlines(value, index - 0.4, index + 0.4, colors=colour, linewidth=2.6, linestyles=(0, (4, 2)))
            line.set_gid(f"target-{chart.key}-{index}")
    if chart.legend:
        handles = [Patch(color=COLOURS.get(tone, DEFAULT), label=_symbols(text)) for tone, text in chart.legend]
        ax.legend(handles=handles, fontsize=8.5, frameon=False, loc="upper right", ncols=len(handles))


def picture(insight: DeckInsight, kind: str) -> bytes:
    """The deck's picture as SVG or PNG bytes (the same figure either way)."""
    if kind not in PICTURE_FORMATS:
        raise ValueError(kind)
    matplotlib, *_ = _matplotlib()
    import warnings

    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "forcecheck", "font.family": "DejaVu Sans"}):
        fig = figure_of(insight)
        buffer = io.BytesIO()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a glyph the bundled font lacks (a CJK deck name) is drawn as a box, not a warning
            if kind == "svg":
                fig.savefig(buffer, format="svg", metadata={"Date": None})
            else:
                fig.savefig(buffer, format="png", dpi=DPI)
    return buffer.getvalue()
