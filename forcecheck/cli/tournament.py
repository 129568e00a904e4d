"""Tournament commands: ``fmt``, ``fingerprint``, ``register`` and ``verify``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import typer

from forcecheck.cli.app import app
from forcecheck.cli.common import (
    FormatsDirOption,
    _choose_banlist,
    _deck_context,
    _fail,
    _iso_date,
    _read_with_format,
)


@app.command("fmt")
def fmt_command(
    paths: List[Path] = typer.Argument(..., help="Decklist files or directories to rewrite in canonical form."),
    format_name: Optional[str] = typer.Option(None, "--format", "-f", help="Format whose section titles and order to use."),
    catalog: Optional[Path] = typer.Option(None, "--catalog", help="Card catalog for canonical names (as for check)."),
    check_only: bool = typer.Option(False, "--check", help="Change nothing; exit 1 if a file is not in canonical form (for CI)."),
    diff: bool = typer.Option(False, "--diff", help="Change nothing; print a unified diff of what fmt would change."),
    names: Optional[str] = typer.Option(
        None, "--names", help="Write card names in this language (en, ja); default: the language each list is written in."
    ),
    formats_dir: Optional[List[Path]] = FormatsDirOption,
    config_file: Optional[Path] = typer.Option(None, "--config", help="Configuration file to use instead of the nearest one."),
) -> None:
    """Rewrite decklists in canonical form: catalog card names, duplicate lines summed, the
    format's section titles and order, cards sorted, the comment block at the top kept.
    A Japanese list stays Japanese; --names en|ja converts a list between languages (a card
    with no name in that language keeps its English one).

    Unknown card names stay as written; a file with a line forcecheck cannot read is left
    untouched and reported. Files are replaced atomically.
    """
    import difflib

    from forcecheck.canonical import NotRewritable, rewrite
    from forcecheck.checking import expand_paths
    from forcecheck.errors import ForcecheckError
    from forcecheck.textfile import atomic_write

    try:
        config, card_catalog, formats = _deck_context(format_name, catalog, formats_dir, config_file)
    except ForcecheckError as exc:
        _fail(str(exc))
    if names is not None:
        names = _names_language(names, card_catalog)
    changed = problems = 0
    for path in expand_paths(paths):
        try:
            deck, fmt, text, kind = _read_with_format(path, format_name, config, formats)
        except ForcecheckError as exc:
            print(f"forcecheck: error: {exc}", file=sys.stderr)
            problems += 1
            continue
        if deck.problems:
            first = deck.problems[0]
            print(f"forcecheck: {path}:{first.line or 1}: not rewritten: {first.message}", file=sys.stderr)
            problems += 1
            continue
        try:
            new = rewrite(deck, fmt, card_catalog, text, kind, names, str(path))
        except NotRewritable as exc:
            print(f"forcecheck: {path}:{exc.line or 1}: not rewritten: {exc}", file=sys.stderr)
            problems += 1
            continue
        if new == text:  # read_text has already made every newline "\n"
            continue
        changed += 1
        if diff:
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True), f"{path}", f"{path} (canonical)"))
        elif check_only:
            print(f"{path}: not in canonical form")
        else:
            atomic_write(path, lambda handle: handle.write(new), newline="\n")
            print(f"reformatted {path}", file=sys.stderr)
    verb = "would reformat" if (check_only or diff) else "reformatted"
    print(f"forcecheck fmt: {verb} {changed} file(s); {problems} file(s) with problems", file=sys.stderr)
    if problems:
        raise typer.Exit(2)  # some file could not be (re)written: it needs a person first
    raise typer.Exit(1 if changed and (check_only or diff) else 0)


def _names_language(names: str, card_catalog) -> str:
    """The language code ``--names`` asks for, if the catalog has card names in it."""
    from forcecheck.importers.locales import locale_code

    lang = locale_code(names)
    if lang is None:
        _fail(f"--names {names!r} is not a language code (e.g. en, ja)")
    known = {code for per_game in card_catalog.info().get("names", {}).values() for code in per_game}
    if lang not in known:
        hint = "; import a database in that language (forcecheck catalog import ygopro cards-ja.cdb)" if known else ""
        _fail(f"{card_catalog.label} has no card names in {lang!r} (it has: {', '.join(sorted(known)) or 'none'}){hint}")
    return lang


@app.command("fingerprint")
def fingerprint_command(
    deck_path: Path = typer.Argument(..., help="A decklist."),
    format_name: Optional[str] = typer.Option(None, "--format", "-f", help="Format (decides which section each header is)."),
    catalog: Optional[Path] = typer.Option(None, "--catalog", help="Card catalog (canonical names), as for check."),
    formats_dir: Optional[List[Path]] = FormatsDirOption,
    config_file: Optional[Path] = typer.Option(None, "--config", help="Configuration file to use instead of the nearest one."),
) -> None:
    """Print a stable hash of the deck's content (cards, counts, sections) as the last line.

    Line order, spacing, case, printing codes, comments and the file format do not change it;
    the README ("Fingerprints") says exactly what it covers.
    """
    from forcecheck.canonical import canonical_sections, fingerprint
    from forcecheck.errors import ForcecheckError

    try:
        config, card_catalog, formats = _deck_context(format_name, catalog, formats_dir, config_file)
        deck, fmt, _text, _kind = _read_with_format(deck_path, format_name, config, formats)
    except ForcecheckError as exc:
        _fail(str(exc))
    for group in canonical_sections(deck, fmt, card_catalog):
        cards = sum(e.count for e in group.entries if e.count_ok)
        print(f"{group.key}: {cards} cards, {len(group.entries)} lines", file=sys.stderr)
    print(fingerprint(deck, fmt, card_catalog))



@app.command("register")
def register_command(
    submissions: Path = typer.Argument(..., help="Folder of submitted decklists (every file in it gets a row)."),
    format_name: str = typer.Option(..., "--format", "-f", help="The event's format."),
    as_of: Optional[str] = typer.Option(None, "--as-of", help="Event date (YYYY-MM-DD): the banlist versions in force then apply (default: today)."),
    output: Path = typer.Option(Path("."), "--output", help="Folder for registrations.csv and registrations.json (default: here)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, max=64, help="Worker processes."),
    catalog: Optional[Path] = typer.Option(None, "--catalog", help="Card catalog, as for check."),
    banlist: Optional[str] = typer.Option(None, "--banlist", help="Banlist name or none, as for check."),
    banlist_file: Optional[Path] = typer.Option(None, "--banlist-file", help="lflist.conf or banned-list JSON file to take the banlist from."),
    formats_dir: Optional[List[Path]] = FormatsDirOption,
) -> None:
    """Check every submission of an event and write the registration table (illegal decks first).

    Exit 0 every decklist legal, 1 any illegal decklist or a player registered twice, 2 an
    unreadable submission, files that are not decklists, or no submissions at all.
    """
    from forcecheck.cards.catalog import catalog_path, open_catalog
    from forcecheck.checking import FormatCache
    from forcecheck.errors import ForcecheckError
    from forcecheck.register import Options, finish, submission_files, write_tables

    if not submissions.is_dir():
        _fail(f"{submissions}: not a folder of submissions")
    try:
        date = _iso_date(as_of)
        card_catalog = open_catalog(catalog)
        chosen = _choose_banlist(banlist, banlist_file, card_catalog)
        FormatCache([str(d) for d in formats_dir or []], chosen, card_catalog, date).get(format_name)
        resolved = catalog_path(catalog)
    except ForcecheckError as exc:
        _fail(str(exc))
    files = submission_files(submissions)
    options = Options(format_name, str(resolved) if resolved else None, chosen, date, tuple(str(d) for d in formats_dir or []), str(submissions))
    rows = _with_progress(files, options, jobs)
    rows, summary = finish(rows)
    summary.update({"format": format_name, "as_of": date or "today", "catalog": card_catalog.label, "submissions": str(submissions)})
    try:
        csv_path, json_path = write_tables(rows, summary, output)
    except OSError as exc:
        _fail(f"cannot write the registration table to {output}: {exc.strerror or exc}")
    print(
        f"{summary['decklists']} decklists in {summary['files']} files: {summary['legal']} legal, {summary['illegal']} illegal, "
        f"{summary['unreadable']} unreadable, {summary['not_decklists']} not decklists"
        + (f"; players registered twice: {', '.join(summary['duplicate_players'])}" if summary["duplicate_players"] else "")
    )
    print(f"banlist: {', '.join(summary['banlists']) or 'none'} · catalog: {card_catalog.label}")
    print(f"wrote {csv_path} and {json_path}")
    if not files:
        print(f"forcecheck: no submissions in {submissions}", file=sys.stderr)
    if not files or summary["unreadable"] or summary["not_decklists"]:
        raise typer.Exit(2)
    raise typer.Exit(1 if summary["illegal"] or summary["duplicate_players"] else 0)


def _with_progress(files, options, jobs) -> list:
    """Run the checks, with a progress bar on stderr when it is a terminal."""
    from forcecheck.register import run_rows

    if not sys.stderr.isatty():
        return list(run_rows(files, options, jobs))
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(file=sys.stderr), transient=True) as progress:
        task = progress.add_task("checking submissions", total=len(files))
        return list(run_rows(files, options, jobs, lambda n: progress.advance(task, n)))


@app.command("verify")
def verify_command(
    registered: Path = typer.Argument(..., help="The registered decklist."),
    played: Path = typer.Argument(..., help="The decklist played at the table."),
    format_name: Optional[str] = typer.Option(None, "--format", "-f", help="Format of both decks."),
    catalog: Optional[Path] = typer.Option(None, "--catalog", help="Card catalog, as for check."),
    output_format: str = typer.Option("text", "--output-format", "-o", help="text or json."),
    formats_dir: Optional[List[Path]] = FormatsDirOption,
    config_file: Optional[Path] = typer.Option(None, "--config", help="Configuration file to use instead of the nearest one."),
) -> None:
    """Is PLAYED the REGISTERED list, or a legal sideboard exchange of it? Lists what differs.

    Exit 0 identical or a legal exchange (and the played deck is legal), 1 otherwise, 2 when
    the decks cannot be compared (unreadable, or of different formats).
    """
    import json

    from forcecheck.engine import check_decklist
    from forcecheck.errors import ForcecheckError
    from forcecheck.verify import compare

    if output_format not in ("text", "json"):
        _fail(f"unknown output format {output_format!r} (choices: text, json)")
    try:
        config, card_catalog, formats = _deck_context(format_name, catalog, formats_dir, config_file)
        deck_a, fmt_a, _t, _k = _read_with_format(registered, format_name, config, formats)
        deck_b, fmt_b, _t, _k = _read_with_format(played, format_name, config, formats)
    except ForcecheckError as exc:
        _fail(str(exc))
    if fmt_a.spec.name != fmt_b.spec.name:
        _fail(f"the decks are of different formats: {registered} is {fmt_a.spec.name}, {played} is {fmt_b.spec.name}")
    verdict = compare(deck_a, deck_b, fmt_a, card_catalog)
    errors = [v for v in check_decklist(deck_b, fmt_b, card_catalog).violations if v.severity == "error"]
    ok = verdict.ok and not errors
    if output_format == "json":
        doc = verdict.to_dict() | {"format": fmt_a.spec.name, "played_violations": [v.to_dict() for v in errors], "ok": ok}
        print(json.dumps(doc, ensure_ascii=False, indent=2))
    else:
        words = {"identical": "identical to the registered list", "sideboard-exchange": "a legal sideboard exchange of the registered list", "different": "NOT the registered list nor a legal sideboard exchange of it"}
        print(f"{played}: {words[verdict.status]} ({fmt_a.spec.name})")
        for reason in verdict.reasons:
            print(f"  - {reason}")
        for change in verdict.changes:
            print(f"  {change.title} ({change.size_before} -> {change.size_after} cards):")
            for name, n in change.removed.items():
                print(f"    - {n} {name}")
            for name, n in change.added.items():
                print(f"    + {n} {name}")
        if errors:
            print(f"  the played deck breaks {len(errors)} rule(s): " + "; ".join(f"{v.code} {v.message}" for v in errors[:5]))
    raise typer.Exit(0 if ok else 1)
