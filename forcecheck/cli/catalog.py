"""Card data commands: ``catalog import|info|show|search`` and ``banlist import|list|show``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import typer

from forcecheck.cli.app import banlist_app, catalog_app
from forcecheck.cli.common import DbOption, _fail, _open_catalog_or_fail


@catalog_app.command("import")
def catalog_import(
    importer: str = typer.Argument(..., help="Source format: fowsim (Force of Will JSON) or ygopro (YGOPro cards.cdb)."),
    files: List[Path] = typer.Argument(..., help="Source files; importing several merges them, importing again updates in place."),
    db: Optional[Path] = DbOption,
    locale: Optional[str] = typer.Option(
        None, "--locale", help="Language of the names in FILES (en, ja, ...); default: read from the names' script, per file."
    ),
) -> None:
    """Import card data into the local catalog database (written to a temporary file, then swapped in).

    Databases of one game in several languages (YGOPro cards.cdb and a Japanese cards.cdb)
    merge by passcode: every card keeps each language's name; facts come from the English data.
    """
    import os

    from forcecheck.cards.store import default_db_path
    from forcecheck.errors import ForcecheckError
    from forcecheck.importers.pipeline import import_files

    target = db or (Path(os.environ["FORCECHECK_CATALOG"]) if os.environ.get("FORCECHECK_CATALOG") else default_db_path())
    try:
        result = import_files(importer, files, target, locale)
    except ForcecheckError as exc:
        _fail(f"{exc} (the catalog was not changed)")
    counts = ", ".join(f"{n:,} {game} cards" for game, n in result.cards.items())
    languages = "/".join(dict.fromkeys(result.locales))
    print(f"imported {result.records:,} records from {result.files} file(s) ({languages}) into {result.db}: {counts} in {result.seconds:.2f} s")
    if len(result.names) > 1:
        print("  names: " + ", ".join(f"{lang} {n:,} cards" for lang, n in result.names.items()))
    if result.warnings:
        print(f"{len(result.warnings)} record(s) with warnings (see 'forcecheck catalog info --warnings'):", file=sys.stderr)
        for warning in result.warnings[:10]:
            print(f"  warning: {warning}", file=sys.stderr)
        if len(result.warnings) > 10:
            print(f"  ... and {len(result.warnings) - 10} more", file=sys.stderr)



@catalog_app.command("info")
def catalog_info(
    db: Optional[Path] = DbOption,
    warnings: bool = typer.Option(False, "--warnings", help="List every import warning and every construction text not checked."),
) -> None:
    """Which catalog is in use: its file, sources, import dates, card counts, and how many cards
    have construction text forcecheck does not check (--warnings lists them)."""
    cat = _open_catalog_or_fail(db)
    info = cat.info()
    print(info["catalog"])
    for game, count in info["cards"].items():
        print(f"  {game}: {count:,} cards")
        languages = info.get("names", {}).get(game, {})
        if languages:
            print("    names: " + ", ".join(
                f"{lang} {tally['cards']:,} cards ({tally['names']:,} names)" for lang, tally in languages.items()
            ))
    for source in info.get("sources", []):
        print(f"  source: {source['importer']} {source['path']} ({source.get('locale', 'en')}; {source['records']:,} records, imported {source['imported_at']}, sha256 {source['sha256'][:12]})")
    if "warnings" in info:
        print(f"  import warnings: {info['warnings']}")
    unchecked = cat.unchecked()
    print(f"  cards with construction text forcecheck does not check: {len(unchecked)}")
    if warnings and hasattr(cat, "warnings"):
        for importer, record, message in cat.warnings():
            print(f"  warning: {importer} {record}: {message}")
    if warnings:
        for card in unchecked:
            for text in card.unchecked:
                print(f"  not checked: {card.name}: {text}")


@catalog_app.command("show")
def catalog_show(
    name: str = typer.Argument(..., help="Card name (forgiving) or printing code."),
    game: str = typer.Option("fow", "--game", help="Game of the card: fow or ygo."),
    db: Optional[Path] = DbOption,
) -> None:
    """The facts forcecheck believes about one card."""
    from forcecheck.cards.describe import describe_card
    from forcecheck.decklists.text import parse_entry
    from forcecheck.resolve import resolve_card

    cat = _open_catalog_or_fail(db)
    entry = parse_entry(name, None)
    card, _note = resolve_card(cat, game, entry)
    if card is None:
        suggestions = cat.suggest(game, entry.name)
        hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
        print(f"forcecheck: no card {name!r} in {cat.label}{hint}", file=sys.stderr)
        raise typer.Exit(1)
    print(describe_card(card))


@catalog_app.command("search")
def catalog_search(
    text: str = typer.Argument(..., help="Part of a card name, spelled roughly."),
    game: str = typer.Option("fow", "--game", help="Game: fow or ygo."),
    limit: int = typer.Option(10, "--limit", min=1, max=100, help="How many names at most."),
    db: Optional[Path] = DbOption,
) -> None:
    """Card names nearest to TEXT (fuzzy), best first."""
    cat = _open_catalog_or_fail(db)
    found = cat.suggest(game, text, limit=limit)
    if not found:
        print(f"forcecheck: nothing like {text!r} in {cat.label}", file=sys.stderr)
        raise typer.Exit(1)
    for name in found:
        print(name)


@banlist_app.command("import")
def banlist_import(
    files: List[Path] = typer.Argument(..., help="lflist.conf files (YGOPro '!name' lists, EDOPro $whitelist lists) or banned-list JSON files (the fowsim Wanderer list's shape)."),
    db: Optional[Path] = DbOption,
) -> None:
    """Import every list of the files into the catalog database (lists of the same name are replaced)."""
    import os

    from forcecheck.cards.store import default_db_path
    from forcecheck.errors import ForcecheckError
    from forcecheck.importers.pipeline import import_banlists

    target = db or (Path(os.environ["FORCECHECK_CATALOG"]) if os.environ.get("FORCECHECK_CATALOG") else default_db_path())
    try:
        result = import_banlists(files, target)
    except ForcecheckError as exc:
        _fail(f"{exc} (the catalog was not changed)")
    print(f"imported {len(result.lists)} list(s) into {result.db}")
    for source, warning in result.warnings:
        print(f"  warning: {source}: {warning}", file=sys.stderr)


@banlist_app.command("list")
def banlist_list(db: Optional[Path] = DbOption) -> None:
    """The imported lists: name, date, entries, whitelist or not, source."""
    cat = _open_catalog_or_fail(db)
    lists = cat.banlists() if hasattr(cat, "banlists") else []
    if not lists:
        print(f"no banlists in {cat.label}; import some with 'forcecheck banlist import FILE'", file=sys.stderr)
        raise typer.Exit(1)
    for item in lists:
        kind = "whitelist" if item["whitelist"] else "banlist"
        combos = f", {item['combinations']} combination bans" if item.get("combinations") else ""
        print(f"{item['name']:<28} {item['date'] or '-':<10} {item['entries']:>6} entries{combos}  {kind}  ({item['source']})")


@banlist_app.command("show")
def banlist_show(name: str = typer.Argument(...), db: Optional[Path] = DbOption) -> None:
    """One list: its forbidden, limited and semi-limited cards (names from the catalog)."""
    cat = _open_catalog_or_fail(db)
    found = cat.banlist(name) if hasattr(cat, "banlist") else None
    if found is None:
        _fail(f"no banlist {name!r} in {cat.label}")
    print(f"{found.name} ({'whitelist' if found.whitelist else 'banlist'}, date {found.date or 'unknown'}, source {found.source})")
    labels = {0: "forbidden", 1: "limited", 2: "semi-limited", 3: "unlimited"}
    for count in (0, 1, 2, 3):
        keys = sorted(k for k, v in found.entries.items() if v == count)
        if not keys:
            continue
        print(f"  {labels[count]} ({len(keys)}):")
        for key in keys[:2000]:
            card = cat.by_printing(found.game or "ygo", key) or cat.by_name(found.game or "ygo", key)
            print(f"    {key:<10} {card.name if card else '(not in the catalog)'}")
    if found.combinations:
        print(f"  not together ({len(found.combinations)}):")
        for combo in found.combinations:
            print(f"    {' + '.join(combo)}")
