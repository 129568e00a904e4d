"""A violation is a record, not a sentence: every field a tool may filter or sort on."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Violation:
    code: str
    """Stable code of the rule kind, e.g. ``FC201``."""
    rule: str
    """Id of the rule in the format spec (``copy-limit``) or of the input check (``unknown-card``)."""
    severity: str
    message: str
    deck: str
    section: str | None = None
    card: str | None = None
    line: int | None = None
    found: int | None = None
    limit: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
            "section": self.section,
            "card": self.card,
            "line": self.line,
            "found": self.found,
            "limit": self.limit,
        }


@dataclass(slots=True)
class DeckReport:
    path: str
    format: str | None
    violations: list[Violation] = field(default_factory=list)
    error: str | None = None
    """Set when the file could not be read or checked at all (exit 2); no violations then."""
    banlist: str | None = None
    """The banlist applied, or None when the format applied none."""
    fingerprint: str | None = None
    """Content hash of the deck (``forcecheck.canonical.fingerprint``)."""
    name: str | None = None
    """Deck or player name from the decklist's metadata, when it has one."""

    @property
    def legal(self) -> bool:
        return self.error is None and not any(v.severity == "error" for v in self.violations)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "format": self.format,
            "legal": self.legal,
            "banlist": self.banlist,
            "fingerprint": self.fingerprint,
            "violations": [v.to_dict() for v in self.violations],
        }
        if self.error is not None:
            out["error"] = self.error
        return out


@dataclass(slots=True)
class RunReport:
    decks: list[DeckReport]
    catalog: str

    def summary(self) -> dict[str, Any]:
        errors = sum(1 for d in self.decks if d.error is not None)
        legal = sum(1 for d in self.decks if d.legal)
        violations = [v for d in self.decks for v in d.violations]
        return {
            "decks": len(self.decks),
            "legal": legal,
            "illegal": len(self.decks) - legal - errors,
            "unreadable": errors,
            "violations": sum(1 for v in violations if v.severity == "error"),
            "warnings": sum(1 for v in violations if v.severity == "warning"),
            "catalog": self.catalog,
        }

    @property
    def exit_code(self) -> int:
        """0 every deck legal, 1 any violation, 2 any input that could not be used."""
        return self.exit_code_for("error")

    def exit_code_for(self, fail_on: str) -> int:
        """As ``exit_code``, with warnings failing the run too when ``fail_on`` is ``warning``."""
        if any(d.error is not None for d in self.decks):
            return 2
        if any(not d.legal for d in self.decks):
            return 1
        if fail_on == "warning" and any(d.violations for d in self.decks):
            return 1
        return 0

    def to_dict(self) -> dict[str, Any]:
        return {"decks": [d.to_dict() for d in self.decks], "summary": self.summary()}
