"""The options the commands share, each declared once as an ``Annotated`` type (the same
concept has the same name and help everywhere). What a command does with them, with no typer
in it, is in ``forcecheck.cli.runtime``; the direct check (``forcecheck.cli.direct``) reads
the check command's options from these declarations' twin, ``CHECK_OPTIONS``, and a test holds
the two to the same answers.
"""

from pathlib import Path
from typing import Annotated, List, Optional

import typer

from forcecheck.cli.runtime import Color, FailOn, OutputFormat, PlainOutput

# -- the options, once -------------------------------------------------------------------------
FormatOpt = Annotated[
    Optional[str],
    typer.Option("--format", "-f", metavar="NAME", help="Format name (see 'forcecheck formats list') or a format YAML file; beats the format a YAML decklist names and the configuration."),
]
CatalogOpt = Annotated[
    Optional[Path],
    typer.Option("--catalog", "--db", metavar="PATH", help="Card catalog: an imported SQLite catalog or a catalog JSON file. Default: FORCECHECK_CATALOG, the configuration's catalog, the imported catalog at the per-user location, else the embedded sample catalog."),
]
ConfigOpt = Annotated[
    Optional[Path],
    typer.Option("--config", metavar="PATH", help="Configuration file to use instead of the nearest .forcecheck.yaml / pyproject.toml (also FORCECHECK_CONFIG)."),
]
FormatsDirOpt = Annotated[
    Optional[List[Path]],
    typer.Option("--formats-dir", metavar="DIR", help="Extra directory of format YAML files, searched before the built-in formats; repeatable."),
]
BanlistOpt = Annotated[
    Optional[str],
    typer.Option("--banlist", metavar="NAME", help="Banlist for formats with a banlist rule: a list imported with 'forcecheck banlist import' (or, with --banlist-file, a list in that file), or 'none' for the structure only."),
]
BanlistFileOpt = Annotated[
    Optional[Path],
    typer.Option("--banlist-file", metavar="PATH", help="An lflist.conf file (its first list unless --banlist names one) or a banned-list JSON file to take the banlist from."),
]
AsOfOpt = Annotated[
    Optional[str],
    typer.Option("--as-of", metavar="DATE", help="Date (YYYY-MM-DD) whose banlist versions apply: the event's date. Default: today."),
]
SelectOpt = Annotated[
    Optional[List[str]],
    typer.Option("--select", metavar="TOKENS", help="Report only these rules: codes (FC201), prefixes (FC2), slugs (copy-limit), rule ids (main-size) or ALL; comma-separated, repeatable."),
]
ExtendSelectOpt = Annotated[
    Optional[List[str]],
    typer.Option("--extend-select", metavar="TOKENS", help="Report these rules too, on top of --select or the configuration."),
]
IgnoreOpt = Annotated[
    Optional[List[str]],
    typer.Option("--ignore", metavar="TOKENS", help="Do not report these rules (the more specific of select and ignore wins)."),
]
WarnOpt = Annotated[
    Optional[List[str]],
    typer.Option("--warn", metavar="TOKENS", help="Report these rules as warnings (they no longer make a deck illegal)."),
]
OutputFormatOpt = Annotated[
    Optional[OutputFormat],
    typer.Option("--output-format", "-o", metavar="FORMAT", help="text (default; github under GitHub Actions), concise, json, sarif, github or junit. Machine formats write only the document to stdout."),
]
PlainOutputOpt = Annotated[PlainOutput, typer.Option("--output-format", "-o", metavar="FORMAT", help="text or json.")]
OutputFileOpt = Annotated[Optional[Path], typer.Option("--output-file", metavar="PATH", help="Write the report to this file (atomically) instead of stdout.")]
ColorOpt = Annotated[
    Optional[Color],
    typer.Option("--color", metavar="WHEN", help="Colour in text output: auto (a terminal, unless NO_COLOR is set; FORCE_COLOR forces it), always or never."),
]
FailOnOpt = Annotated[Optional[FailOn], typer.Option("--fail-on", metavar="LEVEL", help="Lowest severity that fails the run: error (default) or warning.")]
ExitZeroOpt = Annotated[bool, typer.Option("--exit-zero", help="Exit 0 even when decks have violations (report-only jobs); unusable input still exits 2.")]
JobsOpt = Annotated[
    Optional[int],
    typer.Option("--jobs", "-j", metavar="N", min=1, max=64, help="Worker processes (1-64; default: the jobs setting, else every core for a batch of 200 files or more and 1 below). The output is the same for any number."),
]
StdinFilenameOpt = Annotated[
    Optional[str],
    typer.Option("--stdin-filename", metavar="NAME", help="The name of the decklist read from standard input (PATH '-'): reports name it, and its extension tells a .ydk from a text or YAML list."),
]
