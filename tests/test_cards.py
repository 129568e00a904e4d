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


def test_the_typo_search_by_length_finds_what_the_search_of_every_name_finds():
    """The corrector compares a misspelling only with names of a length a few edits can reach
    (``Corrector._of_length_near``): exactly the corrections of comparing every name, on
    misspellings of every kind (letters changed, dropped, added, up to three)."""
    import random

    from forcecheck.cards.catalog import sample_catalog
    from forcecheck.cards.correct import Corrector

    class EveryName(Corrector):
        def _of_length_near(self, length, edits):
            return self._typo_keys, list(range(len(self._typo_keys)))

    catalog = sample_catalog()
    names = sorted({card.name for card in catalog.cards("fow")} | {card.name for card in catalog.cards("ygo")})
    keys = [normalize_name(name) for name in names]
    by_length, everywhere = Corrector(keys, names), EveryName(keys, names)
    rng = random.Random(7)
    written = []
    for name in rng.sample(names, 300):
        letters = list(name)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(letters))
            choice = rng.random()
            if choice < 0.33:
                letters[at] = rng.choice("aeiourstln")
            elif choice < 0.66 and len(letters) > 1:
                del letters[at]
            else:
                letters.insert(at, rng.choice("aeiourstln"))
        written.append("".join(letters))
    found = [by_length.correct(w) for w in written]
    assert found == [everywhere.correct(w) for w in written]
    assert sum(f is not None for f in found) >= 100  # the comparison is of real corrections, not of misses alone
    from rapidfuzz import process
    from rapidfuzz.distance import OSA

    for w in written:  # and every name within the edits is among those compared, up to the boundary
        query = " ".join(normalize_name(w).split())
        for edits in (1, 2, 3):
            window, indices = by_length._of_length_near(len(query), edits)
            near = {index for _k, _d, index in process.extract(query, by_length._typo_keys, scorer=OSA.distance,
                                                                 score_cutoff=edits, limit=None)}
            assert near <= set(indices), (w, edits)
