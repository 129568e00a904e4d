"""What a command does once typer has read its options, with no typer in it: the option
choices, the run's Session from the options, writing the report, failing with one line, and
the body of ``check``. The direct check (``forcecheck.cli.direct``) runs a plain ``check``
command line through these without loading typer at all; the typer commands call the same
functions, so both ways behave alike.
"""

import errno
import io
import sys
from enum import Enum
from pathlib import Path
from typing import Optional


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


class ListForm(str, Enum):
    """The forms ``fmt --to`` writes a Yu-Gi-Oh! list in."""

    ydke = "ydke"
    ydk = "ydk"
    text = "text"


class Color(str, Enum):
    auto = "auto"
    always = "always"
    never = "never"


class FailOn(str, Enum):
    error = "error"
    warning = "warning"


def exit_for(exc: BaseException) -> tuple[str, int] | None:
    """(message, exit code) for an error a user can act on; None for a bug (let it show)."""
    import sqlite3

    from forcecheck.errors import ForcecheckError

    if isinstance(exc, KeyboardInterrupt):
        return "forcecheck: interrupted", 130
    if isinstance(exc, ForcecheckError):
        return f"forcecheck: error: {exc}", 2
    if isinstance(exc, sqlite3.DatabaseError):
        from forcecheck.escape import printable

        return f"forcecheck: error: the catalog database cannot be read ({printable(str(exc))}); re-import it", 2
    if isinstance(exc, OSError) and exc.errno in _WRITE_FAULTS:  # a full disk under the report (``> /dev/full``)
        from forcecheck.escape import printable

        where = printable(str(exc.filename)) if exc.filename else "the output"
        return f"forcecheck: error: cannot write {where}: {exc.strerror}", 2
    return None


_WRITE_FAULTS = frozenset(getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG", "EROFS") if hasattr(errno, name))
"""Errors only a write meets: the disk or quota is full, the file too large, the file system read-only."""


def tokens(values: Optional[list[str]]) -> list[str]:
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
    points_cap: Optional[int] = None,
    formats_dir: Optional[list[Path]] = None,
    select: Optional[list[str]] = None,
    extend_select: Optional[list[str]] = None,
    ignore: Optional[list[str]] = None,
    warn: Optional[list[str]] = None,
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
        "points_cap": points_cap,
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


def checking_session(**options):
    """``session_from(**options)`` for a command that checks decks: a format the options or the
    configuration force on every deck is compiled up front, so a broken one fails the run
    before any deck is read."""
    session = session_from(**options)
    forced = session.config.forced_format
    if forced:
        session.compiled(None, forced)
    return session


def take_stdin(paths: list[Path], stdin_filename: Optional[str]) -> list[Path]:
    """``paths`` with ``-`` standing for standard input, read once (bounded, as files are) and
    given to the readers under ``--stdin-filename`` (default ``-``): its extension tells a
    ``.ydk`` from a text list, and reports and ``paths:`` globs see that name."""
    from forcecheck.errors import ForcecheckError
    from forcecheck.textfile import MAX_FILE_BYTES, give

    taken = [p for p in paths if str(p) == "-"]
    if not taken:
        if stdin_filename is not None:
            raise ForcecheckError("--stdin-filename names the decklist read from standard input, but no PATH is '-'")
        return list(paths)
    if len(taken) > 1:
        raise ForcecheckError("standard input ('-') can be read only once; name it once")
    name = stdin_filename or "-"
    if not name.strip() or "\x00" in name:
        raise ForcecheckError(f"--stdin-filename {name!r} is no file name")
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise ForcecheckError("standard input is closed, so '-' has nothing to read")
    try:
        data = stream.read(MAX_FILE_BYTES + 1)
    except (OSError, ValueError) as exc:
        raise ForcecheckError(f"cannot read standard input ({getattr(exc, 'strerror', None) or exc})") from None
    name = str(Path(name))
    give(name, data)
    return [Path(name) if str(p) == "-" else p for p in paths]


def stop_on_setup_problems(session, paths, empty_folders: bool = True) -> None:
    """One line per set-up mistake (``Session.setup_problems``) and exit 2, before any deck is
    read: a missing path or a folder of no decklists is the run's, not a deck to count."""
    problems = session.setup_problems(paths, empty_folders)
    if problems:
        from forcecheck.escape import printable

        for problem in problems:
            print(f"forcecheck: error: {printable(problem)}", file=sys.stderr)
        raise SystemExit(2)


def fail(message: str, code: int = 2) -> None:
    """One line on stderr, no traceback, and the exit code (2 = unusable input)."""
    from forcecheck.escape import printable

    print(f"forcecheck: error: {printable(message)}", file=sys.stderr)
    raise SystemExit(code)


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
        if out is None or isinstance(out, ClosedOutput):  # started with standard output closed (``>&-``)
            from forcecheck.errors import ForcecheckError

            raise ForcecheckError(f"standard output is closed, so the {out_format} report has nowhere to go; write it to a file with --output-file PATH")
        if not out.isatty():  # a pipe or a file: batched, whatever PYTHONUNBUFFERED says
            out = Batched(out)
        write(out)
        out.flush()
        return
    import os
    import stat

    from forcecheck.errors import ForcecheckError
    from forcecheck.escape import printable
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


class ClosedOutput(io.TextIOBase):
    """Standard output of a process started with it closed (``>&-``). ``print`` writes nothing
    at all where ``sys.stdout`` is None, so a command would lose its whole output and still
    exit 0; with this in its place, the first write (``writelines`` too) stops the command
    with one line (exit 2)."""

    @property
    def encoding(self) -> str:
        return "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        from forcecheck.errors import ForcecheckError

        raise ForcecheckError("standard output is closed, so the output has nowhere to go")

    @property
    def buffer(self) -> "ClosedOutput":
        """For bytes (a PNG written to stdout): the same stop at the first write."""
        return self


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
    if out_format in ("concise", "github"):  # no room in the document: its top is said on stderr, as its summary is
        from forcecheck.report.text import sample_head

        head = sample_head(report)
        if head is not None:
            print(f"forcecheck: note: {head}", file=sys.stderr)
    color = config.color_for(config["color"], out_format, output_file is not None, sys.stdout is not None and sys.stdout.isatty())
    emit(lambda out: RENDERERS[out_format](report, out, color), output_file, out_format)
    if out_format in ("concise", "github"):  # documents with no room for what the run used
        from forcecheck.report.text import banlist_lines, summary_line

        summary = report.summary()
        print(f"forcecheck: {summary_line(summary)}", file=sys.stderr)
        for line in banlist_lines(summary):
            print(f"forcecheck: {line}", file=sys.stderr)
        for note in summary["notes"]:
            print(f"forcecheck: note: {note}", file=sys.stderr)
    if config.step_summary:
        from forcecheck.report.machine import write_step_summary

        try:
            write_step_summary(report, config.step_summary)
        except OSError as exc:
            print(f"forcecheck: warning: cannot write the step summary {config.step_summary}: {exc.strerror or exc}", file=sys.stderr)
    return out_format


def refuse_overwriting_inputs(output_file: Optional[Path], inputs, every_file: bool = False) -> None:
    """Stop (one line, exit 2) before anything is read when ``--output-file`` is one of the
    files the run reads: the report would be written over a decklist the user handed in. The
    files are found as the run finds them (``checking.walk_files``: every file for ``register``,
    ``every_file``) and compared by identity, so a symbolic or hard link to the output file
    under a folder being read counts too. Only an existing regular output file is looked for:
    a new file holds nothing of the user's, and a FIFO or device is written into."""
    if output_file is None:
        return
    import os
    import stat

    from forcecheck.checking import walk_files

    try:
        out = os.stat(output_file)
    except OSError:
        return
    if not stat.S_ISREG(out.st_mode):
        return
    same = (out.st_dev, out.st_ino)
    for given in inputs:
        try:
            is_dir = stat.S_ISDIR(os.stat(given).st_mode)
        except (OSError, ValueError):
            continue
        for read in walk_files(str(given), decklists_only=not every_file) if is_dir else [str(given)]:
            try:
                found = os.stat(read) if isinstance(read, str) else None
            except (OSError, ValueError):
                continue
            if found is not None and (found.st_dev, found.st_ino) == same:
                where = f"the decklist {read}" + (f" under {given}" if is_dir else "")
                fail(f"--output-file {output_file} is {where}, which this run reads; the report would overwrite it: write it elsewhere")


def run_check(paths: list[Path], *, output_file: Optional[Path] = None, exit_zero: bool = False,
              stdin_filename: Optional[str] = None, **options) -> int:
    """``forcecheck check`` once its options are read: check, write the report (to stdout or
    ``output_file``), and return the exit code (0 every deck legal, 1 a violation, 2 unusable
    input; ``exit_zero`` turns 1 into 0). ``options`` are the session's, as ``session_from``
    takes them; a path ``-`` is standard input, named ``stdin_filename``."""
    paths = take_stdin(paths, stdin_filename)
    refuse_overwriting_inputs(output_file, paths)
    session = checking_session(**options)
    stop_on_setup_problems(session, paths)
    report = session.check_paths(paths, fingerprints=session.config["output_format"] == "json")  # only JSON shows them
    render_report(session, report, output_file)
    code = report.exit_code_for(session.config["fail_on"])
    return 0 if exit_zero and code == 1 else code
