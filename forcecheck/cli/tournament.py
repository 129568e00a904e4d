"""Tournament commands: ``fmt``, ``fingerprint``, ``register`` and ``verify``."""

import os
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from forcecheck.cli.application import app
from forcecheck.cli.common import (
    AsOfOpt,
    BanlistFileOpt,
    BanlistOpt,
    CatalogOpt,
    ColorOpt,
    ConfigOpt,
    ExtendSelectOpt,
    FailOnOpt,
    FormatOpt,
    FormatsDirOpt,
    IgnoreOpt,
    JobsOpt,
    OutputFileOpt,
    OutputFormatOpt,
    PlainOutputOpt,
    PointsCapOpt,
    SelectOpt,
    StdinFilenameOpt,
    WarnOpt,
)
from forcecheck.cli.runtime import (
    ListForm,
    PlainOutput,
    checking_session,
    fail,
    refuse_overwriting_inputs,
    render_report,
    session_from,
    stop_on_setup_problems,
    take_stdin,
)


def _used(session) -> str:
    """``catalog: ... · config: ...``: what a command's result rests on."""
    about = session.about()
    return f"catalog: {about['catalog']} · config: {about['config'] or 'none'}"


@app.command("fmt")
def fmt_command(
    paths: list[Path] = typer.Argument(..., readable=False, metavar="PATH...", help="Decklist files or directories to rewrite in canonical form; '-' reads a decklist from standard input and writes its canonical form to standard output."),
    format_name: FormatOpt = None,
    catalog: CatalogOpt = None,
    check_only: Annotated[bool, typer.Option("--check", help="Change nothing; exit 1 if a file is not in canonical form (for CI).")] = False,
    diff: Annotated[bool, typer.Option("--diff", help="Change nothing; print a unified diff of what fmt would change.")] = False,
    names: Annotated[
        Optional[str], typer.Option("--names", metavar="LANG", help="Write card names in this language (en, ja); default: the language each list is written in.")
    ] = None,
    to: Annotated[
        Optional[ListForm],
        typer.Option("--to", metavar="FORM", help="Convert one Yu-Gi-Oh! list to ydke (a ydke:// code), ydk or text, written to standard output; the file is not changed."),
    ] = None,
    formats_dir: FormatsDirOpt = None,
    config_file: ConfigOpt = None,
    stdin_filename: StdinFilenameOpt = None,
) -> None:
    """Rewrite decklists in canonical form: catalog card names, duplicate lines summed, the
    format's section titles and order, cards sorted, the comment block at the top kept.
    A Japanese list stays Japanese; --names en|ja converts a list between languages (a card
    with no name in that language keeps its English one).

    Unknown card names stay as written; a file with a line forcecheck cannot read is left
    untouched and reported. Files are replaced atomically. A ydke:// code is left as it is
    (it has one form); --to converts a list between a ydke:// code, .ydk and text.
    """
    import difflib

    from forcecheck.canonical import NotRewritable, rewrite
    from forcecheck.checking import WalkProblem, expand_paths
    from forcecheck.errors import ForcecheckError
    from forcecheck.escape import printable
    from forcecheck.textfile import MAX_FILE_BYTES, atomic_write, given

    session = session_from(config_file=config_file, format_name=format_name, catalog=catalog, formats_dir=formats_dir)
    paths = take_stdin(paths, stdin_filename)
    stop_on_setup_problems(session, paths)
    if names is not None:
        names = _names_language(names, session.main_catalog)
    if to is not None:
        _convert(session, paths, to.value, names, check_only or diff)
        return
    changed = problems = 0
    for path in expand_paths(paths):
        if isinstance(path, WalkProblem):
            print(f"forcecheck: error: {printable(str(path.path))}: {path.message}", file=sys.stderr)
            problems += 1
            continue
        path = Path(path)
        shown = printable(str(path))
        try:
            before = os.stat(path)
        except OSError:
            before = None  # session.read says why
        try:
            deck, fmt, text, kind, card_catalog, _settings = session.read(path)
        except ForcecheckError as exc:
            print(f"forcecheck: error: {exc}", file=sys.stderr)
            problems += 1
            continue
        if deck.problems:
            first = deck.problems[0]
            print(f"forcecheck: {shown}:{first.line or 1}: not rewritten: {printable(first.message)}", file=sys.stderr)
            problems += 1
            continue
        if kind == "ydke":  # a ydke:// code has one form (fmt --to converts it)
            if given(path) and not (check_only or diff):
                sys.stdout.write(text)  # standard input: the list, as it is, to standard output
            continue
        try:
            new = rewrite(deck, fmt, card_catalog, text, kind, names, str(path))
        except NotRewritable as exc:
            print(f"forcecheck: {shown}:{exc.line or 1}: not rewritten: {printable(str(exc))}", file=sys.stderr)
            problems += 1
            continue
        if given(path) and not (check_only or diff):  # standard input: the canonical list goes to standard output
            sys.stdout.write(new)
            changed += new != text
            continue
        if new == text:  # read_text has already made every newline "\n"
            continue
        if len(new.encode("utf-8")) > MAX_FILE_BYTES:  # forcecheck could not read it back
            print(f"forcecheck: {shown}: not rewritten: the canonical form would be over the {MAX_FILE_BYTES:,}-byte limit", file=sys.stderr)
            problems += 1
            continue
        changed += 1
        if diff:
            sys.stdout.writelines(printable(line) + "\n" for line in difflib.unified_diff(text.splitlines(), new.splitlines(), shown, f"{shown} (canonical)", lineterm=""))
        elif check_only:
            print(f"{shown}: not in canonical form")
        else:
            unsafe = _unsafe_to_replace(path, before)
            if unsafe:
                print(f"forcecheck: {shown}: not rewritten: {unsafe}", file=sys.stderr)
                changed -= 1
                problems += 1
                continue
            try:
                atomic_write(path, lambda handle, new=new: handle.write(new), newline="\n")
            except (OSError, ForcecheckError) as exc:
                reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else printable(str(exc))
                print(f"forcecheck: error: {shown}: cannot write ({reason}); the file is unchanged", file=sys.stderr)
                changed -= 1
                problems += 1
                continue
            print(f"reformatted {shown}", file=sys.stderr)
    verb = "would reformat" if (check_only or diff or any(given(p) for p in paths)) else "reformatted"
    print(f"forcecheck fmt: {verb} {changed} file(s); {problems} file(s) with problems · {_used(session)}", file=sys.stderr)
    if problems:
        raise typer.Exit(2)  # some file could not be (re)written: it needs a person first
    raise typer.Exit(1 if changed and (check_only or diff) else 0)


def _convert(session, paths: list[Path], to: str, names: str | None, checking: bool) -> None:
    """``fmt --to FORM FILE``: the list converted, to standard output; exit 2 with the line that
    stops it, nothing written."""
    from forcecheck.convert import NotConvertible, convert
    from forcecheck.errors import ForcecheckError
    from forcecheck.escape import printable

    if checking:
        fail("--to writes the converted list to standard output; --check and --diff do not go with it")
    if len(paths) != 1 or (str(paths[0]) != "-" and paths[0].is_dir()):
        fail("--to converts one list at a time: name one file (a shell loop converts a folder)")
    path = paths[0]
    try:
        deck, fmt, _text, _kind, card_catalog, _settings = session.read(path)
        out, assumed = convert(deck, fmt, card_catalog, to, names, str(path))
    except ForcecheckError as exc:
        fail(str(exc))
    except NotConvertible as exc:
        fail(f"{printable(str(path))}:{exc.line or 1}: not converted to {to}: {printable(str(exc))}")
    for line, message in assumed:
        print(f"forcecheck: {printable(str(path))}:{line or 1}: {printable(message)}", file=sys.stderr)
    sys.stdout.write(out)
    print(f"forcecheck fmt: {printable(str(path))} as {to} · {_used(session)}", file=sys.stderr)


def _require_cards(resolution, path: Path, why: str) -> None:
    """Stop (exit 2) for a file in which no card is read (an essay, a page of prose: its lines
    are read as titles and headings): every such file has the empty deck's fingerprint, and
    two of them would verify as identical."""
    if not resolution.content:
        fail(f"{path}: no card read in it (is it a decklist?); {why}")


def _unsafe_to_replace(path: Path, before) -> str | None:
    """Why fmt must not replace ``path`` now, or None: the file is read-only (no write bit, or
    not writable by this user; replacing it through its folder would ignore that), or it changed
    or went away since fmt read it (the user's edit would be lost, or the file brought back)."""
    try:
        now = os.stat(path)
    except OSError:
        return "it went away while fmt read it"
    if before is None or (now.st_ino, now.st_size, now.st_mtime_ns) != (before.st_ino, before.st_size, before.st_mtime_ns):
        return "it changed while fmt read it (run fmt again)"
    if not now.st_mode & 0o222:
        return "the file is read-only"
    if not os.access(path, os.W_OK):
        import errno

        try:
            mounted_read_only = bool(os.statvfs(path).f_flag & os.ST_RDONLY)
        except (OSError, AttributeError):  # pragma: no cover - no statvfs (Windows)
            mounted_read_only = False
        return f"cannot write it ({os.strerror(errno.EROFS if mounted_read_only else errno.EACCES)})"
    return None


def _names_language(names: str, card_catalog) -> str:
    """The language code ``--names`` asks for, if the catalog has card names in it."""
    from forcecheck.importers.locales import locale_code

    lang = locale_code(names)
    if lang is None:
        fail(f"--names {names!r} is not a language code (e.g. en, ja)")
    known = {code for per_game in card_catalog.info().get("names", {}).values() for code in per_game}
    if lang not in known:
        hint = "; import a database in that language (forcecheck catalog import ygopro cards-ja.cdb)" if known else ""
        fail(f"{card_catalog.label} has no card names in {lang!r} (it has: {', '.join(sorted(known)) or 'none'}){hint}")
    return lang


@app.command("fingerprint")
def fingerprint_command(
    deck_path: Path = typer.Argument(..., readable=False, metavar="PATH", help="A decklist ('-': standard input)."),
    format_name: FormatOpt = None,
    catalog: CatalogOpt = None,
    formats_dir: FormatsDirOpt = None,
    config_file: ConfigOpt = None,
    stdin_filename: StdinFilenameOpt = None,
) -> None:
    """Print a stable hash of the deck's content (cards, counts, sections) as the last line.

    Line order, spacing, case, printing codes, comments and the file format do not change it;
    docs/registration.md ("Fingerprints") says exactly what it covers.
    """
    from forcecheck.canonical import canonical_sections, fingerprint_of
    from forcecheck.escape import printable
    from forcecheck.resolve import resolve

    session = session_from(config_file=config_file, format_name=format_name, catalog=catalog, formats_dir=formats_dir)
    [deck_path] = take_stdin([deck_path], stdin_filename)
    stop_on_setup_problems(session, [deck_path])
    deck, fmt, _text, _kind, card_catalog, _settings = session.read(deck_path)
    resolution = resolve(deck, fmt, card_catalog, layout=True)  # once, for the check, the sections and the hash
    _require_cards(resolution, deck_path, "nothing to fingerprint")
    for group in canonical_sections(deck, fmt, card_catalog, resolution):
        cards = sum(e.count for e in group.entries if e.count_ok)
        print(f"{printable(group.key)}: {cards} cards, {len(group.entries)} lines", file=sys.stderr)
    print(f"{fmt.spec.name} · {_used(session)}", file=sys.stderr)
    print(fingerprint_of(resolution.content))


@app.command("register")
def register_command(
    submissions: Path = typer.Argument(..., readable=False, metavar="FOLDER", help="Folder of submitted decklists (every file in it gets a row; hidden files and linked folders are not submissions)."),
    format_name: FormatOpt = None,
    as_of: AsOfOpt = None,
    points_cap: PointsCapOpt = None,
    output_dir: Annotated[
        Path, typer.Option("--output-dir", "--output", metavar="DIR", show_default=False, help="Folder for registrations.csv and registrations.json (default: here).")
    ] = Path("."),
    output_format: OutputFormatOpt = None,
    output_file: OutputFileOpt = None,
    jobs: JobsOpt = None,
    catalog: CatalogOpt = None,
    banlist: BanlistOpt = None,
    banlist_file: BanlistFileOpt = None,
    formats_dir: FormatsDirOpt = None,
    select: SelectOpt = None,
    extend_select: ExtendSelectOpt = None,
    ignore: IgnoreOpt = None,
    warn: WarnOpt = None,
    fail_on: FailOnOpt = None,
    color: ColorOpt = None,
    config_file: ConfigOpt = None,
) -> None:
    """Check every submission of an event, report it as check does, and write the
    registration table (illegal decks first).

    Exit 0 every decklist legal, 1 any illegal decklist or a player registered twice, 2 an
    unreadable submission, files that are not decklists, or no submissions at all.
    """
    from forcecheck.register import finish, row_for, submission_files, write_tables

    if not submissions.is_dir():
        fail(f"{submissions}: not a folder of submissions")
    refuse_overwriting_inputs(output_file, [submissions], every_file=True)
    session = checking_session(
        config_file=config_file, format_name=format_name, catalog=catalog, banlist=banlist,
        banlist_file=banlist_file, as_of=as_of, points_cap=points_cap, formats_dir=formats_dir, select=select, extend_select=extend_select,
        ignore=ignore, warn=warn, output_format=output_format, color=color, fail_on=fail_on, jobs=jobs,
    )
    stop_on_setup_problems(session, [submissions], empty_folders=False)  # every file handed in gets a row, decklist or not
    files, skipped = submission_files(submissions, own=(output_dir / "registrations.csv", output_dir / "registrations.json"))
    if skipped:
        print(f"forcecheck: note: {', '.join(skipped)}: where this run writes its registration tables, read as the last "
              "run's tables, not as submissions", file=sys.stderr)
    run = session.check_paths(files, submissions=True)
    _with_progress(run, len(files))
    rows, summary = finish([row_for(deck, submissions) for deck in run.decks])
    about = session.about()
    applied = run.summary()
    summary.update({
        "format": session.config.forced_format or session.config["format"], "as_of": session.config["as_of"] or "today",
        "catalog": about["catalog"], "catalog_sources": applied["catalog_sources"], "config": about["config"], "notes": about["notes"],
        "submissions": str(submissions), "banlists_applied": applied["banlists"],
    })
    try:
        csv_path, json_path = write_tables(rows, summary, output_dir)
    except OSError as exc:
        fail(f"cannot write the registration table to {output_dir}: {exc.strerror or exc}")
    out_format = render_report(session, run, output_file)
    shown = sys.stdout if out_format == "text" and output_file is None else sys.stderr
    print(
        f"{summary['decklists']} decklists in {summary['files']} files: {summary['legal']} legal, {summary['illegal']} illegal, "
        f"{summary['unreadable']} unreadable, {summary['not_decklists']} not decklists"
        + (f"; players registered twice: {', '.join(summary['duplicate_players'])}" if summary["duplicate_players"] else ""),
        file=shown,
    )
    for same in summary["identical_decks"]:
        print(f"identical decks handed in by {', '.join(same['players'])} ({same['fingerprint']})", file=shown)
    from forcecheck.report.text import banlist_lines

    for line in banlist_lines(applied):
        print(line, file=shown)
    print(f"banlist: {', '.join(summary['banlists']) or 'none'} · {_used(session)}", file=shown)
    print(f"wrote {csv_path} and {json_path}", file=shown)
    if not files:
        print(f"forcecheck: no submissions in {submissions}", file=sys.stderr)
    if not files or summary["unreadable"] or summary["not_decklists"]:
        raise typer.Exit(2)
    failing = summary["illegal"] or summary["duplicate_players"] or (session.config["fail_on"] == "warning" and summary["warnings"])
    raise typer.Exit(1 if failing else 0)


def _with_progress(run, total: int) -> None:
    """Check every submission (the run's decks are kept, detached), with a progress bar on
    stderr when it is a terminal."""
    if not sys.stderr.isatty():
        run.decks  # noqa: B018 - runs the checks
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(file=sys.stderr), transient=True) as progress:
        task = progress.add_task("checking submissions", total=total)
        run.on_each(lambda deck: progress.advance(task, 1))
        run.decks  # noqa: B018


@app.command("verify")
def verify_command(
    registered: Path = typer.Argument(..., readable=False, metavar="REGISTERED", help="The registered decklist ('-': standard input)."),
    played: Path = typer.Argument(..., readable=False, metavar="PLAYED", help="The decklist played at the table ('-': standard input)."),
    format_name: FormatOpt = None,
    catalog: CatalogOpt = None,
    output_format: PlainOutputOpt = PlainOutput.text,
    banlist: BanlistOpt = None,
    banlist_file: BanlistFileOpt = None,
    as_of: AsOfOpt = None,
    points_cap: PointsCapOpt = None,
    formats_dir: FormatsDirOpt = None,
    config_file: ConfigOpt = None,
    stdin_filename: StdinFilenameOpt = None,
) -> None:
    """Is PLAYED the REGISTERED list, or a legal sideboard exchange of it? Lists what differs,
    and checks the played deck with the same settings as check (banlist, as-of, selection).

    Exit 0 identical or a legal exchange (and the played deck is legal), 1 otherwise, 2 when
    the decks cannot be compared (unreadable, or of different formats).
    """
    import json

    from forcecheck.engine import check_decklist
    from forcecheck.verify import compare

    session = session_from(
        config_file=config_file, format_name=format_name, catalog=catalog, banlist=banlist,
        banlist_file=banlist_file, as_of=as_of, points_cap=points_cap, formats_dir=formats_dir,
    )
    registered, played = take_stdin([registered, played], stdin_filename)
    stop_on_setup_problems(session, [registered, played])
    deck_a, fmt_a, _t, _k, _catalog_a, _settings_a = session.read(registered)
    deck_b, fmt_b, _t, _k, card_catalog, settings = session.read(played)
    from forcecheck.resolve import resolve

    _require_cards(resolve(deck_a, fmt_a, _catalog_a), registered, "nothing to compare")
    _require_cards(resolve(deck_b, fmt_b, card_catalog), played, "nothing to compare")
    if fmt_a.spec.name != fmt_b.spec.name:
        fail(f"the decks are of different formats: {registered} is {fmt_a.spec.name}, {played} is {fmt_b.spec.name}")
    verdict = compare(deck_a, deck_b, fmt_a, card_catalog)
    checked = session.selection(settings).apply(check_decklist(deck_b, fmt_b, card_catalog))
    errors = [v for v in checked.violations if v.severity == "error"]
    ok = verdict.ok and not errors
    about = session.about()
    if output_format is PlainOutput.json:
        doc = verdict.to_dict() | {
            "format": fmt_a.spec.name, "banlist": fmt_b.banlist, "banlist_reason": fmt_b.banlist_reason,
            "played_violations": [v.to_dict() for v in errors], "ok": ok,
            "catalog": about["catalog"], "config": about["config"], "notes": about["notes"],
        }
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
            print(f"  but the played deck breaks {len(errors)} rule(s): " + "; ".join(f"{v.code} {v.message}" for v in errors[:5]))
        reason = fmt_b.banlist_reason
        applied = f"{fmt_b.banlist} ({reason})" if fmt_b.banlist and reason else fmt_b.banlist or reason or "none"
        print(f"banlist: {applied} · {_used(session)}")
        for note in about["notes"]:
            print(f"note: {note}")
    raise typer.Exit(0 if ok else 1)
