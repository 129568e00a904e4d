"""``forcecheck check``: decklists against a format, every violation reported. Its options are
declared here for typer; ``run_check`` does the work (a plain check command line gets there
without typer, through ``forcecheck.cli.direct``)."""

from pathlib import Path

import typer

from forcecheck.cli.application import app
from forcecheck.cli.common import (
    AsOfOpt,
    BanlistFileOpt,
    BanlistOpt,
    CatalogOpt,
    ColorOpt,
    ConfigOpt,
    ExitZeroOpt,
    ExtendSelectOpt,
    FailOnOpt,
    FormatOpt,
    FormatsDirOpt,
    IgnoreOpt,
    JobsOpt,
    OutputFileOpt,
    OutputFormatOpt,
    PointsCapOpt,
    SelectOpt,
    StdinFilenameOpt,
    WarnOpt,
)
from forcecheck.cli.runtime import run_check


@app.command()
def check(
    # readable=False: an unreadable file is one report row (the reader says why), not a usage error that stops the batch
    paths: list[Path] = typer.Argument(..., readable=False, metavar="PATH...", help="Decklist files or directories (every decklist under a directory, sorted); '-' reads one decklist from standard input."),
    format_name: FormatOpt = None,
    catalog: CatalogOpt = None,
    output_format: OutputFormatOpt = None,
    output_file: OutputFileOpt = None,
    formats_dir: FormatsDirOpt = None,
    color: ColorOpt = None,
    exit_zero: ExitZeroOpt = False,
    banlist: BanlistOpt = None,
    banlist_file: BanlistFileOpt = None,
    as_of: AsOfOpt = None,
    points_cap: PointsCapOpt = None,
    select: SelectOpt = None,
    extend_select: ExtendSelectOpt = None,
    ignore: IgnoreOpt = None,
    warn: WarnOpt = None,
    fail_on: FailOnOpt = None,
    config_file: ConfigOpt = None,
    jobs: JobsOpt = None,
    stdin_filename: StdinFilenameOpt = None,
) -> None:
    """Check decklists against a format and report every violation.

    Exit status: 0 every deck legal, 1 any deck with a violation, 2 an input that could not be
    used (missing or unreadable file, bad format spec, catalog or configuration); the rest of the
    batch is still checked.
    """
    raise typer.Exit(run_check(
        paths, format_name=format_name, catalog=catalog, output_format=output_format, output_file=output_file,
        formats_dir=formats_dir, color=color, exit_zero=exit_zero, banlist=banlist, banlist_file=banlist_file,
        as_of=as_of, points_cap=points_cap, select=select, extend_select=extend_select, ignore=ignore, warn=warn, fail_on=fail_on,
        config_file=config_file, jobs=jobs, stdin_filename=stdin_filename,
    ))
