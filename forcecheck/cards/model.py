"""The ``Card`` fact record.

Cards are plain frozen records (``forcecheck.records``), not pydantic models: a batch check
touches millions of card facts and must not pay validation for data the importer already validated.
Vocabulary (all lower-case slugs, so specs can name them without caring about spelling):

* ``types``: card types, e.g. ``ruler``, ``j-ruler``, ``resonator``, ``chant``, ``rune``,
  ``master-rune``, ``magic-stone``, ``basic-magic-stone``, ``special-magic-stone``; Yu-Gi-Oh
  ``monster``, ``spell``, ``trap``, ``fusion``, ``synchro``, ...
* ``subtypes``: races and other sub-types, e.g. ``stranger``, ``story``, ``arcana``,
  ``fire-magic-stone``.
* ``attributes``: ``light``, ``fire``, ``water``, ``wind``, ``darkness`` (FoW); empty = no
  attribute (void). For deckbuilding a card has the information of all its faces (CR 404.8),
  so ``attributes`` is the union over faces; each ``Face`` keeps its own.
* ``keywords``: deckbuilding keywords with their number, e.g. ``{"stranger": 10}``,
  ``{"grimoire": 5}``, ``{"divinity": 10}``, ``{"singleton": 1}``, ``{"crew-ex-deck": 10}``;
  the keywords a card merely has count 1 (``bond``, ``tales``, ``villains``, ``will-of-hope``).
* ``conditions``: the card's own deckbuilding text as data (``forcecheck.cards.conditions``).
* ``regions``: where the card was released (Yu-Gi-Oh ``ocg``, ``tcg``: a YGOPro database's
  ``ot``), for a format's card pool; per printing where one printing differs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forcecheck.records import Record


class Face(Record, frozen=True):
    """One side of a card (ruler / J-ruler, the two sides of a shift card, ...)."""

    name: str
    types: frozenset[str]
    subtypes: frozenset[str]
    attributes: frozenset[str]
    cost: str
    total_cost: int

    __slots__ = ("name", "types", "subtypes", "attributes", "cost", "total_cost")

    def __init__(
        self,
        name: str,
        types: frozenset[str] = frozenset(),
        subtypes: frozenset[str] = frozenset(),
        attributes: frozenset[str] = frozenset(),
        cost: str = "",
        total_cost: int = 0,
    ) -> None:
        _set = object.__setattr__
        _set(self, "name", name)
        _set(self, "types", types)
        _set(self, "subtypes", subtypes)
        _set(self, "attributes", attributes)
        _set(self, "cost", cost)
        _set(self, "total_cost", total_cost)


class Card(Record, frozen=True, eq=False):
    """Everything a deckbuilding rule may ask about one card (one name = one card).

    Cards compare and hash by identity (each catalog holds one object per card), so rules can
    key caches by the card itself; compare ``to_dict()`` to compare facts."""

    name: str
    game: str
    types: frozenset[str]
    subtypes: frozenset[str]
    attributes: frozenset[str]
    cost: str
    total_cost: int
    faces: tuple[Face, ...]
    keywords: Mapping[str, int]
    copy_limit: int | None
    """The card's own copy limit ("up to twelve copies"), if its text sets one."""
    unlimited_copies: bool
    """The card's text allows any number of copies."""
    will: frozenset[str]
    """Attributes of will this card can produce (a magic stone's ``Produce {R}``)."""
    conditions: tuple[Mapping[str, Any], ...]
    """The card's deckbuilding text as data: "only darkness and/or Cthulhu cards", "[Partner]
    1 (Moonchild)", ... (kinds in ``forcecheck.cards.conditions``)."""
    unchecked: tuple[str, ...]
    """Deckbuilding text of the card that forcecheck does not model: a deck using the card as
    its ruler is warned about each, never silently passed."""
    printings: tuple[str, ...]
    """Printing codes or passcodes (``CMF-001``, ``44508094``), all resolving to this card."""
    aliases: tuple[str, ...]
    """Other names that resolve to this card (other faces' names, alternate names)."""
    split: bool
    """An Alternative card (CR 1307): its faces are two halves of one card face, so its total
    cost is the two halves' combined (1307.5b), whatever a format says of double-faced cards."""
    lang: str
    """Language of ``name`` and ``aliases``: the card's base names. ``name`` is the card's
    identity (fingerprints, banlists by name, reports), whatever language a list is written in."""
    names: Mapping[str, tuple[str, ...]]
    """The card's names in other languages (``{"ja": ("ダーク・アームド・ドラゴン",)}``), the
    printed name first and then its other names there (alternate artworks, other faces)."""
    regions: frozenset[str] | None
    """Where the card was released, in any of its printings (Yu-Gi-Oh ``ocg``, ``tcg``); None
    when the card data says nothing (another game, or a catalog imported before forcecheck read
    it): a format's card pool then cannot judge the card, and says so."""
    printing_regions: Mapping[str, frozenset[str]]
    """The printings released in other regions than ``regions`` says of the card (an OCG
    printing and a TCG printing of one card under two passcodes): a list that names a printing
    is judged by it, as YGOPro judges a passcode."""
    printing_names: Mapping[str, str]
    """The printings with a name of their own: a card "treated as" this one (``Harpie Lady 1``
    is always treated as ``Harpie Lady``) counts as it for copies and lists, but is a card of
    its own in a card pool."""
    printing_types: Mapping[str, frozenset[str]]
    """The types of a printing whose types are not the card's: a card "treated as" this one
    may be another kind of card (``Neo-Spacian Marine Dolphin`` is a Fusion monster treated
    as the Effect monster ``Neo-Spacian Aqua Dolphin``), and goes where its own kind goes."""

    __slots__ = (
        "name", "game", "types", "subtypes", "attributes", "cost", "total_cost", "faces", "keywords",
        "copy_limit", "unlimited_copies", "will", "conditions", "unchecked", "printings", "aliases", "split",
        "lang", "names", "regions", "printing_regions", "printing_names", "printing_types"
    )

    def __init__(
        self,
        name: str,
        game: str,
        types: frozenset[str] = frozenset(),
        subtypes: frozenset[str] = frozenset(),
        attributes: frozenset[str] = frozenset(),
        cost: str = "",
        total_cost: int = 0,
        faces: tuple[Face, ...] = (),
        keywords: Mapping[str, int] | None = None,
        copy_limit: int | None = None,
        unlimited_copies: bool = False,
        will: frozenset[str] = frozenset(),
        conditions: tuple[Mapping[str, Any], ...] = (),
        unchecked: tuple[str, ...] = (),
        printings: tuple[str, ...] = (),
        aliases: tuple[str, ...] = (),
        split: bool = False,
        lang: str = "en",
        names: Mapping[str, tuple[str, ...]] | None = None,
        regions: frozenset[str] | None = None,
        printing_regions: Mapping[str, frozenset[str]] | None = None,
        printing_names: Mapping[str, str] | None = None,
        printing_types: Mapping[str, frozenset[str]] | None = None,
    ) -> None:
        _set = object.__setattr__
        _set(self, "name", name)
        _set(self, "game", game)
        _set(self, "types", types)
        _set(self, "subtypes", subtypes)
        _set(self, "attributes", attributes)
        _set(self, "cost", cost)
        _set(self, "total_cost", total_cost)
        _set(self, "faces", faces)
        _set(self, "keywords", {} if keywords is None else keywords)
        _set(self, "copy_limit", copy_limit)
        _set(self, "unlimited_copies", unlimited_copies)
        _set(self, "will", will)
        _set(self, "conditions", conditions)
        _set(self, "unchecked", unchecked)
        _set(self, "printings", printings)
        _set(self, "aliases", aliases)
        _set(self, "split", split)
        _set(self, "lang", lang)
        _set(self, "names", {} if names is None else names)
        _set(self, "regions", regions)
        _set(self, "printing_regions", {} if printing_regions is None else printing_regions)
        _set(self, "printing_names", {} if printing_names is None else printing_names)
        _set(self, "printing_types", {} if printing_types is None else printing_types)

    def printings_meant(self, printing: str | None, written: str | None = None) -> tuple[str, ...]:
        """The printings a line means that writes this card with ``printing`` (a code, as a
        .ydk passcode) and as ``written``: that printing when it is one of the card's; else the
        printings of a card "treated as" this one when ``written`` is that card's name; else the
        printings that carry the card's own name."""
        from forcecheck.cards.names import normalize_name, normalize_printing

        for code in (printing, written):
            if code:
                key = normalize_printing(code).lstrip("0")
                for own in self.printings:
                    if normalize_printing(own).lstrip("0") == key:
                        return (own,)
        if written and self.printing_names:
            key = normalize_name(written)
            named = tuple(p for p, name in self.printing_names.items() if normalize_name(name) == key)
            if named:
                return named
        return tuple(p for p in self.printings if p not in self.printing_names)

    def as_printing(self, printing: str) -> Card:
        """The card as one of its printings is: its own name and types where it has them (a
        card "treated as" this one), else the card itself. Rules that judge what kind of card
        stands where judge a printing of its own kind by this."""
        if printing not in self.printing_types and printing not in self.printing_names:
            return self
        from forcecheck.records import replace

        return replace(self, name=self.printing_names.get(printing, self.name), types=self.printing_types.get(printing, self.types),
                       printings=(printing,), aliases=(), names={}, printing_regions={}, printing_names={}, printing_types={},
                       regions=self.regions_of(printing))

    def regions_of(self, printing: str | None) -> frozenset[str] | None:
        """Where ``printing`` was released (the card's regions when it is no printing of its own)."""
        if printing is not None and printing in self.printing_regions:
            return self.printing_regions[printing]
        return self.regions

    @property
    def deck_attributes(self) -> frozenset[str]:
        """The attributes an attribute-only condition of the card restricts the deck to ("You
        may have only light and/or fire cards in your deck"); empty when it restricts nothing."""
        found: frozenset[str] = frozenset()
        for condition in self.conditions:
            if condition.get("kind") == "only" and not condition.get("races"):
                found |= frozenset(condition.get("attributes", ()))
        return found

    def has_type(self, slug: str) -> bool:
        return slug in self.types or any(slug in face.types for face in self.faces)

    def name_in(self, lang: str | None) -> str:
        """The card's name in ``lang`` (``None``: the base name); the base name when the
        catalog has none in that language. What ``fmt --names`` writes and reports show."""
        if lang is None or lang == self.lang:
            return self.name
        found = self.names.get(lang)
        return found[0] if found else self.name

    def all_names(self) -> list[tuple[str, str, bool]]:
        """Every name the card has as (language, name, printed): the printed name of each
        language with ``printed`` True, then its other names there."""
        out = [(self.lang, self.name, True)] + [(self.lang, alias, False) for alias in self.aliases]
        for lang, names in self.names.items():
            out += [(lang, name, index == 0) for index, name in enumerate(names)]
        return out

    @property
    def languages(self) -> tuple[str, ...]:
        """Languages the card has a name in, its base language first."""
        return (self.lang, *(lang for lang in self.names if lang != self.lang))

    def face_costs(self) -> tuple[int, ...]:
        """Total cost of every face, the front first."""
        return (self.total_cost,) + tuple(face.total_cost for face in self.faces)

    def to_dict(self) -> dict[str, Any]:
        """The card in the catalog JSON schema (``forcecheck-catalog/1``)."""
        out = _facts_to_dict(self)
        out["game"] = self.game
        if self.faces:
            out["faces"] = [_facts_to_dict(f) for f in self.faces]
        if self.keywords:
            out["keywords"] = dict(sorted(self.keywords.items()))
        if self.copy_limit is not None:
            out["copy_limit"] = self.copy_limit
        if self.unlimited_copies:
            out["unlimited_copies"] = True
        if self.will:
            out["will"] = sorted(self.will)
        if self.conditions:
            out["conditions"] = [dict(c) for c in self.conditions]
        if self.unchecked:
            out["unchecked"] = list(self.unchecked)
        if self.printings:
            out["printings"] = list(self.printings)
        if self.aliases:
            out["aliases"] = list(self.aliases)
        if self.split:
            out["split"] = True
        if self.lang != "en":
            out["lang"] = self.lang
        if self.names:
            out["names"] = {lang: list(names) for lang, names in sorted(self.names.items())}
        if self.regions is not None:
            out["regions"] = sorted(self.regions)
        if self.printing_regions:
            out["printing_regions"] = {p: sorted(r) for p, r in self.printing_regions.items()}
        if self.printing_names:
            out["printing_names"] = dict(self.printing_names)
        if self.printing_types:
            out["printing_types"] = {p: sorted(t) for p, t in self.printing_types.items()}
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Card:
        # positional arguments, and a missing set as the shared empty one (frozenset() of a
        # frozenset is that object): a cold start reads the whole sample catalog this way
        get = data.get
        return cls(
            data["name"],
            data["game"],
            frozenset(get("types", _NOTHING)),
            frozenset(get("subtypes", _NOTHING)),
            frozenset(get("attributes", _NOTHING)),
            get("cost", ""),
            int(get("total_cost", 0)),
            tuple(map(_face_from_dict, get("faces", ()))),
            dict(get("keywords", _NO_KEYWORDS)),
            get("copy_limit"),
            bool(get("unlimited_copies", False)),
            frozenset(get("will", _NOTHING)),
            _conditions_from_dict(data),
            _texts(get("unchecked", ())),
            tuple(get("printings", ())),
            tuple(get("aliases", ())),
            bool(get("split", False)),
            str(get("lang") or "en"),
            _names_from_dict(get("names")),
            None if get("regions") is None else frozenset(get("regions")),
            {p: frozenset(r) for p, r in get("printing_regions", _NO_KEYWORDS).items()},
            dict(get("printing_names", _NO_KEYWORDS)),
            {p: frozenset(t) for p, t in get("printing_types", _NO_KEYWORDS).items()},
        )


_NOTHING: frozenset[str] = frozenset()
_NO_KEYWORDS: Mapping[str, int] = {}


def _facts_to_dict(item: Card | Face) -> dict[str, Any]:
    """The fields a card and a face share, empty ones left out."""
    out: dict[str, Any] = {"name": item.name, "types": sorted(item.types)}
    if item.subtypes:
        out["subtypes"] = sorted(item.subtypes)
    if item.attributes:
        out["attributes"] = sorted(item.attributes)
    if item.cost:
        out["cost"] = item.cost
    if item.total_cost:
        out["total_cost"] = item.total_cost
    return out


def _texts(value: Any) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(t, str) for t in value):
        raise ValueError("unchecked must be a list of texts")
    return tuple(value)


def _conditions_from_dict(data: Mapping[str, Any]) -> tuple[Mapping[str, Any], ...]:
    """The card's conditions; a catalog file written before conditions existed said
    ``deck_attributes`` for the one condition it knew, and still means it."""
    raw = data.get("conditions", ())
    if not isinstance(raw, (list, tuple)) or not all(isinstance(c, Mapping) for c in raw):
        raise ValueError("conditions must be a list of objects")
    conditions = tuple(raw)
    if not conditions and data.get("deck_attributes"):
        conditions = ({"kind": "only", "attributes": sorted(data["deck_attributes"]), "within": True},)
    return conditions


def _face_from_dict(data: Mapping[str, Any]) -> Face:
    get = data.get
    return Face(
        data["name"],
        frozenset(get("types", _NOTHING)),
        frozenset(get("subtypes", _NOTHING)),
        frozenset(get("attributes", _NOTHING)),
        get("cost", ""),
        int(get("total_cost", 0)),
    )


def _names_from_dict(data: Any) -> dict[str, tuple[str, ...]]:
    """``{"ja": ["名", ...]}``; a single string is one name."""
    if not data:
        return {}
    if not isinstance(data, Mapping):
        raise TypeError("names must be an object of language -> list of names")
    out = {}
    for lang, names in data.items():
        names = (names,) if isinstance(names, str) else tuple(names)
        if not all(isinstance(n, str) and n.strip() for n in names):
            raise TypeError(f"names of {lang!r} must be non-empty strings")
        if names:
            out[str(lang)] = names
    return out
