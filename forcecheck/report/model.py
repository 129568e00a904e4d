"""A violation is a record, not a sentence: every field a tool may filter or sort on."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from forcecheck import rule_url
from forcecheck.records import Record


class Violation(Record):
    code: str
    """Stable code of the rule kind, e.g. ``FC201``."""
    rule: str
    """Id of the rule in the format spec (``copy-limit``) or of the input check (``unknown-card``)."""
    severity: str
    message: str
    deck: str
    section: str | None
    card: str | None
    line: int | None
    found: int | None
    limit: str | None
    lines: tuple[int, ...] | None
    """Every line the finding is about when there are several (one card on several lines);
    ``line`` is the first of them."""

    __slots__ = ("code", "rule", "severity", "message", "deck", "section", "card", "line", "found", "limit", "lines")

    def __init__(
        self,
        code: str,
        rule: str,
        severity: str,
        message: str,
        deck: str,
        section: str | None = None,
        card: str | None = None,
        line: int | None = None,
        found: int | None = None,
        limit: str | None = None,
        lines: tuple[int, ...] | None = None,
    ) -> None:
        self.code = code
        self.rule = rule
        self.severity = severity
        self.message = message
        self.deck = deck
        self.section = section
        self.card = card
        self.line = line
        self.found = found
        self.limit = limit
        self.lines = lines

    @property
    def all_lines(self) -> list[int]:
        if self.lines:
            return list(self.lines)
        return [self.line] if self.line is not None else []

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
            "section": self.section,
            "card": self.card,
            "line": self.line,
            "lines": self.all_lines,
            "found": self.found,
            "limit": self.limit,
            "url": rule_url(self.code),
        }


class DeckReport(Record, hidden=("resolution", "kept")):
    path: str
    format: str | None
    violations: list[Violation]
    error: str | None
    """Set when the file could not be read or checked at all (exit 2); no violations then."""
    banlist: str | None
    """The banlist applied, or None when the format applied none."""
    banlist_reason: str | None
    """Why that list (or none) applied; None for a format without a banlist rule."""
    resolution: Any
    """The deck's resolution, whose content is hashed into ``fingerprint`` on demand."""
    name: str | None
    """The deck's title (YAML ``name:``, a ``# Name:`` comment, the title line of a text list)."""
    player: str | None
    """The player, when the list says (``Player: Jane D.``, YAML ``player:``)."""
    curves: dict[str, tuple]
    """Rule id -> the numbers of its group of count rules (``rules.requirements.Requirement``s:
    a curve's cost bands together), for the groups holding a broken curve or quota rule; the
    text report words each group as one line beside the first broken rule of it
    (``report.text.curve_lines``)."""
    elapsed: float
    """Seconds spent reading and checking the file (JUnit ``time``)."""
    kept: dict[str, Any] | None
    """What ``detach`` kept of the resolution (fingerprint, sections, ruler, corrections)."""
    points: dict[str, Any] | None
    """In a points format (Genesys): ``{"list", "cap", "total", "cards": [{"card", "copies",
    "points"}]}``, the cards that carry points, most first; None in every other format."""

    __slots__ = (
        "path", "format", "violations", "error", "banlist", "banlist_reason", "resolution", "name", "player", "curves",
        "elapsed", "kept", "points"
    )

    def __init__(
        self,
        path: str,
        format: str | None,
        violations: list[Violation] | None = None,
        error: str | None = None,
        banlist: str | None = None,
        banlist_reason: str | None = None,
        resolution: Any = None,
        name: str | None = None,
        player: str | None = None,
        curves: dict[str, tuple] | None = None,
        elapsed: float = 0.0,
        kept: dict[str, Any] | None = None,
        points: dict[str, Any] | None = None,
    ) -> None:
        self.path = path
        self.format = format
        self.violations = [] if violations is None else violations
        self.error = error
        self.banlist = banlist
        self.banlist_reason = banlist_reason
        self.resolution = resolution
        self.name = name
        self.player = player
        self.curves = {} if curves is None else curves
        self.elapsed = elapsed
        self.kept = kept
        self.points = points

    @property
    def legal(self) -> bool:
        return self.error is None and not any(v.severity == "error" for v in self.violations)

    @property
    def sections(self) -> dict[str, int] | None:
        """Section id -> cards in it as forcecheck read and placed them (None when unreadable)."""
        if self.resolution is None:
            return (self.kept or {}).get("sections")
        return self.resolution.section_counts

    @property
    def ruler(self) -> str | None:
        """The ruler card(s) read in the ruler area (``A / B`` for several), None without one."""
        if self.resolution is None:
            return (self.kept or {}).get("ruler")
        if not self.resolution.deck.ruler.present:
            return None
        return self.resolution.deck.ruler.label

    @property
    def corrections(self) -> list[dict]:
        """Names read as the card they clearly mean: ``{"line", "written", "read_as"}`` each."""
        if self.resolution is None:
            return list((self.kept or {}).get("corrections", []))
        return list(self.resolution.corrections)

    @property
    def fingerprint(self) -> str | None:
        """Content hash of the deck (``forcecheck.canonical``), worked out only when asked for."""
        if self.resolution is None:
            return (self.kept or {}).get("fingerprint")
        from forcecheck.canonical import fingerprint_of  # here: only a report that shows the fingerprint loads the hashing

        return fingerprint_of(self.resolution.content)

    def detach(self, fingerprint: bool = True) -> DeckReport:
        """The report without the deck's resolution, what reports show of it kept: small to
        send from a worker process or to hold for a whole batch. ``fingerprint=False`` leaves
        out the content hash (a report that shows none need not pay for hashing every deck)."""
        if self.resolution is not None:
            self.kept = {"fingerprint": self.fingerprint if fingerprint else None, "sections": self.sections,
                         "ruler": self.ruler, "corrections": self.corrections}
            self.resolution = None
        return self

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "format": self.format,
            "legal": self.legal,
            "banlist": self.banlist,
            "banlist_reason": self.banlist_reason,
        }
        if self.error is None:  # an unreadable file has no content to hash
            out["fingerprint"] = self.fingerprint
        out.update(name=self.name, player=self.player, ruler=self.ruler, sections=self.sections, corrections=self.corrections)
        if self.points is not None:
            out["points"] = self.points
        out["violations"] = [v.to_dict() for v in self.violations]
        if self.error is not None:
            out["error"] = self.error
        return out


class RunReport:
    """The decks of one run, in order, read once: a renderer streams them (``iter_decks``) so a
    batch of any size holds one deck at a time; the summary counts as they pass."""

    PROBLEMS_KEPT = 200
    """Illegal and unreadable decks remembered for the summary (GitHub's step summary)."""

    def __init__(self, decks: Iterable[DeckReport], catalog: str, about: Callable[[], dict[str, Any]] | None = None):
        self.catalog = catalog
        self.about = about
        """What the run used, asked for when the summary is made (once the decks streamed):
        ``catalog``, ``config`` (the configuration file or None) and ``notes``."""
        self._source: Iterator[DeckReport] | None = iter(decks)
        self._kept: list[DeckReport] | None = None
        self._counts = {"decks": 0, "legal": 0, "illegal": 0, "unreadable": 0, "violations": 0, "warnings": 0}
        self.problems: list[tuple[str, str | None, int, int, str]] = []
        """(path, format, errors, warnings, codes or the error) of the first illegal or unreadable decks."""
        self._observers: list[Callable[[DeckReport], None]] = []
        self._banlists: dict[tuple[str | None, str | None, str], None] = {}
        """(format, list applied, why) of the decks so far, for formats with a banlist rule."""

    def on_each(self, observer: Callable[[DeckReport], None]) -> None:
        """Call ``observer`` with each deck as it streams (a progress bar)."""
        self._observers.append(observer)

    def _count(self, deck: DeckReport) -> None:
        counts = self._counts
        counts["decks"] += 1
        if deck.banlist_reason is not None:
            self._banlists[(deck.format, deck.banlist, deck.banlist_reason)] = None
        errors = warnings = 0
        for v in deck.violations:
            if v.severity == "error":
                errors += 1
            else:
                warnings += 1
        counts["violations"] += errors
        counts["warnings"] += warnings
        if deck.error is not None:
            counts["unreadable"] += 1
        elif not errors:
            counts["legal"] += 1
            return
        else:
            counts["illegal"] += 1
        if len(self.problems) < self.PROBLEMS_KEPT:
            what = deck.error if deck.error is not None else " ".join(sorted({v.code for v in deck.violations}))
            self.problems.append((deck.path, deck.format, errors, warnings, what))

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
            for observer in self._observers:
                observer(deck)
            yield deck

    @property
    def decks(self) -> list[DeckReport]:
        """All decks as a list (materialises the stream: for small runs and tests)."""
        if self._kept is None:
            self._kept = list(self.iter_decks())
        return self._kept

    def summary(self) -> dict[str, Any]:
        """Counts of the decks seen so far (all of them once the stream is consumed), and what
        the run used: catalog, configuration file and notes."""
        about = {"catalog": self.catalog, "catalog_sources": [], "config": None, "notes": []}
        if self.about is not None:
            about.update(self.about())
        banlists = [{"format": f, "banlist": b, "reason": r} for f, b, r in self._banlists]
        return {**self._counts, **about, "banlists": banlists}

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
