"""What the commands share: one definition of each option (the same concept has the same name
and help everywhere), the settings they make, and writing a report.

An option is declared once here as an ``Annotated`` type and used by every command that takes
it; ``session_from`` turns a command's options into a ``Session`` (``forcecheck.session``),
so every command resolves catalog, format, banlist, as-of and formats-dir the same way.
"""

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, List, Optional

import typer


class OutputFormat(str, Enum):
    text = "text"
    concise = "concise"
    json = "json"
    sarif = "sarif"
    github = "github"
    junit = "junit"


class PlainOutput(str, Enum):
    """Output of commands that print one document: text for people, json for programs."""

    text = "text"
    json = "json"


class Color(str, Enum):
    auto = "auto"
    always = "always"
    never = "never"


class FailOn(str, Enum):
    error = "error"
    warning = "warning"


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


def tokens(values: Optional[List[str]]) -> list[str]:
    """Rule tokens from repeatable, comma-separated options (``--select FC1,FC2 --select copy-limit``)."""
    return [t.strip() for v in values or [] for t in v.split(",") if t.strip()]


def session_from(
    *,
    config_file: Optional[Path] = None,
    format_name: Optional[str] = None,
    catalog: Optional[Path] = None,
    banlist: Optional[str] = None,
    banlist_file: Optional[Path] = None,
    as_of: Optional[str] = None,
    formats_dir: Optional[List[Path]] = None,
    select: Optional[List[str]] = None,
    extend_select: Optional[List[str]] = None,
    ignore: Optional[List[str]] = None,
    warn: Optional[List[str]] = None,
    output_format: Optional[Enum] = None,
    color: Optional[Enum] = None,
    fail_on: Optional[Enum] = None,
    jobs: Optional[int] = None,
):
    """The run's Session from a command's options (the flags of the settings precedence)."""
    from forcecheck.session import Session

    flags = {
        "format": format_name,
        "catalog": str(catalog) if catalog else None,
        "banlist": banlist,
        "banlist_file": str(banlist_file) if banlist_file else None,
        "as_of": iso_date(as_of),
        "format_dirs": [str(d) for d in formats_dir or []],
        "select": tokens(select),
        "extend_select": tokens(extend_select),
        "ignore": tokens(ignore),
        "output_format": output_format.value if output_format else None,
        "color": color.value if color else None,
        "fail_on": fail_on.value if fail_on else None,
        "jobs": jobs,
    }
    return Session.from_options(flags, config_file=config_file, warn=tokens(warn))


def fail(message: str, code: int = 2) -> None:
    """One line on stderr, no traceback, and the exit code (2 = unusable input)."""
    from forcecheck.report.escape import printable

    print(f"forcecheck: error: {printable(message)}", file=sys.stderr)
    raise typer.Exit(code)


def iso_date(value: Optional[str]) -> Optional[str]:
    """A YYYY-MM-DD date, or None for today; anything else is a usage error."""
    from datetime import date

    from forcecheck.errors import ForcecheckError

    if value is None:
        return None
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise ForcecheckError(f"--as-of: {value!r} is not a date (YYYY-MM-DD)") from None


def emit(write, output_file, out_format: str) -> None:
    """Stream the document to stdout, or to the output file through a temporary file renamed
    over it (so a failed or interrupted run never leaves a half-written report). A FIFO or a
    character device (``/dev/stdout``, a named pipe) is written into, never replaced."""
    if output_file is None:
        out = sys.stdout
        if not out.isatty():  # a pipe or a file: batched, whatever PYTHONUNBUFFERED says
            out = Batched(out)
        write(out)
        out.flush()
        return
    import os
    import stat

    from forcecheck.errors import ForcecheckError
    from forcecheck.report.escape import printable
    from forcecheck.textfile import atomic_write

    target = Path(output_file)
    try:
        mode = os.stat(target).st_mode
    except OSError:
        mode = 0
    try:
        if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode):
            with open(target, "w", encoding="utf-8") as handle:
                write(handle)
        else:
            atomic_write(target, write, newline=None)
    except OSError as exc:
        fail(f"cannot write {target}: {exc.strerror or exc}; nothing was written there")
    except ForcecheckError as exc:
        fail(f"cannot write {exc}")
    print(f"forcecheck: wrote {out_format} report to {printable(str(target))}", file=sys.stderr)


class Batched:
    """Text written to ``out`` in pieces of about ``size`` characters. Reports are written a line
    or a deck at a time; where Python's own buffering is off (``PYTHONUNBUFFERED``, common in
    CI) each of those would be a system call. Memory stays bounded by ``size``."""

    def __init__(self, out, size: int = 1 << 16):
        self.out = out
        self.size = size
        self.pending: list[str] = []
        self.length = 0

    def write(self, text: str) -> int:
        self.pending.append(text)
        self.length += len(text)
        if self.length >= self.size:
            self.out.write("".join(self.pending))
            self.pending.clear()
            self.length = 0
        return len(text)

    def flush(self) -> None:
        if self.pending:
            self.out.write("".join(self.pending))
            self.pending.clear()
            self.length = 0
        self.out.flush()

    def isatty(self) -> bool:
        return False


def render_report(session, report, output_file) -> str:
    """Render a RunReport in the run's output format (to stdout or ``output_file``), then say
    what the run used where a person sees it: concise and github output, which have no room
    for it, get the summary on stderr, and a GitHub job its Markdown step summary. Returns the output format."""
    from forcecheck.report import RENDERERS

    config = session.config
    out_format = config["output_format"]
    color = config.color_for(config["color"], out_format, output_file is not None, sys.stdout.isatty())
    emit(lambda out: RENDERERS[out_format](report, out, color), output_file, out_format)
    if out_format in ("concise", "github"):  # documents with no room for what the run used
        from forcecheck.report.text import summary_line

        summary = report.summary()
        print(f"forcecheck: {summary_line(summary)}", file=sys.stderr)
        for note in summary["notes"]:
            print(f"forcecheck: note: {note}", file=sys.stderr)
    if config.step_summary:
        from forcecheck.report.machine import write_step_summary

        try:
            write_step_summary(report, config.step_summary)
        except OSError as exc:
            print(f"forcecheck: warning: cannot write the step summary {config.step_summary}: {exc.strerror or exc}", file=sys.stderr)
    return out_format
