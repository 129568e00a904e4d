"""Errors that end in exit code 2: input forcecheck cannot use at all.

Each carries the file and (when known) the line so the CLI can print one line,
``path:line: message``, instead of a traceback.
"""

from __future__ import annotations

from pathlib import Path

from forcecheck.escape import printable


class ForcecheckError(Exception):
    """An unusable input (file, spec, catalog, option). Rendered as one line."""

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line

    def __str__(self) -> str:
        """``path:line: message``, printable: a file name or a quoted line that carries control
        characters (or bytes that are not UTF-8) is shown escaped, wherever the error is printed."""
        where = ""
        if self.path:
            where = self.path + (f":{self.line}" if self.line else "") + ": "
        return printable(f"{where}{self.message}")


class InputFileError(ForcecheckError):
    """A decklist or data file that cannot be read (missing, binary, too large, undecodable)."""


class SpecError(ForcecheckError):
    """A format spec that is malformed or invalid."""


class CatalogError(ForcecheckError):
    """A card catalog that cannot be opened or is not ours."""
