"""The ``Card`` fact record.

Cards are plain frozen dataclasses, not pydantic models: a batch check touches millions of
card facts and must not pay validation for data the importer already validated.
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
  ``{"grimoire": 5}``, ``{"divinity": 10}``, ``{"singleton": 1}``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True, slots=True)
class Face:
    """One side of a card (ruler / J-ruler, the two sides of a shift card, ...)."""

    name: str
    types: frozenset[str] = frozenset()
    subtypes: frozenset[str] = frozenset()
    attributes: frozenset[str] = frozenset()
    cost: str = ""
    total_cost: int = 0


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """Everything a deckbuilding rule may ask about one card (one name = one card).

    Cards compare and hash by identity (each catalog holds one object per card), so rules can
    key caches by the card itself; compare ``to_dict()`` to compare facts."""

    name: str
    game: str
    types: frozenset[str] = frozenset()
    subtypes: frozenset[str] = frozenset()
    attributes: frozenset[str] = frozenset()
    cost: str = ""
    total_cost: int = 0
    faces: tuple[Face, ...] = ()
    keywords: Mapping[str, int] = field(default_factory=dict)
    copy_limit: int | None = None
    """The card's own copy limit ("up to twelve copies"), if its text sets one."""
    unlimited_copies: bool = False
    """The card's text allows any number of copies."""
    will: frozenset[str] = frozenset()
    """Attributes of will this card can produce (a magic stone's ``Produce {R}``)."""
    deck_attributes: frozenset[str] = frozenset()
    """A ruler's restriction of the deck to these attributes ("You may have only light and/or
    fire cards in your deck"); empty when the card restricts nothing."""
    printings: tuple[str, ...] = ()
    """Printing codes or passcodes (``CMF-001``, ``44508094``), all resolving to this card."""
    aliases: tuple[str, ...] = ()
    """Other names that resolve to this card (other faces' names, alternate names)."""
    split: bool = False
    """An Alternative card (CR 1307): its faces are two halves of one card face, so its total
    cost is the two halves' combined (1307.5b), whatever a format says of double-faced cards."""

    def has_type(self, slug: str) -> bool:
        return slug in self.types or any(slug in face.types for face in self.faces)

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
        if self.deck_attributes:
            out["deck_attributes"] = sorted(self.deck_attributes)
        if self.printings:
            out["printings"] = list(self.printings)
        if self.aliases:
            out["aliases"] = list(self.aliases)
        if self.split:
            out["split"] = True
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Card":
        return cls(
            name=data["name"],
            game=data["game"],
            types=frozenset(data.get("types", ())),
            subtypes=frozenset(data.get("subtypes", ())),
            attributes=frozenset(data.get("attributes", ())),
            cost=data.get("cost", ""),
            total_cost=int(data.get("total_cost", 0)),
            faces=tuple(_face_from_dict(f) for f in data.get("faces", ())),
            keywords=dict(data.get("keywords", {})),
            copy_limit=data.get("copy_limit"),
            unlimited_copies=bool(data.get("unlimited_copies", False)),
            will=frozenset(data.get("will", ())),
            deck_attributes=frozenset(data.get("deck_attributes", ())),
            printings=tuple(data.get("printings", ())),
            aliases=tuple(data.get("aliases", ())),
            split=bool(data.get("split", False)),
        )


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


def _face_from_dict(data: Mapping[str, Any]) -> Face:
    return Face(
        name=data["name"],
        types=frozenset(data.get("types", ())),
        subtypes=frozenset(data.get("subtypes", ())),
        attributes=frozenset(data.get("attributes", ())),
        cost=data.get("cost", ""),
        total_cost=int(data.get("total_cost", 0)),
    )
