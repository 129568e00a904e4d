"""The wanderer format extends bifrost and changes only what CR 12.7 states differently."""

from __future__ import annotations

from conftest import ATOM_RUNES, FARIA_MAIN, atom, faria, only, violations

from forcecheck.format_spec.loader import load_format


def test_wanderer_extends_bifrost_and_changes_only_what_the_cr_says():
    bifrost = {r.id: r for r in load_format("bifrost").rules}
    wanderer = {r.id: r for r in load_format("wanderer").rules}
    assert set(wanderer) - set(bifrost) == {"rune-requires-divinity", "main-size-no-maximum", "banlist"}
    changed = {rid for rid in bifrost if bifrost[rid] != wanderer[rid]}
    assert changed == {"main-size", "rune-size", "ruler-partners"}


def test_main_deck_at_most_60():
    main60 = FARIA_MAIN + [(4, "Miscalculation"), (4, "Relief Aid"), (4, "Jewel Step"), (4, "Karmic Retribution"), (4, "Heavenly Fruit")]
    assert violations(faria(main=main60), "wanderer") == []
    main61 = main60 + [(1, "Demonflame")]
    v = only(faria(main=main61), "wanderer")
    assert (v.code, v.rule, v.section, v.found, v.limit) == ("FC101", "main-size", "main", 61, "40 to 60")
    assert violations(faria(main=main61), "bifrost") == []


def test_rune_deck_exactly_zero_or_five():
    assert violations(atom(), "wanderer") == []
    assert violations(atom(rune=None), "wanderer") == []
    v = only(atom(rune=ATOM_RUNES[:4]), "wanderer")
    assert (v.rule, v.found, v.limit) == ("rune-size", 4, "exactly 0 or 5")
    assert violations(atom(rune=ATOM_RUNES[:4]), "bifrost") == []


def test_rune_deck_needs_divinity():
    text = faria(rune=ATOM_RUNES)  # Faria has no Divinity; her attributes (light) still match the runes
    v = only(text, "wanderer")
    assert (v.code, v.rule, v.section, v.found) == ("FC701", "rune-requires-divinity", "rune", 5)
    assert violations(text, "bifrost") == []


def test_one_copy_of_a_ruler_between_the_ruler_area_and_the_sideboard():
    """CR 404.3: the starting ruler again in the sideboard is a second copy; another ruler there is
    not. The CR's deckbuilding rules hold under the seed's Bifrost deck too (issue 28)."""
    for format_name in ("wanderer", "bifrost"):
        v = only(faria(side=[(1, "Faria")]), format_name)
        assert (v.code, v.rule, v.section, v.card, v.found, v.limit) == ("FC201", "ruler-copy-limit", "ruler, side", "Faria", 2, "at most 1")
        assert v.message == "2 copies of Faria (Ruler 1, Sideboard 1); at most 1 allowed"
        assert violations(faria(side=[(1, "Atom Seikhart")]), format_name) == []
