"""A plain ``forcecheck check`` command line, run without loading typer.

Importing typer (and the click it carries) is about half of a cold one-deck check, and a check
is the command people and CI run most, one file at a time included. ``main`` first offers the
command line here: a ``check`` line that only uses the options of ``CHECK_OPTIONS`` with values
they accept is read by ``read_check_line`` the way click reads it (the same tokens, the same
values) and run by ``run_check``, the function the typer command calls too. Anything else
(help, no paths, an unknown option, a value typer would refuse, shell completion, Windows,
whose click expands wildcards) gets None, and typer reads the line as always, so usage errors
and help have one wording. ``tests/test_direct_check.py`` holds this reader to typer's answers
on generated command lines, and ``CHECK_OPTIONS`` to the options the check command declares.
"""

from __future__ import annotations

import os

from forcecheck.cli.runtime import Color, FailOn, OutputFormat
from forcecheck.records import Record


class LineOption(Record):
    """One option of the check command as the reader needs it: its keyword in ``run_check``,
    its names, the kind of value (text, path, a whole number in low..high, a flag, a choice of
    an Enum) and whether it repeats."""

    __slots__ = ("keyword", "names", "kind", "repeats", "choices", "low", "high")

    def __init__(self, keyword: str, names: tuple[str, ...], kind: str, repeats: bool = False, choices=None, low=None, high=None):
        self.keyword = keyword
        self.names = names
        self.kind = kind
        self.repeats = repeats
        self.choices = choices
        self.low = low
        self.high = high


CHECK_OPTIONS = (
    LineOption("format_name", ("--format", "-f"), "text"),
    LineOption("catalog", ("--catalog", "--db"), "path"),
    LineOption("output_format", ("--output-format", "-o"), "choice", choices=OutputFormat),
    LineOption("output_file", ("--output-file",), "path"),
    LineOption("formats_dir", ("--formats-dir",), "path", repeats=True),
    LineOption("color", ("--color",), "choice", choices=Color),
    LineOption("exit_zero", ("--exit-zero",), "flag"),
    LineOption("banlist", ("--banlist",), "text"),
    LineOption("banlist_file", ("--banlist-file",), "path"),
    LineOption("as_of", ("--as-of",), "text"),
    LineOption("points_cap", ("--points-cap",), "int", low=0, high=999_999_999),
    LineOption("select", ("--select",), "text", repeats=True),
    LineOption("extend_select", ("--extend-select",), "text", repeats=True),
    LineOption("ignore", ("--ignore",), "text", repeats=True),
    LineOption("warn", ("--warn",), "text", repeats=True),
    LineOption("fail_on", ("--fail-on",), "choice", choices=FailOn),
    LineOption("config_file", ("--config",), "path"),
    LineOption("jobs", ("--jobs", "-j"), "int", low=1, high=64),
    LineOption("stdin_filename", ("--stdin-filename",), "text"),
)
"""The check command's options (``forcecheck.cli.check``), in the order it declares them."""

_BY_NAME = {name: option for option in CHECK_OPTIONS for name in option.names}


class Declined(Exception):
    """The line is not one this reader answers for; typer reads it."""


def read_check_line(args: list[str]) -> tuple[list, dict] | None:
    """``(paths, keywords for run_check)`` for a plain check command line (``args`` without the
    program name), or None where typer must read it. Values are converted as the check
    command's options convert them (paths, choices, whole numbers in range)."""
    if not args or args[0] != "check" or os.name == "nt" or _completing():
        return None
    try:
        positional, given = _tokens(args[1:])
        if not positional:
            return None  # typer says the paths are missing
        from pathlib import Path

        paths = [Path(p) for p in positional]
        keywords = {option.keyword: _value(option, given.get(option.keyword)) for option in CHECK_OPTIONS}
    except Declined:
        return None
    return paths, keywords


def _completing() -> bool:
    """Shell completion asked for (click's ``_<PROG>_COMPLETE`` variable): typer answers."""
    return any(key.startswith("_") and key.endswith("_COMPLETE") for key in os.environ)


def _tokens(args: list[str]) -> tuple[list[str], dict[str, list]]:
    """Split the tokens as click's parser does: ``--name value``, ``--name=value``, ``-n value``,
    ``-nvalue``, flags, options between paths, ``--`` ending the options, a lone ``-`` a path.
    Returns the paths and each option's raw values in order (True for a flag)."""
    positional: list[str] = []
    given: dict[str, list] = {}
    rest = list(reversed(args))
    while rest:
        token = rest.pop()
        if token == "--":
            positional.extend(reversed(rest))
            break
        if token[:1] != "-" or len(token) == 1:
            positional.append(token)
            continue
        name, equals, attached = token.partition("=")
        option = _BY_NAME.get(name)
        if option is not None and len(name) > 2:  # a long name, its value attached after '='
            if option.kind == "flag":
                if equals:
                    raise Declined  # typer: the flag takes no value
                value = True
            elif equals:
                value = attached
            elif rest:
                value = rest.pop()
            else:
                raise Declined  # typer: the option needs a value
        elif token[:2] != "--" and token[:2] in _BY_NAME and _BY_NAME[token[:2]].kind != "flag":
            option = _BY_NAME[token[:2]]  # a short name; the rest of the token is its value
            if len(token) > 2:
                value = token[2:]
            elif rest:
                value = rest.pop()
            else:
                raise Declined
        else:
            raise Declined  # help, an unknown option or a spelling typer corrects
        given.setdefault(option.keyword, []).append(value)
    return positional, given


def _value(option: LineOption, raw: list | None):
    """An option's value as the check command receives it; Declined where typer would refuse it."""
    if option.kind == "flag":
        return bool(raw)
    if raw is None:
        return None
    values = [_one(option, value) for value in raw]
    return values if option.repeats else values[-1]


def _one(option: LineOption, value: str):
    kind = option.kind
    if kind == "text":
        return value
    if kind == "choice":
        for choice in option.choices:
            if choice.value == value:
                return choice
        raise Declined
    if kind == "int":
        try:
            number = int(value.strip())
        except ValueError:
            raise Declined from None
        if not option.low <= number <= option.high:
            raise Declined
        return number
    from pathlib import Path

    path = Path(value)
    try:
        os.stat(path)
    except OSError:
        return path  # need not exist
    except ValueError:
        raise Declined from None  # a NUL in it: typer says so
    if not os.access(path, os.R_OK):
        raise Declined  # typer: not readable
    return path


def run_direct(args: list[str]) -> int | None:
    """Run a plain check command line, or ``--version`` (``-V``) alone, and return its exit
    code; None if typer must read it."""
    if args in (["--version"], ["-V"]) and not _completing():
        return print_version()
    line = read_check_line(args)
    if line is None:
        return None
    from forcecheck.cli.runtime import run_check

    paths, keywords = line
    try:
        return run_check(paths, **keywords)
    except BrokenPipeError:
        return _reader_gone()


def print_version() -> int:
    """``forcecheck --version``: the version line, for the direct path and for the typer
    application's option alike (``application._version``), and the exit code. Flushed here so
    that a full disk under it is reported like any other write fault, and a reader gone away
    (``| head -0``) ends it as click does."""
    import sys

    from forcecheck import __version__

    try:
        print(f"forcecheck {__version__}")
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        return _reader_gone()
    return 0


def _reader_gone() -> int:
    """The reader of the output went away (``forcecheck check ... | head``): exit 1 quietly, as
    click does for the typer commands, with nothing more written to the closed pipe."""
    import sys

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 1
