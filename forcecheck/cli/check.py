"""``forcecheck check``: decklists against a format, every violation reported."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from forcecheck.cli.app import app
from forcecheck.cli.common import (
    Color,
    FailOn,
    FormatsDirOption,
    OutputFormat,
    _all_rule_ids,
    _choose_banlist,
    _color,
    _emit,
    _fail,
    _iso_date,
    _tokens,
)


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
    banlist_file: Optional[Path] = typer.Option(None, "--banlist-file", help="An lflist.conf file (its first list unless --banlist names one) or a banned-list JSON file to take the banlist from."),
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
