"""The engine's one-pass groups give exactly the findings the rules give one at a time."""

from __future__ import annotations

import pytest

from forcecheck.cards.catalog import sample_catalog
from forcecheck.checking import FormatCache
from forcecheck.decklists.readers import read_decklist
from forcecheck.engine import CountingGroup, PerCardGroup, check_decklist
from forcecheck.resolve import resolve

from conftest import SAMPLES


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
    assert any(isinstance(step, (PerCardGroup, CountingGroup)) for step in fmt.plan)
    rule_ids = {r.id for r in fmt.rules}
    for path in sorted((SAMPLES / folder).iterdir()):
        deck = read_decklist(path, fmt.known_headers)
        grouped = sorted(
            ((v.rule, v.section, v.card, v.line, v.found, v.limit, v.message) for v in check_decklist(deck, fmt, catalog).violations if v.rule in rule_ids),
            key=repr,
        )
        assert grouped == one_at_a_time(deck, fmt, catalog), path.name
