"""What several commands share: option enums and defaults, the one-line failure, the run's
catalog / format / banlist choices, and writing a report."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer


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


FormatsDirOption = typer.Option(
    None, "--formats-dir", help="Extra directory of format YAML files (searched before the built-in formats); repeatable."
)


def _tokens(values: Optional[List[str]]) -> list[str]:
    """Rule tokens from repeatable, comma-separated options (``--select FC1,FC2 --select copy-limit``)."""
    return [t.strip() for v in values or [] for t in v.split(",") if t.strip()]


DbOption = typer.Option(None, "--db", help="Catalog database (default: $FORCECHECK_CATALOG, else the per-user default location).")


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
    from forcecheck.banlists import pick, read_banlist_file
    from forcecheck.engine import NO_BANLIST
    from forcecheck.errors import ForcecheckError

    if path is not None:
        lists, _warnings = read_banlist_file(path)
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



def _open_catalog_or_fail(db: Optional[Path]):
    from forcecheck.cards.catalog import open_catalog
    from forcecheck.errors import ForcecheckError

    try:
        return open_catalog(db)
    except ForcecheckError as exc:
        _fail(str(exc))
