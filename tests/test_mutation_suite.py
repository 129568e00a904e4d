"""The mutation suite (issue 28): one violation injected into a legal deck, written in every shape,
is never judged legal (a false legal), or, for a comment-like line, carries a finding on that line.

Families (tests/deck_mutations.py): a copy over the limit in every count form, on a second line, in
the sideboard; banned, Forbidden, Limited cards and combination bans; each section one card over
or under its size; a card in a section it cannot be in; a second ruler (another one, the same one
twice, a [Tag] ruler twice, one in the sideboard, 'A // B' with printing codes); the card on a
title-like first line or a comment-like line; a common word for a card; and issue 38's whole-line and whole-file
readings: a printing code beside another card (code-line:*), a card line as a metadata value
(metadata-line:*), a legal deck's ydke:// code beside an illegal text list (deck-code-beside), one ruler
face twice (second-ruler:bare-twice, :name-and-code); and the page shapes around every mutant (prose-*). Each (family, shape) cell
runs on one CI deck per game (tests/reading_suites.py); today's false legals are strict xfail
entries of tests/reading_known_failures.py. benchmarks/mutation_hunt.py runs thousands of mutants
over decks of the real catalogs.
"""

from __future__ import annotations

import dataclasses

import pytest
from deck_mutations import FAMILIES, Mutant, judge
from reading_known_failures import KNOWN_FAILURES
from reading_suites import decks, mutant, mutation_cells, mutation_failures, reader, reference_cells, reference_failure, reference_key, runs_in_ci


def _cells():
    out = []
    for family_name, shape_name in mutation_cells():
        key = (family_name, shape_name)
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[key])] if key in KNOWN_FAILURES else []
        out.append(pytest.param(family_name, shape_name, marks=marks, id=f"{family_name}-{shape_name}"))
    return out


@pytest.mark.parametrize("family_name, shape_name", _cells())
def test_no_mutant_is_judged_legal(family_name, shape_name):
    assert mutation_failures(family_name, shape_name) == []


# --- the mutants are what they say ----------------------------------------------------------------

def _references():
    out = []
    for family_name, deck_key in reference_cells():
        key = (family_name, reference_key(deck_key))
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[key])] if key in KNOWN_FAILURES else []
        out.append(pytest.param(family_name, deck_key, marks=marks, id=f"{family_name}-{deck_key}"))
    return out


@pytest.mark.parametrize("family_name, deck_key", _references())
def test_each_mutant_breaks_the_rule_it_names(family_name, deck_key):
    """Counted as a judge counts it (a structured list: no line to read), every mutant breaks its
    rule, with the rule's exact code: the suite's mutants are real violations. Where this fails
    the format lacks the rule, or a name is looked up wrong, whatever the shape."""
    assert reference_failure(family_name, deck_key) is None


def test_every_family_has_a_mutant_on_the_ci_decks():
    assert [name for name in FAMILIES if not any(mutant(name, key) for key in decks())] == []


def test_thirty_shapes_and_more_say_each_family():
    said: dict[str, set] = {name: set() for name in FAMILIES}
    for family_name, shape_name in mutation_cells():
        said[family_name].add(shape_name)
    ci = {name for name in FAMILIES if runs_in_ci(name, "plain") and not name.startswith("copy-over-as:")}
    assert {name: len(shapes) for name, shapes in said.items() if name in ci and len(shapes) < 30} == {}


def test_a_legal_deck_is_a_false_legal_and_a_comment_line_needs_a_finding():
    """The judge can fail: the unchanged deck passed off as a mutant is a false legal; a comment-like
    line is enough only with a finding on its very line."""
    faria = decks()["faria"]
    unchanged = Mutant("unchanged", faria, "nothing", ("FC201",))
    assert judge(reader(), unchanged, "plain").outcome == "false-legal"
    comment = mutant("comment-line:slashes", "faria")
    assert comment.marker == "// 1 Avalon, Illusionary Home of Knights"
    verdict = judge(reader(), comment, "plain")
    assert verdict.text.split("\n")[verdict.line - 1] == comment.marker and verdict.outcome == "said"  # FC015 on its line
    first_line = verdict.text.split("\n")[0]  # a line no finding names: a finding elsewhere is not enough
    silent = dataclasses.replace(comment, marker=first_line)
    assert not verdict.back.said_on(1) and judge(reader(), silent, "plain").outcome == "false-legal"


def test_the_issues_examples_are_mutants_here():
    """The lines issue 28 found judged legal are among the mutants, written as the issue writes them."""
    slash = mutant("second-ruler:slash-codes", "faria")
    assert slash.deck.section("ruler")[0].name == "Faria (SDAO1-026) // Melgis (SDAO1-028)"
    assert judge(reader(), slash, "plain").text.startswith("Ruler:\n1 Faria (SDAO1-026) // Melgis (SDAO1-028)\n")
    top = mutant("title-line:top8", "ygo-synchro")
    assert judge(reader(), top, "plain").text.startswith("Top 8: 1 Quillbolt Hedgehog\n")
    pcs = mutant("copy-over-as:pcs-code", "faria")
    assert "5pcs Avalon, Illusionary Home of Knights (BFA-001)" in judge(reader(), pcs, "plain").text.splitlines()
    paren = mutant("copy-over-as:paren-count", "ygo-synchro")
    assert "(4) Quillbolt Hedgehog" in judge(reader(), paren, "plain").text.splitlines()
    tagged = mutant("second-ruler:tag-twice", "astema-beatrice")
    assert [line.name for line in tagged.deck.section("ruler")] == ["Astema", "Beatrice", "Astema"]
