"""The ``forcecheck`` command line: a thin typer layer over the library, one module per
command group (check; tournament tools; formats, rules and configuration; card data).

Imports of the library (pydantic, yaml, rich, rapidfuzz) happen inside the commands so that
``forcecheck --version`` and the start of a single check stay fast; a plain check command line
does not even load typer (``forcecheck.cli.direct``). The command modules do not use
``from __future__ import annotations``: typer reads every command's signature on every run,
and string annotations would be compiled and evaluated each time (half the cost of building
the command tree).
"""

from __future__ import annotations

import sys

__all__ = ["app", "main", "run"]


def __getattr__(name: str):
    """``forcecheck.cli.app``, the typer application (``forcecheck.cli.application``), imported
    when first asked for: a plain check run by ``main`` never loads typer (``forcecheck.cli.direct``)."""
    if name == "app":
        from forcecheck.cli.application import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Console-script entry point. A plain check command line runs directly, without typer
    (``forcecheck.cli.direct``); typer reads every other. Errors a command raises become one
    line and an exit code (``runtime.exit_for``: 2 unusable input, 130 interrupted); whatever
    escapes that is a bug: one line asking for a report, exit 3 (FORCECHECK_DEBUG=1 shows the
    traceback)."""
    import os

    from forcecheck.cli.direct import run_direct
    from forcecheck.cli.runtime import ClosedOutput, exit_for

    if sys.stderr is None:  # started with it closed (``2>&-``): print(file=None) would write messages into the report
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the rest of the process
    if sys.stdout is None:  # started with it closed (``>&-``): a command's output would vanish, exit 0
        sys.stdout = ClosedOutput()
    try:
        os.getcwd()  # every relative path, the configuration search and the names reports show start here
    except OSError as exc:
        print(f"forcecheck: error: the current folder cannot be used ({exc.strerror or exc}: removed?); run forcecheck from another folder", file=sys.stderr)
        sys.exit(2)
    args = sys.argv[1:]
    try:
        code = run_direct(args)
        if code is not None:
            sys.exit(code)
        from forcecheck.cli.application import app

        app.load_for(args)
        try:
            app(standalone_mode=True)
        finally:
            app.end_of_run()
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        mapped = exit_for(exc)
        if mapped is not None:
            print(mapped[0], file=sys.stderr)
            sys.exit(mapped[1])
        if os.environ.get("FORCECHECK_DEBUG"):
            raise
        from forcecheck.escape import printable

        print(f"forcecheck: internal error: {type(exc).__name__}: {printable(str(exc))} (run with FORCECHECK_DEBUG=1 for details, and please report it)", file=sys.stderr)
        sys.exit(3)
    except KeyboardInterrupt:  # pragma: no cover - interactive only
        print(exit_for(KeyboardInterrupt())[0], file=sys.stderr)
        sys.exit(130)


def run() -> None:
    """The ``forcecheck`` program (console script and ``python -m forcecheck``): ``main``, then
    exit with its code without the interpreter's teardown, which frees every module and object
    and takes about a tenth of a one-deck check. The output is flushed first, and nothing a
    command leaves needs an exit handler (reports and catalogs are written and closed, worker
    processes have ended). Anything unusual (a code that is no number, FORCECHECK_DEBUG, output
    that cannot be flushed) exits the ordinary way. Programs that call ``main`` themselves get
    its SystemExit as always."""
    try:
        main()
    except SystemExit as done:
        _leave(done)


def _leave(done: SystemExit) -> None:
    import os

    code = done.code
    if not (code is None or isinstance(code, int)) or os.environ.get("FORCECHECK_DEBUG"):
        raise done
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:  # None: started with it closed
                stream.flush()
    except (OSError, ValueError):
        raise done from None
    os._exit(code or 0)


if __name__ == "__main__":  # pragma: no cover
    main()
