"""The engine: compile a format once, then check decklists against it and collect every violation.

The engine knows no game: all it does is run each compiled rule of the spec over the
resolved deck, turn findings into violations (adding code, rule id and severity) and sort
them deterministically by section (in the format's order), line and code.

For speed the compiled format carries a *plan*: every rule that judges cards one by one
(membership) or counts them (curves, quotas) runs in one pass over the deck's cards
(CardPass), each card's answers remembered; the pass also collects the few cards copy
limits and banlists must look at. Every other rule runs on its own, and a rule whose
sections are all empty is skipped when it could find nothing there. The plan gives exactly
the findings the rules would give one at a time.

Why one module of this size: compiling a spec's rules, planning their run and running it over a deck
are one concern:
the plan is made from the compiled rules' traits (scope, the card pass) and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING

from forcecheck.banlists import Banlist
from forcecheck.cards.catalog import Catalog
from forcecheck.cards.model import Card
from forcecheck.decklists.model import Decklist, HeaderTable, header_key
from forcecheck.format_spec.slugs import slugify
from forcecheck.records import Record
from forcecheck.report.model import DeckReport, Violation
from forcecheck.resolve import resolve
from forcecheck.rules.announced import announced_count_findings
from forcecheck.rules.banlist import compile_missing_list, rule_banlist
from forcecheck.rules.base import Check, ResolvedDeck
from forcecheck.rules.registry import KINDS, RuleKind
from forcecheck.rules.selectors import compile_selector, cost_function

if TYPE_CHECKING:  # the models are only types here: checking with a cached spec never loads them
    from forcecheck.format_spec.model import Condition, FormatSpec


class CompiledRule(Record):
    id: str
    kind: RuleKind
    severity: str
    description: str
    when: Condition | None
    check: Check

    def __init__(self, id: str, kind: RuleKind, severity: str, description: str, when: Condition | None, check: Check) -> None:
        self.id = id
        self.kind = kind
        self.severity = severity
        self.description = description
        self.when = when
        self.check = check
        self.silent_scope: frozenset[str] | None = getattr(check, "silent_when_empty", None)
        """Sections that, all empty, leave this rule nothing to find (None: it always runs)."""

    def applies(self, deck: ResolvedDeck) -> bool:
        if self.when is None:
            return True
        if self.when.ruler_has and deck.ruler.keyword(slugify(self.when.ruler_has)) is None:
            return False
        if self.when.ruler_lacks and deck.ruler.keyword(slugify(self.when.ruler_lacks)) is not None:
            return False
        return True


_MISSING = object()
_NONE: frozenset = frozenset()
"""A rule's candidates while the pass has found none (shared: no set is made per deck and rule)."""


class CardPass:
    """One pass over the deck's cards for every rule that looks at cards one by one.

    Three roles a rule's check may offer (as an attribute of the check function):

    * ``per_card`` (membership): ``(sections, breaks, finding)``: the pass reports each card
      that breaks the rule once per section, with every line that lists it (``breaks`` may say
      a card may break it, and ``finding`` then None when no line of it does).
    * ``per_card_count`` (curves, quotas): ``(sections, counts, verdict)``: the pass adds up
      the copies of the cards it counts and asks the rule for its verdict on the total.
    * ``per_card_candidates`` (copy limits, banlists): ``(sections, may_matter)``: the pass
      collects the cards the rule must look at (``deck.candidates[rule id]``); the rule still
      runs on its own, after the pass, and judges only those.

    Each section is walked once, and for each card the pass remembers, per section, its
    answers for all these rules at once; a card that matters to none of them is skipped by
    one set difference in sections without counting rules. The findings are exactly those
    the rules give one at a time (tests/test_engine_plan.py)."""

    PER_CARD = "per_card"
    COUNTING = "per_card_count"
    CANDIDATES = "per_card_candidates"
    ROLES = (PER_CARD, COUNTING, CANDIDATES)

    def __init__(self, rules: list[tuple[str, CompiledRule]]):
        self.rules = [rule for _, rule in rules]
        self.roles = [role for role, _ in rules]
        self.parts = [getattr(rule.check, role) for role, rule in rules]
        self.counting = [i for i, role in enumerate(self.roles) if role == self.COUNTING]
        self.flagging = [i for i, role in enumerate(self.roles) if role == self.CANDIDATES]
        self.counting_ids = [self.rules[i].id for i in self.counting]
        self.flagging_ids = [self.rules[i].id for i in self.flagging]
        sections: dict[str, None] = {}
        for part in self.parts:
            sections.update(dict.fromkeys(part[0]))
        self.sections = tuple(sections)
        self.in_section = {
            s: tuple([i for i, role in enumerate(self.roles) if role == wanted and s in self.parts[i][0]] for wanted in self.ROLES)
            for s in self.sections
        }
        self.memos: dict[str, dict] = {s: {} for s in self.sections}
        self.clean: dict[str, set] = {s: set() for s in self.sections if not self.in_section[s][1]}
        """Per section without counting rules: the cards known to matter to none of the rules
        there, so a deck's other cards are found by one set difference (C-level)."""
        self.profiles: dict = {}
        """Each distinct answer, kept once: thousands of cards share a handful of answers, so
        the pass reads a few objects that stay in the CPU cache instead of one per card."""
        self.silent_scope = None  # counting rules may find a shortfall in empty sections

    def _work_out(self, section_id: str, card: Card) -> tuple[tuple[int, ...], ...] | None:
        """(rules the card breaks here, counting rules it counts toward, rules it may matter
        to); None for none of them."""
        profile = tuple(tuple(i for i in indices if self.parts[i][1](card)) for indices in self.in_section[section_id])
        if not any(profile):
            return None
        return self.profiles.setdefault(profile, profile)

    def run(self, deck: ResolvedDeck, path: str, out: list) -> None:
        rules, parts = self.rules, self.parts
        totals = dict.fromkeys(self.counting, 0)
        candidates = dict.fromkeys(self.flagging_ids, _NONE)  # a set is made for a rule once it has a candidate
        deck.candidates = candidates
        filled = deck.filled
        active = None
        for section_id in self.sections:
            if section_id not in filled:
                continue
            memo = self.memos[section_id]
            tally = deck.tallies[section_id]
            clean = self.clean.get(section_id)
            for card in tally if clean is None else set(tally).difference(clean):
                found = memo.get(card, _MISSING)
                if found is _MISSING:
                    found = self._work_out(section_id, card)
                    if found is None and clean is not None:
                        clean.add(card)
                    else:
                        memo[card] = found
                if found is None:
                    continue
                broken, counted, flagged = found
                for index in counted:
                    totals[index] += tally[card]
                for index in flagged:
                    rule_id = rules[index].id
                    found_for = candidates[rule_id]
                    if found_for is _NONE:
                        found_for = candidates[rule_id] = set()
                    found_for.add(card)
                for index in broken:
                    rule = rules[index]
                    if rule.when is not None:
                        if active is None:
                            active = [r.applies(deck) for r in rules]
                        if not active[index]:
                            continue
                    entries = deck.entries_of(card, (section_id,))  # one finding per card, naming its lines
                    finding = parts[index][2](deck, entries)
                    if finding is not None:  # None: no line of the card breaks it (a printing of another kind)
                        out.append(_violation(finding, rule.kind, rule.id, rule.severity, path))
        deck.counted = dict(zip(self.counting_ids, totals.values()))
        for index, found in totals.items():
            rule = rules[index]
            if not found and rule.silent_scope is not None:
                continue  # none counted, and no cards keep its bound whatever the ruler (sizes._zero_always_keeps)
            if rule.when is not None and not rule.applies(deck):
                continue
            for finding in parts[index][2](deck, found):
                out.append(_violation(finding, rule.kind, rule.id, rule.severity, path))


class CompiledFormat(Record):
    """A FormatSpec with its selectors and rules turned into plain functions, ready to run."""

    spec: FormatSpec
    rules: list[CompiledRule]
    cost_of: Callable[[Card], int]
    ruler_selected: Callable[[Card], bool]
    headers: dict[str, str]
    titles: dict[str, str]
    order: dict[str, int]
    banlist: str | None
    """Name of the banlist the rules apply, or None when no list is applied."""
    banlist_reason: str | None
    """Why that list (or none) applies: named by --banlist, in force on the date, ...; None
    for a format without a banlist rule."""
    _by_title: dict
    plan: list
    """How the rules run: single CompiledRules and PerCardGroups (compile_format builds it)."""
    groups: dict[str, str]
    """Header key of each group title -> the section id it is a group of."""
    group_claims: dict[str, Callable[[Card], bool]]
    """Header key of a group -> the test of the cards it holds, where the format says."""
    placements: list[tuple[str, Callable[[Card], bool]]]
    """Sections that claim cards written under no header, in the format's order, with the test
    of the cards they claim (``forcecheck.placement``)."""
    rest: str | None
    """The section that takes every card under no header that no placement claims (the main deck)."""
    binds: dict[str, Callable[[Card], bool]]
    """Sections whose names bind to the cards of a kind (``SectionSpec.binds``), with the test."""
    _header_table: HeaderTable | None
    _steps: dict
    derived: dict
    """Views of the format that other modules work out once per format and keep here
    (the plan of the count rules, ``rules.requirements``), so a batch does not work them out per deck."""
    notes: list[str]
    """What compiling noticed that a run's report should say once (a banlist's passcodes the
    catalog does not know)."""

    def __init__(
        self,
        spec: FormatSpec,
        rules: list[CompiledRule],
        cost_of: Callable[[Card], int],
        ruler_selected: Callable[[Card], bool],
        headers: dict[str, str] | None = None,
        titles: dict[str, str] | None = None,
        order: dict[str, int] | None = None,
        banlist: str | None = None,
        banlist_reason: str | None = None,
        _by_title: dict | None = None,
        plan: list | None = None,
        groups: dict[str, str] | None = None,
        group_claims: dict[str, Callable[[Card], bool]] | None = None,
        placements: list[tuple[str, Callable[[Card], bool]]] | None = None,
        rest: str | None = None,
        binds: dict[str, Callable[[Card], bool]] | None = None,
        _header_table: HeaderTable | None = None,
        _steps: dict | None = None,
        derived: dict | None = None,
        notes: list[str] | None = None,
    ) -> None:
        self.spec = spec
        self.rules = rules
        self.cost_of = cost_of
        self.ruler_selected = ruler_selected
        self.headers = {} if headers is None else headers
        self.titles = {} if titles is None else titles
        self.order = {} if order is None else order
        self.banlist = banlist
        self.banlist_reason = banlist_reason
        self._by_title = {} if _by_title is None else _by_title
        self.plan = [] if plan is None else plan
        self.groups = {} if groups is None else groups
        self.group_claims = {} if group_claims is None else group_claims
        self.placements = [] if placements is None else placements
        self.rest = rest
        self.binds = {} if binds is None else binds
        self._header_table = _header_table
        self._steps = {} if _steps is None else _steps
        self.derived = {} if derived is None else derived
        self.notes = [] if notes is None else notes

    def section_id(self, title: str | None) -> str | None:
        if title is None:
            return None
        found = self._by_title.get(title, _MISSING)
        if found is _MISSING:
            found = self._by_title[title] = self.headers.get(header_key(title))
        return found

    def steps_for(self, filled: set[str]) -> list:
        """The plan's steps that may find something in a deck whose filled sections are
        ``filled``: a rule whose sections are all empty is left out. Worked out once per set of
        filled sections (a batch has a handful), not once per deck and rule."""
        key = frozenset(filled)
        steps = self._steps.get(key)
        if steps is None:
            if len(self._steps) >= 4096:  # every combination of sections met: start again
                self._steps.clear()
            steps = self._steps[key] = [
                step for step in self.plan if step.silent_scope is None or not key.isdisjoint(step.silent_scope)
            ]
        return steps

    @property
    def known_headers(self) -> HeaderTable:
        """What the text reader needs to know of this format's headers (built once)."""
        if self._header_table is None:
            from forcecheck.decklists.kinds import KindGroups

            side = self.spec.sideboard.section if self.spec.sideboard else None
            self._header_table = HeaderTable(sections=dict(self.headers), groups=dict(self.groups), sideboard=side,
                                             kinds=KindGroups(self.spec.game, self.section_for_types, self.section_takes_types))
        return self._header_table

    def section_for_types(self, types: frozenset[str]) -> str | None:
        """Where the format places a card of these types written under no header: the first
        section whose placement claims it, else the rest (a group header naming card kinds
        belongs there: ``Synchros`` to the extra deck)."""
        card = Card(name="", game=self.spec.game, types=types)
        for section_id, claims in self.placements:
            if claims(card):
                return section_id
        return self.rest

    def section_takes_types(self, types: frozenset[str], section_id: str) -> bool:
        """Whether a card of these types may be what a group under ``section_id``'s header holds:
        the section claims such cards, or it claims none of its own (a header says what it holds:
        ``Chant (5):`` under ``Extra Deck:`` are the Grimoire's chants)."""
        claims = dict(self.placements).get(section_id)
        if claims is not None:
            return claims(Card(name="", game=self.spec.game, types=types))
        if section_id == self.rest:
            return self.section_for_types(types) == section_id
        return True

    def group_claim(self, title: str) -> Callable[[Card], bool] | None:
        """The test of the cards a group holds (a table's column titled so), where the format or
        the kinds the title names say; None when neither does."""
        claim = self.group_claims.get(header_key(title))
        if claim is not None:
            return claim
        parts = self.known_headers.kinds.kinds(title) if self.known_headers.kinds is not None else ()
        if not parts:
            return None
        return lambda card: any(types <= card.types for types in parts)

    @property
    def sideboard(self) -> str | None:
        return self.spec.sideboard.section if self.spec.sideboard else None


class _Context(Record):
    cost_of: Callable[[Card], int]
    spec: FormatSpec
    banlist: Banlist | None
    as_of: str | None
    catalog: Catalog | None
    """The catalog the format is compiled for, when one is known: a banlist checks its
    passcodes against it once (and says which it does not know)."""
    points_cap: int | None
    """The run's points cap (--points-cap, the points_cap setting), over a points rule's own."""

    def __init__(
        self,
        cost_of: Callable[[Card], int],
        spec: FormatSpec,
        banlist: Banlist | None = None,
        as_of: str | None = None,
        catalog: Catalog | None = None,
        points_cap: int | None = None,
    ) -> None:
        self.cost_of = cost_of
        self.spec = spec
        self.banlist = banlist
        self.as_of = as_of
        self.points_cap = points_cap
        self.catalog = catalog


NO_BANLIST = "none"
"""Banlist choice that turns every banlist rule off (``--banlist none``: structure only)."""


def compile_format(
    spec: FormatSpec,
    severity_overrides: dict[str, str] | None = None,
    banlist: Banlist | str | None = None,
    as_of: str | None = None,
    banlist_reason: str | None = None,
    banlist_missing: str | None = None,
    catalog: Catalog | None = None,
    points_cap: int | None = None,
) -> CompiledFormat:
    """Compile ``spec``; ``banlist`` is the list chosen for the run, ``"none"``, or None (the
    spec's own, the version in force on ``as_of``: an ISO date, default today).
    ``banlist_reason`` says why (``checking.FormatCache.applied``); ``banlist_missing``, when
    lists exist but none was in force, becomes an error on every deck (FC602: no verdict without the day's list); ``catalog``
    the catalog its decks are checked against, when known."""
    cost_of = cost_function(spec.card_policy.double_faced_cost)
    chosen = banlist if isinstance(banlist, Banlist) else None
    ctx = _Context(cost_of, spec, chosen, as_of, catalog, points_cap)
    rules = []
    banlist_names: list[str] = []
    for rule in spec.rules:
        kind = KINDS[rule.kind]
        severity = (severity_overrides or {}).get(rule.id) or rule.severity or kind.severity
        if rule.kind == "banlist":
            if banlist == NO_BANLIST:
                continue
            applied = rule_banlist(rule, chosen, as_of)
            if applied is None:
                if getattr(rule, "required", False):  # the format's card pool: no list, no verdict
                    rules.append(CompiledRule(rule.id, kind, severity, rule.description, rule.when, compile_missing_list(rule, ctx, banlist_reason)))
                continue
            banlist_names.append(applied.name)
            if getattr(applied, "missing", ""):
                rules.append(_partial_banlist(rule, applied, severity_overrides))
            if chosen is None and getattr(rule, "versions", None):
                stale = _stale_list(rule, applied, as_of, severity_overrides)
                if stale is not None:
                    rules.append(stale)
        rules.append(CompiledRule(rule.id, kind, severity, rule.description, rule.when, kind.compile(rule, ctx)))
    if banlist_missing:
        rules.append(_no_banlist_in_force(spec, banlist_missing, severity_overrides))
    headers: dict[str, str] = {}
    groups: dict[str, str] = {}
    group_claims: dict[str, Callable[[Card], bool]] = {}
    placements: list[tuple[str, Callable[[Card], bool]]] = []
    binds: dict[str, Callable[[Card], bool]] = {}
    rest = None
    for section in spec.sections:
        for title in [section.id, section.title, *section.aliases]:
            headers.setdefault(header_key(title), section.id)
        for title, holds in group_titles(section):
            groups.setdefault(header_key(title), section.id)
            if holds is not None:
                group_claims.setdefault(header_key(title), compile_selector(holds, cost_of))
        if section.placement == "rest":
            rest = section.id
        elif section.placement is not None:
            placements.append((section.id, compile_selector(section.placement, cost_of)))
        if section.binds is not None:
            binds[section.id] = compile_selector(section.binds, cost_of)
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
        banlist_reason=banlist_reason,
        plan=plan,
        groups={k: v for k, v in groups.items() if k not in headers},
        group_claims=group_claims,
        placements=placements,
        rest=rest,
        binds=binds,
        notes=[note for rule in rules for note in getattr(rule.check, "notes", ())],
    )


def _deck_wide(rule_id: str, slug: str, message: str, severity_overrides: dict[str, str] | None) -> CompiledRule:
    """One finding on every deck, under a banlist rule's id, of the registry kind ``slug``: what
    the choice of lists says (FC602 none in force, FC603 partly known, FC604 maybe stale)."""
    from forcecheck.rules.base import Finding

    kind = KINDS[slug]
    finding = (Finding(message=message),)
    severity = (severity_overrides or {}).get(rule_id) or kind.severity
    return CompiledRule(rule_id, kind, severity, kind.doc, None, lambda deck: finding)


def _stale_list(rule, applied: Banlist, as_of: str | None, severity_overrides: dict[str, str] | None) -> CompiledRule | None:
    """FC604: the shipped versions were recorded (``recorded``) more than ``stale_after_months``
    before the run's date, so the list in force that day may be one forcecheck does not know.
    None while it is fresh."""
    from datetime import date

    from forcecheck.banlists import months_between, past_trust

    recorded = getattr(rule, "recorded", None)
    if recorded is None:
        return None
    recorded = date.fromisoformat(str(recorded))
    day = date.fromisoformat(as_of) if as_of else date.today()
    if not past_trust(recorded, day, getattr(rule, "stale_after_months", 12)):
        return None
    return _deck_wide(rule.id, "list-may-be-stale",
                      f"{applied.name} is the newest list this forcecheck ships, recorded {recorded.isoformat()}, "
                      f"{months_between(recorded, day)} months before {day.isoformat()}: the publisher may have changed the list "
                      "since; check the publisher's list, or name one with --banlist-file", severity_overrides)


def _partial_banlist(rule, applied: Banlist, severity_overrides: dict[str, str] | None) -> CompiledRule:
    """FC603: the list in force is only partly known, and what is missing (never silence where
    the record is incomplete)."""
    return _deck_wide(rule.id, "partial-banlist",
                      f"{applied.name} (in force from {applied.date}) is only partly known: {applied.missing}; "
                      "a card it changed may be judged by the list before it (--banlist-file names a complete list)", severity_overrides)


def _no_banlist_in_force(spec: FormatSpec, message: str, severity_overrides: dict[str, str] | None) -> CompiledRule:
    """FC602 under the format's banlist rule id: one deck-wide error that no list applied."""
    rule = next(r for r in spec.rules if r.kind == "banlist")
    return _deck_wide(rule.id, "no-banlist-in-force", message, severity_overrides)


def group_titles(section) -> list[tuple[str, object]]:
    """A section's group headers as ``(title, selector or None)``, from a spec model or its
    cached view (where a ``{title: selector}`` item is a namespace)."""
    out = []
    for item in getattr(section, "groups", None) or []:
        if isinstance(item, str):
            out.append((item, None))
        else:
            out.append(next(iter((item if isinstance(item, dict) else vars(item)).items())))
    return out


def _plan(rules: list[CompiledRule]) -> list:
    """The order rules run in: first one CardPass for every rule that looks at cards one by
    one (it also collects the candidates some later rules judge), then every other rule, in
    the spec's order. A rule offering candidates still runs on its own, after the pass."""
    passing: list[tuple[str, CompiledRule]] = []
    plan: list = []
    for rule in rules:
        role = next((r for r in CardPass.ROLES if getattr(rule.check, r, None) is not None), None)
        if role is not None:
            passing.append((role, rule))
        if role in (None, CardPass.CANDIDATES):
            plan.append(rule)
    return ([CardPass(passing)] if passing else []) + plan


def check_decklist(deck: Decklist, fmt: CompiledFormat, catalog: Catalog) -> DeckReport:
    """Every violation of ``fmt`` in ``deck``, sorted by section, line and code."""
    resolution = resolve(deck, fmt, catalog)
    if resolution.findings or deck.path.endswith((".ydk", ".YDK")):  # what unknown cards say about the set-up
        from forcecheck.hints import explain

        explain(deck, fmt, catalog, resolution)
    violations: list[Violation] = []
    for item in resolution.findings:
        kind = KINDS[item.rule]
        violations.append(_violation(item.finding, kind, item.rule, kind.severity, deck.path))
    for slug, finding in announced_count_findings(deck, fmt, resolution):
        kind = KINDS[slug]
        violations.append(_violation(finding, kind, slug, kind.severity, deck.path))
    resolved = resolution.deck
    for step in fmt.steps_for(resolved.filled):
        if isinstance(step, CardPass):
            step.run(resolved, deck.path, violations)
            continue
        if step.when is not None and not step.applies(resolved):
            continue
        for finding in step.check(resolved):
            violations.append(_violation(finding, step.kind, step.id, step.severity, deck.path))
    violations.sort(key=lambda v: _sort_key(v, fmt))
    if any(v.card for v in violations):
        _in_the_decks_language(deck, resolved, violations, catalog, fmt.spec.game)
    broken_counts = {v.rule for v in violations if v.code == CARD_COUNT_CODE}
    curves = {}
    if broken_counts:  # the numbers of the curve line the report shows beside a broken curve or quota rule
        from forcecheck.rules.requirements import broken_groups

        curves = broken_groups(resolved, fmt, broken_counts)
    return DeckReport(
        path=deck.path,
        format=fmt.spec.name,
        violations=violations,
        banlist=fmt.banlist,
        banlist_reason=fmt.banlist_reason,
        resolution=resolution,
        name=resolution.title,
        player=deck.metadata.get("player"),
        curves=curves,
        points=_points(resolved, fmt),
    )


def _points(resolved: ResolvedDeck, fmt: CompiledFormat) -> dict | None:
    """The deck's points in a points format (``rules.points``): the list, the cap, the total and
    every card that carries points; None in a format without a points rule (or without its list)."""
    rule = next((r for r in fmt.rules if getattr(r.check, "points_of", None) is not None), None)
    if rule is None:
        return None
    check = rule.check
    carried = [(card.name, copies, check.points_of(card)) for card, copies in resolved.tally(check.points_sections).items()]
    cards = sorted(((n, c, p) for n, c, p in carried if p), key=lambda item: (-item[1] * item[2], item[0]))
    return {"list": check.points_list, "cap": check.points_cap, "total": sum(c * p for _n, c, p in cards),
            "cards": [{"card": n, "copies": c, "points": p} for n, c, p in cards]}


CARD_COUNT_CODE = KINDS["card-count"].code
_NAME = attrgetter("name")


def _in_the_decks_language(deck: Decklist, resolved: ResolvedDeck, violations: list[Violation], catalog: Catalog, game: str) -> None:
    """A list written in another language than the catalog's base names (a Japanese OCG list)
    hears about its cards in that language: each card a finding names is named as the catalog
    names it in the list's language. English lists pay one ``isascii`` per line, no more."""
    if all(all(map(str.isascii, map(_NAME, s.entries))) for s in deck.sections):
        return
    from forcecheck.cards.catalog import written_language

    written = [e.name for s in deck.sections for e in s.entries]
    lang = written_language(catalog, game, written)
    if lang in (None, "en"):
        return
    shown = {card.name: card.name_in(lang) for tally in resolved.tallies.values() for card in tally}
    shown = {name: local for name, local in shown.items() if local != name}
    if not shown:
        return
    names = sorted(shown, key=len, reverse=True)  # the longest first: a name inside another is not touched twice
    for v in violations:
        if v.card is None or v.rule in ("name-corrected", "unknown-card", "line-read-as"):
            continue
        for name in names:
            if name in v.message:
                v.message = v.message.replace(name, shown[name])
        v.card = shown.get(v.card, v.card)


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
        lines=finding.lines,
    )


def _sort_key(v: Violation, fmt: CompiledFormat):
    first_section = (v.section or "").split(",")[0].strip()
    section_rank = fmt.order.get(first_section, -1 if v.section is None else len(fmt.order))
    return (section_rank, v.line if v.line is not None else 0, v.code, v.card or "", v.rule, v.message)
