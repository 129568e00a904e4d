"""``forcecheck check``: decklists against a format, every violation reported."""

from pathlib import Path
from typing import List

import typer

from forcecheck.cli.app import app
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
    SelectOpt,
    WarnOpt,
    render_report,
    session_from,
)


@app.command()
def check(
    # readable=False: an unreadable file is one report row (the reader says why), not a usage error that stops the batch
    paths: List[Path] = typer.Argument(..., readable=False, metavar="PATH...", help="Decklist files or directories (every decklist under a directory, sorted)."),
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
    select: SelectOpt = None,
    extend_select: ExtendSelectOpt = None,
    ignore: IgnoreOpt = None,
    warn: WarnOpt = None,
    fail_on: FailOnOpt = None,
    config_file: ConfigOpt = None,
    jobs: JobsOpt = None,
) -> None:
    """Check decklists against a format and report every violation.

    Exit status: 0 every deck legal, 1 any deck with a violation, 2 an input that could not be
    used (missing or unreadable file, bad format spec, catalog or configuration); the rest of the
    batch is still checked.
    """
    session = session_from(
        config_file=config_file, format_name=format_name, catalog=catalog, banlist=banlist,
        banlist_file=banlist_file, as_of=as_of, formats_dir=formats_dir, select=select, extend_select=extend_select,
        ignore=ignore, warn=warn, output_format=output_format, color=color, fail_on=fail_on, jobs=jobs,
    )
    forced = session.config.forced_format
    if forced:
        session.compiled(None, forced)  # a broken format fails the run up front
    report = session.check_paths(paths, fingerprints=session.config["output_format"] == "json")  # only JSON shows them
    render_report(session, report, output_file)
    code = report.exit_code_for(session.config["fail_on"])
    raise typer.Exit(0 if exit_zero and code == 1 else code)
