"""One violation injected into a legal deck (issue 28's mutation suite): every mutant is illegal,
and a checker that calls one legal has read the list wrong (a *false legal*).

Each family takes a legal :class:`deck_shapes.Deck` and returns a :class:`Mutant`: the deck with
one thing a judge would refuse (a copy over the limit, a banned card, a section one card over or
under its bound, a card where it cannot be, a second ruler, a card on a title-like or a
comment-like line, a common word for a card), or None when the deck cannot carry it. The shape
writes the mutant as it writes every deck, so each family is tried in every shape. Choices
(which card, which word) are the first by a fixed order, or drawn from ``rng`` when one is given
(the benchmark): deterministic either way.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from deck_shapes import COUNT_FORMS, FORMS_FOR_GAME, Deck, Facts, Line

# --- what a judge knows of the deck's limits ------------------------------------------------------


def ruler_keyword(deck: Deck, facts: Facts, keyword: str) -> int | None:
    values = [facts.card(line.name).keywords.get(keyword) for line in deck.section("ruler") if facts.card(line.name)]
    values = [v for v in values if v is not None]
    return max(values) if values else None


def copy_limit(deck: Deck, facts: Facts, name: str) -> int | None:
    """Copies of a card the whole deck may hold, for cards whose limit is the format's plain one
    (None: a card with its own rule or on the banlist, a basic magic stone, a card of the ruler area)."""
    card = facts.card(name)
    if card is None or card.copy_limit is not None or card.unlimited_copies:
        return None
    kinds = facts.kinds(name)
    if kinds & {"basic-magic-stone", "ruler", "j-ruler", "sub-ruler"}:
        return None
    if name in facts.caps:
        return None  # a banlist's cap: the banned-card families
    if deck.format == "abc":
        return 1
    if deck.game == "ygo":
        return 3
    if ruler_keyword(deck, facts, "singleton"):
        return 1
    return 4


def bounds(deck: Deck, facts: Facts, section_id: str) -> tuple[int, int | None] | None:
    """(least, most) cards the section may hold by the format's section-size rules (None: no bound
    the mutation can aim at, as a bound taken from a keyword the ruler lacks)."""
    low, high, found = 0, None, False
    for rule in facts.fmt.spec.rules:
        if rule.kind != "section-size" or list(rule.sections) != [section_id] or not _applies(rule, deck, facts):
            continue
        where = getattr(rule, "where", None)
        if where is not None and getattr(where, "not_", None) is None:
            continue  # a bound on some cards only (the sideboard's rulers): not the section's size
        values = {}
        for key in ("min", "max", "exactly"):
            value = getattr(rule, key, None)
            if value is not None:
                values[key] = _quantity(value, deck, facts)
                if values[key] is None:
                    return None
        one_of = getattr(rule, "one_of", None)
        if one_of:
            options = [_quantity(v, deck, facts) for v in one_of]
            if None in options:
                return None
            current = counted_size(deck, facts, section_id)
            if current not in options:
                return None
            values = {"exactly": current}
        if "exactly" in values:
            values = {"min": values["exactly"], "max": values["exactly"]}
        if "min" in values:
            low, found = max(low, values["min"]), True
        if "max" in values:
            high, found = values["max"] if high is None else min(high, values["max"]), True
    return (low, high) if found else None


def counted_size(deck: Deck, facts: Facts, section_id: str) -> int:
    """The cards of the section its size rule counts: the sideboard's 15 leave its rulers out."""
    left_out: set[str] = set()
    for rule in facts.fmt.spec.rules:
        where = getattr(rule, "where", None)
        if rule.kind == "section-size" and list(rule.sections) == [section_id] and where is not None and getattr(where, "not_", None):
            kinds = where.not_.type
            left_out |= {kinds} if isinstance(kinds, str) else set(kinds or ())
    return sum(line.count for line in deck.section(section_id) if not facts.kinds(line.card) & left_out)


def _quantity(value, deck: Deck, facts: Facts) -> int | None:
    if isinstance(value, int):
        return value
    return ruler_keyword(deck, facts, value.ruler)


def _applies(rule, deck: Deck, facts: Facts) -> bool:
    when = getattr(rule, "when", None)
    if when is None:
        return True
    has, lacks = getattr(when, "ruler_has", None), getattr(when, "ruler_lacks", None)
    if has and ruler_keyword(deck, facts, has.replace(" ", "-").lower()) is None:
        return False
    if lacks and ruler_keyword(deck, facts, lacks.replace(" ", "-").lower()) is not None:
        return False
    return True


# --- the mutant ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutant:
    family: str
    deck: Deck
    what: str
    """The violation, in words ("5 copies of Excalibur; at most 4")."""
    expect: tuple[str, ...]
    """The rule codes a judge would cite."""
    marker: str | None = None
    """The text of a comment-like line: a finding on that line is enough."""
    judged: Deck | None = None
    """The deck as a judge counts it, where the written deck holds lines that are no plain card
    line (a card on the title line, a comment-like line, two rulers on one line); else ``deck``."""

    @property
    def counted(self) -> Deck:
        return self.judged or self.deck


@dataclass(frozen=True)
class Family:
    name: str
    make: Callable[[Deck, Facts, random.Random | None], Mutant | None]
    what: str


FAMILIES: dict[str, Family] = {}


def family(name: str, what: str):
    def register(make):
        FAMILIES[name] = Family(name, make, what)
        return make

    return register


def pick(candidates: list, rng: random.Random | None, key=None):
    """The first candidate by ``key`` (CI), or one drawn from ``rng`` (the benchmark); None if none."""
    if not candidates:
        return None
    if rng is None:
        return sorted(candidates, key=key)[0] if key else candidates[0]
    return rng.choice(candidates)


def longest_first(name: str):
    return (-len(name), name)


def set_line(deck: Deck, section_id: str, name: str, line: Line) -> Deck:
    """The deck with the (first) line of ``name`` in the section replaced by ``line``."""
    lines = list(deck.section(section_id))
    index = next(i for i, old in enumerate(lines) if old.name == name and old.raw is None)
    lines[index] = line
    return deck.with_section(section_id, lines)


def insert_line(deck: Deck, section_id: str, line: Line, at: int | None = None) -> Deck:
    lines = list(deck.section(section_id))
    lines.insert(len(lines) if at is None else at, line)
    return deck.with_section(section_id, lines)


def take_one(deck: Deck, section_id: str, rng: random.Random | None, keep: Iterable[str] = ()) -> tuple[Deck, str] | None:
    """The deck with one copy fewer of a card of the section (a line of two or more copies first,
    so no line disappears), and the card's name."""
    keep = set(keep)
    lines = [line for line in deck.section(section_id) if line.raw is None and line.name not in keep]
    several = [line for line in lines if line.count >= 2]
    line = pick(several or lines, rng, key=lambda ln: (-ln.count, ln.name))
    if line is None:
        return None
    if line.count >= 2:
        return set_line(deck, section_id, line.name, Line(line.count - 1, line.name)), line.name
    return deck.with_section(section_id, [ln for ln in deck.section(section_id) if ln is not line]), line.name


def at_limit(deck: Deck, facts: Facts, rng, section_id: str = "main") -> tuple[str, int] | None:
    """A card of the section and its copy limit, preferring cards at the limit and long names (the
    ones a reader has misread as typos)."""
    found = []
    for line in deck.section(section_id):
        limit = copy_limit(deck, facts, line.name) if line.raw is None else None
        if limit is not None:
            found.append((deck.copies(line.name) < limit, line.name, limit))
    best = pick(found, rng, key=lambda f: (f[0], -len(f[1]), f[1]))
    return (best[1], best[2]) if best else None


# --- copies over the limit -----------------------------------------------------------------------

def _over(deck: Deck, facts: Facts, rng, form: str | None, family_name: str) -> Mutant | None:
    if form and deck.game not in FORMS_FOR_GAME.get(form, {deck.game}):
        return None
    chosen = at_limit(deck, facts, rng)
    if chosen is None:
        return None
    name, limit = chosen
    total = deck.copies(name)
    line = next(ln for ln in deck.section("main") if ln.name == name)
    count = line.count + limit + 1 - total
    mutated = set_line(deck, "main", name, Line(count, name, form=form))
    return Mutant(family_name, mutated, f"{limit + 1} copies of {name}; at most {limit}", ("FC201",))


@family("copy-over", "one copy over the limit on the card's own line, in the shape's count form")
def copy_over(deck, facts, rng):
    return _over(deck, facts, rng, None, "copy-over")


OVER_FORMS = [f for f in COUNT_FORMS if f not in ("plain", "code-after", "code-before", "bracket-code-x", "tab")]
"""Every count form of the README and of issue 28 (``4: Name``, ``Name [4]``, ``5pcs Name (CODE)``, ``(4) Name``...)."""

for _form in OVER_FORMS:
    family(f"copy-over-as:{_form}", f"one copy over the limit, that line written {COUNT_FORMS[_form]!r} whatever the shape's form")(
        lambda deck, facts, rng, _form=_form: _over(deck, facts, rng, _form, f"copy-over-as:{_form}"))


@family("copy-over-second-line", "the card at its limit on one line, one more copy on a second line of the same section")
def copy_over_second_line(deck, facts, rng):
    chosen = at_limit(deck, facts, rng)
    if chosen is None:
        return None
    name, limit = chosen
    extra = limit + 1 - deck.copies(name)
    return Mutant("copy-over-second-line", insert_line(deck, "main", Line(extra, name)),
                  f"{limit + 1} copies of {name} on two lines; at most {limit}", ("FC201",))


@family("copy-over-side", "the card at its limit in the main deck, one more copy in the sideboard")
def copy_over_side(deck, facts, rng):
    if deck.format == "abc":
        return None
    chosen = at_limit(deck, facts, rng)
    if chosen is None or deck.size("side") >= 15:
        return None
    name, limit = chosen
    extra = limit + 1 - deck.copies(name)
    return Mutant("copy-over-side", insert_line(deck, "side", Line(extra, name)),
                  f"{limit + 1} copies of {name} between main deck and sideboard; at most {limit}", ("FC201",))


# --- banned and limited cards --------------------------------------------------------------------

def banned_cards(deck: Deck, facts: Facts, cap: int = 0) -> list[str]:
    """Cards the deck's banlist caps at ``cap`` that a main deck could otherwise hold."""
    return [name for name, count in facts.caps.items() if count == cap and facts.card(name) is not None
            and facts.placed(name) == facts.fmt.rest and not facts.kinds(name) & {"ruler", "j-ruler", "sub-ruler", "token"}
            and deck.copies(name) == 0]


@family("banned", "one copy of a banned / Forbidden card in the main deck, in place of a copy of another card")
def banned(deck, facts, rng):
    name = pick(banned_cards(deck, facts), rng, key=longest_first)
    taken = take_one(deck, "main", rng) if name else None
    if taken is None:
        return None
    return Mutant("banned", insert_line(taken[0], "main", Line(1, name)), f"{name} is banned / Forbidden", ("FC601",))


@family("banned-side", "one copy of a banned / Forbidden card in the sideboard")
def banned_side(deck, facts, rng):
    name = pick(banned_cards(deck, facts), rng, key=lambda n: (len(n), n))
    if name is None or deck.format == "abc" or deck.size("side") >= 15:
        return None
    return Mutant("banned-side", insert_line(deck, "side", Line(1, name)), f"{name} is banned / Forbidden (sideboard)", ("FC601",))


@family("limited-over", "a Limited or Semi-Limited card at one copy over its cap")
def limited_over(deck, facts, rng):
    capped = [(name, cap) for name, cap in facts.caps.items() if cap in (1, 2) and facts.card(name) is not None
              and facts.placed(name) == facts.fmt.rest and not facts.kinds(name) & {"ruler", "j-ruler", "sub-ruler", "token"}]
    chosen = pick(capped, rng, key=lambda c: (-(deck.copies(c[0]) > 0), c[0]))
    if chosen is None:
        return None
    name, cap = chosen
    total = deck.copies(name)
    line = next((ln for ln in deck.section("main") if ln.name == name and ln.raw is None), None)
    if line is not None:
        mutated = set_line(deck, "main", name, Line(line.count + cap + 1 - total, name))
    elif total:
        return None
    else:
        mutated = insert_line(deck, "main", Line(cap + 1, name))
    return Mutant("limited-over", mutated, f"{cap + 1} copies of {name}, capped at {cap} by the banlist", ("FC601",))


@family("banned-combination", "both cards of a combination ban, one copy each in place of copies of other cards")
def banned_combination(deck, facts, rng):
    pairs = [pair for pair in facts.combinations if len(pair) == 2 and all(
        facts.card(n) is not None and facts.placed(n) == facts.fmt.rest and deck.copies(n) == 0
        and not facts.kinds(n) & {"ruler", "j-ruler", "sub-ruler"} for n in pair)]
    pair = pick(pairs, rng, key=lambda p: p)
    if pair is None:
        return None
    mutated = deck
    for name in pair:
        taken = take_one(mutated, "main", rng, keep=pair)
        if taken is None:
            return None
        mutated = insert_line(taken[0], "main", Line(1, name))
    return Mutant("banned-combination", mutated, f"{pair[0]} and {pair[1]} together (combination ban)", ("FC601",))


# --- section sizes -------------------------------------------------------------------------------

def _resize(deck: Deck, facts: Facts, rng, section_id: str, target: int) -> Deck | None:
    """The deck with the section at ``target`` cards: copies taken away, or added as more copies of
    its cards under their limit and then new cards from the catalog that fit the section."""
    current = counted_size(deck, facts, section_id)
    mutated = deck
    while current > target:
        taken = take_one(mutated, section_id, rng)
        if taken is None:
            return None
        mutated, current = taken[0], current - 1
    lines = list(mutated.section(section_id))
    for index, line in enumerate(lines):
        if current >= target or line.raw is not None:
            continue
        kinds = facts.kinds(line.name)
        room = target - current if "basic-magic-stone" in kinds else (copy_limit(mutated, facts, line.name) or 0) - mutated.copies(line.name)
        if section_id == "stranger":
            room = min(room, 2 - line.count)
        if room > 0:
            add = min(room, target - current)
            lines[index] = Line(line.count + add, line.name)
            mutated, current = mutated.with_section(section_id, lines), current + add
    for name in facts.pool(section_id, mutated):
        if current >= target:
            break
        limit = 2 if section_id == "stranger" else (1 if section_id in ("rune", "extra") and deck.game == "fow" else copy_limit(mutated, facts, name))
        if not limit:
            continue
        add = min(limit, target - current)
        mutated, current = insert_line(mutated, section_id, Line(add, name)), current + add
    return mutated if current == target else None


def _size(deck, facts, rng, section_id: str, over: bool) -> Mutant | None:
    bound = bounds(deck, facts, section_id)
    if bound is None or (not deck.section(section_id) and not over):
        return None
    low, high = bound
    if over and high is None or not over and low == 0:
        return None
    target = high + 1 if over else low - 1
    mutated = _resize(deck, facts, rng, section_id, target)
    if mutated is None:
        return None
    title = facts.titles.get(section_id, section_id)
    name = f"size-{'over' if over else 'under'}:{section_id}"
    return Mutant(name, mutated, f"{title} of {target} cards; {'at most ' + str(high) if over else 'at least ' + str(low)}", ("FC101",))


for _section in ("main", "stones", "stranger"):
    family(f"size-under:{_section}", f"the {_section} section one card under its least size")(
        lambda deck, facts, rng, _s=_section: _size(deck, facts, rng, _s, False))
for _section in ("main", "stones", "extra", "rune", "stranger", "side"):
    family(f"size-over:{_section}", f"the {_section} section one card over its largest size")(
        lambda deck, facts, rng, _s=_section: _size(deck, facts, rng, _s, True))


# --- a card where it cannot be -------------------------------------------------------------------

def _swap_in(deck: Deck, facts: Facts, rng, section_id: str, name: str | None, family_name: str, what: str,
             expect: tuple[str, ...]) -> Mutant | None:
    """One copy of ``name`` in ``section_id`` in place of a copy of one of its cards (sizes kept)."""
    if name is None or not deck.section(section_id):
        return None
    taken = take_one(deck, section_id, rng, keep=[name])
    if taken is None:
        return None
    return Mutant(family_name, insert_line(taken[0], section_id, Line(1, name)), what.format(name=name), expect)


def _candidates(deck: Deck, facts: Facts, test: Callable[[frozenset], bool]) -> list[str]:
    return [name for name in facts.names() if deck.copies(name) == 0 and name not in facts.caps and test(facts.kinds(name))]


@family("wrong-section:stone-in-main", "a special magic stone in the main deck")
def stone_in_main(deck, facts, rng):
    if deck.game != "fow":
        return None
    name = pick(_candidates(deck, facts, lambda k: "special-magic-stone" in k), rng, key=longest_first)
    return _swap_in(deck, facts, rng, "main", name, "wrong-section:stone-in-main", "{name}, a magic stone, in the main deck", ("FC302",))


@family("wrong-section:card-in-stones", "a main deck card in the magic stone deck")
def card_in_stones(deck, facts, rng):
    if deck.game != "fow":
        return None
    name = pick([ln.name for ln in deck.section("main") if ln.raw is None and "ruler" not in facts.kinds(ln.name)], rng, key=longest_first)
    if name is None:
        return None
    taken = take_one(deck, "stones", rng)
    if taken is None:
        return None
    return Mutant("wrong-section:card-in-stones", insert_line(taken[0], "stones", Line(1, name)),
                  f"{name} in the magic stone deck", ("FC301",))


@family("wrong-section:ruler-in-main", "a ruler card (an Arcana ruler in ABC) in the main deck")
def ruler_in_main(deck, facts, rng):
    if deck.game != "fow":
        return None
    test = (lambda k: "arcana" in k and "ruler" in k) if deck.format == "abc" else (lambda k: "ruler" in k)
    name = pick([n for n in _candidates(deck, facts, test) if n not in [ln.name for ln in deck.section("ruler")]], rng, key=longest_first)
    return _swap_in(deck, facts, rng, "main", name, "wrong-section:ruler-in-main", "{name}, a ruler, in the main deck", ("FC302", "FC301"))


@family("wrong-section:stranger-in-main", "a Stranger card in the main deck")
def stranger_in_main(deck, facts, rng):
    if deck.game != "fow" or deck.format == "abc":
        return None
    name = pick(_candidates(deck, facts, lambda k: "stranger" in k and "resonator" in k), rng, key=longest_first)
    return _swap_in(deck, facts, rng, "main", name, "wrong-section:stranger-in-main", "{name}, a Stranger card, in the main deck", ("FC302",))


@family("wrong-section:rune-in-main", "a rune that is no chant in the main deck")
def rune_in_main(deck, facts, rng):
    if deck.game != "fow":
        return None
    name = pick(_candidates(deck, facts, lambda k: "rune" in k and "chant" not in k), rng, key=longest_first)
    return _swap_in(deck, facts, rng, "main", name, "wrong-section:rune-in-main", "{name}, a rune, in the main deck", ("FC302", "FC301"))


@family("wrong-section:extra-monster-in-main", "a Synchro or Fusion monster in the main deck")
def extra_in_main(deck, facts, rng):
    if deck.game != "ygo":
        return None
    name = pick(_candidates(deck, facts, lambda k: bool(k & {"synchro", "fusion"})), rng, key=longest_first)
    return _swap_in(deck, facts, rng, "main", name, "wrong-section:extra-monster-in-main", "{name} in the main deck", ("FC302",))


@family("wrong-section:main-card-in-extra", "a spell or a main deck monster in the extra deck")
def main_in_extra(deck, facts, rng):
    if deck.game != "ygo":
        return None
    name = pick(_candidates(deck, facts, lambda k: ("spell" in k or "monster" in k) and not k & {"synchro", "fusion", "xyz", "link", "pendulum", "token"}),
                rng, key=longest_first)
    return _swap_in(deck, facts, rng, "extra", name, "wrong-section:main-card-in-extra", "{name} in the extra deck", ("FC301",))


@family("wrong-section:later-kind", "an Xyz, Pendulum or Link monster (none exist under the 5D's rule) in the extra deck")
def later_kind(deck, facts, rng):
    if deck.game != "ygo":
        return None
    name = pick(_candidates(deck, facts, lambda k: bool(k & {"xyz", "link"})), rng, key=longest_first)
    return _swap_in(deck, facts, rng, "extra", name, "wrong-section:later-kind", "{name}, of a kind the format has not", ("FC302",))


@family("wrong-section:token", "a token in the main deck")
def token(deck, facts, rng):
    if deck.game != "ygo":
        return None
    name = pick(_candidates(deck, facts, lambda k: "token" in k), rng, key=longest_first)
    return _swap_in(deck, facts, rng, "main", name, "wrong-section:token", "{name}, a token, in the main deck", ("FC302",))


@family("wrong-section:abc-sideboard", "a sideboard in ABC, which has none")
def abc_sideboard(deck, facts, rng):
    if deck.format != "abc":
        return None
    taken = take_one(deck, "main", rng)
    if taken is None:
        return None
    return Mutant("wrong-section:abc-sideboard", insert_line(taken[0], "side", Line(1, taken[1])), f"{taken[1]} in a sideboard", ("FC101", "FC301"))


# --- a second ruler ------------------------------------------------------------------------------

def _rulers(deck: Deck) -> list[str]:
    return [line.name for line in deck.section("ruler") if line.raw is None]


def other_ruler(deck: Deck, facts: Facts, rng) -> str | None:
    """A ruler the deck's rulers cannot have beside them: an Arcana ruler in ABC, elsewhere a
    ruler with no [Tag], [Partner] or [Aid] of its own that none of the deck's rulers names."""
    own = set(_rulers(deck))
    if deck.format == "abc":
        found = [n for n in facts.names() if {"ruler", "arcana"} <= facts.kinds(n) and n not in own]
    else:
        partnered = {c.get("kind") for n in own if facts.card(n) for c in facts.card(n).conditions}
        if partnered & {"tag", "partner", "aid"}:
            own_subtypes = {s for n in own for s in facts.card(n).subtypes}
            found = [n for n in facts.names() if "ruler" in facts.kinds(n) and n not in own and "arcana" not in facts.kinds(n)
                     and not {c.get("kind") for c in facts.card(n).conditions} and not facts.card(n).subtypes & own_subtypes
                     and not facts.card(n).keywords]
        else:
            found = [n for n in facts.names() if "ruler" in facts.kinds(n) and n not in own and "arcana" not in facts.kinds(n)
                     and not {c.get("kind") for c in facts.card(n).conditions} and not facts.card(n).unchecked]
        found = [n for n in found if n not in facts.caps and "j-ruler" not in facts.kinds(n)]
    # a ruler that could lead the deck alone first (Melgis beside Faria: both [Stranger] 10): if
    # the reader keeps only one of the two, the deck still looks legal
    same = {tuple(sorted(facts.card(n).keywords.items())) for n in own if facts.card(n)}
    return pick(found, rng, key=lambda n: (tuple(sorted(facts.card(n).keywords.items())) not in same, len(n), n))


def _fow_ruler(deck: Deck) -> bool:
    return deck.game == "fow" and bool(deck.section("ruler"))


@family("second-ruler:other", "a second, different ruler in the ruler area that the first has no [Tag]/[Partner] for (ABC: a second Arcana ruler)")
def second_ruler_other(deck, facts, rng):
    name = other_ruler(deck, facts, rng) if _fow_ruler(deck) else None
    if name is None:
        return None
    return Mutant("second-ruler:other", insert_line(deck, "ruler", Line(1, name)), f"{name} beside {_rulers(deck)[0]}", ("FC702", "FC101", "FC301"))


@family("second-ruler:twice", "the ruler written with two copies on its line")
def second_ruler_twice(deck, facts, rng):
    if not _fow_ruler(deck):
        return None
    name = _rulers(deck)[-1]
    return Mutant("second-ruler:twice", set_line(deck, "ruler", name, Line(2, name)), f"two copies of {name} in the ruler area",
                  ("FC702", "FC101", "FC201"))


@family("second-ruler:two-lines", "the ruler written on two lines of the ruler area")
def second_ruler_two_lines(deck, facts, rng):
    if not _fow_ruler(deck):
        return None
    name = _rulers(deck)[-1]
    return Mutant("second-ruler:two-lines", insert_line(deck, "ruler", Line(1, name)), f"two copies of {name} in the ruler area",
                  ("FC702", "FC101", "FC201"))


@family("second-ruler:tag-twice", "a ruler with [Tag] or [Partner] twice in the ruler area (it is no partner of itself)")
def second_ruler_tag_twice(deck, facts, rng):
    if not _fow_ruler(deck):
        return None
    tagged = [n for n in _rulers(deck) if {c.get("kind") for c in facts.card(n).conditions} & {"tag", "partner"}]
    name = pick(tagged, rng)
    if name is None:
        return None
    return Mutant("second-ruler:tag-twice", insert_line(deck, "ruler", Line(1, name)), f"two copies of {name}, a [Tag]/[Partner] ruler",
                  ("FC702", "FC201"))


@family("second-ruler:in-side", "the ruler in the ruler area and a copy in the sideboard (CR 404.3)")
def second_ruler_in_side(deck, facts, rng):
    if not _fow_ruler(deck) or deck.format == "abc" or deck.size("side") >= 15:
        return None
    name = _rulers(deck)[0]
    return Mutant("second-ruler:in-side", insert_line(deck, "side", Line(1, name)), f"{name} in the ruler area and the sideboard (CR 404.3)",
                  ("FC201",))


@family("second-ruler:bare-twice", "the ruler's name on two lines of the ruler area, no count on either (CR 404.3: two copies)")
def second_ruler_bare_twice(deck, facts, rng):
    if not _fow_ruler(deck) or len(_rulers(deck)) != 1:
        return None
    name = _rulers(deck)[0]
    mutated = set_line(deck, "ruler", name, Line(1, name, raw=name))
    mutated = insert_line(mutated, "ruler", Line(1, name, raw=name))
    return Mutant("second-ruler:bare-twice", mutated, f"'{name}' twice in the ruler area: two copies", ("FC702", "FC101", "FC201"),
                  judged=insert_line(deck, "ruler", Line(1, name)))


@family("second-ruler:name-and-code", "'1 Faria' and '1 SDAO1-026' (its own code, the same face) in the ruler area")
def second_ruler_name_and_code(deck, facts, rng):
    if not _fow_ruler(deck) or len(_rulers(deck)) != 1:
        return None
    name = _rulers(deck)[0]
    code = facts.code(name)
    if code is None:
        return None
    return Mutant("second-ruler:name-and-code", insert_line(deck, "ruler", Line(1, code, raw=f"1 {code}")),
                  f"'1 {name}' and '1 {code}': two copies of one face", ("FC702", "FC101", "FC201"),
                  judged=insert_line(deck, "ruler", Line(1, name)))


def _slashed(deck, facts, rng, family_name: str, style: str) -> Mutant | None:
    if not _fow_ruler(deck) or len(_rulers(deck)) != 1:
        return None
    first = _rulers(deck)[0]
    second = other_ruler(deck, facts, rng)
    if second is None:
        return None
    if style == "codes":
        a, b = facts.code(first), facts.code(second)
        if not a or not b:
            return None
        text = f"{first} ({a}) // {second} ({b})"
    else:
        text = f"{first} {style} {second}"
    line = Line(1, text, places_as=first)
    return Mutant(family_name, set_line(deck, "ruler", first, line), f"'{text}' on the ruler line: two rulers, not one card's faces",
                  ("FC702", "FC101"), judged=insert_line(deck, "ruler", Line(1, second)))


family("second-ruler:slash", "'Faria / Melgis' on the ruler line")(lambda d, f, r: _slashed(d, f, r, "second-ruler:slash", "/"))
family("second-ruler:double-slash", "'Faria // Melgis' on the ruler line")(lambda d, f, r: _slashed(d, f, r, "second-ruler:double-slash", "//"))
family("second-ruler:slash-codes", "'Faria (SDAO1-026) // Melgis (SDAO1-028)' on the ruler line")(
    lambda d, f, r: _slashed(d, f, r, "second-ruler:slash-codes", "codes"))


# --- a printing code on a line that holds another card too (issue 38, cause 1) -------------------

CODE_LINES = {"slashes": "{c} {y} ({code}) // {x}", "slashes-code-last": "{c} {x} // {y} ({code})",
              "comma": "{c} {y} ({code}), {x}", "space": "{c} {y} ({code}) {x}", "other-name": "{c} {x} ({code})"}


def _code_line(deck, facts, rng, key: str) -> Mutant | None:
    chosen = at_limit(deck, facts, rng)
    if chosen is None:
        return None
    x, limit = chosen
    coded = [(ln, facts.code(ln.name) or facts.passcode(ln.name)) for ln in deck.section("main") if ln.raw is None and ln.name != x]
    y = pick([(ln, code) for ln, code in coded if code], rng, key=lambda item: item[0].name)
    if y is None:
        return None
    line, code = y
    if deck.copies(x) + line.count <= limit:
        return None  # x below its limit (at_limit prefers, not requires, one at it): read too, it breaks no rule
    text = CODE_LINES[key].format(c=line.count, y=line.name, x=x, code=code)
    mutated = set_line(deck, "main", line.name, Line(line.count, line.name, raw=text))
    if key == "other-name":  # the words name x, the code y: as a judge reads the words, x is over its limit
        judged = insert_line(_without(deck, line.name), "main", Line(line.count, x))
        return Mutant(f"code-line:{key}", mutated, f"'{text}': the words name {x} ({deck.copies(x) + line.count} copies; at most {limit}), "
                      f"the code {line.name}", ("FC201", "FC014"), judged=judged)
    return Mutant(f"code-line:{key}", mutated, f"'{text}': {x} is read too ({deck.copies(x) + line.count} copies; at most {limit})",
                  ("FC201", "FC014"), judged=insert_line(deck, "main", Line(line.count, x)))


def _without(deck: Deck, name: str) -> Deck:
    return deck.with_section("main", [ln for ln in deck.section("main") if ln.name != name])


for _key, _text in CODE_LINES.items():
    family(f"code-line:{_key}", f"{_text.format(c=1, y='Name', x='Other', code='CODE')!r}: a printing code and another card on one line")(
        lambda d, f, r, _key=_key: _code_line(d, f, r, _key))


# --- a card on a line that looks like something else ---------------------------------------------

TITLE_PREFIXES = {"top8": "Top 8: ", "first-place": "1st Place: ", "winner": "Winner - ", "deck": "Deck: "}


def one_copy_over(deck: Deck, facts: Facts, rng) -> tuple[str, int, int] | None:
    """A card at (or near) its limit, its limit, and the copies one more line must hold to put it
    one over: what the title-like, metadata and comment-like line families each write."""
    chosen = at_limit(deck, facts, rng)
    if chosen is None:
        return None
    name, limit = chosen
    return name, limit, limit + 1 - deck.copies(name)


def _title_line(deck, facts, rng, key: str) -> Mutant | None:
    over = one_copy_over(deck, facts, rng)
    if over is None:
        return None
    name, limit, extra = over
    line = Line(extra, name, prefix=TITLE_PREFIXES[key])
    return Mutant(f"title-line:{key}", deck.replace(top=(line,)), f"'{TITLE_PREFIXES[key]}{extra} {name}' as the first line: {limit + 1} copies; at most {limit}",
                  ("FC201",), judged=insert_line(deck, "main", Line(extra, name)))


for _key in TITLE_PREFIXES:
    family(f"title-line:{_key}", f"the first line {TITLE_PREFIXES[_key]!r} + a card line holding one copy over the limit")(
        lambda d, f, r, _key=_key: _title_line(d, f, r, _key))


@family("title-line:banned", "'1st Place: 1 Magical Dragon': a banned card on a title-like first line")
def title_line_banned(deck, facts, rng):
    name = pick(banned_cards(deck, facts), rng, key=lambda n: (len(n), n))
    if name is None:
        return None
    return Mutant("title-line:banned", deck.replace(top=(Line(1, name, prefix="1st Place: "),)), f"'1st Place: 1 {name}': {name} is banned",
                  ("FC601",), judged=insert_line(deck, "main", Line(1, name)))


METADATA_PREFIXES = {"player": "Player: ", "date": "Date: ", "event": "Event: "}


def _metadata_line(deck, facts, rng, key: str) -> Mutant | None:
    over = one_copy_over(deck, facts, rng)
    if over is None:
        return None
    name, limit, extra = over
    if key == "event" and extra != 1:
        return None  # 'Event: Name' says one copy, by the card's exact name
    text = f"{METADATA_PREFIXES[key]}{name}" if key == "event" else f"{METADATA_PREFIXES[key]}{extra} {name}"
    return Mutant(f"metadata-line:{key}", deck.replace(top=(Line(extra, name, raw=text),)),
                  f"'{text}' above the list: {limit + 1} copies if it is a card line; at most {limit}", ("FC201", "FC014"),
                  judged=insert_line(deck, "main", Line(extra, name)))


for _key in METADATA_PREFIXES:
    family(f"metadata-line:{_key}", f"'{METADATA_PREFIXES[_key]}1 Name' (a metadata line whose value is a card line) above the list")(
        lambda d, f, r, _key=_key: _metadata_line(d, f, r, _key))


@family("deck-code-beside", "the list with one copy over the limit, and the legal deck's ydke:// code in a comment under it")
def deck_code_beside(deck, facts, rng):
    if deck.game != "ygo":
        return None
    from forcecheck.decklists.ydke import encode

    parts = []
    for section_id in ("main", "extra", "side"):
        codes = []
        for line in deck.section(section_id):
            code = facts.passcode(line.name)
            if code is None or line.raw is not None:
                return None
            codes += [int(code)] * line.count
        parts.append(codes)
    over = _over(deck, facts, rng, None, "deck-code-beside")
    if over is None:
        return None
    text = f"# ydke: {encode(*parts)}"
    return Mutant("deck-code-beside", over.deck.replace(top=(Line(0, "code", raw=text),)),
                  f"{over.what}, and a ydke:// code of the legal deck in a comment", ("FC201", "FC014"), judged=over.deck)


COMMENT_STYLES = {"hash": "#{c} {n}", "hash-space": "# {c} {n}", "slashes": "// {c} {n}", "slashes-tight": "//{c}x {n}"}


def _comment_line(deck, facts, rng, key: str) -> Mutant | None:
    over = one_copy_over(deck, facts, rng)
    if over is None:
        return None
    name, limit, extra = over
    text = COMMENT_STYLES[key].format(c=extra, n=name)
    return Mutant(f"comment-line:{key}", insert_line(deck, "main", Line(extra, name, raw=text), at=1),
                  f"'{text}' inside the main deck: {limit + 1} copies if counted, else a finding on its line", ("FC201",), marker=text,
                  judged=insert_line(deck, "main", Line(extra, name), at=1))


for _key, _style in COMMENT_STYLES.items():
    family(f"comment-line:{_key}", f"{_style.format(c=1, n='Name')!r} inside the list, one copy over the limit: illegal, or a finding on that line")(
        lambda d, f, r, _key=_key: _comment_line(d, f, r, _key))


COMMON_WORDS = ["Dragon", "Moon", "Sword", "Bear", "Knight", "Angel", "Storm", "Wolf", "Light", "Fire", "Magic", "Force",
                "Warrior", "Queen", "Hole", "Wave"]
CI_WORDS = COMMON_WORDS[:4]


def _common_word(deck, facts, rng, word: str) -> Mutant | None:
    if facts.exact(word):
        return None  # the word is a card's whole name
    taken = take_one(deck, "main", rng)
    if taken is None:
        return None
    return Mutant(f"common-word:{word}", insert_line(taken[0], "main", Line(1, word)),
                  f"'1 {word}' in place of a copy of {taken[1]}: no card is named {word}", ("FC001",))


for _word in COMMON_WORDS:
    family(f"common-word:{_word}", f"'1 {_word}' (a word that is only a part of card names) in place of a copy of a main deck card")(
        lambda d, f, r, _word=_word: _common_word(d, f, r, _word))


# --- judging a mutant ----------------------------------------------------------------------------


@dataclass
class Verdict:
    outcome: str
    """``caught`` (an error of a rule the mutation breaks), ``caught-other`` (illegal, by other
    errors only), ``said`` (a comment-like line not counted, with a finding on it) or ``false-legal``."""
    text: str
    back: object
    line: int | None = None
    """The line of the comment-like line, where the mutant has one."""

    @property
    def false_legal(self) -> bool:
        return self.outcome == "false-legal"


REFERENCE = "reference"
"""The pseudo-shape of the deck a judge counts, as a YAML list of {name, count}: nothing to read."""


def judge(reader, mutant: Mutant, shape_name: str) -> Verdict:
    """The mutant written in the shape and checked (NotExpressible when the shape cannot say it);
    in REFERENCE, the deck a judge counts, which proves the mutant breaks the rule it names."""
    if shape_name == REFERENCE:
        from deck_shapes import reference_yaml

        text = reference_yaml(mutant.counted)
        back = reader.read(text, mutant.counted, ".yaml")
    else:
        text, back = reader.read_shape(mutant.deck, shape_name)
    line = None
    if mutant.marker is not None and shape_name != REFERENCE:
        line = next(i for i, written in enumerate(text.split("\n"), start=1) if written == mutant.marker)
    codes = {code for code, _line, _message in back.errors}
    if codes & set(mutant.expect):
        outcome = "caught"
    elif back.error or not back.legal:
        outcome = "caught-other"
    elif line is not None and back.said_on(line):
        outcome = "said"
    else:
        outcome = "false-legal"
    return Verdict(outcome, text, back, line)


def describe(verdict: Verdict, mutant: Mutant) -> str:
    """One line for a report: what was injected, and what forcecheck made of it."""
    found = "; ".join(f"{code} line {line}: {message}" for code, line, message in verdict.back.errors[:2]) or "no error"
    return f"{mutant.deck.key}: {mutant.what} -> {verdict.outcome} ({verdict.back.sections}; {found})"
