"""``forcecheck stats`` for people: per deck what was read, the count rules found vs needed,
identity, copies and banlist, then the deck's charts as bars.

On a terminal the bars are coloured blocks (rich); piped, in a file or with ``--color never``
they are plain ASCII (``#``) so the output pastes into a forum post or an e-mail. Everything
printed is a rich ``Text`` (never markup), so a card or file name cannot restyle the output.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from forcecheck.insight import DeckInsight
from forcecheck.insight.charts import Chart, charts_of

BAR_WIDTH = 40
"""The longest bar, in characters; up to this many cards one character is one card."""

TONES = {
    "light": "yellow", "fire": "red", "water": "blue", "wind": "green", "darkness": "magenta", "none": "bright_black",
    "monster": "dark_orange", "spell": "cyan", "trap": "magenta", "fusion": "purple", "synchro": "white",
    "band-0": "cyan", "band-1": "green", "band-2": "yellow", "band-3": "magenta",
}


def render_stats_text(items: Iterable, console, color: str = "never") -> None:
    """``items``: DeckInsight for each deck read, or a DeckReport with ``error`` for a file
    that could not be used (shown as one ERROR line, the batch goes on)."""
    from rich.text import Text

    fancy = color == "always"
    count = unreadable = 0
    for item in items:
        count += 1
        if not isinstance(item, DeckInsight):
            unreadable += 1
            line = Text()
            line.append("ERROR ", style="bold magenta")
            line.append(str(item.error))
            console.print(line)
            console.print()
            continue
        _facts(item, console)
        for chart in charts_of(item):
            _chart(chart, console, fancy)
        console.print()
    summary = f"{count} deck{'s' if count != 1 else ''}"
    if unreadable:
        summary += f", {unreadable} unreadable"
    console.print(Text(summary, style="bold"))


def _facts(insight: DeckInsight, console) -> None:
    from rich.text import Text

    head = Text()
    head.append(insight.path, style="bold")
    head.append(f"  [{insight.format}]  ")
    if insight.legal:
        head.append("legal", style="bold green")
    else:
        head.append(f"illegal ({insight.errors} violation{'s' if insight.errors != 1 else ''})", style="bold red")
    if insight.warnings:
        head.append(f", {insight.warnings} warning{'s' if insight.warnings != 1 else ''}", style="yellow")
    console.print(head)

    rows: list[tuple[str, str]] = []

    def row(key: str, *lines: str) -> None:
        rows.extend((key if index == 0 else "", text) for index, text in enumerate(lines))

    who = " · ".join(x for x in (insight.name, insight.player) if x)
    if who:
        row("deck", who)
    read = [f"{s.title} {s.cards}" + (f" (+{s.unknown} unknown)" if s.unknown else "") for s in insight.sections if s.cards or s.unknown]
    if insight.unplaced:
        read.append(f"{insight.unplaced} outside any section")
    row("read", " · ".join(read) or "no cards")
    if insight.ruler_section is not None:
        ruler = [
            f"{r.name}" + (f" x{r.copies}" if r.copies != 1 else "") + (f" ({', '.join(r.attributes)})" if r.attributes else "")
            + ("" if r.ruler else " (not a ruler this format accepts)")
            for r in insight.ruler
        ]
        row("ruler area", " · ".join(ruler) or "none")
    if insight.corrections:
        row("corrections", *[f"line {c['line']}: {c['written']!r} read as {c['read_as']}" for c in insight.corrections])
    if insight.requirements:
        row("card counts", *insight.requirement_lines)
    judged = [i for i in insight.identity if i.judged]  # a rule over empty sections says nothing
    if judged:
        row("identity", *[_identity_line(insight, i) for i in judged])
    copies = [_copies_line(c) for c in insight.copies if c.cards or c.over]
    if copies:
        row("copies", *copies)
    if insight.banlist is not None:
        listed = [c.summary for c in insight.banlist.cards]
        row("banlist", f"{insight.banlist.name}: " + ("; ".join(listed) if listed else "no listed card in the deck"))
    elif insight.banlist_rule and insight.points is None:
        row("banlist", "none applied")
    if insight.points is not None:
        points = insight.points
        carried = "; ".join(f"{c['card']} {c['copies']} x {c['points']}" for c in points["cards"]) or "no card carries points"
        row("points", f"{points['total']} of {points['cap']} on {points['list']}: {carried}")
    breakdown = insight.breakdown
    for name in ("monster_kinds", "spell_kinds", "trap_kinds"):
        kinds = getattr(breakdown, name, None)
        if kinds:
            row(name.split("_")[0] + "s", " · ".join(f"{k} {n}" for k, n in kinds.items()))
    width = max(len(key) for key, _ in rows)
    room = max(40, console.width - width - 4)
    for key, text in rows:
        for index, part in enumerate(textwrap.wrap(text, room, break_on_hyphens=False, break_long_words=False) or [""]):
            line = Text("  " + (key if index == 0 else "").ljust(width) + "  ", style="dim")
            line.append(part)  # a long line goes on under its own column, not under the keys
            console.print(line, soft_wrap=True)


def _identity_line(insight: DeckInsight, identity) -> str:
    where = ", ".join(_title(insight, s) for s in identity.sections)
    what = "will" if identity.of == "will" else "attributes"
    mode = "within" if identity.mode == "within" else "sharing one of"
    allowed = ", ".join(identity.allowed) or "none"
    text = f"{identity.rule}: {identity.keeping}/{identity.judged} {where} cards {mode} {allowed} ({what})"
    if identity.off:
        text += " — off: " + "; ".join(f"{o.card} ({', '.join(o.values) or 'none'})" for o in identity.off[:8])
        if len(identity.off) > 8:
            text += f" and {len(identity.off) - 8} more"
    return text


def _copies_line(at) -> str:
    text = f"{at.rule}: {len(at.cards)} card{'s' if len(at.cards) != 1 else ''} at the limit of {at.limit}"
    if at.limit > 1 and at.cards:
        text += ": " + "; ".join(name for name, _ in at.cards)  # names have commas: "; " parts them
    if at.over:
        text += " — over: " + "; ".join(f"{name} {n}/{cap}" for name, n, cap in at.over)
    return text


def _title(insight: DeckInsight, section_id: str) -> str:
    found = insight.section(section_id)
    return found.title if found else section_id


def _chart(chart: Chart, console, fancy: bool) -> None:
    from rich.text import Text

    console.print()
    title = Text("  " + chart.title, style="bold")
    if chart.note:
        title.append(f"  ({chart.note})", style="dim")
    console.print(title)
    if not chart.bars:
        console.print(Text("    (no cards)", style="dim"))
        return
    top = chart.top
    scale = 1.0 if top <= BAR_WIDTH else BAR_WIDTH / top
    label_width = max(len(bar.label) for bar in chart.bars)
    drawn_width = round(top * scale)
    for bar in chart.bars:
        cells = round(bar.value * scale) if bar.value else 0
        if bar.value and not cells:
            cells = 1  # a card is never drawn as nothing
        line = Text("    " + bar.label.rjust(label_width) + " ")
        line.append(("█" if fancy else "#") * cells, style=TONES.get(bar.tone or "", "white") if fancy else "")
        used = cells
        if bar.target is not None and bar.target.min is not None:
            mark = round(bar.target.min * scale)
            if mark > cells:  # where the bar has to reach
                line.append(("·" if fancy else ".") * (mark - cells - 1) + "|", style="dim")
                used = mark
        line.append(" " * (drawn_width - used + 1) + str(bar.value))
        if bar.target is not None:
            line.append(f" (needs {bar.target.needed}) ")
            line.append(bar.target.verdict, style="green" if bar.target.ok else "bold red")
        console.print(line)
    if chart.legend and fancy:  # plain text has no colours to explain: the count rules line says it
        console.print(Text("    colours: " + " · ".join(text for _tone, text in chart.legend), style="dim"))
