"""A violation is a record, not a sentence: every field a tool may filter or sort on."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator


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
    resolution: Any = field(default=None, repr=False)
    """The deck's resolution, whose content is hashed into ``fingerprint`` on demand."""
    name: str | None = None
    """The deck's title (YAML ``name:``, a ``# Name:`` comment, the title line of a text list)."""
    player: str | None = None
    """The player, when the list says (``Player: Jane D.``, YAML ``player:``)."""
    curves: dict[str, str] = field(default_factory=dict)
    """Broken count rule id -> the deck's line of its rule group (``cost <=1: 19/20 · 2: 16 (>=15)
    · 3+: 25 (>=10)``), from ``forcecheck.insight.counts``; the text report shows it beside the rule."""

    @property
    def legal(self) -> bool:
        return self.error is None and not any(v.severity == "error" for v in self.violations)

    @property
    def sections(self) -> dict[str, int] | None:
        """Section id -> cards in it as forcecheck read and placed them (None when unreadable)."""
        return self.resolution.section_counts if self.resolution is not None else None

    @property
    def ruler(self) -> str | None:
        """The ruler card(s) read in the ruler area (``A / B`` for several), None without one."""
        if self.resolution is None or not self.resolution.deck.ruler.present:
            return None
        return self.resolution.deck.ruler.label

    @property
    def corrections(self) -> list[dict]:
        """Names read as the card they clearly mean: ``{"line", "written", "read_as"}`` each."""
        return list(self.resolution.corrections) if self.resolution is not None else []

    @property
    def fingerprint(self) -> str | None:
        """Content hash of the deck (``forcecheck.canonical``), worked out only when asked for."""
        if self.resolution is None:
            return None
        from forcecheck.canonical import fingerprint_of

        return fingerprint_of(self.resolution.content)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "format": self.format,
            "legal": self.legal,
            "banlist": self.banlist,
            "fingerprint": self.fingerprint,
            "name": self.name,
            "player": self.player,
            "ruler": self.ruler,
            "sections": self.sections,
            "corrections": self.corrections,
            "violations": [v.to_dict() for v in self.violations],
        }
        if self.error is not None:
            out["error"] = self.error
        return out


class RunReport:
    """The decks of one run, in order, read once: a renderer streams them (``iter_decks``) so a
    batch of any size holds one deck at a time; the summary counts as they pass."""

    def __init__(self, decks: Iterable[DeckReport], catalog: str):
        self.catalog = catalog
        self._source: Iterator[DeckReport] | None = iter(decks)
        self._kept: list[DeckReport] | None = None
        self._counts = {"decks": 0, "legal": 0, "illegal": 0, "unreadable": 0, "violations": 0, "warnings": 0}

    def _count(self, deck: DeckReport) -> None:
        counts = self._counts
        counts["decks"] += 1
        if deck.error is not None:
            counts["unreadable"] += 1
        elif deck.legal:
            counts["legal"] += 1
        else:
            counts["illegal"] += 1
        for v in deck.violations:
            counts["violations" if v.severity == "error" else "warnings"] += 1

    def iter_decks(self) -> Iterator[DeckReport]:
        """Each deck once, streamed from the checks (or from the list if already materialised)."""
        if self._kept is not None:
            yield from self._kept
            return
        source, self._source = self._source, None
        if source is None:
            raise RuntimeError("this run's decks were already streamed")
        for deck in source:
            self._count(deck)
            yield deck

    @property
    def decks(self) -> list[DeckReport]:
        """All decks as a list (materialises the stream: for small runs and tests)."""
        if self._kept is None:
            self._kept = list(self.iter_decks())
        return self._kept

    def summary(self) -> dict[str, Any]:
        """Counts of the decks seen so far (all of them once the stream is consumed)."""
        return {**self._counts, "catalog": self.catalog}

    @property
    def exit_code(self) -> int:
        """0 every deck legal, 1 any violation, 2 any input that could not be used."""
        return self.exit_code_for("error")

    def exit_code_for(self, fail_on: str) -> int:
        """As ``exit_code``, with warnings failing the run too when ``fail_on`` is ``warning``."""
        if self._source is not None and self._kept is None:
            self.decks  # noqa: B018 - count what was not streamed yet
        counts = self._counts
        if counts["unreadable"]:
            return 2
        if counts["illegal"]:
            return 1
        if fail_on == "warning" and counts["warnings"]:
            return 1
        return 0

    def to_dict(self) -> dict[str, Any]:
        return {"decks": [d.to_dict() for d in self.decks], "summary": self.summary()}
