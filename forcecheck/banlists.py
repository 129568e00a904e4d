"""Banned / Forbidden-Limited lists as data.

A ``Banlist`` caps copies per card (0 = forbidden), keyed by card name or passcode/printing
code; in a *whitelist* (EDOPro ``$whitelist``) every card not listed is forbidden; a
*combination* names cards that may not be in one deck together. Lists come from YGOPro /
EDOPro ``lflist.conf`` files (``!name`` starts a list, ``id count --comment`` lines, ``#``
comments) or from a banned-list JSON in the shape fowsim's Force of Will list is recorded in
(``{"format", "source", "first_seen_date", "banned": [{"id", "name"}], "combination_banned":
[[{"id", "name"}, ...]]}``), and are stored in the catalog database by ``forcecheck banlist import``.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from forcecheck.errors import ForcecheckError
from forcecheck.lazyre import lazy
from forcecheck.records import Record
from forcecheck.textfile import decode_text, read_bytes

if TYPE_CHECKING:
    from forcecheck.importers import ImportWarning

_ENTRY = lazy(r"^(\d+)\s+(-?\d+)\s*(?:(?:--?|#)\s*(.*))?$")  # a comment after "--", "#" or a lone "-" (a typo some lists carry)
MAX_DIGITS = 10
"""Passcodes have at most 10 digits (leading zeros aside) and counts one: a longer number is a
broken line (and past 4,300 digits Python would refuse to convert it)."""
NO_VERDICT = ("so the deck cannot be judged by the list of that day (an error: name a list with --banlist, "
              "or check the rest with --banlist none)")
"""What a date before every list means (FC602): no verdict, never 'legal' by no list at all."""
_DATE = lazy(r"(?<!\d)((?:19|20)\d\d)[.-](\d{1,2})(?:[.-](\d{1,2}))?(?!\d)")
_META = lazy(r"^--\s*(StartDate|EndDate)\s+(\S+)", re.IGNORECASE)
_LABEL_END = lazy(r"\t|\s{2,}")


class Banlist(Record):
    name: str
    game: str
    entries: dict[str, int]
    """Passcode, printing code or card name -> copies allowed (0 = forbidden)."""
    whitelist: bool
    source: str
    date: str | None
    """Effective date (ISO) when the list's name carries one (``2011.3.1 OCG`` -> 2011-03-01)."""
    combinations: list[list[str]]
    """Cards that may not be used together (each list: two or more card names or codes)."""
    labels: dict[str, str]
    """Passcode -> the card name the list's comment gives it (``--Sangan``): a passcode the card
    data lacks (another version of the card) still names its card."""
    points: bool
    """A points list (EDOPro ``$genesys``): each entry is the card's points, not a copy cap; a
    card not listed is worth 0. Only a rule with a points cap applies it (Genesys); a
    Forbidden/Limited rule refuses it."""
    missing: str
    """What of the list's public record is missing ('' when it is complete): a version written
    in a format file whose announcement was only partly read (FC603 says it on every report)."""
    unread: list[str]
    """The list's own lines its file held but that could not be read (``line 5: not 'passcode
    count' ...``): a card named on one goes unchecked, so a list with any is never applied from
    a file (``refuse_unread``)."""

    def __init__(
        self,
        name: str,
        game: str,
        entries: dict[str, int] | None = None,
        whitelist: bool = False,
        source: str = "",
        date: str | None = None,
        combinations: list[list[str]] | None = None,
        labels: dict[str, str] | None = None,
        points: bool = False,
        missing: str = "",
        unread: list[str] | None = None,
    ) -> None:
        self.name = name
        self.game = game
        self.entries = {} if entries is None else entries
        self.whitelist = whitelist
        self.source = source
        self.date = date
        self.combinations = [] if combinations is None else combinations
        self.labels = {} if labels is None else labels
        self.points = points
        self.missing = missing
        self.unread = [] if unread is None else unread


class LflistWarning(Record, frozen=True):
    line: int
    message: str

    def __init__(self, line: int, message: str) -> None:
        _set = object.__setattr__
        _set(self, "line", line)
        _set(self, "message", message)

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def date_of(name: str) -> str | None:
    match = _DATE.search(name)
    if not match:
        return None
    year, month, day = match.group(1), int(match.group(2)), int(match.group(3) or 1)
    if not 1 <= month <= 12 or not 1 <= day <= 31:
        return None
    return f"{year}-{month:02d}-{day:02d}"


def parse_lflist(text: str, source: str = "") -> tuple[list[Banlist], list[LflistWarning]]:
    """Every list in an lflist.conf text; broken lines are warnings with their line number."""
    lists: list[Banlist] = []
    warnings: list[LflistWarning] = []
    current: Banlist | None = None

    def skip(number: int, message: str) -> None:
        warning = LflistWarning(number, message)
        warnings.append(warning)
        if current is not None:
            current.unread.append(str(warning))

    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        meta = _META.match(line)
        if meta:  # EDOPro metadata: "--StartDate 2010-03-01"
            if current is not None and meta.group(1).lower() == "startdate" and date_of(meta.group(2)):
                start = date_of(meta.group(2))
                if start and start > "1970-01-01":
                    current.date = start
            continue
        if line.startswith("--"):
            continue
        if line.startswith("!"):
            name = line[1:].strip()
            if not name:
                warnings.append(LflistWarning(number, "a list with no name ('!' alone); its entries are skipped"))
                current = None
                continue
            current = Banlist(name=name, game="ygo", source=source, date=date_of(name))
            lists.append(current)
            continue
        if line.lower().startswith("$whitelist"):
            if current is None:
                warnings.append(LflistWarning(number, "$whitelist before any '!name' list; ignored"))
            else:
                current.whitelist = True
            continue
        if line.lower().startswith("$genesys"):
            if current is None:
                warnings.append(LflistWarning(number, "$genesys before any '!name' list; ignored"))
            else:
                current.points = True
            continue
        if line.startswith("$"):
            continue  # other EDOPro directives have no deckbuilding meaning here
        match = _ENTRY.match(line)
        if not match:
            skip(number, f"not 'passcode count': {line[:60]!r}; skipped")
            continue
        if current is None:
            warnings.append(LflistWarning(number, "entry before any '!name' list; skipped"))
            continue
        code, written = match.group(1).lstrip("0") or "0", match.group(2)
        if len(code) > MAX_DIGITS or len(written.lstrip("-0")) > MAX_DIGITS:
            skip(number, f"a number of {max(len(code), len(written)):,} digits is no passcode or count; skipped")
            continue
        count = int(written)
        if current.points:  # a card's points: any number from 0
            if count < 0:
                skip(number, f"{count} points: a card's points are 0 or more; skipped")
                continue
        elif count < 0:  # EDOPro uses -1 for "unlimited" in some lists
            current.entries.pop(code, None)
            continue
        elif count > 3:
            skip(number, f"count {count} is over 3; skipped")
            continue
        current.entries[code] = count
        label = _label(match.group(3))
        if label:
            current.labels[code] = label
    return lists, warnings


def _label(comment: str | None) -> str | None:
    """The card name of an entry's comment: ``--Sangan``; EDOPro lists pad some with a column
    of notes after tabs or runs of spaces (``--Imperial Order<TABS>TRAPS CARDS``)."""
    if not comment:
        return None
    name = _LABEL_END.split(comment.strip(), 1)[0].strip()
    return name or None


def read_lflist(path: Path) -> tuple[list[Banlist], list[LflistWarning]]:
    data = read_bytes(path, max_bytes=64 * 1024 * 1024)
    lists, warnings = parse_lflist(decode_text(data, path), source=str(path))
    if not lists:
        raise ForcecheckError("no lists in the file (an lflist starts each list with '!name')", path)
    return lists, warnings


def parse_banlist_json(data: object, source: str = "") -> tuple[list[Banlist], list[ImportWarning]]:
    """The one list of a banned-list JSON document (the fowsim Wanderer record's shape).

    A card banned by a printing is banned by name (every printing and reprint), so entries are
    keyed by their ``name`` when they have one, else by their printing ``id``. The list's date
    is its ``effective`` date when the document gives one, else ``first_seen_date`` (the first
    day the list is known in use: fowsim records no effective date)."""
    if not isinstance(data, dict) or not any(isinstance(data.get(k), list) for k in ("banned", "combination_banned")):
        raise ValueError('expected an object with a "banned" and/or "combination_banned" list')
    from forcecheck.importers import ImportWarning  # here: a check never loads the importers

    warnings: list[ImportWarning] = []

    def key_of(item: object, where: str) -> str | None:
        if isinstance(item, dict):
            for field_name in ("name", "id"):
                value = item.get(field_name)
                if isinstance(value, str) and value.strip():
                    return value.strip()
        elif isinstance(item, str) and item.strip():
            return item.strip()
        warnings.append(ImportWarning(where, "no card name or printing id; skipped"))
        return None

    entries: dict[str, int] = {}
    for index, item in enumerate(data.get("banned") or []):
        key = key_of(item, f"banned[{index}]")
        if key is not None:
            entries[key] = 0
    combinations: list[list[str]] = []
    for index, combo in enumerate(data.get("combination_banned") or []):
        if not isinstance(combo, list):
            warnings.append(ImportWarning(f"combination_banned[{index}]", "not a list of cards; skipped"))
            continue
        keys = [key_of(item, f"combination_banned[{index}][{i}]") for i, item in enumerate(combo)]
        keys = [k for k in keys if k is not None]
        if len(keys) < 2:
            warnings.append(ImportWarning(f"combination_banned[{index}]", "fewer than two cards; skipped"))
            continue
        combinations.append(keys)
    raw_date = data.get("effective") or data.get("first_seen_date")
    day = date_of(raw_date) if isinstance(raw_date, str) else None
    label = data.get("format") if isinstance(data.get("format"), str) else "Force of Will"
    name = data.get("name") if isinstance(data.get("name"), str) and data["name"].strip() else f"{label} banned list ({day or 'undated'})"
    where = data.get("source") if isinstance(data.get("source"), str) else ""
    banlist = Banlist(
        name=name.strip(), game="fow", entries=entries, source=where or source, date=day, combinations=combinations,
    )
    return [banlist], warnings


def read_banlist_file(path: Path) -> tuple[list, list]:
    """Every list in an lflist.conf file or a banned-list JSON file (told apart by the first
    character: ``{`` is JSON); an unusable file raises a one-line error naming it."""
    import json

    data = read_bytes(path, max_bytes=64 * 1024 * 1024)
    text = decode_text(data, path)
    if text.lstrip().startswith("{"):
        try:
            document = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ForcecheckError(f"not JSON: {exc.msg} (column {exc.colno})", path, exc.lineno) from None
        except RecursionError:  # "{[[[[..." deeper than the parser goes
            raise ForcecheckError("not a banned-list JSON: nested too deeply", path) from None
        try:
            lists, warnings = parse_banlist_json(document, source=str(path))
        except ValueError as exc:
            raise ForcecheckError(f"not a banned-list JSON: {exc}", path) from None
        if not lists[0].entries and not lists[0].combinations:
            raise ForcecheckError("the banned-list JSON names no card", path)
        lists[0].unread = [str(w) for w in warnings]
        return lists, warnings
    lists, warnings = parse_lflist(text, source=str(path))
    if not lists:
        raise ForcecheckError("no lists in the file (an lflist starts each list with '!name'; a JSON list starts with '{')", path)
    return lists, warnings


def refuse_unread(banlist: Banlist, where: str) -> Banlist:
    """The list of a file, to be applied: refused (a ForcecheckError naming the file and its
    first such line) when part of it could not be read, for a card on that line would go
    unchecked (a forbidden card passed, a Genesys card worth 0 points), or when it is a points
    list that names no card (every deck would total 0). Never falsely legal."""
    if banlist.unread:
        first = banlist.unread[0]
        number, _, what = first.removeprefix("line ").partition(": ")
        line = int(number) if number.isdigit() else None
        what = (what if line is not None else first).removesuffix("; skipped")
        more = f" (and {len(banlist.unread) - 1} more {'line' if line else 'entry'}(s))" if len(banlist.unread) > 1 else ""
        entry = "'passcode points'" if banlist.points else "'passcode count'"
        raise ForcecheckError(
            f"list {banlist.name!r} cannot be applied: {what}{more}, and a card named on a{' line' if line else 'n entry'} that cannot be "
            f"read would go unchecked; write each entry as {entry if line else 'a card name or printing id'}, or remove it", where, line)
    if banlist.points and not banlist.entries:
        raise ForcecheckError(f"points list {banlist.name!r} ($genesys) gives no card its points, so every deck would total 0; "
                              "its entries are 'passcode points' lines", where)
    return banlist


def pick(lists: list[Banlist], name: str | None, where: str) -> Banlist:
    """The list called ``name`` (case-insensitive); the first one when no name is given."""
    if name is None:
        return lists[0]
    for banlist in lists:
        if banlist.name.lower() == name.lower():
            return banlist
    shown = ", ".join(b.name for b in lists[:12]) + (" ..." if len(lists) > 12 else "")
    raise ForcecheckError(f"no banlist {name!r} in {where} (lists: {shown})")


def in_force(candidates: list[Banlist], as_of: str) -> Banlist | None:
    """The dated list in force on ``as_of`` (ISO date): the latest one that took effect by then."""
    dated = [b for b in candidates if b.date and b.date <= as_of]
    return max(dated, key=lambda b: (b.date, b.name)) if dated else None


class ListFile(Record):
    """The lists of a ``--banlist-file`` named without ``--banlist``: which of them applies is
    chosen per format, by the run's date, among the lists the format takes (``file_choice``)."""

    path: str
    lists: list[Banlist]

    def __init__(self, path: str, lists: list[Banlist]) -> None:
        self.path = path
        self.lists = lists

    def of_game(self, game: str | None) -> list[Banlist]:
        return [b for b in self.lists if not b.game or not game or b.game == game]


class Applied(Record):
    """What a format's banlist rules apply, and why, as every report says it.

    ``banlist``: what ``compile_format`` is given (a Banlist, ``"none"`` for no list at all,
    or None for the format's own list: its dated versions or the list written in it);
    ``reason``: why, in words (None for a format without a banlist rule); ``missing``: the
    warning when lists exist but none was in force on the run's date."""

    banlist: Banlist | str | None
    reason: str | None
    missing: str | None

    def __init__(self, banlist: Banlist | str | None, reason: str | None = None, missing: str | None = None) -> None:
        self.banlist = banlist
        self.reason = reason
        self.missing = missing


def counts_points(rule) -> bool:
    """Whether a banlist rule is a points cap (Genesys: ``points_cap``) rather than copy caps. A
    function, not a model property: a spec read back from the cache is plain attributes."""
    return getattr(rule, "points_cap", None) is not None


def months_between(start: date, day: date) -> int:
    """Whole months from ``start`` to ``day`` (2022-06-15 to 2023-06-14: 11; to 2023-06-15: 12)."""
    return (day.year - start.year) * 12 + (day.month - start.month) - (day.day < start.day)


def past_trust(recorded: date, day: date, months: int) -> bool:
    """Whether ``day`` is after ``recorded`` plus ``months``: a shipped list recorded then may be
    stale (FC604) from the day after."""
    passed = months_between(recorded, day)
    return passed > months or (passed == months and day.day > recorded.day)


def takes(pattern: str | None, banlist: Banlist | dict, points: bool = False) -> bool:
    """Whether a format whose banlist rule reads lists by ``pattern`` (its ``imported``
    regular expression: the region, OCG or TCG, as the lists' names say it) takes this list.
    A rule with a points cap (``points``) takes only points lists, any other rule none: a
    Genesys list read as copy caps would limit every 1-point card to one copy."""
    import re

    name = banlist["name"] if isinstance(banlist, dict) else banlist.name
    listed_points = bool(banlist.get("points") if isinstance(banlist, dict) else getattr(banlist, "points", False))
    if listed_points != points:
        return False
    return pattern is None or re.search(pattern, name) is not None


def file_choice(lists: ListFile, spec, as_of: str) -> Applied:
    """The list of a ``--banlist-file`` a format applies on ``as_of``: among the file's lists
    of the format's game that the format takes (its banlist rule's ``imported`` pattern: OCG
    lists for an OCG format), the one in force on that date, as for imported lists; where the
    file's lists carry no dates, its only list. None in force is said (``missing``); several
    undated lists are a choice only the user can make (ForcecheckError)."""
    rule = next((r for r in spec.rules if r.kind == "banlist" and r.imported), None)
    pattern = rule.imported if rule is not None else None
    points = counts_points(rule)
    candidates = [b for b in lists.of_game(spec.game) if b.points == points] or lists.of_game(spec.game)
    matching = [b for b in candidates if takes(pattern, b, points)]
    pool = matching or candidates  # a file of none of the format's lists: its own lists, said so (a list of the wrong kind: refused by the rule)
    aside = "" if matching or not pattern else " (no list there is named as the format's lists are)"
    dated = [b for b in pool if b.date]
    where = lists.path
    if dated:
        found = in_force(dated, as_of)
        if found is not None:
            return Applied(refuse_unread(found, where), f"in force on {as_of} in {where}{aside}")
        earliest = min(dated, key=lambda b: (b.date, b.name))
        return Applied(
            "none", f"none: no list in {where} was in force on {as_of}",
            f"no Forbidden/Limited list in {where} was in force on {as_of} (the earliest, {earliest.name}, took effect on "
            f"{earliest.date}); {NO_VERDICT}",
        )
    if len(pool) == 1:
        return Applied(refuse_unread(pool[0], where), f"the only list in {where}{aside}")
    names = ", ".join(b.name for b in pool[:12]) + (" ..." if len(pool) > 12 else "")
    raise ForcecheckError(f"{where} holds {len(pool)} lists and none with a date to choose one by for format {spec.name}; "
                          f"name one with --banlist (lists: {names})")


def named_by(source: str) -> str:
    """A setting's source as a reason names it: ``--banlist`` for the flag."""
    return source.removeprefix("command line ")
