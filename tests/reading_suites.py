"""What the CI shape and mutation suites run (issue 28), in one place with their known failures.

The shape suite writes every CI deck in every shape it can say. The mutation suite runs each
(family, shape) cell once: on one CI deck the family applies to and the shape can say, taken in
turn by a stable hash of the cell (so over the cells every deck of both games is used, and a cell
always uses the same deck). ``copy-over-as:*`` families (a count form unlike the list's own) run in
CI_FORM_SHAPES only, the common-word families for CI_WORDS only, the comment-like and title-like
lines in CI_VARIANTS only; benchmarks/mutation_hunt.py runs them all, on many decks of the real
catalogs.

    python tests/reading_suites.py      # today's failing cells, as KNOWN_FAILURES lines

prints the cells that fail today, each with the cause tests/reading_known_failures.py gives
its pattern: paste them over the table after a reader change (and read the diff).
"""

from __future__ import annotations

import functools
import sys
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import deck_mutations as dm  # noqa: E402
import deck_shapes as ds  # noqa: E402

CI_FORM_SHAPES = ("plain", "name-x", "groups", "no-headers", "prose-above")
"""Shapes the copy-over-as:<form> families run in on CI: a plain list, a count-after list, type
groups, no headers, prose above."""
CI_WORDS = {f"common-word:{word}" for word in dm.CI_WORDS}
CI_VARIANTS = {"comment-line:hash", "comment-line:slashes", "title-line:top8", "title-line:first-place", "title-line:banned"}
"""Of the comment-like and title-like line families, those CI runs in every shape (the others are
the same mistake with another prefix; the benchmark runs them)."""


@functools.cache
def reader() -> ds.Reader:
    return ds.ci_reader()


@functools.cache
def decks() -> dict[str, ds.Deck]:
    return ds.ci_decks(reader())


def expressible(deck_or_mutant, shape_name: str) -> bool:
    deck = deck_or_mutant.deck if isinstance(deck_or_mutant, dm.Mutant) else deck_or_mutant
    try:
        reader().render(deck, shape_name)
    except ds.NotExpressible:
        return False
    return True


@functools.cache
def shape_cells() -> tuple[tuple[str, str], ...]:
    """(deck, shape) for every CI deck and every shape that can say it."""
    return tuple((key, name) for key, deck in decks().items() for name in ds.SHAPES if expressible(deck, name))


@functools.cache
def mutant(family_name: str, deck_key: str) -> dm.Mutant | None:
    deck = decks()[deck_key]
    return dm.FAMILIES[family_name].make(deck, reader().facts_for(deck), None)


def runs_in_ci(family_name: str, shape_name: str) -> bool:
    if family_name.startswith("copy-over-as:"):
        return shape_name in CI_FORM_SHAPES
    if family_name.startswith("common-word:"):
        return family_name in CI_WORDS
    if family_name.startswith(("comment-line:", "title-line:")):
        return family_name in CI_VARIANTS
    return True


@functools.cache
def mutation_cells() -> dict[tuple[str, str], dm.Mutant]:
    """(family, shape) -> the mutant it runs, on a deck taken in turn among those the family applies
    to and the shape can say (both games alike: over a family's shapes, each game has its share)."""
    cells = {}
    for family_name in dm.FAMILIES:
        for shape_name in ds.SHAPES:
            if not runs_in_ci(family_name, shape_name):
                continue
            candidates = [m for key in decks() for m in [mutant(family_name, key)] if m is not None and expressible(m, shape_name)]
            if candidates:
                cells[(family_name, shape_name)] = candidates[zlib.crc32(f"{family_name}|{shape_name}".encode()) % len(candidates)]
    return cells


def shape_failure(deck_key: str, shape_name: str) -> str | None:
    deck = decks()[deck_key]
    return ds.shape_verdict(reader(), deck, shape_name, reference(deck_key))


@functools.cache
def reference(deck_key: str) -> ds.ReadBack:
    return reader().reference(decks()[deck_key])


def mutation_failures(family_name: str, shape_name: str) -> list[str]:
    """What each false legal of the cell was (empty: none)."""
    m = mutation_cells()[(family_name, shape_name)]
    verdict = dm.judge(reader(), m, shape_name)
    return [dm.describe(verdict, m)] if verdict.false_legal else []


def shape_key(deck_key: str) -> str:
    """The KNOWN_FAILURES family of a shape-suite cell."""
    return f"read-back:{deck_key}"


def reference_key(deck_key: str) -> str:
    """The KNOWN_FAILURES shape of a mutant counted from its structured form (no line to read)."""
    return f"reference:{deck_key}"


def reference_cells() -> list[tuple[str, str]]:
    """(family, deck) for every family and every CI deck it has a mutant for."""
    return [(name, key) for name in dm.FAMILIES for key in decks() if mutant(name, key) is not None]


def reference_failure(family_name: str, deck_key: str) -> str | None:
    """None when the mutant, counted from its structured form, breaks the rule it names."""
    m = mutant(family_name, deck_key)
    verdict = dm.judge(reader(), m, dm.REFERENCE)
    return None if verdict.outcome == "caught" else dm.describe(verdict, m)


def main() -> int:
    from reading_known_failures import cause_of

    failing = []
    for key, name in shape_cells():
        if shape_failure(key, name):
            failing.append((shape_key(key), name))
    for family_name, shape_name in mutation_cells():
        if mutation_failures(family_name, shape_name):
            failing.append((family_name, shape_name))
    for family_name, deck_key in reference_cells():
        if reference_failure(family_name, deck_key):
            failing.append((family_name, reference_key(deck_key)))
    for key in sorted(failing):
        print(f"    {key!r}: {cause_of(*key)},")
    print(f"# {len(failing)} failing cells", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
