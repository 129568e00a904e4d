"""The ``forcecheck`` command line: a thin typer layer over the library, one module per
command group (check; tournament tools; formats, rules and configuration; card data).

Imports of the library (pydantic, yaml, rich, rapidfuzz) happen inside the commands so that
``forcecheck --version`` and the start of a single check stay fast.
"""

from __future__ import annotations

import sys

# the command modules register their commands on the app when imported
from forcecheck.cli import check, stats, tournament, formats, catalog, serve  # noqa: F401  (this order is the help's order)
from forcecheck.cli.app import app

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point: no traceback reaches the user (FORCECHECK_DEBUG=1 shows it)."""
    import os
    import sqlite3

    from forcecheck.errors import ForcecheckError

    try:
        app(standalone_mode=True)
    except KeyboardInterrupt:  # pragma: no cover - interactive only
        print("forcecheck: interrupted", file=sys.stderr)
        sys.exit(130)
    except ForcecheckError as exc:
        print(f"forcecheck: error: {exc}", file=sys.stderr)
        sys.exit(2)
    except sqlite3.DatabaseError as exc:
        if os.environ.get("FORCECHECK_DEBUG"):
            raise
        print(f"forcecheck: error: the catalog database cannot be read ({exc}); re-import it", file=sys.stderr)
        sys.exit(2)
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        if os.environ.get("FORCECHECK_DEBUG"):
            raise
        print(f"forcecheck: internal error: {type(exc).__name__}: {exc} (run with FORCECHECK_DEBUG=1 for details, and please report it)", file=sys.stderr)
        sys.exit(3)


if __name__ == "__main__":  # pragma: no cover
    main()
