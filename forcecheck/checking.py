"""Checking many decklists: expand paths, pick each deck's format, collect one report per file.

One unusable file never stops the batch: it becomes a DeckReport with ``error`` set. Formats
are loaded and compiled once per run and reused for every deck that names them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from forcecheck.banlists import NO_VERDICT, Applied, Banlist, ListFile, file_choice
from forcecheck.cards.catalog import Catalog
from forcecheck.decklists.model import Decklist
from forcecheck.decklists.readers import DECKLIST_EXTENSIONS, parse_decklist
from forcecheck.engine import CompiledFormat, check_decklist, compile_format
from forcecheck.errors import ForcecheckError
from forcecheck.format_spec.loader import load_format_cached
from forcecheck.records import Record
from forcecheck.report.model import DeckReport, RunReport
from forcecheck.selection import Selection
from forcecheck.textfile import given, read_text


class FormatCache:
    """Compiled formats by name, loaded on first use; a broken format is remembered as its error.

    ``banlist`` is the run's choice: a Banlist (named by ``--banlist``), a ``ListFile`` (the
    lists of a ``--banlist-file``, one chosen per format by date), ``"none"`` (no banlist
    rules), or None, in which case a banlist rule's ``default`` or ``imported`` lists are
    looked up in ``catalog`` (if it has them), else the format's own list applies.
    ``named_by`` is the setting that named the list (``--banlist``), for the reports' reason.
    """

    def __init__(
        self,
        format_dirs: Iterable[str | Path] = (),
        banlist: Banlist | ListFile | str | None = None,
        catalog: Catalog | None = None,
        as_of: str | None = None,
        named_by: str = "--banlist",
        points_cap: int | None = None,
    ):
        self.points_cap = points_cap
        """The run's points cap (--points-cap): over the cap a format's points rule sets."""
        self.format_dirs = list(format_dirs)
        self.banlist = banlist
        self.catalog = catalog
        self.as_of = as_of
        self.named_by = named_by
        self._compiled: dict[str, CompiledFormat | ForcecheckError] = {}

    def get(self, name: str) -> CompiledFormat:
        if name not in self._compiled:
            try:
                spec = load_format_cached(name, self.format_dirs)
                applied = self.applied(spec)
                self._compiled[name] = compile_format(
                    spec, banlist=applied.banlist, as_of=self.as_of, banlist_reason=applied.reason, banlist_missing=applied.missing,
                    catalog=self.catalog, points_cap=self.points_cap,
                )
            except ForcecheckError as exc:
                self._compiled[name] = exc
        found = self._compiled[name]
        if isinstance(found, ForcecheckError):
            raise found
        return found

    def applied(self, spec) -> Applied:
        """The list the format's banlist rules apply on the run's date, and why (never silent:
        every report names it and its reason, and a date before every list is a warning)."""
        from forcecheck.engine import NO_BANLIST

        rules = [r for r in spec.rules if r.kind == "banlist"]
        chosen = self.banlist
        if not rules:
            if isinstance(chosen, Banlist):
                raise ForcecheckError(f"format {spec.name} has no banlist rule, so a banlist cannot be applied to it")
            return Applied(None if isinstance(chosen, ListFile) else chosen)
        as_of = self.as_of or _today()
        if chosen == NO_BANLIST:
            return Applied(NO_BANLIST, f"none, as {self.named_by} says")
        if isinstance(chosen, Banlist):
            return Applied(chosen, f"named by {self.named_by}")
        if isinstance(chosen, ListFile):
            return file_choice(chosen, spec, as_of)
        default = next((r.default for r in rules if r.default), None)
        lookup = getattr(self.catalog, "banlist", None)
        if default and lookup is not None:
            found = lookup(default)
            if found is not None:
                return Applied(found, "the format's default list")
        takes_imported = next((r for r in rules if r.imported), None)
        if takes_imported is not None:
            return self._imported_in_force(takes_imported, as_of)
        return _own_list(rules[0], as_of)

    def _imported_in_force(self, rule, as_of: str) -> Applied:
        """The latest imported list the format takes (``rule.imported``) that took effect by ``as_of``."""
        from forcecheck.banlists import counts_points, in_force, takes

        imported = self.catalog.banlists() if hasattr(self.catalog, "banlists") else []  # the sample catalog holds none
        points = counts_points(rule)
        names = [b for b in imported if takes(rule.imported, b, points)]
        stale = [b for b in imported if takes(rule.imported, b, False)] if points and not names else []
        if stale:  # a Genesys file imported before forcecheck read $genesys: its points were stored as copy caps
            return Applied(None, f"none: {stale[-1]['name']} was imported as a Forbidden/Limited list by a forcecheck that did not read "
                                 "points lists ($genesys); import its file again (forcecheck banlist import FILE)")
        if not names:
            if rule.list_file:
                from forcecheck.rules.banlist import missing_list_advice

                return Applied(None, f"none: {missing_list_advice(rule)}")
            return Applied(None, "none: no list of the format is imported ('forcecheck catalog fetch ygo' imports them, "
                                 "or name a file with --banlist-file)")
        stubs = [Banlist(name=b["name"], game=b["game"], date=b["date"]) for b in names]
        chosen = in_force(stubs, as_of)
        if chosen is not None:
            return Applied(self.catalog.banlist(chosen.name), f"the latest imported list in force on {as_of}")
        dated = [b for b in stubs if b.date]
        earliest = min(dated, key=lambda b: (b.date, b.name)) if dated else None
        since = f" (the earliest, {earliest.name}, took effect on {earliest.date})" if earliest else " (none carries a date)"
        return Applied(None, f"none: no imported list was in force on {as_of}",
                       f"no imported Forbidden/Limited list of the format was in force on {as_of}{since}; {NO_VERDICT}")


def _own_list(rule, as_of: str) -> Applied:
    """The list written in the format: its version in force on ``as_of``, or its one list."""
    from forcecheck.rules.banlist import rule_banlist

    if rule.versions:
        found = rule_banlist(rule, None, as_of)
        if found is not None:
            return Applied(None, f"the format's own version in force on {as_of}")
        first = min(rule.versions, key=lambda v: str(v.effective))
        return Applied(None, f"none: no version of the format's list was in force on {as_of}",
                       f"no version of the format's banned list was in force on {as_of} (the first, {first.name}, took effect on "
                       f"{first.effective}); {NO_VERDICT}")
    if rule.cards is not None:
        return Applied(None, "the list written in the format")
    return Applied(None, "none: the format names no list (--banlist NAME or --banlist-file FILE chooses one)")


def _today() -> str:
    from datetime import date

    return date.today().isoformat()


class WalkProblem(Record, frozen=True):
    """A place a directory walk could not take as a decklist: a folder it could not list, a
    symbolic link leading out of the folder being checked, a folder with no decklists. It
    becomes one report row (exit 2), so nothing is skipped unseen."""

    path: Path
    message: str

    def __init__(self, path: Path, message: str) -> None:
        _set = object.__setattr__
        _set(self, "path", path)
        _set(self, "message", message)


NO_DECKLISTS = f"no decklists ({' '.join(DECKLIST_EXTENSIONS)} files) in this folder; nothing was checked"


def expand_paths(paths: Iterable[str | Path]) -> Iterator[str | WalkProblem]:
    """Files to check, in a deterministic order, each as the text of its path (``str(Path(...))``:
    a batch's parent process hands 100,000 of them to its workers, and text costs less to make
    and to send than Path objects). Directories are walked in name order (see ``walk_files``)
    for decklist extensions; a file named explicitly is always checked, wherever it is. A
    folder that yields no decklist is a WalkProblem: for CI that is a misconfiguration, not a
    pass. The walk holds one directory's names at a time, so a folder of 100,000 decklists
    costs 100,000 names, no more."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir() and not given(path):
            found = False
            for item in walk_files(str(path)):
                found = True
                yield item
            if not found:
                yield WalkProblem(path, NO_DECKLISTS)
        else:
            yield str(path)


def walk_files(directory: str, decklists_only: bool = True, root: str | None = None) -> Iterator[str | WalkProblem]:
    """Files under ``directory`` (the text of a Path) in name order, as ``expand_paths`` gives
    them; only decklist extensions unless ``decklists_only`` is False. Hidden entries are
    skipped and symlinked folders neither followed nor listed (a link loop cannot trap the
    walk). A symlinked file is read only when it resolves inside the folder the walk started
    from (``root``): a link out of it (to a credentials file, say) is a WalkProblem, never
    read. A folder that cannot be listed is a WalkProblem too."""
    root = root or os.path.realpath(directory)
    try:
        with os.scandir(directory) as scan:
            entries = sorted(_kind(entry) for entry in scan if not entry.name.startswith("."))
    except OSError as exc:
        yield WalkProblem(Path(directory), f"cannot list this folder ({exc.strerror or exc}); the decklists in it are not checked")
        return
    for name, kind in entries:
        full = child_path(directory, name)
        if kind == "dir":
            yield from walk_files(full, decklists_only, root)
            continue
        if decklists_only and not name.lower().endswith(DECKLIST_EXTENSIONS):  # the extension: names here are not hidden
            continue
        if kind == "link":
            target = _link_target(full, root)
            if target == "dir":
                continue
            if target == "outside":
                yield WalkProblem(Path(full), "not read: a symbolic link that leads outside the folder being checked (name the file itself to check it)")
                continue
        yield full  # a broken link or loop is reported when the file is read


def child_path(directory: str, name: str) -> str:
    """``str(Path(directory, name))`` for a name listed in ``directory`` (itself the text of a
    Path), without making the Path: ``.`` is left out as a Path leaves it out."""
    if os.sep != "/":  # pragma: no cover - Windows: drives and both slashes, left to pathlib
        return str(Path(directory, name))
    if directory == ".":
        return name
    return directory + name if directory.endswith("/") else directory + "/" + name


def _kind(entry: os.DirEntry) -> tuple[str, str]:
    """(name, "dir" | "link" | "file"), from the directory listing itself where it can."""
    try:
        if entry.is_symlink():
            return entry.name, "link"
        return entry.name, "dir" if entry.is_dir(follow_symlinks=False) else "file"
    except OSError:
        return entry.name, "file"  # reading it will say what is wrong


def _link_target(link: str, root: str) -> str:
    """"dir", "outside" or "file" for a symbolic link met by a walk (see walk_files)."""
    if os.path.isdir(link):
        return "dir"
    real = os.path.realpath(link)
    try:
        inside = os.path.commonpath([root, real]) == root
    except ValueError:  # another drive
        inside = False
    return "file" if inside else "outside"


STDIN = "-"
"""The path that names standard input (``check -``); ``--stdin-filename`` names the deck."""

NEVER_YAML = (".txt", ".ydk")
"""Decklists that can never name their own format (a YAML ``format:`` is the only way a list does)."""


def setup_problems(paths: Iterable[str | Path], format_for: Callable[[Path], str | None] | None, empty_folders: bool = True) -> list[str]:
    """Set-up mistakes in what a run was given, found before any deck is read, each one line
    (the run stops, exit 2): a path that does not exist, a folder with no decklist, text lists
    with no format from anywhere (``format_for`` gives a file's configured format; None when
    ``--format`` forces one; ``empty_folders=False``: a folder with no decklist is left to the
    caller, as ``register`` lists every file handed in). They are the user's set-up, not decks: reported once, never as a
    row per deck nor counted among the decks."""
    problems: list[str] = []
    formatless: list[str] = []
    for raw in paths:
        text = str(raw)
        if text == STDIN:
            continue
        if not given(text) and not os.path.lexists(text):  # standard input named by --stdin-filename need not exist
            problems.append(f"{text}: no such file or directory")
            continue
        if given(text) or not os.path.isdir(text):
            if format_for is not None and Path(text).suffix.lower() in NEVER_YAML and format_for(Path(text)) is None:
                formatless.append(text)
            continue
        found = blocked = False
        for item in walk_files(text):
            if isinstance(item, WalkProblem):
                blocked = True  # reported as its row when the folder is checked
                continue
            found = True
            if format_for is None:
                break  # one decklist is enough to know the folder has some
            if item.lower().endswith(NEVER_YAML) and format_for(Path(item)) is None:
                formatless.append(item)
        if not found and not blocked and empty_folders:
            problems.append(f"{text}: {NO_DECKLISTS}")
    if formatless:
        shown = ", ".join(formatless[:3]) + (f" and {len(formatless) - 3:,} more" if len(formatless) > 3 else "")
        lists = "list" if len(formatless) == 1 else "lists"
        problems.append(f"no format for the text {lists} {shown}: pass --format NAME, or set 'format:' (or a 'paths:' glob) in .forcecheck.yaml")
    return problems


NO_FORMAT = "no format: pass --format NAME, write 'format: NAME' in a YAML decklist, or set 'format:' (or a 'paths:' glob) in .forcecheck.yaml"


def read_with_format(
    path: Path, formats: FormatCache, format_name: str | None = None, fallback: str | None = None
) -> tuple[Decklist, CompiledFormat, str]:
    """(deck, compiled format, text) for one file, read once. The format is ``format_name``
    (the command line), else the one the decklist names, else ``fallback`` (the configuration's
    format for this path). Text is parsed again only when the format turned out to be another
    than the one whose section titles the first parse used."""
    first = formats.get(format_name or fallback) if (format_name or fallback) else None
    text = read_text(path)
    suffix = path.suffix.lower()
    deck = parse_decklist(text, str(path), first.known_headers if first else (), suffix=suffix)
    if format_name:
        return deck, first, text
    chosen = deck.format or fallback
    if not chosen:
        raise ForcecheckError(NO_FORMAT, path)
    fmt = formats.get(chosen)
    if fmt is not first:
        deck = parse_decklist(text, str(path), fmt.known_headers, suffix=suffix)
    return deck, fmt, text


def check_file(
    path: str | Path, catalog: Catalog, formats: FormatCache, format_name: str | None = None, fallback: str | None = None
) -> DeckReport:
    """Check one file; any unusable input (the file, its format, a damaged catalog met while
    looking its cards up) becomes the report's ``error``, never an exception."""
    if not isinstance(path, Path):  # the text of a path, as a walk gives it
        path = Path(path)
    try:
        deck, fmt, _text = read_with_format(path, formats, format_name, fallback)
        return check_decklist(deck, fmt, catalog)
    except ForcecheckError as exc:
        return DeckReport(path=str(path), format=format_name, error=str(exc))


def check_paths(
    paths: Iterable[str | Path],
    catalog: Catalog,
    format_name: str | None = None,
    format_dirs: Iterable[str | Path] = (),
    banlist: Banlist | str | None = None,
    format_for: Callable[[Path], str | None] | None = None,
    selection: Selection | None = None,
    as_of: str | None = None,
    formats: FormatCache | None = None,
) -> RunReport:
    """Check every decklist under ``paths`` lazily (the report streams as it is rendered);
    ``format_for`` gives a path's configured format and ``selection`` filters and re-grades
    the violations (--select / --ignore / severities)."""
    formats = formats or FormatCache(format_dirs, banlist, catalog, as_of)

    def reports():
        for path in expand_paths(paths):
            if isinstance(path, WalkProblem):
                yield DeckReport(path=str(path.path), format=format_name, error=f"{path.path}: {path.message}")
                continue
            path = Path(path)  # the walk gives text; ``format_for`` is given a Path, as before
            report = check_file(path, catalog, formats, format_name, format_for(path) if format_for else None)
            yield selection.apply(report) if selection else report

    return RunReport(reports(), catalog=catalog.label)
