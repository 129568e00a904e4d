"""Deck check at the table: is the played list the registered one, or a legal sideboard exchange?

Between games a player may swap cards between the sideboard and the other sections, except
the sections the format locks (Force of Will: the ruler and the rune deck, CR 403.2a), and
every section keeps its size. So a played list is a legal exchange of the registered one when
(1) every section has the same number of cards, (2) the locked sections hold the same cards,
and (3) all the other sections together hold the same cards. Cards are compared by identity
(canonical names; alternate printings are one card), as in the fingerprint.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from forcecheck.canonical import canonical_sections
from forcecheck.cards.catalog import Catalog
from forcecheck.cards.names import normalize_name
from forcecheck.decklists.model import Decklist


@dataclass
class SectionChange:
    section: str
    title: str
    added: dict[str, int] = field(default_factory=dict)
    removed: dict[str, int] = field(default_factory=dict)
    size_before: int = 0
    size_after: int = 0


@dataclass
class Verdict:
    status: str
    """``identical``, ``sideboard-exchange`` (legal) or ``different``."""
    reasons: list[str] = field(default_factory=list)
    changes: list[SectionChange] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status in ("identical", "sideboard-exchange")

    def to_dict(self) -> dict:
        return {
            "status": self.status,
            "ok": self.ok,
            "reasons": self.reasons,
            "changes": [
                {"section": c.section, "title": c.title, "added": c.added, "removed": c.removed,
                 "size_registered": c.size_before, "size_played": c.size_after}
                for c in self.changes
            ],
        }


def _contents(deck: Decklist, fmt, catalog: Catalog) -> tuple[dict[str, Counter], dict[str, str]]:
    sections: dict[str, Counter] = {}
    titles: dict[str, str] = {}
    for group in canonical_sections(deck, fmt, catalog):
        counter = sections.setdefault(group.key, Counter())
        titles[group.key] = group.title or "(before any header)"
        for entry in group.entries:
            if entry.count_ok:
                counter[entry.name if entry.known else "?" + normalize_name(entry.name)] += entry.count
    return sections, titles


def compare(registered: Decklist, played: Decklist, fmt, catalog: Catalog) -> Verdict:
    before, titles = _contents(registered, fmt, catalog)
    after, titles_after = _contents(played, fmt, catalog)
    titles.update({k: v for k, v in titles_after.items() if k not in titles})
    keys = sorted(set(before) | set(after), key=lambda k: (fmt.order.get(k, len(fmt.order)), k))
    changes = []
    for key in keys:
        old, new = before.get(key, Counter()), after.get(key, Counter())
        if old != new:
            changes.append(
                SectionChange(key, titles.get(key, key), dict(sorted((new - old).items())), dict(sorted((old - new).items())),
                              sum(old.values()), sum(new.values()))
            )
    if not changes:
        return Verdict("identical")
    reasons = []
    side = fmt.spec.sideboard
    if side is None:
        reasons.append(f"format {fmt.spec.name} has no sideboard: the played list must be the registered one")
        return Verdict("different", reasons, changes)
    for change in changes:
        if change.size_before != change.size_after:
            reasons.append(f"{change.title} has {change.size_after} cards, registered with {change.size_before}")
        if change.section in side.locked:
            reasons.append(f"{change.title} may not exchange cards with the sideboard")
    open_before = sum((c for k, c in before.items() if k not in side.locked), Counter())
    open_after = sum((c for k, c in after.items() if k not in side.locked), Counter())
    if open_before != open_after:
        extra = open_after - open_before
        missing = open_before - open_after
        if extra:
            reasons.append("not from the registered list: " + ", ".join(f"{n} {c}" for c, n in sorted(extra.items())))
        if missing:
            reasons.append("missing from the played list: " + ", ".join(f"{n} {c}" for c, n in sorted(missing.items())))
    return Verdict("different" if reasons else "sideboard-exchange", reasons, changes)
