"""The shape suite (issue 28): every known deck, written in every shape players publish lists in,
reads back to the same sections and the same fingerprint as the deck itself.

The decks are the sample decks and conftest's lists as forcecheck reads them (tests/deck_shapes.py
``ci_decks``), each judged against its structured YAML form (``{name, count}`` entries: nothing to
read). Cells that fail today are in tests/reading_known_failures.py, as strict xfail: a fix shows
as XPASS (remove the entry), a new failure as a failure. benchmarks/mutation_hunt.py runs the
same shapes over many decks of the real catalogs.
"""

from __future__ import annotations

import pytest
from deck_shapes import COUNT_FORMS, SHAPES, Line, NotExpressible, shape_verdict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reading_known_failures import KNOWN_FAILURES
from reading_suites import decks, expressible, reader, reference, shape_cells, shape_failure, shape_key


def _cells():
    out = []
    for deck_key, shape_name in shape_cells():
        key = (shape_key(deck_key), shape_name)
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[key])] if key in KNOWN_FAILURES else []
        out.append(pytest.param(deck_key, shape_name, marks=marks, id=f"{shape_name}-{deck_key}"))
    return out


@pytest.mark.parametrize("deck_key, shape_name", _cells())
def test_every_shape_reads_back_as_the_deck(deck_key, shape_name):
    failure = shape_failure(deck_key, shape_name)
    assert failure is None, f"{deck_key} written as {shape_name} ({SHAPES[shape_name].example}): {failure}"


# --- the suite itself ---------------------------------------------------------------------------

def test_thirty_shapes_and_more_each_saying_some_deck_of_each_game_it_is_for():
    assert len(SHAPES) >= 30
    said = {name: set() for name in SHAPES}
    for key, shape in shape_cells():
        said[shape].add(decks()[key].game)
    assert {name: games for name, games in said.items() if games != set(SHAPES[name].games)} == {}


def test_every_count_form_the_readme_documents_is_a_shape():
    readme = ["4 Name", "4x Name", "4 x Name", "x4 \u2013 Name", "Name x4", "Name \u00d74", "Name 4\u679a", "Name (x4)",
              "4\u300aName\u300b", "4: Name", "4) Name", "4. Name", "4- Name", "Name [4]", "Name (4)", "(4) Name"]
    written = {template.format(c=4, n="Name", C="\uff14", code="X-1") for template in COUNT_FORMS.values()}
    assert [form for form in readme if form not in written] == []
    assert all(name in SHAPES for name in COUNT_FORMS)


def test_every_known_failure_is_a_cell_the_suites_run():
    from reading_suites import mutation_cells, reference_cells, reference_key

    cells = {(shape_key(d), s) for d, s in shape_cells()} | set(mutation_cells()) | {(f, reference_key(d)) for f, d in reference_cells()}
    assert sorted(set(KNOWN_FAILURES) - cells) == []


def test_the_reference_is_the_list_as_forcecheck_reads_it():
    """The structured form of each deck reads as the sample it came from: same sections and
    fingerprint, legal. So the suite compares with the deck, not with the writer's idea of it."""
    from conftest import SAMPLES

    faria = reader().read((SAMPLES / "bifrost" / "legal-faria-stranger.txt").read_text(encoding="utf-8"), decks()["faria"])
    assert (reference("faria").sections, reference("faria").fingerprint) == (faria.sections, faria.fingerprint)
    synchro = reader().read((SAMPLES / "ygo-5ds" / "legal-synchro-by-name.txt").read_text(encoding="utf-8"), decks()["ygo-synchro"])
    assert (reference("ygo-synchro").sections, reference("ygo-synchro").fingerprint) == (synchro.sections, synchro.fingerprint)
    assert all(reference(key).legal for key in decks())


def test_the_writer_writes_what_its_shape_says():
    faria, synchro = decks()["faria"], decks()["ygo-synchro"]
    lines = set(reader().render(faria, "name-bracket").splitlines())
    assert {"Viviane [4]", "Sideboard:", "Faria [1]"} <= lines
    assert ["Main Deck (40):", "Monsters (25)", "3x Card Trooper"] == reader().render(synchro, "groups").splitlines()[:3]
    assert "\u30b5\u30a4\u30af\u30ed\u30f3\u00d72" in reader().render(synchro, "ja-times").splitlines()  # Japanese names
    assert reader().render(faria, "ruler-j-codes").startswith("Ruler:\nFaria (SDAO1-026) //\nFaria [J-Ruler] (SDAO1-026J)\n")
    rows = reader().render(faria, "table-rows").splitlines()
    assert "Main Deck Stone Deck Side Board" in rows and "4 Avalon, Illusionary Home of Knights 3 Light Magic Stone 3 Miscalculation" in rows
    assert reader().render(faria, "plain") == reader().render(faria, "plain")  # deterministic


def test_a_shape_that_cannot_say_a_deck_says_so():
    with pytest.raises(NotExpressible):  # a magic stone in the main deck, with no header to say so
        reader().render(decks()["faria"].with_section("main", decks()["faria"].section("main") + (Line(1, "Light Magic Stone"),)), "no-headers")
    assert not expressible(decks()["speaker"], "no-headers")  # a Grimoire extra deck cannot be placed
    assert not expressible(decks()["ygo-synchro"], "code-after")  # no set codes in the Yu-Gi-Oh! catalog


def test_a_misread_is_seen():
    """The comparison can fail: a deck with a copy fewer, or a card in another section, against the
    first deck's reference."""
    faria = decks()["faria"]
    fewer = faria.with_section("main", [Line(3, "Viviane") if ln.name == "Viviane" else ln for ln in faria.section("main")])
    assert shape_verdict(reader(), fewer, "plain", reference("faria")).startswith("sections {")
    moved = fewer.with_section("side", faria.section("side") + (Line(1, "Viviane"),))
    assert shape_verdict(reader(), moved, "plain", reference("faria")).startswith("sections {")
    swapped = faria.with_section("side", [Line(3, "Miscalculation"), Line(3, "Excalibur")])
    assert shape_verdict(reader(), swapped, "plain", reference("faria")).startswith("same section sizes, other cards")


# --- decks drawn from the sample catalog (hypothesis, bounded) -------------------------------------

def _clean_shapes() -> dict[str, list[str]]:
    """Per game, the shapes that read back every CI deck of that game (no known failure)."""
    known = {shape for family, shape in KNOWN_FAILURES if family.startswith("read-back:")}
    return {game: sorted({s for k, s in shape_cells() if decks()[k].game == game and s not in known}) for game in ("fow", "ygo")}


@settings(max_examples=60, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_decks_drawn_from_the_sample_catalog_read_back_in_every_shape_that_reads_the_ci_decks(data):
    """Any main deck made of a CI deck's cards and other cards of the sample catalog, any counts:
    a shape that reads the CI decks back reads it back too (a fixed deck could hide a name or a
    count a shape misreads)."""
    base = decks()[data.draw(st.sampled_from(["faria", "atom", "abc-kabuki", "ygo-synchro"]))]
    main = list(base.section("main"))
    kept = data.draw(st.lists(st.sampled_from(range(len(main))), min_size=1, max_size=len(main), unique=True))
    others = data.draw(st.lists(st.sampled_from(reader().facts_for(base).pool("main", base)), max_size=4, unique=True))
    lines = [Line(data.draw(st.integers(1, 4)), name) for name in [main[i].name for i in sorted(kept)] + others]
    deck = base.with_section("main", lines)
    shape_name = data.draw(st.sampled_from(_clean_shapes()[base.game]))
    try:
        failure = shape_verdict(reader(), deck, shape_name)
    except NotExpressible:
        return
    assert failure is None, f"{shape_name}: {failure}"
