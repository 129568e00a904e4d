"""Card data commands: ``catalog import|info|show|search`` and ``banlist import|list|show``.

They resolve the catalog as ``check`` does (``--catalog``, ``FORCECHECK_CATALOG``, the
configuration's ``catalog:``, else the per-user location), so ``banlist import`` writes to
the catalog the checks read.
"""

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from forcecheck.cli.application import banlist_app, catalog_app
from forcecheck.cli.common import CatalogOpt, ConfigOpt
from forcecheck.cli.runtime import ClosedOutput, fail, session_from
from forcecheck.wording import did_you_mean

GameOpt = Annotated[Optional[str], typer.Option("--game", metavar="GAME", help="Game of the card: fow or ygo (default: the catalog's only game; fow where it holds both).")]


def _session(catalog, config_file):
    return session_from(config_file=config_file, catalog=catalog)


def _import_target(session) -> Path:
    """The catalog file an import writes: an SQLite catalog (a catalog JSON file is read-only).
    With standard output closed the import's report would be lost after the catalog changed:
    that stops the import before anything is written."""
    from forcecheck.cards.store import is_sqlite_file

    if isinstance(sys.stdout, ClosedOutput):
        fail("standard output is closed, so the import's report would have nowhere to go; nothing was imported "
             "(send it to a file or to /dev/null)")

    target = session.import_target()
    if target.is_file() and not is_sqlite_file(target):
        fail(f"{target} is not an SQLite catalog (a catalog JSON file cannot be imported into); name another with --catalog")
    return target


def _games(cat) -> list[str]:
    """The games the catalog has cards of (a damaged catalog may count a game of NULL: left out)."""
    return sorted(g for g in cat.info().get("cards", {}) if isinstance(g, str))


def _game_catalog(session, game: str | None):
    """The session's catalog, the game asked (without --game: the catalog's only game, else
    fow) and the catalog's games, if it has cards of that game (a misspelt --game is an error,
    exit 2, not "no card" for every name)."""
    cat = session.main_catalog
    games = _games(cat)
    if game is None:
        game = games[0] if len(games) == 1 else "fow"
    if game not in games:
        fail(f"--game {game!r}: {cat.label} has no cards of that game (games: {', '.join(games) or 'none'})")
    return cat, game, games


def _source(session) -> str:
    """Where the catalog choice came from, for messages."""
    from forcecheck.cards.catalog import catalog_path

    config = session.config
    if config["catalog"]:
        return f"set by {config.sources['catalog']}"
    if catalog_path(None) is None:
        return f"nothing imported yet at the per-user default location {session.import_target()}"
    return "the per-user default location"


@catalog_app.command("import")
def catalog_import(
    importer: str = typer.Argument(..., metavar="IMPORTER", help="Source format: fowsim (Force of Will JSON) or ygopro (YGOPro cards.cdb)."),
    files: list[Path] = typer.Argument(..., readable=False, metavar="FILE...", help="Source files; importing several merges them, importing again updates in place."),
    catalog: CatalogOpt = None,
    locale: Annotated[
        Optional[str], typer.Option("--locale", metavar="LANG", help="Language of the names in FILES (en, ja, ...); default: read from the names' script, per file.")
    ] = None,
    config_file: ConfigOpt = None,
) -> None:
    """Import card data files you have into the catalog (written to a temporary file, then
    swapped in); 'forcecheck catalog fetch fow|ygo' downloads the public ones and imports them.

    Databases of one game in several languages (YGOPro cards.cdb and a Japanese cards.cdb)
    merge by passcode: every card keeps each language's name; facts come from the English data.
    """
    from forcecheck.errors import ForcecheckError
    from forcecheck.importers.pipeline import import_files

    session = _session(catalog, config_file)
    target = _import_target(session)
    try:
        result = import_files(importer, files, target, locale)
    except ForcecheckError as exc:
        fail(f"{exc} (the catalog was not changed)")
    counts = ", ".join(f"{n:,} {game} cards" for game, n in result.cards.items())
    languages = "/".join(dict.fromkeys(result.locales))
    print(f"imported {result.records:,} records from {result.files} file(s) ({languages}) into {result.db} ({_source(session)}): {counts} in {result.seconds:.2f} s")
    if len(result.names) > 1:
        print("  names: " + ", ".join(f"{lang} {n:,} cards" for lang, n in result.names.items()))
    if result.warnings:
        print(f"{len(result.warnings)} record(s) with warnings (see 'forcecheck catalog info --warnings'):", file=sys.stderr)
        for warning in result.warnings[:10]:
            print(f"  warning: {warning}", file=sys.stderr)
        if len(result.warnings) > 10:
            print(f"  ... and {len(result.warnings) - 10} more", file=sys.stderr)


@catalog_app.command("fetch")
def catalog_fetch(
    game: str = typer.Argument(..., metavar="GAME", help="fow (fowsim's cards.json) or ygo (YGOPro's cards.cdb, the --locale databases and lflist.conf)."),
    locale: Annotated[
        Optional[list[str]], typer.Option("--locale", metavar="LANG", help="ygo: also fetch the card database in this language (ja, ko, zh, de, fr, it, es, pt); repeatable.")
    ] = None,
    source: Annotated[
        Optional[str], typer.Option("--source", metavar="URL|DIR", help="A mirror laid out as fow/cards.json, ygo/cards.cdb, ygo/cards-LANG.cdb, ygo/lflist.conf: a base URL or a folder. Default: the configuration's fetch_source, else the public addresses. [env: FORCECHECK_FETCH_SOURCE]")
    ] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", metavar="SECONDS", min=0.1, max=3600, help="Give up on a source that does not answer, or stalls, this long.")
    ] = 60.0,
    catalog: CatalogOpt = None,
    config_file: ConfigOpt = None,
) -> None:
    """Download a game's public card data and import it into the catalog, in one step.

    Sources (each file's address, size, sha256 and time are recorded; 'catalog info' shows them):
    fow/cards.json from Force-of-Wind/fowsim (AGPL-3.0); ygo/cards.cdb from ProjectIgnis/BabelCDB
    and ygo/cards-LANG.cdb from mycard/ygopro-database (no licence stated); ygo/lflist.conf from
    Fluorohydride/ygopro (GPL-2.0). Proxies come from http_proxy/https_proxy. Any failure (an
    unreachable source, a download cut short, an HTML page, a file of the wrong kind, a sha256
    other than the configuration's pins) leaves the catalog exactly as it was (exit 2).
    """
    import signal

    from forcecheck.errors import ForcecheckError
    from forcecheck.escape import printable
    from forcecheck.importers import fetch

    session = _session(catalog, config_file)
    target = _import_target(session)
    config = session.config
    source = source or config["fetch_source"]  # the flag, else FORCECHECK_FETCH_SOURCE or fetch_source:
    try:
        if source is not None:
            fetch.check_source(source)
        sources = fetch.plan(game, locale or [], source)
    except ForcecheckError as exc:
        fail(str(exc))
    pins, pin_source = config["pins"], config.sources.get("pins")
    def fetched_one(item) -> None:
        print(f"fetched {printable(item.source.address)} ({item.size:,} bytes, sha256 {item.sha256})", file=sys.stderr)

    # a termination request ends the fetch as Ctrl-C does: the downloads are removed, the catalog untouched
    try:
        before = signal.signal(signal.SIGTERM, _interrupted)
    except ValueError:  # not the main thread (a program driving the command): its own handlers stay
        before = None
    try:
        with _progress() as progress:
            result = fetch.fetch_into(sources, target, pins, pin_source, timeout, progress, fetched_one)
    except fetch.Unreachable as exc:
        fail(f"{exc}; nothing was imported (the catalog was not changed); {fetch.offline_advice(sources, game)}")
    except ForcecheckError as exc:
        fail(f"{exc}; nothing was imported (the catalog was not changed)")
    finally:
        if before is not None:
            signal.signal(signal.SIGTERM, before)
    imported = result.imported
    counts = ", ".join(f"{n:,} {g} cards" for g, n in imported.cards.items())
    lists = f" and {len(imported.lists):,} Forbidden/Limited lists" if imported.lists else ""
    print(f"imported {imported.records:,} records from {imported.files} file(s){lists} into {imported.db} ({_source(session)}): {counts}")
    if len(imported.names) > 1:
        print("  names: " + ", ".join(f"{lang} {n:,} cards" for lang, n in imported.names.items()))
    if imported.warnings:
        print(f"{len(imported.warnings)} record(s) with warnings (see 'forcecheck catalog info --warnings')", file=sys.stderr)


def _interrupted(signum, frame) -> None:
    raise KeyboardInterrupt


class _progress:
    """A progress bar per file on a terminal (stderr); nothing elsewhere (CI logs, pipes)."""

    def __enter__(self):
        if not sys.stderr.isatty():
            return None
        from rich.console import Console
        from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn, TransferSpeedColumn

        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TransferSpeedColumn(), TimeRemainingColumn(),
                            console=Console(file=sys.stderr), transient=True)
        self.bar.__enter__()
        self.tasks: dict[str, object] = {}

        def advance(role: str, done: int, total: int | None) -> None:
            task = self.tasks.get(role)
            if task is None:
                task = self.tasks[role] = self.bar.add_task(role, total=total)
            self.bar.update(task, completed=done, total=total)

        return advance

    def __exit__(self, *exc_info) -> None:
        if getattr(self, "bar", None) is not None:
            self.bar.__exit__(*exc_info)


@catalog_app.command("info")
def catalog_info(
    catalog: CatalogOpt = None,
    warnings: Annotated[bool, typer.Option("--warnings", help="List every import warning and every construction text not checked.")] = False,
    config_file: ConfigOpt = None,
) -> None:
    """Which catalog check uses here: its file, sources, import dates, card counts, how many
    cards have construction text forcecheck does not check (--warnings lists them), and the
    catalogs the configuration sets per format or path."""
    session = _session(catalog, config_file)
    cat = session.main_catalog
    info = cat.info()
    print(f"{session.catalog_location(session.config['catalog'])} ({_source(session)})")
    for game, count in info["cards"].items():
        print(f"  {game}: {count:,} cards")
        languages = info.get("names", {}).get(game, {})
        if languages:
            print("    names: " + ", ".join(
                f"{lang} {tally['cards']:,} cards ({tally['names']:,} names)" for lang, tally in languages.items()
            ))
    provenance = {row["address"]: row for row in info.get("provenance", [])}
    for source in info.get("sources", []):
        came = provenance.pop(source["path"], None)
        if came is None:  # imported before forcecheck recorded sizes
            print(f"  source: {source['importer']} {source['path']} ({source.get('locale', 'en')}; {source['records']:,} records, imported {source['imported_at']}, sha256 {source['sha256']})")
            continue
        print(f"  source: {source['importer']} {source['path']} ({source.get('locale', 'en')}; {source['records']:,} records, "
              f"{came['size']:,} bytes, sha256 {came['sha256']}, {_came(came)})")
    for came in provenance.values():  # files of lists
        print(f"  lists: {came['address']} ({came['size']:,} bytes, sha256 {came['sha256']}, {_came(came)})")
    if "warnings" in info:
        print(f"  import warnings: {info['warnings']}")
    unchecked = cat.unchecked()
    print(f"  cards with construction text forcecheck does not check: {len(unchecked)}")
    for value, source in session.config.scoped_values("catalog"):
        print(f"also: {session.catalog_location(value)} ({source})")
    if warnings and hasattr(cat, "warnings"):
        for importer, record, message in cat.warnings():
            print(f"  warning: {importer} {record}: {message}")
    if warnings:
        for card in unchecked:
            for text in card.unchecked:
                print(f"  not checked: {card.name}: {text}")


@catalog_app.command("show")
def catalog_show(
    name: str = typer.Argument(..., metavar="CARD", help="Card name (forgiving) or printing code."),
    game: GameOpt = None,
    catalog: CatalogOpt = None,
    config_file: ConfigOpt = None,
) -> None:
    """The facts forcecheck believes about one card."""
    from forcecheck.cards.describe import describe_card
    from forcecheck.decklists.text import parse_entry
    from forcecheck.resolve import resolve_card

    cat, game, games = _game_catalog(_session(catalog, config_file), game)
    entry = parse_entry(name, None)
    card, _note = resolve_card(cat, game, entry)
    if card is None:
        elsewhere = [g for g in games if g != game and resolve_card(cat, g, entry)[0] is not None]
        suggestions = [] if elsewhere else cat.suggest(game, entry.name)
        hint = f"; {did_you_mean(suggestions)}" if suggestions else ""
        if elsewhere:
            hint = f"; it is a card of {', '.join(elsewhere)}: add --game {elsewhere[0]}"
        print(f"forcecheck: no card {name!r} in {cat.label}{hint}", file=sys.stderr)
        raise typer.Exit(1)
    print(describe_card(card))


@catalog_app.command("search")
def catalog_search(
    text: str = typer.Argument(..., metavar="TEXT", help="Part of a card name, spelled roughly."),
    game: GameOpt = None,
    limit: Annotated[int, typer.Option("--limit", metavar="N", min=1, max=100, help="How many names at most.")] = 10,
    catalog: CatalogOpt = None,
    config_file: ConfigOpt = None,
) -> None:
    """Card names nearest to TEXT (fuzzy), best first."""
    cat, game, _games_there = _game_catalog(_session(catalog, config_file), game)
    found = cat.suggest(game, text, limit=limit)
    if not found:
        print(f"forcecheck: nothing like {text!r} in {cat.label}", file=sys.stderr)
        raise typer.Exit(1)
    for name in found:
        print(name)


@banlist_app.command("import")
def banlist_import(
    files: list[Path] = typer.Argument(..., readable=False, metavar="FILE...", help="lflist.conf files (YGOPro '!name' lists, EDOPro $whitelist lists) or banned-list JSON files (the fowsim Wanderer list's shape)."),
    catalog: CatalogOpt = None,
    config_file: ConfigOpt = None,
) -> None:
    """Import every list of the files into the catalog (lists of the same name are replaced)."""
    from forcecheck.errors import ForcecheckError
    from forcecheck.importers.pipeline import import_banlists

    session = _session(catalog, config_file)
    target = _import_target(session)
    try:
        result = import_banlists(files, target)
    except ForcecheckError as exc:
        fail(f"{exc} (the catalog was not changed)")
    print(f"imported {len(result.lists)} list(s) into {result.db} ({_source(session)})")
    for source, warning in result.warnings:
        print(f"  warning: {source}: {warning}", file=sys.stderr)
    from forcecheck.cards.store import SqliteCatalog

    if not SqliteCatalog(Path(result.db)).info().get("cards"):
        print(f"forcecheck: note: {result.db} holds no cards yet, and checks that use it know no card until card data is "
              "imported into it (forcecheck catalog import ...)", file=sys.stderr)


@banlist_app.command("list")
def banlist_list(catalog: CatalogOpt = None, config_file: ConfigOpt = None) -> None:
    """The imported lists: name, date, entries, kind (banlist, whitelist or points list), source."""
    cat = _session(catalog, config_file).main_catalog
    lists = cat.banlists() if hasattr(cat, "banlists") else []
    if not lists:
        print(f"no banlists in {cat.label}; import some with 'forcecheck banlist import FILE'", file=sys.stderr)
        raise typer.Exit(1)
    for item in lists:
        kind = "points" if item.get("points") else "whitelist" if item["whitelist"] else "banlist"
        combos = f", {item['combinations']} combination bans" if item.get("combinations") else ""
        print(f"{item['name']:<28} {item['date'] or '-':<10} {item['entries']:>6} entries{combos}  {kind}  ({item['source']})")


def _came(row: dict) -> str:
    """``fetched 2026-12-01T10:00:00+00:00 as fow/cards.json`` or ``imported ...``."""
    if row["via"] == "fetch":
        return f"fetched {row['retrieved_at']} as {row['role']}"
    return f"imported {row['retrieved_at']}"


def _passcode_order(key: str) -> tuple:
    """Passcodes in numeric order (``85`` before ``100``); names after them, alphabetically."""
    return (0, int(key), "") if key.isdigit() else (1, 0, key.casefold())


@banlist_app.command("show")
def banlist_show(
    name: str = typer.Argument(..., metavar="NAME", help="The list's name (see 'forcecheck banlist list')."),
    catalog: CatalogOpt = None,
    config_file: ConfigOpt = None,
) -> None:
    """One list: its forbidden, limited and semi-limited cards (names from the catalog)."""
    from forcecheck.session import nearest_names

    cat = _session(catalog, config_file).main_catalog
    found = cat.banlist(name) if hasattr(cat, "banlist") else None
    if found is None:
        near = nearest_names(name, [b["name"] for b in cat.banlists()] if hasattr(cat, "banlists") else [])
        fail(f"no banlist {name!r} in {cat.label}" + (f"; {did_you_mean(near)}" if near else ""))
    kind = "points list" if found.points else "whitelist" if found.whitelist else "banlist"
    print(f"{found.name} ({kind}, date {found.date or 'unknown'}, source {found.source})")
    labels = {0: "forbidden", 1: "limited", 2: "semi-limited", 3: "unlimited"}
    counts = sorted(set(found.entries.values()), reverse=True) if found.points else [0, 1, 2, 3]
    for count in counts:
        keys = sorted((k for k, v in found.entries.items() if v == count), key=_passcode_order)
        if not keys:
            continue
        print(f"  {f'{count} points' if found.points else labels[count]} ({len(keys)}):")
        for key in keys[:2000]:
            card = cat.by_printing(found.game or "ygo", key) or cat.by_name(found.game or "ygo", key)
            label = found.labels.get(key)
            said = f"; the list says {label}" if label and (card is None or card.name != label) else ""
            print(f"    {key:<10} {card.name if card else '(not in the catalog' + said + ')'}")
    if found.combinations:
        print(f"  not together ({len(found.combinations)}):")
        for combo in found.combinations:
            print(f"    {' + '.join(combo)}")
