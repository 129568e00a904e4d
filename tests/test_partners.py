"""Partner rulers: [Partner], [Tag] and [Aid] (CR 402.2, 1145, 1155, 1164), and the rules that read
every ruler in the ruler area."""

from __future__ import annotations

from conftest import FARIA_MAIN, FARIA_STONES, atom, deck_text, needs_shared, only, violations

ARISTELLA = "Aristella"  # [Partner] 1 (Moonchild); light and water
LIGHT_MOON = "Child of the Light Moon"  # a Moonchild ruler with «Bond»
FIRE_MOON = "Child of the Fire Moon"
MIKA = "Mika, Saint of the Solaris Order"  # a Human ruler with [Partner] of its own, no «Bond»


def aristella(rulers, **more) -> str:
    sections = {"ruler": [(1, name) for name in rulers], "main": FARIA_MAIN, "stones": FARIA_STONES}
    sections.update(more)
    return deck_text(**sections)


# --- [Partner] -------------------------------------------------------------------------------------

def test_aristella_with_one_moonchild_partner_is_legal():
    assert violations(aristella([ARISTELLA, LIGHT_MOON])) == []
    assert violations(aristella([ARISTELLA, LIGHT_MOON]), "wanderer") == []
    assert violations(aristella([ARISTELLA])) == []  # partners are optional


def test_aristella_with_two_moonchild_partners_is_illegal():
    found = violations(aristella([ARISTELLA, LIGHT_MOON, FIRE_MOON]))
    assert [(v.code, v.rule, v.section, v.found, v.limit, v.line) for v in found] == [
        ("FC702", "ruler-partners", "ruler", 2, "at most 1", 4)
    ]
    assert found[0].card == FIRE_MOON  # the one left over
    assert found[0].message == (
        "Aristella's [Partner] 1 (Moonchild) allows 1 card besides it; the ruler area has 2 "
        "(Child of the Light Moon, Child of the Fire Moon)"
    )


def test_aristella_with_a_partner_that_is_no_moonchild_is_illegal():
    v = only(aristella([ARISTELLA, MIKA]))
    assert (v.code, v.rule, v.section, v.card, v.line) == ("FC702", "ruler-partners", "ruler", MIKA, 3)
    assert v.message == (
        "Mika, Saint of the Solaris Order is not a partner Aristella's [Partner] 1 (Moonchild) allows (it has no «Bond»)"
    )


def test_either_ruler_may_be_the_starting_one():
    """The list does not say which ruler starts; the Moonchild listed first is no reason to fail."""
    assert violations(aristella([LIGHT_MOON, ARISTELLA])) == []


def test_two_copies_of_a_partner_share_a_name():
    v = only(deck_text(ruler=[(1, ARISTELLA), (2, LIGHT_MOON)], main=FARIA_MAIN, stones=FARIA_STONES))
    assert (v.code, v.rule, v.section, v.card, v.found, v.limit) == ("FC201", "ruler-copy-limit", "ruler", LIGHT_MOON, 2, "at most 1")


def test_a_ruler_and_its_j_ruler_on_two_lines_are_one_card():
    text = atom(ruler=[(1, "Atom Seikhart"), (1, "Atom Seikhart, the Shimmering Rabbit")])
    (v,) = violations(text)  # said on its line, never silently
    assert (v.code, v.severity, v.section, v.card, v.line) == ("FC011", "warning", "ruler", "Atom Seikhart", 3)
    assert "names Atom Seikhart again (or its other face)" in v.message
    assert [v.code for v in violations(atom(ruler=[(1, "Atom Seikhart"), (1, "Atom Seikhart [J-Ruler]")]))] == ["FC011"]
    # two [Tag] partners, each written with its J-ruler side, as published lists have them
    pair = [(1, "Beatrice"), (1, "Beatrice [J-Ruler]"), (1, "Carlina"), (1, "Carlina [J-Ruler]")]
    assert [(v.code, v.card, v.line) for v in violations(deck_text(ruler=pair, main=FARIA_MAIN, stones=FARIA_STONES))] == [
        ("FC011", "Beatrice", 3), ("FC011", "Carlina", 5)]
    v = only(atom(ruler=[(2, "Atom Seikhart")]))  # two copies written as two: CR 404.3
    assert (v.code, v.rule, v.card, v.found, v.limit) == ("FC201", "ruler-copy-limit", "Atom Seikhart", 2, "at most 1")


def test_a_partner_in_the_sideboard_counts_among_its_three_rulers():
    side = [(1, FIRE_MOON), (1, "Melgis"), (1, "Brunhild")]
    assert violations(aristella([ARISTELLA, LIGHT_MOON], side=side)) == []
    v = only(aristella([ARISTELLA, LIGHT_MOON], side=side + [(1, MIKA)]))
    assert (v.code, v.rule, v.section, v.found, v.limit) == ("FC101", "side-rulers", "side", 4, "at most 3")


def test_every_ruler_in_the_ruler_area_gives_the_rune_deck_its_attributes():
    """CR 402.6d: a rune shares an attribute with *one of* the starting rulers."""
    runes = [(1, "Explosion")]  # a fire rune that is no chant
    assert violations(aristella([ARISTELLA, FIRE_MOON], rune=runes)) == []
    v = only(aristella([ARISTELLA, LIGHT_MOON], rune=runes))
    assert (v.code, v.rule, v.section, v.card) == ("FC501", "rune-shares-ruler-attribute", "rune", "Explosion")
    assert "Aristella / Child of the Light Moon" in v.message


# --- [Tag] -----------------------------------------------------------------------------------------

def sages(rulers, fmt="bifrost"):
    return violations(deck_text(ruler=[(1, n) for n in rulers], main=FARIA_MAIN, stones=FARIA_STONES), fmt)


def test_tag_race_brings_one_more_ruler_of_its_tag():
    assert sages(["Almerius", "Zero, Apprentice Sage"]) == []
    assert sages(["Almerius"]) == []  # alone, "if possible" (CR 1145.4)
    found = sages(["Almerius", "Zero, Apprentice Sage", "Milest"])
    assert [(v.code, v.rule, v.found, v.limit) for v in found] == [("FC702", "ruler-partners", 2, "at most 1")]
    assert found[0].message.startswith("Almerius's [Tag] allows 1 card besides it; the ruler area has 2")


def test_tag_name_brings_the_named_ruler():
    nine_names = [(8, "Croco-Shark")] + FARIA_MAIN[:8]  # Neun: exactly nine card names

    def neun(rulers):
        return violations(deck_text(ruler=[(1, n) for n in rulers], main=nine_names, stones=FARIA_STONES))

    assert neun(["Neun", "Sechs"]) == []
    assert neun(["Sechs", "Neun"]) == []
    v = only(deck_text(ruler=[(1, "Neun"), (1, "Almerius")], main=nine_names, stones=FARIA_STONES))
    assert (v.code, v.rule, v.card) == ("FC702", "ruler-partners", "Almerius")
    assert v.message == 'Almerius is not a partner Neun\'s [Tag] "Sechs" allows'


# --- [Aid] -----------------------------------------------------------------------------------------

def test_aid_sub_ruler_joins_the_ruler_it_names_only():
    poison = [(4, "Poison Apple")] + FARIA_MAIN[:9]
    assert violations(deck_text(ruler=[(1, "Snow White"), (1, "Basket of Apples")], main=poison, stones=FARIA_STONES)) == []
    v = only(deck_text(ruler=[(1, "Faria"), (1, "Basket of Apples")], main=FARIA_MAIN, stones=FARIA_STONES))
    assert (v.code, v.rule, v.card) == ("FC702", "ruler-partners", "Basket of Apples")
    assert v.message == "Basket of Apples is not a ruler; a sub-ruler starts in the ruler area only by an [Aid] naming the ruler (Faria)"


# --- Wanderer: who may start (CR 402.2) ------------------------------------------------------------

def test_an_arcana_ruler_cannot_start_in_wanderer():
    arcana = "Arcana: Guardian of the Temple"
    text = atom(ruler=arcana, rune=None)  # light cards: the Arcana's own condition holds
    assert violations(text, "bifrost") == []  # the Bifrost seed: the ruler is any one card
    v = only(text, "wanderer")
    assert (v.code, v.rule, v.section, v.card, v.line) == ("FC702", "ruler-partners", "ruler", arcana, 2)
    assert v.message.startswith("Arcana: Guardian of the Temple cannot be the starting ruler: ")


@needs_shared
def test_partners_on_the_real_catalog(real_fow_catalog):
    assert violations(aristella([ARISTELLA, LIGHT_MOON]), catalog=real_fow_catalog) == []
    found = violations(aristella([ARISTELLA, LIGHT_MOON, FIRE_MOON]), catalog=real_fow_catalog)
    assert [(v.rule, v.found, v.limit) for v in found] == [("ruler-partners", 2, "at most 1")]
    found = violations(aristella(["Hyde, Solitary Assassin", "X, Black Cat"]), catalog=real_fow_catalog)
    assert [v.rule for v in found if v.rule == "ruler-partners"] == []
