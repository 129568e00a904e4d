"""The engine: compile a format once, then check decklists against it and collect every violation.

The engine knows no game: all it does is run each compiled rule of the spec over the
resolved deck, turn findings into violations (adding code, rule id and severity) and sort
them deterministically by section (in the format's order), line and code.

For speed the compiled format carries a *plan*: rules that judge cards one by one
(membership) or count them (curves, quotas) over the same sections are gathered into one
pass each (PerCardGroup, CountingGroup), each card's answers remembered; every other rule
runs on its own. The groups give exactly the findings the rules would give one at a time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from forcecheck.banlists import Banlist
from forcecheck.cards.catalog import Catalog
from forcecheck.cards.model import Card
from forcecheck.decklists.model import Decklist, header_key
from forcecheck.report.model import DeckReport, Violation
from forcecheck.resolve import resolve
from forcecheck.rules.banlist import rule_banlist
from forcecheck.rules.base import Check, ResolvedDeck
from forcecheck.rules.registry import KINDS, RuleKind
from forcecheck.rules.selectors import compile_selector, cost_function
from forcecheck.spec.slugs import slugify

if TYPE_CHECKING:  # the models are only types here: checking with a cached spec never loads them
    from forcecheck.spec.model import Condition, FormatSpec


@dataclass
class CompiledRule:
    id: str
    kind: RuleKind
    severity: str
    description: str
    when: Condition | None
    check: Check

    silent_scope: frozenset[str] | None = field(init=False)
    """Sections that, all empty, leave this rule nothing to find (None: it always runs)."""

    def __post_init__(self) -> None:
        self.silent_scope = getattr(self.check, "silent_when_empty", None)

    def applies(self, deck: ResolvedDeck) -> bool:
        if self.when is None:
            return True
        if self.when.ruler_has and deck.ruler.keyword(slugify(self.when.ruler_has)) is None:
            return False
        if self.when.ruler_lacks and deck.ruler.keyword(slugify(self.when.ruler_lacks)) is not None:
            return False
        return True


_MISSING = object()


class PerCardGroup:
    """Rules that judge each card on its own (membership) over the same sections, run as one
    pass: each card's list of broken rules is worked out once and remembered."""

    def __init__(self, sections: tuple[str, ...], rules: list[CompiledRule]):
        self.sections = sections
        self.rules = rules
        self.tests = [rule.check.per_card[1] for rule in rules]
        self.verdicts: dict = {}
        self.silent_scope = frozenset(sections)

    def run(self, deck: ResolvedDeck, path: str, out: list) -> None:
        verdicts, tests, rules = self.verdicts, self.tests, self.rules
        active = None
        for section_id in self.sections:
            for card in deck.tally((section_id,)):
                broken = verdicts.get(card)
                if broken is None:
                    broken = verdicts[card] = tuple(i for i, test in enumerate(tests) if test(card))
                for index in broken:
                    rule = rules[index]
                    if rule.when is not None:
                        if active is None:
                            active = [r.applies(deck) for r in rules]
                        if not active[index]:
                            continue
                    for entry in deck.entries_of(card, (section_id,)):  # a finding on each line that lists it
                        finding = rule.check.per_card[2](deck, entry)
                        out.append(_violation(finding, rule.kind, rule.id, rule.severity, path))


class CountingGroup:
    """Rules that count the cards matching a selector over the same sections (curves, quotas),
    counted in one pass: each card's list of rules it counts toward is worked out once."""

    def __init__(self, sections: tuple[str, ...], rules: list[CompiledRule]):
        self.sections = sections
        self.rules = rules
        self.tests = [rule.check.per_card_count[1] for rule in rules]
        self.memo: dict = {}
        self.silent_scope = frozenset(sections) if all(rule.silent_scope for rule in rules) else None

    def run(self, deck: ResolvedDeck, path: str, out: list) -> None:
        memo, tests = self.memo, self.tests
        totals = [0] * len(self.rules)
        for section_id in self.sections:
            for card, copies in deck.tally((section_id,)).items():
                counted = memo.get(card)
                if counted is None:
                    counted = memo[card] = tuple(i for i, test in enumerate(tests) if test(card))
                for index in counted:
                    totals[index] += copies
        for rule, found in zip(self.rules, totals):
            if rule.when is not None and not rule.applies(deck):
                continue
            for finding in rule.check.per_card_count[2](deck, found):
                out.append(_violation(finding, rule.kind, rule.id, rule.severity, path))


@dataclass
class CompiledFormat:
    """A FormatSpec with its selectors and rules turned into plain functions, ready to run."""

    spec: FormatSpec
    rules: list[CompiledRule]
    cost_of: Callable[[Card], int]
    ruler_selected: Callable[[Card], bool]
    headers: dict[str, str] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    order: dict[str, int] = field(default_factory=dict)
    banlist: str | None = None
    """Name of the banlist the rules apply, or None when no list is applied."""
    _by_title: dict = field(default_factory=dict)
    plan: list = field(default_factory=list)
    """How the rules run: single CompiledRules and PerCardGroups (compile_format builds it)."""

    def section_id(self, title: str | None) -> str | None:
        if title is None:
            return None
        found = self._by_title.get(title, _MISSING)
        if found is _MISSING:
            found = self._by_title[title] = self.headers.get(header_key(title))
        return found

    @property
    def known_headers(self) -> set[str]:
        return set(self.headers)


@dataclass
class _Context:
    cost_of: Callable[[Card], int]
    spec: FormatSpec
    banlist: Banlist | None = None
    as_of: str | None = None


NO_BANLIST = "none"
"""Banlist choice that turns every banlist rule off (``--banlist none``: structure only)."""


def compile_format(
    spec: FormatSpec,
    severity_overrides: dict[str, str] | None = None,
    banlist: Banlist | str | None = None,
    as_of: str | None = None,
) -> CompiledFormat:
    """Compile ``spec``; ``banlist`` is the list chosen for the run, ``"none"``, or None (the
    spec's own, the version in force on ``as_of``: an ISO date, default today)."""
    cost_of = cost_function(spec.card_policy.double_faced_cost)
    chosen = banlist if isinstance(banlist, Banlist) else None
    ctx = _Context(cost_of, spec, chosen, as_of)
    rules = []
    banlist_names: list[str] = []
    for rule in spec.rules:
        kind = KINDS[rule.kind]
        if rule.kind == "banlist":
            if banlist == NO_BANLIST:
                continue
            applied = rule_banlist(rule, chosen, as_of)
            if applied is None:
                continue
            banlist_names.append(applied.name)
        severity = (severity_overrides or {}).get(rule.id) or rule.severity or kind.severity
        rules.append(CompiledRule(rule.id, kind, severity, rule.description, rule.when, kind.compile(rule, ctx)))
    headers: dict[str, str] = {}
    for section in spec.sections:
        for title in [section.id, section.title, *section.aliases]:
            headers.setdefault(header_key(title), section.id)
    ruler_where = spec.ruler.where if spec.ruler else None
    plan = _plan(rules)
    return CompiledFormat(
        spec=spec,
        rules=rules,
        cost_of=cost_of,
        ruler_selected=compile_selector(ruler_where, cost_of),
        headers=headers,
        titles={s.id: s.title for s in spec.sections},
        order={s.id: i for i, s in enumerate(spec.sections)},
        banlist=", ".join(dict.fromkeys(banlist_names)) or None,
        plan=plan,
    )


def _plan(rules: list[CompiledRule]) -> list:
    """The order rules run in, with per-card rules and counting rules over the same sections
    gathered into one-pass groups (at the place of the group's first rule)."""
    grouped: dict[tuple, list[CompiledRule]] = {}
    plan: list = []
    for rule in rules:
        for attribute, group in (("per_card", PerCardGroup), ("per_card_count", CountingGroup)):
            parts = getattr(rule.check, attribute, None)
            if parts is not None:
                key = (group, parts[0])
                if key not in grouped:
                    grouped[key] = []
                    plan.append(key)
                grouped[key].append(rule)
                break
        else:
            plan.append(rule)
    return [step[0](step[1], grouped[step]) if isinstance(step, tuple) else step for step in plan]


def check_decklist(deck: Decklist, fmt: CompiledFormat, catalog: Catalog) -> DeckReport:
    """Every violation of ``fmt`` in ``deck``, sorted by section, line and code."""
    resolution = resolve(deck, fmt, catalog)
    violations: list[Violation] = []
    for item in resolution.findings:
        kind = KINDS[item.rule]
        violations.append(_violation(item.finding, kind, item.rule, kind.severity, deck.path))
    resolved = resolution.deck
    filled = resolved.filled
    for step in fmt.plan:
        if step.silent_scope is not None and filled.isdisjoint(step.silent_scope):
            continue  # its sections are empty, so it has nothing to find
        if isinstance(step, (PerCardGroup, CountingGroup)):
            step.run(resolved, deck.path, violations)
            continue
        if step.when is not None and not step.applies(resolved):
            continue
        for finding in step.check(resolved):
            violations.append(_violation(finding, step.kind, step.id, step.severity, deck.path))
    violations.sort(key=lambda v: _sort_key(v, fmt))
    return DeckReport(
        path=deck.path,
        format=fmt.spec.name,
        violations=violations,
        banlist=fmt.banlist,
        resolution=resolution,
        name=deck.metadata.get("player") or deck.name,
    )


def _violation(finding, kind: RuleKind, rule_id: str, severity: str, path: str) -> Violation:
    return Violation(
        code=kind.code,
        rule=rule_id,
        severity=severity,
        message=finding.message,
        deck=path,
        section=finding.section,
        card=finding.card,
        line=finding.line,
        found=finding.found,
        limit=finding.limit,
    )


def _sort_key(v: Violation, fmt: CompiledFormat):
    first_section = (v.section or "").split(",")[0].strip()
    section_rank = fmt.order.get(first_section, -1 if v.section is None else len(fmt.order))
    return (section_rank, v.line if v.line is not None else 0, v.code, v.card or "", v.rule, v.message)
