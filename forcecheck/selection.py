"""Which violations a run reports, and at what severity: --select / --extend-select / --ignore,
severity overrides, and the --fail-on threshold.

A token names violations by code (``FC201``), code prefix (``FC2``, ``FC``), rule kind or
input-check slug (``copy-limit``, ``unknown-card``) or a format's rule id (``main-size``);
``ALL`` names every one. The most specific token decides, as in ruff: a longer code prefix or
a rule id beats a shorter prefix, so ``--select FC2 --ignore FC201`` and ``--ignore FC2
--extend-select copy-limit`` do what they say.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from forcecheck.errors import ForcecheckError
from forcecheck.records import Record
from forcecheck.report.model import DeckReport, Violation


def kind_slug(code: str) -> str | None:
    from forcecheck.rules.registry import KINDS_BY_CODE

    kind = KINDS_BY_CODE.get(code)
    return kind.slug if kind else None


def _specificity(token: str, violation: Violation) -> int | None:
    """How specifically ``token`` names ``violation`` (higher wins), or None if it does not."""
    if token == "ALL":
        return 0
    if token.upper().startswith("FC") and violation.code.startswith(token.upper()):
        return len(token)
    if token == kind_slug(violation.code):
        return 10
    if token == violation.rule:
        return 11
    return None


def _best(tokens: Iterable[str], violation: Violation) -> int | None:
    scores = [s for s in (_specificity(t, violation) for t in tokens) if s is not None]
    return max(scores) if scores else None


class Selection(Record):
    select: list[str]
    extend_select: list[str]
    ignore: list[str]
    severity: dict[str, str]
    """Token -> severity (``warning`` demotes, ``error`` promotes); the most specific token wins."""

    def __init__(
        self,
        select: list[str] | None = None,
        extend_select: list[str] | None = None,
        ignore: list[str] | None = None,
        severity: dict[str, str] | None = None,
    ) -> None:
        self.select = ["ALL"] if select is None else select
        self.extend_select = [] if extend_select is None else extend_select
        self.ignore = [] if ignore is None else ignore
        self.severity = {} if severity is None else severity

    def keeps(self, violation: Violation) -> bool:
        chosen = _best(list(self.select) + list(self.extend_select), violation)
        dropped = _best(self.ignore, violation)
        if chosen is None:
            return False
        return dropped is None or chosen > dropped

    def severity_of(self, violation: Violation) -> str:
        best, level = None, violation.severity
        for token, value in self.severity.items():
            score = _specificity(token, violation)
            if score is not None and (best is None or score > best):
                best, level = score, value
        return level

    def apply(self, report: DeckReport) -> DeckReport:
        kept = []
        for violation in report.violations:
            if not self.keeps(violation):
                continue
            level = self.severity_of(violation)
            if level != violation.severity:
                violation.severity = level
            kept.append(violation)
        report.violations = kept
        return report


def known_code_or_slug(token: str) -> bool:
    """True for ALL, a code or code prefix, or a rule-kind slug (no format needs loading)."""
    return token in _codes_and_slugs()


@lru_cache(maxsize=1)
def _codes_and_slugs() -> frozenset[str]:
    return frozenset(known_tokens(()))


def known_tokens(rule_ids: Iterable[str]) -> set[str]:
    from forcecheck.rules.registry import KINDS

    tokens = {"ALL"} | set(rule_ids)
    for kind in KINDS.values():
        tokens.add(kind.slug)
        for end in range(2, len(kind.code) + 1):
            tokens.add(kind.code[:end])
    return tokens


def validate_tokens(tokens: Iterable[str], what: str, rule_ids: Iterable[str]) -> None:
    """Refuse a token that names no rule (a typo must not silently select nothing)."""
    known = known_tokens(rule_ids)
    for token in tokens:
        if token not in known and token.upper() not in known:
            from forcecheck.rules.registry import KINDS

            choices = ", ".join(sorted({k.code for k in KINDS.values()} | {k.slug for k in KINDS.values()}))
            raise ForcecheckError(
                f"{what}: {token!r} names no rule (use a code such as FC201, a prefix such as FC2, a slug, "
                f"a format's rule id, or ALL; codes and slugs: {choices})"
            )
