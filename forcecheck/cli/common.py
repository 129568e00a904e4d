"""The options the commands share, each declared once as an ``Annotated`` type (the same
concept has the same name and help everywhere). An option that a setting's environment variable
also sets ends its help with ``[env: FORCECHECK_...]``, as ruff's do (the variable is the one
``forcecheck.config.SETTINGS`` reads; tests/test_cli_habits.py holds the two together and runs
each command with each variable it shows). What a command does with them, with no typer
in it, is in ``forcecheck.cli.runtime``; the direct check (``forcecheck.cli.direct``) reads
the check command's options from these declarations' twin, ``CHECK_OPTIONS``, and a test holds
the two to the same answers.
"""

from pathlib import Path
from typing import Annotated, Optional

import typer

from forcecheck.cli.runtime import Color, FailOn, OutputFormat, PlainOutput


# -- the options, once -------------------------------------------------------------------------
def format_names(incomplete: str) -> list[str]:
    """Shell completion of --format: the formats forcecheck knows (the built-in ones and
    FORCECHECK_FORMATS_PATH's) that start with what is typed."""
    from forcecheck.errors import ForcecheckError
    from forcecheck.format_spec.loader import available_formats

    try:
        return [name for name in available_formats() if name.startswith(incomplete)]
    except ForcecheckError:  # a folder of formats that is not one: nothing to offer, and no error while typing
        return []


FormatOpt = Annotated[
    Optional[str],
    typer.Option("--format", "-f", metavar="NAME", autocompletion=format_names, help="Format name (see 'forcecheck formats list') or a format YAML file; beats the format a YAML decklist names and the configuration. [env: FORCECHECK_FORMAT]"),
]
CatalogOpt = Annotated[
    Optional[Path],
    typer.Option("--catalog", "--db", metavar="PATH", help="Card catalog: an imported SQLite catalog or a catalog JSON file. Default: the configuration's catalog, the imported catalog at the per-user location, else the embedded sample catalog. [env: FORCECHECK_CATALOG]"),
]
ConfigOpt = Annotated[
    Optional[Path],
    typer.Option("--config", metavar="PATH", help="Configuration file to use instead of the nearest .forcecheck.yaml / pyproject.toml. [env: FORCECHECK_CONFIG]"),
]
FormatsDirOpt = Annotated[
    Optional[list[Path]],
    typer.Option("--formats-dir", metavar="DIR", help="Extra directory of format YAML files, searched before the built-in formats; repeatable (the variable: folders separated by ':'). [env: FORCECHECK_FORMATS_PATH]"),
]
BanlistOpt = Annotated[
    Optional[str],
    typer.Option("--banlist", metavar="NAME", help="Banlist for formats with a banlist rule: a list imported with 'forcecheck banlist import' (or, with --banlist-file, a list in that file), or 'none' for the structure only. [env: FORCECHECK_BANLIST]"),
]
BanlistFileOpt = Annotated[
    Optional[Path],
    typer.Option("--banlist-file", metavar="PATH", help="An lflist.conf file (its first list unless --banlist names one) or a banned-list JSON file to take the banlist from. [env: FORCECHECK_BANLIST_FILE]"),
]
AsOfOpt = Annotated[
    Optional[str],
    typer.Option("--as-of", metavar="DATE", help="Date (YYYY-MM-DD) whose banlist versions apply: the event's date. Default: today. [env: FORCECHECK_AS_OF]"),
]
PointsCapOpt = Annotated[
    Optional[int],
    typer.Option("--points-cap", metavar="N", min=0, max=999_999_999, help="The most points a deck may carry in a points format (Genesys): the event's cap. Default: the format's (100). [env: FORCECHECK_POINTS_CAP]"),
]
SelectOpt = Annotated[
    Optional[list[str]],
    typer.Option("--select", metavar="TOKENS", help="Report only these rules: codes (FC201), prefixes (FC2), slugs (copy-limit), rule ids (main-size) or ALL; comma-separated, repeatable. [env: FORCECHECK_SELECT]"),
]
ExtendSelectOpt = Annotated[
    Optional[list[str]],
    typer.Option("--extend-select", metavar="TOKENS", help="Report these rules too, on top of --select or the configuration. [env: FORCECHECK_EXTEND_SELECT]"),
]
IgnoreOpt = Annotated[
    Optional[list[str]],
    typer.Option("--ignore", metavar="TOKENS", help="Do not report these rules (the more specific of select and ignore wins). [env: FORCECHECK_IGNORE]"),
]
WarnOpt = Annotated[
    Optional[list[str]],
    typer.Option("--warn", metavar="TOKENS", help="Report these rules as warnings (they no longer make a deck illegal)."),
]
OutputFormatOpt = Annotated[
    Optional[OutputFormat],
    typer.Option("--output-format", "-o", metavar="FORMAT", help="text (default; github under GitHub Actions), concise, json, sarif, github or junit. Machine formats write only the document to stdout. [env: FORCECHECK_OUTPUT_FORMAT]"),
]
PlainOutputOpt = Annotated[PlainOutput, typer.Option("--output-format", "-o", metavar="FORMAT", help="text or json.")]
OutputFileOpt = Annotated[Optional[Path], typer.Option("--output-file", metavar="PATH", help="Write the report to this file (atomically) instead of stdout.")]
ColorOpt = Annotated[
    Optional[Color],
    typer.Option("--color", metavar="WHEN", help="Colour in text output: auto (a terminal, unless NO_COLOR is set; FORCE_COLOR forces it), always or never. [env: FORCECHECK_COLOR]"),
]
FailOnOpt = Annotated[Optional[FailOn], typer.Option("--fail-on", metavar="LEVEL", help="Lowest severity that fails the run: error (default) or warning. [env: FORCECHECK_FAIL_ON]")]
ExitZeroOpt = Annotated[bool, typer.Option("--exit-zero", help="Exit 0 even when decks have violations (report-only jobs); unusable input still exits 2.")]
JobsOpt = Annotated[
    Optional[int],
    typer.Option("--jobs", "-j", metavar="N", min=1, max=64, help="Worker processes (1-64; default: the jobs setting, else every core for a batch of 200 files or more and 1 below). The output is the same for any number. [env: FORCECHECK_JOBS]"),
]
StdinFilenameOpt = Annotated[
    Optional[str],
    typer.Option("--stdin-filename", metavar="NAME", help="The name of the decklist read from standard input (PATH '-'): reports name it, and its extension tells a .ydk from a text or YAML list."),
]
