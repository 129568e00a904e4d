"""``forcecheck fmt --to ydke|ydk|text``: one Yu-Gi-Oh! list written in another form.

The three forms say the same thing in different ways: a ``.ydk`` file and a ydke:// code list
one passcode per copy (the code in base64), a text list names cards with counts. Going to a
passcode form takes each card's passcode from the catalog (the printing a line names, a card
"treated as" another by its own passcode, else the card's original one); going to text takes
each card's name (a printing with a name of its own keeps it). A line the conversion cannot
carry over stops it, with its line: a card the catalog does not know (a text list needs its
name, a passcode form its passcode), a line forcecheck cannot read, a count a header announces
that the cards do not match. The result is read back and must be the same deck (the same
fingerprint), or nothing is written. A ydke code holds cards only: a title or player is not
carried into one.
"""

from __future__ import annotations

from forcecheck.canonical import NotRewritable, refuse_what_fmt_would_drop
from forcecheck.decklists.readers import parse_decklist
from forcecheck.decklists.ydke import MAX_PASSCODE, encode
from forcecheck.errors import ForcecheckError
from forcecheck.resolve import resolve

FORMS = ("ydke", "ydk", "text")
PASSCODE_SECTIONS = ("main", "extra", "side")
SUFFIX = {"ydke": ".txt", "ydk": ".ydk", "text": ".txt"}


class NotConvertible(Exception):
    """The list cannot be written in the other form without losing or changing what it says."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


def convert(deck, fmt, catalog, to: str, names: str | None = None, path: str = "") -> tuple[str, list[tuple[int | None, str]]]:
    """The deck written as ``to`` (one of ``FORMS``), and what the conversion assumed as
    ``(line, message)`` (a misspelt name read as the card it clearly means); NotConvertible
    says why it cannot be converted."""

    if to not in FORMS:
        raise NotConvertible(f"no form {to!r} (forms: {', '.join(FORMS)})")
    if deck.problems:
        first = deck.problems[0]
        raise NotConvertible(first.message, first.line)
    resolution = resolve(deck, fmt, catalog, layout=True)
    try:
        refuse_what_fmt_would_drop(deck, fmt, resolution)
    except NotRewritable as exc:
        raise NotConvertible(str(exc).replace("fmt would", "the conversion would"), exc.line) from None
    sections: dict[str, list] = {}
    titles: dict[str, str] = {}
    for key, title, entry, card in resolution.layout:
        if not entry.count_ok:
            raise NotConvertible(f"the count {entry.count_text!r} of {entry.name} is not a whole number from 1 to 9,999", entry.line)
        if card is None and not (to != "text" and _passcode(entry)):
            what = "its name" if to == "text" else "its passcode"
            raise NotConvertible(f"{entry.name!r} is no card {catalog.label} knows: a {_form(to)} needs {what}", entry.line)
        sections.setdefault(key, []).append((entry, card))
        titles.setdefault(key, title)
    if to == "text":
        out = _text(deck, fmt, sections, titles, names)
    else:
        passcodes = _passcodes(fmt, sections)
        out = _ydk(passcodes) if to == "ydk" else _ydke(passcodes)
    _same_deck(out, to, deck, fmt, catalog, resolution, path)
    assumed = [(c["line"], f"read {c['written']!r} as {c['read_as']!r}") for c in resolution.corrections]
    return out, assumed


def _form(to: str) -> str:
    return {"ydke": "ydke:// code", "ydk": ".ydk list", "text": "text list"}[to]


def _passcode(entry) -> str | None:
    """The passcode an unknown card's line gives (a .ydk or ydke line is one), or None."""
    for code in (entry.printing, entry.name):
        if code and code.strip().isdigit():
            return code.strip().lstrip("0") or "0"
    return None


def _passcodes(fmt, sections: dict[str, list]) -> dict[str, list[int]]:

    if fmt.spec.game != "ygo" or not set(PASSCODE_SECTIONS) <= set(fmt.order):
        raise NotConvertible(f"a .ydk list and a ydke:// code hold Yu-Gi-Oh! decks (main, extra and side deck); "
                             f"format {fmt.spec.name} is not one")
    out: dict[str, list[int]] = {key: [] for key in PASSCODE_SECTIONS}
    for key, lines in sections.items():
        for entry, card in lines:
            if key not in out:
                where = "before any section header" if key == "-" else f"under {key.lstrip('?')!r}"
                raise NotConvertible(f"{entry.name} is {where}: a .ydk list and a ydke:// code have only the main, extra "
                                     "and side deck", entry.line)
            code = card.printings_meant(entry.printing, entry.name)[0] if card is not None else _passcode(entry)
            if not code.isdigit() or int(code) > MAX_PASSCODE:
                raise NotConvertible(f"{entry.name}'s code {code!r} is no Yu-Gi-Oh! passcode", entry.line)
            out[key].extend([int(code)] * entry.count)
    return out


def _ydk(passcodes: dict[str, list[int]]) -> str:
    lines = ["#created by forcecheck"]
    for key, marker in zip(PASSCODE_SECTIONS, ("#main", "#extra", "!side")):
        lines.append(marker)
        lines.extend(str(code) for code in passcodes[key])
    return "\n".join(lines) + "\n"


def _ydke(passcodes: dict[str, list[int]]) -> str:

    return encode(*(passcodes[key] for key in PASSCODE_SECTIONS)) + "\n"


def _text(deck, fmt, sections: dict[str, list], titles: dict[str, str], names: str | None) -> str:
    """Sections in the format's order (cards under no header first, unknown sections last),
    each card once with its copies summed, in the order the list first names it."""
    lines = []
    if deck.name:
        lines.append(f"# Name: {deck.name}")
    lines += [f"# {key.capitalize()}: {value}" for key, value in deck.metadata.items()]
    order = {section.id: index for index, section in enumerate(fmt.spec.sections)}
    for key in sorted(sections, key=lambda k: (-1, "") if k == "-" else (order.get(k, len(order)), k)):
        counts: dict[str, int] = {}
        for entry, card in sections[key]:
            meant = card.printings_meant(entry.printing, entry.name)
            own = card.printing_names.get(meant[0]) if len(meant) == 1 else None
            name = own or card.name_in(names)
            counts[name] = counts.get(name, 0) + entry.count
        if lines:
            lines.append("")
        if key != "-":
            lines.append(f"{fmt.titles.get(key, titles[key])}:")
        lines.extend(f"{count} {name}" for name, count in counts.items())
    return "\n".join(lines) + "\n"


def _same_deck(out: str, to: str, deck, fmt, catalog, resolution, path: str) -> None:
    """Read the result back: the same cards in the same sections (the fingerprint's content),
    or the conversion is refused."""

    try:
        again = parse_decklist(out, path or "converted", fmt.known_headers, suffix=SUFFIX[to])
    except ForcecheckError as exc:
        raise NotConvertible(f"the {_form(to)} would not read back ({exc})") from None
    if again.problems:
        raise NotConvertible(f"the {_form(to)} would not read back whole ({again.problems[0].message})")
    back = resolve(again, fmt, catalog).content
    before = resolution.content
    for key in sorted(set(before) | set(back)):
        if before.get(key, 0) != back.get(key, 0):
            section, card = key
            raise NotConvertible(f"the {_form(to)} would read as another deck ({card.lstrip('?')} in {section}: "
                                 f"{before.get(key, 0)} before, {back.get(key, 0)} after)")
