"""Card facts: total cost per CR 204.5 and name normalisation."""

from __future__ import annotations

import pytest

from forcecheck.cards.costs import CostError, canonical_cost, total_cost
from forcecheck.cards.names import normalize_name, normalize_printing


@pytest.mark.parametrize(
    "cost,total",
    [
        ("{R}{R}{1}", 3),
        ("{W}", 1),
        ("{R}{X}", 1),  # X counts 0 outside the chase (204.5b)
        ("{X}{X}", 0),
        (None, 0),  # no cost (204.5a)
        ("", 0),
        ("0", 0),
        ("{B}{B}{M}{M}", 4),  # moon will symbols are specified cost
        ("{G}{G}{T}{T}{T}{3}", 8),
        ("{B} {B} {2}", 4),  # spaces between symbols are tolerated
        ("{10}", 10),
    ],
)
def test_total_cost(cost, total):
    assert total_cost(cost) == total


@pytest.mark.parametrize("cost", ["{R}d[]", "{R", "R1", "{RR}"])
def test_malformed_cost_raises(cost):
    with pytest.raises(CostError):
        total_cost(cost)


def test_canonical_cost_drops_spaces():
    assert canonical_cost("{B} {B} {2}") == "{B}{B}{2}"


@pytest.mark.parametrize(
    "written,stored",
    [
        ("twin swords of water\u2019s mercy", "Twin Swords of Water's Mercy (Stranger)"),
        ("PARALLEL WORLD SCHRODINGER", "Parallel World Schrödinger"),
        ("Zeus Grand Lightning", "Zeus' Grand Lightning"),
        ("  Story Listener,   Eva ", "Story Listener, Eva"),
        ("Arcana:Guardian of the Temple", "Arcana: Guardian of the Temple"),
    ],
)
def test_normalize_name_forgives_what_humans_type(written, stored):
    assert normalize_name(written) == normalize_name(stored)


def test_normalize_name_keeps_different_names_apart():
    assert normalize_name("Fire Magic Stone") != normalize_name("Magic Stone of Flame")


def test_normalize_printing():
    assert normalize_printing(" cmf-001 ") == "CMF-001"


@pytest.mark.parametrize(
    "written,stored",
    [("DD Crow", "D.D. Crow"), ("Aetherial Wing", "Ætherial Wing"), ("Blackwing Gale the Whirlwind", "Blackwing - Gale the Whirlwind")],
)
def test_names_fold_periods_ligatures_and_dashes(written, stored):
    assert normalize_name(written) == normalize_name(stored)


def test_names_in_other_scripts_keep_their_letters():
    assert normalize_name("ファリア") == "ファリア" and normalize_name("法莉娅") != normalize_name("ファリア")
    assert normalize_name("ＣＮｏ．３９") == normalize_name("CNo.39")


def test_japanese_voiced_marks_are_kept():
    assert normalize_name("ガ") != normalize_name("カ") and normalize_name("パ") != normalize_name("ハ")
    assert normalize_name("Bédivère") == "bedivere"
