"""The engine's one-pass groups give exactly the findings the rules give one at a time."""

from __future__ import annotations

import pytest
from conftest import SAMPLES

from forcecheck.cards.catalog import sample_catalog
from forcecheck.checking import FormatCache
from forcecheck.decklists.readers import read_decklist
from forcecheck.engine import CardPass, check_decklist
from forcecheck.resolve import resolve


def one_at_a_time(deck, fmt, catalog):
    resolved = resolve(deck, fmt, catalog).deck
    found = []
    for rule in fmt.rules:
        if rule.when is not None and not rule.applies(resolved):
            continue
        found += [(rule.id, f.section, f.card, f.line, f.found, f.limit, f.message) for f in rule.check(resolved)]
    return sorted(found, key=repr)


@pytest.mark.parametrize("folder", ["bifrost", "abc", "ygo-5ds"])
def test_grouped_plan_equals_rules_one_at_a_time(folder):
    catalog = sample_catalog()
    fmt = FormatCache().get(folder)
    assert any(isinstance(step, CardPass) for step in fmt.plan)
    rule_ids = {r.id for r in fmt.rules}
    for path in sorted((SAMPLES / folder).iterdir()):
        deck = read_decklist(path, fmt.known_headers)
        grouped = sorted(
            ((v.rule, v.section, v.card, v.line, v.found, v.limit, v.message) for v in check_decklist(deck, fmt, catalog).violations if v.rule in rule_ids),
            key=repr,
        )
        assert grouped == one_at_a_time(deck, fmt, catalog), path.name


# --- random decks: the plan against the rules one at a time ------------------------------------
# The samples break few rules at once; random decks built from the sample catalog break many
# (wrong sections, copies over limits, off-attribute cards, empty and crowded sections), so the
# one pass, the card tallies and the empty-section skip are checked against every rule kind.

from pathlib import Path  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from forcecheck.decklists.model import Decklist, Entry, Section  # noqa: E402

_CATALOG = sample_catalog()
_FORMATS = FormatCache()


def _deck_strategy(format_name: str):
    fmt = _FORMATS.get(format_name)
    game = fmt.spec.game
    names = sorted(c.name for c in _CATALOG.cards(game)) + ["Not A Card", "Nor This One"]  # unknown ones too
    titles = [s.title for s in fmt.spec.sections]
    line = st.tuples(st.sampled_from(names), st.integers(1, 6))
    section = st.tuples(st.sampled_from(titles), st.lists(line, max_size=18))
    return st.lists(section, max_size=7)


def _decklist(sections, uniform: str | None = None) -> Decklist:
    """The deck as a reader would give it; ``uniform="name"`` marks every section as plain
    names (as the text reader does), so resolve takes its whole-section path."""
    deck = Decklist(path="random.txt")
    number = 1
    for title, lines in sections:
        written = Section(title=title, line=number, uniform=uniform)
        number += 1
        for name, count in lines:
            written.entries.append(Entry(name, count, number))
            number += 1
        deck.sections.append(written)
    return deck


def _with_banlist(name: str) -> FormatCache:
    """Formats that apply one list of the test lflist (a blacklist or a whitelist)."""
    from forcecheck.banlists import read_lflist

    lists, _ = read_lflist(Path(__file__).parent / "fixtures" / "test-lflist.conf")
    return FormatCache((), next(b for b in lists if b.name == name))


@pytest.mark.parametrize(
    "format_name, banlist",
    [("bifrost", None), ("abc", None), ("ygo-5ds", None), ("ygo-5ds", "2099.1 forcecheck test"), ("ygo-5ds", "whitelist test")],
)
def test_plan_equals_rules_one_at_a_time_on_random_decks(format_name, banlist):
    fmt = (_with_banlist(banlist) if banlist else _FORMATS).get(format_name)
    assert banlist is None or fmt.banlist == banlist
    rule_ids = {r.id for r in fmt.rules}
    seen_rules: set[str] = set()

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(_deck_strategy(format_name))
    def check(sections):
        # the engine on the whole-section path, against each rule alone on the entry-by-entry path
        check_decklist(_decklist(sections), fmt, _CATALOG)  # every card met once, as in a batch
        planned = sorted(
            ((v.rule, v.section, v.card, v.line, v.found, v.limit, v.message)
             for v in check_decklist(_decklist(sections, uniform="name"), fmt, _CATALOG).violations if v.rule in rule_ids),
            key=repr,
        )
        assert planned == one_at_a_time(_decklist(sections), fmt, _CATALOG)
        seen_rules.update(v[0] for v in planned)

    check()
    assert len(seen_rules) >= len(rule_ids) // 2, f"random decks broke too few rules to prove much: {sorted(seen_rules)}"
