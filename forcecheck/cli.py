"""The ``forcecheck`` command line: a thin typer layer over the library.

Imports of the library (pydantic, yaml, rich, rapidfuzz) happen inside the commands so that
``forcecheck --version`` and the start of a single check stay fast.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from forcecheck import __version__

app = typer.Typer(
    name="forcecheck",
    help="Deck-construction validator for trading card games: is this deck legal in the format, and if not, exactly why.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
formats_app = typer.Typer(help="List and explain the formats forcecheck knows.", no_args_is_help=True)
app.add_typer(formats_app, name="formats")
banlist_app = typer.Typer(help="Import and look at banned / Forbidden-Limited lists (lflist.conf).", no_args_is_help=True)
app.add_typer(banlist_app, name="banlist")
catalog_app = typer.Typer(help="Import card databases and look at the card facts forcecheck believes.", no_args_is_help=True)
app.add_typer(catalog_app, name="catalog")


class OutputFormat(str, Enum):
    text = "text"
    concise = "concise"
    json = "json"
    sarif = "sarif"
    github = "github"
    junit = "junit"


class Color(str, Enum):
    auto = "auto"
    always = "always"
    never = "never"


class FailOn(str, Enum):
    error = "error"
    warning = "warning"


def _fail(message: str, code: int = 2) -> None:
    """One line on stderr, no traceback, and the exit code (2 = unusable input)."""
    print(f"forcecheck: error: {message}", file=sys.stderr)
    raise typer.Exit(code)


def _version(value: bool) -> None:
    if value:
        print(f"forcecheck {__version__}")
        raise typer.Exit(0)


@app.callback()
def _main(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
) -> None:
    """forcecheck: deck-construction validator."""


FormatsDirOption = typer.Option(
    None, "--formats-dir", help="Extra directory of format YAML files (searched before the built-in formats); repeatable."
)


def _tokens(values: Optional[List[str]]) -> list[str]:
    """Rule tokens from repeatable, comma-separated options (``--select FC1,FC2 --select copy-limit``)."""
    return [t.strip() for v in values or [] for t in v.split(",") if t.strip()]


@app.command()
def check(
    paths: List[Path] = typer.Argument(..., help="Decklist files or directories (every decklist under a directory, sorted)."),
    format_name: Optional[str] = typer.Option(
        None, "--format", "-f", help="Format name (see 'forcecheck formats list') or a format YAML file. Overrides a format named inside a YAML decklist and the configuration."
    ),
    catalog: Optional[Path] = typer.Option(
        None, "--catalog", help="Card catalog: an imported SQLite catalog or a catalog JSON file. Default: $FORCECHECK_CATALOG, the configuration, the imported catalog at the default location, else the embedded sample catalog."
    ),
    output_format: Optional[OutputFormat] = typer.Option(
        None, "--output-format", "-o", help="text (default; github under GitHub Actions), concise, json, sarif, github or junit. Machine formats write only the document."
    ),
    output_file: Optional[Path] = typer.Option(None, "--output-file", help="Write the report to this file (atomically) instead of stdout."),
    formats_dir: Optional[List[Path]] = FormatsDirOption,
    color: Optional[Color] = typer.Option(None, "--color", help="Colour in text output: auto (a terminal, unless NO_COLOR; FORCE_COLOR forces it), always, never."),
    exit_zero: bool = typer.Option(False, "--exit-zero", help="Exit 0 even when decks have violations (report-only jobs); unusable input still exits 2."),
    banlist: Optional[str] = typer.Option(
        None, "--banlist", help="Banlist to apply: a list imported with 'forcecheck banlist import' (or, with --banlist-file, a list in that file), or 'none' for structure only."
    ),
    banlist_file: Optional[Path] = typer.Option(None, "--banlist-file", help="An lflist.conf file to take the banlist from (its first list unless --banlist names one)."),
    select: Optional[List[str]] = typer.Option(None, "--select", help="Report only these rules: codes (FC201), prefixes (FC2), slugs (copy-limit), rule ids (main-size) or ALL; comma-separated, repeatable."),
    extend_select: Optional[List[str]] = typer.Option(None, "--extend-select", help="Report these rules too, on top of --select or the configuration."),
    ignore: Optional[List[str]] = typer.Option(None, "--ignore", help="Do not report these rules (the more specific of select and ignore wins)."),
    warn: Optional[List[str]] = typer.Option(None, "--warn", help="Report these rules as warnings (they no longer make a deck illegal)."),
    fail_on: Optional[FailOn] = typer.Option(None, "--fail-on", help="Lowest severity that fails the run: error (default) or warning."),
    config_file: Optional[Path] = typer.Option(None, "--config", help="Configuration file to use instead of the nearest .forcecheck.yaml / pyproject.toml."),
    as_of: Optional[str] = typer.Option(None, "--as-of", help="Date (YYYY-MM-DD) whose banlist versions apply (default: today)."),
) -> None:
    """Check decklists against a format and report every violation.

    Exit status: 0 every deck legal, 1 any deck with a violation, 2 an input that could not be
    used (missing or unreadable file, bad format spec, catalog or configuration); the rest of the
    batch is still checked.
    """
    import os

    from forcecheck.cards.catalog import open_catalog
    from forcecheck.checking import FormatCache, check_paths
    from forcecheck.config import load_config
    from forcecheck.errors import ForcecheckError
    from forcecheck.report import RENDERERS
    from forcecheck.selection import Selection, known_code_or_slug, validate_tokens

    flags = {
        "format": format_name,
        "catalog": str(catalog) if catalog else None,
        "output_format": output_format.value if output_format else None,
        "format_dirs": [str(d) for d in formats_dir or []],
        "color": color.value if color else None,
        "banlist": banlist,
        "banlist_file": str(banlist_file) if banlist_file else None,
        "select": _tokens(select),
        "extend_select": _tokens(extend_select),
        "ignore": _tokens(ignore),
        "fail_on": fail_on.value if fail_on else None,
    }
    try:
        config = load_config(flags, config_path=config_file)
        severity = dict(config["severity"])
        severity.update({token: "warning" for token in _tokens(warn)})
        selection = Selection(config["select"], config["extend_select"], config["ignore"], severity)
        for what, tokens in (("--select", selection.select), ("--extend-select", selection.extend_select), ("--ignore", selection.ignore), ("severity", list(severity))):
            if any(not known_code_or_slug(t) for t in tokens):  # only then load every format's rule ids
                validate_tokens(tokens, what, _all_rule_ids(config["format_dirs"]))
        card_catalog = open_catalog(config["catalog"])
        chosen = _choose_banlist(config["banlist"], Path(config["banlist_file"]) if config["banlist_file"] else None, card_catalog)
        as_of = _iso_date(as_of)
        formats = FormatCache(config["format_dirs"], chosen, card_catalog, as_of)
        if format_name:
            formats.get(format_name)  # a broken format fails the run up front
    except ForcecheckError as exc:
        _fail(str(exc))
    out_format = config["output_format"] or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    report = check_paths(paths, card_catalog, format_name, format_for=config.format_for, selection=selection, formats=formats)
    _emit(lambda out: RENDERERS[out_format](report, out, _color(config["color"], out_format, output_file)), output_file, out_format)
    code = report.exit_code_for(config["fail_on"])
    raise typer.Exit(0 if exit_zero and code == 1 else code)


def _deck_context(format_name, catalog, formats_dir, config_file):
    """Configuration, catalog and format cache for commands that read one deck at a time."""
    from forcecheck.cards.catalog import open_catalog
    from forcecheck.checking import FormatCache
    from forcecheck.config import load_config

    config = load_config({"format": format_name, "catalog": str(catalog) if catalog else None,
                          "format_dirs": [str(d) for d in formats_dir or []]}, config_path=config_file)
    card_catalog = open_catalog(config["catalog"])
    return config, card_catalog, FormatCache(config["format_dirs"], None, card_catalog)


def _read_with_format(path: Path, format_name, config, formats):
    """(deck, compiled format, text, kind) for one file, the format chosen as ``check`` does."""
    from forcecheck.checking import read_with_format
    from forcecheck.decklists.readers import decklist_kind

    deck, fmt, text = read_with_format(path, formats, format_name, config.format_for(path))
    return deck, fmt, text, decklist_kind(text, path.suffix.lower())


@app.command("fmt")
def fmt_command(
    paths: List[Path] = typer.Argument(..., help="Decklist files or directories to rewrite in canonical form."),
    format_name: Optional[str] = typer.Option(None, "--format", "-f", help="Format whose section titles and order to use."),
    catalog: Optional[Path] = typer.Option(None, "--catalog", help="Card catalog for canonical names (as for check)."),
    check_only: bool = typer.Option(False, "--check", help="Change nothing; exit 1 if a file is not in canonical form (for CI)."),
    diff: bool = typer.Option(False, "--diff", help="Change nothing; print a unified diff of what fmt would change."),
    formats_dir: Optional[List[Path]] = FormatsDirOption,
    config_file: Optional[Path] = typer.Option(None, "--config", help="Configuration file to use instead of the nearest one."),
) -> None:
    """Rewrite decklists in canonical form: catalog card names, duplicate lines summed, the
    format's section titles and order, cards sorted, the comment block at the top kept.

    Unknown card names stay as written; a file with a line forcecheck cannot read is left
    untouched and reported. Files are replaced atomically.
    """
    import difflib

    from forcecheck.canonical import canonical_text
    from forcecheck.checking import expand_paths
    from forcecheck.errors import ForcecheckError
    from forcecheck.textfile import atomic_write

    try:
        config, card_catalog, formats = _deck_context(format_name, catalog, formats_dir, config_file)
    except ForcecheckError as exc:
        _fail(str(exc))
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
        new = canonical_text(deck, fmt, card_catalog, text, kind)
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


def _iso_date(value: Optional[str]) -> Optional[str]:
    """A YYYY-MM-DD date, or None for today; anything else is a usage error."""
    from datetime import date

    from forcecheck.errors import ForcecheckError

    if value is None:
        return None
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise ForcecheckError(f"--as-of: {value!r} is not a date (YYYY-MM-DD)") from None


@app.command("register")
def register_command(
    submissions: Path = typer.Argument(..., help="Folder of submitted decklists (every file in it gets a row)."),
    format_name: str = typer.Option(..., "--format", "-f", help="The event's format."),
    as_of: Optional[str] = typer.Option(None, "--as-of", help="Event date (YYYY-MM-DD): the banlist versions in force then apply (default: today)."),
    output: Path = typer.Option(Path("."), "--output", help="Folder for registrations.csv and registrations.json (default: here)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, max=64, help="Worker processes."),
    catalog: Optional[Path] = typer.Option(None, "--catalog", help="Card catalog, as for check."),
    banlist: Optional[str] = typer.Option(None, "--banlist", help="Banlist name or none, as for check."),
    banlist_file: Optional[Path] = typer.Option(None, "--banlist-file", help="lflist.conf to take the banlist from."),
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


def _all_rule_ids(format_dirs) -> set[str]:
    """Rule ids of every format that loads (for validating --select tokens)."""
    from forcecheck.errors import ForcecheckError
    from forcecheck.spec.loader import available_formats, load_format

    ids: set[str] = set()
    for path in available_formats(format_dirs).values():
        try:
            ids |= {r.id for r in load_format(str(path), format_dirs).rules}
        except ForcecheckError:
            continue
    return ids


def _color(option: str, out_format: str, output_file) -> str:
    """always / never for this run: machine formats and files are never coloured."""
    import os

    if out_format != "text" or output_file is not None or option == "never":
        return "never"
    if option == "always":
        return "always"
    if os.environ.get("NO_COLOR"):
        return "never"
    if os.environ.get("FORCE_COLOR"):
        return "always"
    return "always" if sys.stdout.isatty() else "never"


def _emit(write, output_file, out_format: str) -> None:
    """Stream the document to stdout, or to the output file through a temporary file renamed
    over it (so a failed or interrupted run never leaves a half-written report)."""
    if output_file is None:
        write(sys.stdout)
        return
    from forcecheck.textfile import atomic_write

    target = Path(output_file)
    try:
        atomic_write(target, write, newline=None)
    except OSError as exc:
        _fail(f"cannot write {target}: {exc.strerror or exc}")
    print(f"forcecheck: wrote {out_format} report to {target}", file=sys.stderr)


def _choose_banlist(name: Optional[str], path: Optional[Path], catalog):
    """The run's banlist: from a file, from the catalog, 'none', or None (the formats' defaults)."""
    from forcecheck.banlists import pick, read_lflist
    from forcecheck.engine import NO_BANLIST
    from forcecheck.errors import ForcecheckError

    if path is not None:
        lists, _warnings = read_lflist(path)
        return pick(lists, name, str(path))
    if name is None:
        return None
    if name.lower() == NO_BANLIST:
        return NO_BANLIST
    lookup = getattr(catalog, "banlist", None)
    found = lookup(name) if lookup else None
    if found is None:
        raise ForcecheckError(f"no banlist {name!r} in {catalog.label}; import lists with 'forcecheck banlist import FILE' or pass --banlist-file")
    return found


@app.command("rules")
def rules_command(
    output_format: str = typer.Option("text", "--output-format", "-o", help="text or json."),
) -> None:
    """Every rule kind and input check: code, slug, default severity, family and documentation."""
    import json

    from forcecheck.rules.registry import KINDS

    kinds = sorted(KINDS.values(), key=lambda k: k.code)
    if output_format == "json":
        print(json.dumps([{"code": k.code, "slug": k.slug, "severity": k.severity, "family": k.family, "doc": k.doc} for k in kinds], indent=2))
        return
    if output_format != "text":
        _fail(f"unknown output format {output_format!r} (choices: text, json)")
    for kind in kinds:
        print(f"{kind.code}  {kind.slug:<24} {kind.severity:<8} {kind.family:<11} {kind.doc}")
    print("\nEach format's rules are instances of these kinds with their own ids: 'forcecheck formats show NAME'.")


config_app = typer.Typer(help="Show the configuration forcecheck would use here.", no_args_is_help=True)
app.add_typer(config_app, name="config")


@config_app.command("show")
def config_show(config_file: Optional[Path] = typer.Option(None, "--config", help="Configuration file to use instead of the nearest one.")) -> None:
    """The merged configuration (flags > FORCECHECK_* variables > config file > defaults), with sources."""
    from forcecheck.config import SETTINGS, load_config
    from forcecheck.errors import ForcecheckError

    try:
        config = load_config({}, config_path=config_file)
    except ForcecheckError as exc:
        _fail(str(exc))
    print(f"config file: {config.file or '(none found from ' + str(Path.cwd()) + ' up)'}")
    for name, setting in SETTINGS.items():
        value = config.values[name]
        shown = "-" if value in (None, [], {}) else (", ".join(value) if isinstance(value, list) else (", ".join(f"{k}: {v}" for k, v in value.items()) if isinstance(value, dict) else str(value)))
        print(f"{name:<14} {shown:<40} ({config.sources[name]})")


@formats_app.command("list")
def formats_list(formats_dir: Optional[List[Path]] = FormatsDirOption) -> None:
    """List the formats: name, game, title and the file that defines it."""
    from forcecheck.errors import ForcecheckError
    from forcecheck.spec.loader import available_formats, load_format

    found = available_formats(formats_dir or [])
    if not found:
        _fail("no formats found")
    status = 0
    for name, path in found.items():
        try:
            spec = load_format(str(path), formats_dir or [])
            print(f"{name:<12} {spec.game:<5} {spec.title}  ({path})")
        except ForcecheckError as exc:
            print(f"{name:<12} ?     broken spec: {exc}")
            status = 2
    raise typer.Exit(status)


@formats_app.command("show")
def formats_show(
    name: str = typer.Argument(..., help="Format name or format YAML file."),
    formats_dir: Optional[List[Path]] = FormatsDirOption,
) -> None:
    """Explain a format: its sections and every rule in plain words, with rule ids and codes."""
    from forcecheck.errors import ForcecheckError
    from forcecheck.rules.registry import KINDS
    from forcecheck.spec.describe import rule_summary
    from forcecheck.spec.loader import load_format

    try:
        spec = load_format(name, formats_dir or [])
    except ForcecheckError as exc:
        _fail(str(exc))
    print(f"{spec.title} ({spec.name}, game: {spec.game})")
    if spec.extends:
        print(f"extends: {spec.extends}")
    if spec.description:
        print(spec.description.strip())
    if spec.source:
        print(f"source: {spec.source}")
    print("\nsections:")
    for section in spec.sections:
        aliases = f" (also: {', '.join(section.aliases)})" if section.aliases else ""
        print(f"  {section.id:<9} {section.title}{aliases}")
    if spec.ruler:
        print(f"\nruler: the card(s) in {spec.section(spec.ruler.section).title}; rules that say 'the ruler' read them")
    print(f"total cost of double-faced cards: {spec.card_policy.double_faced_cost}")
    print("\nrules:")
    for rule in spec.rules:
        kind = KINDS[rule.kind]
        severity = rule.severity or kind.severity
        print(f"  {rule.id} [{kind.code} {rule.kind}, {severity}]")
        print(f"      {rule.description}")
        print(f"      checks: {rule_summary(rule, spec)}")
        if rule.source:
            print(f"      source: {rule.source}")
    print("\ninput checks (every format):")
    for kind in KINDS.values():
        if kind.compile is None:
            print(f"  {kind.slug} [{kind.code}, {kind.severity}] {kind.doc}")
    if spec.notes:
        print("\nnotes:")
        for note in spec.notes:
            print(f"  - {note}")


@formats_app.command("schema")
def formats_schema() -> None:
    """Print the JSON Schema of format spec files (for editor completion and validation)."""
    import json

    from forcecheck.spec.model import FormatSpec

    print(json.dumps(FormatSpec.model_json_schema(by_alias=True), indent=2))


DbOption = typer.Option(None, "--db", help="Catalog database (default: $FORCECHECK_CATALOG, else the per-user default location).")


@catalog_app.command("import")
def catalog_import(
    importer: str = typer.Argument(..., help="Source format: fowsim (Force of Will JSON) or ygopro (YGOPro cards.cdb)."),
    files: List[Path] = typer.Argument(..., help="Source files; importing several merges them, importing again updates in place."),
    db: Optional[Path] = DbOption,
) -> None:
    """Import card data into the local catalog database (written to a temporary file, then swapped in)."""
    import os

    from forcecheck.cards.store import default_db_path
    from forcecheck.errors import ForcecheckError
    from forcecheck.importers.pipeline import import_files

    target = db or (Path(os.environ["FORCECHECK_CATALOG"]) if os.environ.get("FORCECHECK_CATALOG") else default_db_path())
    try:
        result = import_files(importer, files, target)
    except ForcecheckError as exc:
        _fail(f"{exc} (the catalog was not changed)")
    counts = ", ".join(f"{n:,} {game} cards" for game, n in result.cards.items())
    print(f"imported {result.records:,} records from {result.files} file(s) into {result.db}: {counts} in {result.seconds:.2f} s")
    if result.warnings:
        print(f"{len(result.warnings)} record(s) with warnings (see 'forcecheck catalog info --warnings'):", file=sys.stderr)
        for warning in result.warnings[:10]:
            print(f"  warning: {warning}", file=sys.stderr)
        if len(result.warnings) > 10:
            print(f"  ... and {len(result.warnings) - 10} more", file=sys.stderr)


def _open_catalog_or_fail(db: Optional[Path]):
    from forcecheck.cards.catalog import open_catalog
    from forcecheck.errors import ForcecheckError

    try:
        return open_catalog(db)
    except ForcecheckError as exc:
        _fail(str(exc))


@catalog_app.command("info")
def catalog_info(
    db: Optional[Path] = DbOption,
    warnings: bool = typer.Option(False, "--warnings", help="List every import warning."),
) -> None:
    """Which catalog is in use: its file, sources, import dates and card counts."""
    cat = _open_catalog_or_fail(db)
    info = cat.info()
    print(info["catalog"])
    for game, count in info["cards"].items():
        print(f"  {game}: {count:,} cards")
    for source in info.get("sources", []):
        print(f"  source: {source['importer']} {source['path']} ({source['records']:,} records, imported {source['imported_at']}, sha256 {source['sha256'][:12]})")
    if "warnings" in info:
        print(f"  import warnings: {info['warnings']}")
    if warnings and hasattr(cat, "warnings"):
        for importer, record, message in cat.warnings():
            print(f"  warning: {importer} {record}: {message}")


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
    files: List[Path] = typer.Argument(..., help="lflist.conf files (YGOPro '!name' lists, EDOPro $whitelist lists)."),
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
        print(f"{item['name']:<28} {item['date'] or '-':<10} {item['entries']:>6} entries  {kind}  ({item['source']})")


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


def main() -> None:
    """Console-script entry point: no traceback reaches the user (FORCECHECK_DEBUG=1 shows it)."""
    import os
    import sqlite3

    from forcecheck.errors import ForcecheckError

    try:
        app(standalone_mode=True)
    except KeyboardInterrupt:  # pragma: no cover - interactive only
        print("forcecheck: interrupted", file=sys.stderr)
        sys.exit(130)
    except ForcecheckError as exc:
        print(f"forcecheck: error: {exc}", file=sys.stderr)
        sys.exit(2)
    except sqlite3.DatabaseError as exc:
        if os.environ.get("FORCECHECK_DEBUG"):
            raise
        print(f"forcecheck: error: the catalog database cannot be read ({exc}); re-import it", file=sys.stderr)
        sys.exit(2)
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        if os.environ.get("FORCECHECK_DEBUG"):
            raise
        print(f"forcecheck: internal error: {type(exc).__name__}: {exc} (run with FORCECHECK_DEBUG=1 for details, and please report it)", file=sys.stderr)
        sys.exit(3)


if __name__ == "__main__":  # pragma: no cover
    main()
