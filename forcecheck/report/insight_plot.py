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
import math

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
        raise ForcecheckError("pictures need matplotlib: pip install 'forcecheck[plots]'") from None
    return matplotlib, Figure, Patch, MaxNLocator


def _symbols(text: str) -> str:
    return text.replace("<=", "≤").replace(">=", "≥")


def figure_of(insight: DeckInsight):
    """The deck's figure: a header (deck, format, verdict, what was read, count rules) and
    one panel per chart, two panels a row (an odd last one spans the row)."""
    _mpl, Figure, Patch, MaxNLocator = _matplotlib()
    charts = charts_of(insight)
    rows = max(1, math.ceil(len(charts) / 2))
    header = 1.35
    fig = Figure(figsize=(WIDTH_INCHES, header + 3.1 * rows), dpi=DPI, facecolor="white")
    grid = fig.add_gridspec(rows, 2, left=0.06, right=0.98, bottom=0.07 / rows, top=1 - (header + 0.35) / (header + 3.1 * rows),
                            hspace=0.75, wspace=0.18)
    _header(fig, insight)
    for index, chart in enumerate(charts):
        row, column = divmod(index, 2)
        last_alone = index == len(charts) - 1 and column == 0
        ax = fig.add_subplot(grid[row, :] if last_alone else grid[row, column])
        _panel(ax, chart, Patch, MaxNLocator)
    return fig


def _header(fig, insight: DeckInsight) -> None:
    title = insight.name or insight.path
    verdict = "legal" if insight.legal else f"illegal ({insight.errors} violation{'s' if insight.errors != 1 else ''})"
    fig.text(0.06, 1 - 0.18 / fig.get_figheight(), title, fontsize=15, fontweight="bold", color=INK, va="top", gid="deck-title")
    fig.text(0.98, 1 - 0.18 / fig.get_figheight(), verdict, fontsize=13, fontweight="bold", ha="right", va="top",
             color=OK if insight.legal else BROKEN, gid="deck-verdict")
    lines = [f"{insight.format_title} ({insight.format})"]
    read = [f"{s.title} {s.cards}" + (f" (+{s.unknown} unknown)" if s.unknown else "") for s in insight.sections if s.cards or s.unknown]
    ruler = [r.name + (f" ({', '.join(r.attributes)})" if r.attributes else "") for r in insight.ruler]
    lines.append(("Ruler area: " + " · ".join(ruler) + "    " if ruler else "") + " · ".join(read))
    lines += [_symbols(line) for line in insight.requirement_lines]
    if insight.banlist is not None:
        listed = ", ".join(f"{c.card} {c.copies}/{c.cap}" for c in insight.banlist.cards[:6])
        lines.append(f"Banlist {insight.banlist.name}: " + (listed or "no listed card") + (" …" if len(insight.banlist.cards) > 6 else ""))
    fig.text(0.06, 1 - 0.55 / fig.get_figheight(), "\n".join(lines[:5]), fontsize=9.5, color=MUTED, va="top", linespacing=1.45, gid="deck-facts")


def _panel(ax, chart: Chart, Patch, MaxNLocator) -> None:
    ax.set_title(chart.title, loc="left", fontsize=11.5, fontweight="bold", color=INK, pad=18)
    if chart.note:
        ax.text(0, 1.03, chart.note, transform=ax.transAxes, fontsize=8.5, color=MUTED, va="bottom")
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(axis="y", color="#e6e6e6", linewidth=0.8)
    ax.set_axisbelow(True)
    if not chart.bars:
        ax.text(0.5, 0.5, "no cards", transform=ax.transAxes, ha="center", color=MUTED)
        ax.set_xticks([])
        return
    positions = range(len(chart.bars))
    colours = [COLOURS.get(bar.tone or "", DEFAULT) for bar in chart.bars]
    bars = ax.bar(positions, [bar.value for bar in chart.bars], width=0.62, color=colours, edgecolor="none")
    for index, patch in enumerate(bars.patches):
        patch.set_gid(f"bar-{chart.key}-{index}")
    ax.bar_label(bars, labels=[str(bar.value) for bar in chart.bars], padding=2, fontsize=9, color=INK)
    ax.set_xticks(list(positions), [_symbols(bar.label) for bar in chart.bars], fontsize=9.5)
    if len(chart.bars) > 6 and max(len(bar.label) for bar in chart.bars) > 8:
        for label in ax.get_xticklabels():
            label.set_rotation(20)
            label.set_horizontalalignment("right")
    ax.set_ylim(0, max(chart.top, 1) * 1.22)
    ax.set_xlim(-0.6, len(chart.bars) - 0.4)
    for index, bar in enumerate(chart.bars):
        target = bar.target
        if target is None:
            continue
        colour = OK if target.ok else BROKEN
        for value in dict.fromkeys(v for v in (target.min, target.max) if v is not None):
            line = ax.hlines(value, index - 0.42, index + 0.42, colors=colour, linewidth=2.4, linestyles="--")
            line.set_gid(f"target-{chart.key}-{index}")
        level = target.max if target.min is None else target.min
        ax.text(index + 0.44, level, _symbols(f"needs {target.needed}") + ("" if target.ok else f"\n{target.verdict}"),
                fontsize=8.5, color=colour, va="center", ha="left", fontweight="bold")
    if chart.legend:
        handles = [Patch(color=COLOURS.get(tone, DEFAULT), label=_symbols(text)) for tone, text in chart.legend]
        ax.legend(handles=handles, fontsize=8.5, frameon=False, loc="upper right")


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
