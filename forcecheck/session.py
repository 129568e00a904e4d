"""A Session: the settings of one run, resolved once, and what they open.

Every command and the library's front doors check decks through a Session, so ``check``,
``register``, ``verify``, ``fmt`` and ``fingerprint`` give one deck the same verdict under one
configuration. A Session holds

* the ``Config`` (``forcecheck.config``: flags > environment > file > CI default > built-in),
* the catalogs it opened (one per distinct ``catalog`` setting, opened on first use),
* the banlist each deck's settings choose, looked up once per catalog,
* the compiled formats, one ``FormatCache`` per (catalog, banlist, as-of),
* the rule selection per scope, and
* the notes a run leaves (a setting that does not apply to a format, say) for every report.

A setting that does not apply to a deck's format (a Yu-Gi-Oh! list for a Force of Will deck)
is ignored for that deck, with one note for the run, never an error.

Why one module of this size: it is the one front door every command checks through (the
settings resolved into catalogs, banlists and compiled formats, and the batch run over them),
and it loads each of those lazily, so a single check imports only what it uses.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from forcecheck.config import Config, DeckSettings, load_config
from forcecheck.errors import ForcecheckError

SAMPLE_NOTE = (
    "unknown cards were looked up in the embedded sample catalog, which holds only the cards of the sample decks "
    "and tests: run 'forcecheck catalog fetch {game}' once (it imports every {title} card into the catalog checks use), then check again"
)


class Session:
    """The resolved settings of a run and the catalogs, banlists and formats they name."""

    def __init__(self, config: Config, warn: Iterable[str] = ()):
        self.config = config
        self.warn = tuple(warn)
        """``--warn`` tokens: rules reported as warnings, on top of every scope's severities."""
        self.format_dirs = list(config["format_dirs"])
        self._catalogs: dict[str | None, Any] = {}
        self._banlists: dict[tuple, Any] = {}
        self._caches: dict[tuple, Any] = {}
        self._games_seen: set[tuple] = set()
        """(catalog setting, game) pairs whose catalog was asked once whether it has cards of the game."""
        self._specs: dict[str, Any] = {}
        self._canonical: dict[str, str] = {}
        """Format names as written -> as the formats spell them."""
        self._selections: dict[DeckSettings, Any] = {}
        self._notes: dict[str, None] = {}
        self._used: dict[str, None] = {}
        self._located: dict[str | None, str] = {}

    @classmethod
    def from_options(
        cls,
        flags: Mapping[str, Any],
        config_file: str | Path | None = None,
        warn: Iterable[str] = (),
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
    ) -> Session:
        """Resolve the settings and check what can be checked before any deck is read: rule
        tokens, the format names under ``formats:``, and a banlist named by flag or variable."""
        session = cls(load_config(flags, cwd=cwd, config_path=config_file, env=env), warn)
        session.validate()
        return session

    # -- what the run used -------------------------------------------------------------------
    def note(self, text: str) -> None:
        self._notes.setdefault(text, None)

    @property
    def notes(self) -> list[str]:
        return list(self._notes)

    def about(self) -> dict[str, Any]:
        """What every report names: the catalog(s) used and the files they were imported from
        (address, size, sha256, time: the data a run judged by), the configuration file, the notes."""
        used = list(self._used) or [self.catalog_location(self.config["catalog"])]
        return {"catalog": ", ".join(used), "catalog_sources": self._sources_of(used), "config": self.config.label, "notes": self.notes}

    def _sources_of(self, locations: list[str]) -> list[dict[str, Any]]:
        """The provenance of every imported file of the catalogs at ``locations`` (none for the
        sample catalog or a catalog JSON file)."""
        config = self.config
        found: list[dict[str, Any]] = []
        for value in dict.fromkeys([config["catalog"], *(v for v, _source in config.scoped_values("catalog"))]):
            try:
                location = self.catalog_location(value)
                if location not in locations:
                    continue
                rows = getattr(self.catalog(value), "provenance", list)()
            except ForcecheckError:
                continue  # a catalog that cannot be read was said where it was met
            found += [{"catalog": location, **row} for row in rows]
        return found

    def after_fork(self) -> None:
        """In a process forked from the one that opened the catalogs: open them again for it
        (a database connection must not be shared across a fork)."""
        for catalog in self._catalogs.values():
            reopen = getattr(catalog, "after_fork", None)
            if reopen is not None:
                reopen()

    def merge(self, notes: Iterable[str], catalogs: Iterable[str]) -> None:
        """Take in what a worker process noted."""
        for text in notes:
            self.note(text)
        for location in catalogs:
            self._used.setdefault(location, None)

    # -- checks made once, up front ------------------------------------------------------------
    def validate(self) -> None:
        from forcecheck.format_spec.loader import unusable_format_dir
        from forcecheck.selection import known_code_or_slug, validate_tokens

        config = self.config
        for folder in config["format_dirs"]:  # said here with where the setting came from
            problem = unusable_format_dir(folder)
            if problem:
                raise ForcecheckError(f"{_where(config, 'format_dirs', '--formats-dir')}: {folder}: {problem} of format files")
        groups: list[tuple[str, list[str]]] = []
        for name, label in (("select", "--select"), ("extend_select", "--extend-select"), ("ignore", "--ignore"), ("severity", "severity")):
            groups.append((_where(config, name, label), list(config[name])))
            for value, source in config.scoped_values(name):
                groups.append((f"{name} ({source})", list(value)))
        groups.append(("--warn", list(self.warn)))
        rule_ids = None
        for what, tokens in groups:
            if any(not known_code_or_slug(t) for t in tokens):  # only then load every format's rule ids
                rule_ids = rule_ids if rule_ids is not None else _all_rule_ids(self.format_dirs)
                validate_tokens(tokens, what, rule_ids)
        if config.formats:
            from forcecheck.format_spec.loader import available_formats

            known = available_formats(self.format_dirs)
            for name, scope in config.formats.items():
                if name not in known and not name.endswith((".yaml", ".yml")):
                    from forcecheck.wording import close_names, did_you_mean

                    source = next(iter(scope.sources.values()), str(config.file))
                    near = [n for n in known if n.casefold() == name.casefold()] or close_names(name, known)
                    hint = f"; {did_you_mean(near)}" if near else ""
                    raise ForcecheckError(f"formats: no format {name!r}{hint} (formats: {', '.join(sorted(known))})", *_split(source))
        if config.tiers.get("banlist") in ("flag", "env") or config.tiers.get("banlist_file") in ("flag", "env"):
            settings = config.deck_settings(None, None)
            self.banlist_choice(settings, self.catalog(settings.catalog))

    def setup_problems(self, paths: Iterable[str | Path], empty_folders: bool = True) -> list[str]:
        """The set-up mistakes of a run over ``paths``, one line each, before any deck is read
        (``checking.setup_problems``: a missing path, a folder with no decklist, text lists with
        no format), and every catalog the settings name that cannot be opened."""
        from forcecheck.checking import setup_problems

        config = self.config
        problems = setup_problems(paths, None if config["format"] else config.format_for, empty_folders)
        values = dict.fromkeys([config["catalog"], *(value for value, _source in config.scoped_values("catalog"))])
        for value in values:
            try:
                self.catalog(value)
            except ForcecheckError as exc:
                problems.append(str(exc))
        return problems

    # -- catalogs ------------------------------------------------------------------------------
    def catalog(self, value: str | None = None):
        """The catalog a ``catalog`` setting names (None: ``FORCECHECK_CATALOG``'s or the
        imported one at the default location, else the embedded sample), opened once."""
        found = self._catalogs.get(value)
        if found is None:
            from forcecheck.cards.catalog import open_catalog

            try:
                found = self._catalogs[value] = open_catalog(value)
            except ForcecheckError as exc:
                source = self._catalog_source(value)
                if source is None:
                    raise
                raise type(exc)(f"{exc.message} (the catalog set by {source})", exc.path, exc.line) from None
        return found

    def _catalog_source(self, value: str | None) -> str | None:
        """Which setting named the catalog ``value`` (a flag, a variable, a file's line), for its errors."""
        import os

        config = self.config
        if value is None:
            return "environment FORCECHECK_CATALOG" if os.environ.get("FORCECHECK_CATALOG") else None
        if value == config["catalog"]:
            return config.sources.get("catalog")
        return next((source for scoped, source in config.scoped_values("catalog") if scoped == value), None)

    @property
    def main_catalog(self):
        """The catalog of the top-level settings (what catalog and banlist commands use)."""
        return self.catalog(self.config["catalog"])

    def _note_catalog(self, value: str | None) -> None:
        """Remember that a deck was checked against the catalog ``value`` names (once per value:
        working out how a report names it touches the file system)."""
        if value not in self._located:
            self._located[value] = self.catalog_location(value)
            self._used.setdefault(self._located[value], None)

    @staticmethod
    def catalog_location(value: str | None) -> str:
        """A catalog as reports name it: its file (relative to here when below it), or the sample."""
        from forcecheck.cards.catalog import SAMPLE_CATALOG_LABEL, catalog_path

        path = catalog_path(value)
        if path is None:
            return SAMPLE_CATALOG_LABEL
        return _shown(path)

    def import_target(self) -> Path:
        """Where ``catalog import`` and ``banlist import`` write: the catalog the settings name,
        else the per-user default location."""
        from forcecheck.cards.catalog import default_db_path

        value = self.config["catalog"]
        return Path(value) if value else default_db_path()

    # -- banlists ------------------------------------------------------------------------------
    def banlist_choice(self, settings: DeckSettings, catalog):
        """The Banlist these settings choose, ``"none"``, or None (each format's own default)."""
        key = (settings.catalog, settings.banlist, settings.banlist_file)
        if key not in self._banlists:
            try:
                self._banlists[key] = choose_banlist(settings.banlist, settings.banlist_file, catalog)
            except ForcecheckError as exc:
                source = settings.banlist_source
                raise ForcecheckError(f"{exc.message} (banlist set by {source})", exc.path, exc.line) from None
        return self._banlists[key]

    def _spec(self, name: str):
        spec = self._specs.get(name)
        if spec is None:
            from forcecheck.format_spec.loader import load_format_cached

            spec = self._specs[name] = load_format_cached(name, self.format_dirs)
        return spec

    # -- formats ---------------------------------------------------------------------------------
    def compiled(self, path: str | Path | None, name: str, as_of: str | None = None):
        """(compiled format, catalog, settings) for a deck of format ``name`` at ``path``;
        ``as_of`` (an event's date at the registration desk) replaces the configured one."""
        from forcecheck.banlists import Banlist, ListFile, named_by
        from forcecheck.checking import FormatCache

        name = self._canonical.get(name) or self._canonical_name(name)
        settings = self.config.deck_settings(path, name)
        if as_of is not None and as_of != settings.as_of:
            from forcecheck.records import replace

            settings = replace(settings, as_of=as_of)
        catalog = self.catalog(settings.catalog)
        chosen = self.banlist_choice(settings, catalog)
        if isinstance(chosen, (Banlist, ListFile)):
            spec = self._spec(name)
            why = not_applicable(spec, chosen)
            if why:
                what = f"banlist {chosen.name}" if isinstance(chosen, Banlist) else f"the banlist file {chosen.path}"
                self.note(f"{what} (set by {settings.banlist_source}) does not apply to format {spec.name} ({why}); ignored for its decks")
                chosen = None
        banlist_key = chosen if chosen is None or isinstance(chosen, str) else ("list", settings.banlist, settings.banlist_file)
        cache_key = (settings.catalog, banlist_key, settings.as_of, settings.banlist_source, settings.points_cap)
        cache = self._caches.get(cache_key)
        if cache is None:
            cache = self._caches[cache_key] = FormatCache(self.format_dirs, chosen, catalog, settings.as_of, named_by(settings.banlist_source),
                                                          points_cap=settings.points_cap)
        fmt = cache.get(name)
        for text in fmt.notes:  # what the format's lists name that the catalog does not know
            self.note(text)
        if (settings.catalog, fmt.spec.game) not in self._games_seen:
            self._games_seen.add((settings.catalog, fmt.spec.game))
            if not catalog.has_cards(fmt.spec.game):
                self.note(f"{self.catalog_location(settings.catalog)} has no {fmt.spec.game} cards, so every card of a "
                          f"{fmt.spec.name} deck reads as unknown; import the card data (forcecheck catalog import ...)")
        return fmt, catalog, settings

    def _canonical_name(self, name: str) -> str:
        """A format name as the formats spell it (format names are case-insensitive), once per name."""
        from forcecheck.format_spec.loader import canonical_format_name

        try:
            found = canonical_format_name(name, self.format_dirs)
        except ForcecheckError:
            found = name  # an unusable format folder: loading the format says so
        self._canonical[name] = found
        return found

    def selection(self, settings: DeckSettings):
        found = self._selections.get(settings)
        if found is None:
            from forcecheck.selection import Selection

            severity = dict(settings.severity)
            severity.update({token: "warning" for token in self.warn})
            found = self._selections[settings] = Selection(list(settings.select), list(settings.extend_select), list(settings.ignore), severity)
        return found

    # -- reading and checking ------------------------------------------------------------------
    def read(self, path: str | Path, format_name: str | None = None):
        """(deck, compiled format, text, kind, catalog, settings) for one file, its format
        chosen as ``check`` chooses it. Raises ForcecheckError naming the file."""
        from forcecheck.checking import read_with_format
        from forcecheck.decklists.readers import decklist_kind

        path = Path(path)
        formats = _DeckFormats(self, path)
        try:
            deck, fmt, text = read_with_format(path, formats, format_name or self.config.forced_format, self.config.format_for(path))
        except ForcecheckError as exc:
            raise naming(exc, path) from None
        catalog, settings = formats.context
        self._note_catalog(settings.catalog)
        return deck, fmt, text, decklist_kind(text, path.suffix.lower()), catalog, settings

    def check_file(self, path: str | Path, format_name: str | None = None) -> Any:
        """The report of one file, its rules selected; unusable input is the report's error."""
        from forcecheck.checking import WalkProblem, read_with_format
        from forcecheck.engine import check_decklist
        from forcecheck.report.model import DeckReport

        started = time.perf_counter()
        if isinstance(path, WalkProblem):  # a folder the walk could not list, a link out of it, no decklists
            return DeckReport(path=str(path.path), format=self.config.forced_format, error=f"{path.path}: {path.message}")
        path = path if isinstance(path, Path) else Path(path)
        formats = _DeckFormats(self, path)
        try:
            deck, fmt, _text = read_with_format(path, formats, format_name or self.config.forced_format, self.config.format_for(path))
            catalog, settings = formats.context
            checked = check_decklist(deck, fmt, catalog)  # a damaged catalog is met here, card by card
        except ForcecheckError as exc:
            return DeckReport(path=str(path), format=formats.known, error=str(naming(exc, path)), elapsed=time.perf_counter() - started)
        self._note_catalog(settings.catalog)
        report = self.selection(settings).apply(checked)
        if report.violations and catalog.label == _sample_label():
            codes = {v.code for v in report.violations}
            if "FC001" in codes and "FC017" not in codes:  # a deck of another game needs another format, not more cards
                from forcecheck.hints import GAME_NAMES

                game = fmt.spec.game
                self.note(SAMPLE_NOTE.format(game=game, title=GAME_NAMES.get(game, game)))
        report.elapsed = time.perf_counter() - started
        return report

    def read_text(self, text: str, format_name: str, filename: str = "decklist.txt", as_of: str | None = None):
        """(deck, compiled format, catalog, settings) for a decklist given as text (an upload at
        the registration desk), read with the settings a file of that name and format gets.
        Raises ForcecheckError for text that cannot be read at all (malformed YAML), like ``read``."""
        from forcecheck.decklists.readers import parse_decklist

        fmt, catalog, settings = self.compiled(filename, format_name, as_of)
        deck = parse_decklist(text, filename, fmt.known_headers, suffix=Path(filename).suffix.lower())
        self._note_catalog(settings.catalog)
        return deck, fmt, catalog, settings

    def check_text(self, text: str, format_name: str, filename: str = "decklist.txt", as_of: str | None = None) -> Any:
        """The report of a decklist given as text, its rules selected as ``check_file`` selects them."""
        from forcecheck.engine import check_decklist

        deck, fmt, catalog, settings = self.read_text(text, format_name, filename, as_of)
        return self.selection(settings).apply(check_decklist(deck, fmt, catalog))

    def check_submission(self, path: Path) -> Any:
        """As ``check_file``, for a file handed in at an event: a file that is not a decklist
        is reported as such, unread."""
        from forcecheck.decklists.readers import DECKLIST_EXTENSIONS
        from forcecheck.report.model import DeckReport

        if not isinstance(path, Path):  # a WalkProblem
            return self.check_file(path)
        if path.suffix.lower() not in DECKLIST_EXTENSIONS:
            return DeckReport(path=str(path), format=None, error=f"{path}: not a decklist file ({path.suffix or 'no extension'}); not checked")
        return self.check_file(path)

    def check_paths(
        self,
        paths: Iterable[str | Path],
        jobs: int | None = None,
        submissions: bool = False,
        progress: Callable[[int], None] | None = None,
        fingerprints: bool = True,
    ):
        """A RunReport of every decklist under ``paths`` (every file, for ``submissions``),
        checked in ``jobs`` processes (default: the ``jobs`` setting), streamed in input order.
        ``fingerprints=False`` lets worker processes skip hashing each deck's content, for a
        report that shows no fingerprints."""
        from forcecheck.checking import WalkProblem, expand_paths
        from forcecheck.report.model import RunReport
        from forcecheck.workers import Worker, run_in_order

        jobs = jobs or self.config["jobs"]
        items = (p if isinstance(p, WalkProblem) else Path(p) for p in paths) if submissions else expand_paths(paths)
        here = self.check_submission if submissions else self.check_file
        initargs = (self.config, self.warn, submissions, fingerprints or submissions)
        worker = Worker(_check_in_worker, _start_worker, initargs, adopt=_adopt_worker)

        def reports() -> Iterator:
            _WORKER.update(session=self, submissions=submissions, fingerprints=initargs[3])  # what a forked worker adopts
            try:
                for result in run_in_order(items, jobs, here, worker, progress, self._prepare_batch):
                    if isinstance(result, tuple):  # from a worker: the report and what it noted
                        result, notes, used = result
                        self.merge(notes, used)
                    yield result.detach() if submissions else result  # a registration keeps every report
            finally:
                _WORKER.clear()

        return RunReport(reports(), catalog=self.catalog_location(self.config["catalog"]), about=self.about)

    def _prepare_batch(self) -> None:
        """Before a batch: the catalog of each format the settings name up front (``--format``,
        ``formats:`` in the configuration) reads its game for the batch. Formats named only
        inside the decklists are met deck by deck. A format or catalog that cannot be loaded
        is left for the decks to report."""
        names = [self.config.forced_format] if self.config.forced_format else list(self.config.formats)
        for name in names:
            try:
                fmt, catalog, _settings = self.compiled(None, name)
            except ForcecheckError:
                continue
            catalog.read_for_batch(fmt.spec.game)


class _DeckFormats:
    """What ``checking.read_with_format`` asks for formats through: each format compiled with
    the settings of this deck file and that format, the last one's catalog and settings kept."""

    def __init__(self, session: Session, path: Path):
        self.session = session
        self.path = path
        self.context: tuple = (None, None)
        self.known: str | None = None
        """The format last compiled for the deck (its report names it, even when unreadable)."""

    def get(self, name: str):
        self.known = None
        fmt, catalog, settings = self.session.compiled(self.path, name)
        self.context = (catalog, settings)
        self.known = fmt.spec.name
        return fmt


# -- worker processes (check --jobs, register --jobs) --------------------------------------------
_WORKER: dict = {}


def _start_worker(config: Config, warn: tuple, submissions: bool, fingerprints: bool = True) -> None:
    _WORKER["session"] = Session(config, warn)
    _WORKER["submissions"] = submissions
    _WORKER["fingerprints"] = fingerprints


def _adopt_worker() -> None:
    """In a worker forked from the checking process: keep its session (formats compiled, cards
    looked up) but give the worker connections of its own to the catalogs."""
    _WORKER["session"].after_fork()


def _check_in_worker(path: Path):
    session: Session = _WORKER["session"]
    before_notes, before_used = len(session._notes), len(session._used)
    report = (session.check_submission if _WORKER["submissions"] else session.check_file)(path)
    return report.detach(_WORKER["fingerprints"]), session.notes[before_notes:], list(session._used)[before_used:]


# -- helpers ---------------------------------------------------------------------------------------
def choose_banlist(name: str | None, path: str | Path | None, catalog):
    """The run's banlist: from an lflist file, from the catalog, ``"none"``, or None (the
    formats' defaults). An unknown name suggests the nearest imported ones."""
    from forcecheck.banlists import ListFile, pick, read_banlist_file, refuse_unread
    from forcecheck.engine import NO_BANLIST

    if name is not None and name.lower() == NO_BANLIST:
        return NO_BANLIST  # the structure only, whatever file was named too
    if path is not None:
        lists, _warnings = read_banlist_file(Path(path))
        if name is None:  # chosen per format, by the run's date (checking.FormatCache.applied)
            return ListFile(str(path), lists)
        return refuse_unread(pick(lists, name, str(path)), str(path))
    if name is None:
        return None
    lookup = getattr(catalog, "banlist", None)
    found = lookup(name) if lookup else None
    if found is None:
        names = [b["name"] for b in catalog.banlists()] if hasattr(catalog, "banlists") else []
        near = nearest_names(name, names)
        from forcecheck.wording import did_you_mean

        hint = f"; {did_you_mean(near)}" if near else ""
        if not names:
            hint = "; no lists are imported there: 'forcecheck banlist import FILE', or pass --banlist-file"
        raise ForcecheckError(f"no banlist {name!r} in {catalog.label}{hint}")
    return found


def nearest_names(name: str, names: list[str], limit: int = 3) -> list[str]:
    """Names that start with ``name`` (``2011.3`` -> ``2011.3.1``), else the closest spellings."""
    import difflib

    folded = name.casefold()
    starting = [n for n in names if n.casefold().startswith(folded)]
    if starting:
        return sorted(starting, key=len)[:limit]
    return difflib.get_close_matches(name, names, n=limit, cutoff=0.6)


def not_applicable(spec, banlist) -> str | None:
    """Why a chosen banlist (or a banlist file's lists) cannot apply to a format (None when it can)."""
    from forcecheck.banlists import ListFile

    if not any(r.kind == "banlist" for r in spec.rules):
        return "it has no banlist rule"
    if isinstance(banlist, ListFile):
        if not banlist.of_game(spec.game):
            games = sorted({b.game for b in banlist.lists if b.game})
            return f"its lists are for {', '.join(games)}, the format for {spec.game}"
        return None
    if banlist.game and spec.game and banlist.game != spec.game:
        return f"the list is for {banlist.game}, the format for {spec.game}"
    return None


def naming(exc: ForcecheckError, path: Path) -> ForcecheckError:
    """The error, naming the file it stopped (a format or banlist error names none itself)."""
    if exc.path is None:
        return ForcecheckError(exc.message, path, None)
    return exc


def _sample_label() -> str:
    from forcecheck.cards.catalog import SAMPLE_CATALOG_LABEL

    return SAMPLE_CATALOG_LABEL


def _shown(path: Path | str) -> str:
    """A path relative to the working directory when it lies below it, else absolute."""
    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute)
    except ValueError:  # pragma: no cover - another drive on Windows
        return absolute
    return absolute if relative.startswith("..") else relative


def _where(config: Config, name: str, flag: str) -> str:
    source = config.sources.get(name, "")
    return flag if config.tiers.get(name) == "flag" else f"{name} ({source})"


def _split(source: str) -> tuple[str | None, int | None]:
    path, _, line = source.rpartition(":")
    return (path, int(line)) if line.isdigit() and path else (source, None)


def _all_rule_ids(format_dirs) -> set[str]:
    """Rule ids of every format that loads (for validating rule tokens)."""
    from forcecheck.format_spec.loader import available_formats, load_format

    ids: set[str] = set()
    for path in available_formats(format_dirs).values():
        try:
            ids |= {r.id for r in load_format(str(path), format_dirs).rules}
        except ForcecheckError:
            continue
    return ids
