"""Importers: one module per public card source, turning its quirks into ``Card`` facts.

An importer never aborts on one bad record: it returns the cards it could build and a list
of ``ImportWarning`` naming the record id and what was wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

from forcecheck.errors import ForcecheckError


class ImportSourceError(ForcecheckError):
    """A source file an importer cannot use at all (not JSON, another shape, empty, ...)."""


@dataclass(frozen=True)
class ImportWarning:
    record: str
    message: str

    def __str__(self) -> str:
        return f"{self.record}: {self.message}"
