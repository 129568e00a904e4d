"""A card's own deckbuilding text as data: the vocabulary of ``Card.conditions``.

Rulers (and a few other cards) restrict or expand how a deck is built: "You may have only
darkness and/or Cthulhu cards in your deck", "[Partner] 1 (Moonchild)", "You must have
exactly sixty cards in your deck". The importer turns such text into plain dicts (catalog
JSON, ``forcecheck-catalog/1``) of one of these kinds; the rule kinds in
``forcecheck.rules.conditions`` and ``forcecheck.rules.ruler_area`` evaluate them. Every
condition may carry ``text``: the card's sentence it was read from (imported catalogs keep it;
the embedded sample catalog, facts only, does not).

===============  ==================================================================  ==============
kind             parameters                                                          checked by
===============  ==================================================================  ==============
only             ``attributes``, ``races``, ``within``, ``in``                       ruler-conditions
forbid           ``where`` (a selector), ``in``, ``while``                           ruler-conditions
deck-size        ``min`` / ``max`` / ``exactly`` (cards in the deck, CR 402.3)       ruler-conditions
distinct-names   ``exactly`` (different card names in the deck)                      ruler-conditions
copies           ``where``, ``max``: copies of matching cards (restrict or expand)   copy-limit
partner          ``count``, ``race``: [Partner] N (Race), CR 1155                    ruler-area
tag              ``race`` or ``names``: [Tag] (Race) / [Tag] "Name", CR 1145         ruler-area
aid              ``ruler``: [Aid] "Name" on a sub-ruler, CR 1164                     ruler-area
with-ruler       ``ruler`` and ``keywords`` / ``drop_keywords`` / ``copies``: what   ruler-conditions,
                 changes for this card while that ruler is used                      copy-limit
===============  ==================================================================  ==============

``in`` says which part of the deck a condition speaks of: ``deck`` (the deck and the
auxiliary decks, CR 404.1b), ``deck-and-stones`` (also the magic stone deck) or ``side``.
``while: anywhere`` makes a condition hold whenever the card is anywhere in the deck, not only
in the ruler area (Asmodeus: "you may not have this card in your side deck").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ATTRIBUTES = ("light", "fire", "water", "wind", "darkness")

KINDS = {
    "only": "every card in the deck matches (attributes or races)",
    "forbid": "no card in the deck matches",
    "deck-size": "the number of cards in the deck",
    "distinct-names": "the number of different card names in the deck",
    "copies": "copies of the matching cards (restricts or expands the copy limit)",
    "partner": "[Partner] N (Race): up to N Race rulers with «Bond» besides this ruler (CR 1155)",
    "tag": "[Tag] (Race) or [Tag] \"Name\": one more ruler with the same [Tag], or the named one (CR 1145)",
    "aid": "[Aid] \"Name\": this sub-ruler in the ruler area when the ruler is named Name (CR 1164)",
    "with-ruler": "what changes for this card while a named ruler is used (keywords, copies)",
}
"""Every kind of condition forcecheck checks, in plain words (``formats show`` lists them)."""

SCOPES = {"deck": "the deck", "deck-and-stones": "the deck or magic stone deck", "side": "the sideboard"}

_REQUIRED = {
    "only": ("attributes",),
    "forbid": ("where",),
    "copies": ("where", "max"),
    "partner": ("count", "race"),
    "aid": ("ruler",),
    "with-ruler": ("ruler",),
}


def problem(condition: Any) -> str | None:
    """Why ``condition`` cannot be checked (malformed data), or None when it can."""
    if not isinstance(condition, Mapping):
        return "not a mapping"
    kind = condition.get("kind")
    if kind not in KINDS:
        return f"unknown kind {kind!r}"
    for key in _REQUIRED.get(kind, ()):
        if key not in condition:
            return f"{kind} without {key!r}"
    if condition.get("in", "deck") not in SCOPES:
        return f"unknown scope {condition.get('in')!r}"
    if kind in ("deck-size", "distinct-names") and not any(isinstance(condition.get(k), int) for k in ("min", "max", "exactly")):
        return f"{kind} without a number"
    if kind == "tag" and not (condition.get("race") or condition.get("names")):
        return "tag without race or names"
    if kind == "only" and not isinstance(condition.get("attributes"), list):
        return "only: attributes is not a list"
    return None


def label(condition: Mapping[str, Any]) -> str:
    """The condition in plain words, from its parameters (messages and ``catalog show``)."""
    kind = condition.get("kind")
    scope = SCOPES.get(condition.get("in", "deck"), "the deck")
    if kind == "only":
        items = list(condition.get("attributes", ())) + [r.replace("-", " ").title() for r in condition.get("races", ())]
        text = f"only {' or '.join(items)} cards in {scope}"
        if condition.get("within"):
            text += f", with no attributes other than {' or '.join(condition.get('attributes', ()))}"
        return text
    if kind == "forbid":
        return f"no {selector_label(condition['where'])} in {scope}"
    if kind in ("deck-size", "distinct-names"):
        noun = "cards" if kind == "deck-size" else "different card names"
        return f"{bound_label(condition)} {noun} in the deck"
    if kind == "copies":
        return f"at most {condition['max']} copies of each {selector_label(condition['where'])}"
    if kind == "partner":
        return f"[Partner] {condition['count']} ({race_label(condition['race'])})"
    if kind == "tag":
        if condition.get("race"):
            return f"[Tag] ({race_label(condition['race'])})"
        return "[Tag] " + " or ".join(f'"{n}"' for n in condition["names"])
    if kind == "aid":
        return f"[Aid] \"{condition['ruler']}\""
    if kind == "with-ruler":
        parts = []
        if condition.get("keywords") or condition.get("drop_keywords"):
            gained = ", ".join(f"[{race_label(k)}]" for k in condition.get("keywords", {}))
            lost = ", ".join(f"[{race_label(k)}]" for k in condition.get("drop_keywords", ()))
            parts.append(f"has {gained or 'no keyword'}" + (f" instead of {lost}" if lost else ""))
        if condition.get("copies") is not None:
            parts.append(f"up to {condition['copies']} copies")
        return f"while the ruler is {condition['ruler']}: " + "; ".join(parts)
    return str(kind)


def bound_label(condition: Mapping[str, Any]) -> str:
    if condition.get("exactly") is not None:
        return f"exactly {condition['exactly']}"
    low, high = condition.get("min"), condition.get("max")
    if low is not None and high is not None:
        return f"{low} to {high}"
    return f"at least {low}" if low is not None else f"at most {high}"


def selector_label(where: Mapping[str, Any]) -> str:
    """A data selector (the format files' selector vocabulary) in words: ``cards with [Villains]``."""
    parts = []
    if "keyword" in where:
        parts.append("cards with " + " or ".join(f"[{race_label(k)}]" for k in _as_list(where["keyword"])))
    if "name" in where:
        parts.append("cards named " + " or ".join(f'"{n}"' for n in _as_list(where["name"])))
    if "type" in where:
        parts.append(" or ".join(_as_list(where["type"])) + " cards")
    if "subtype" in where:
        parts.append(" or ".join(race_label(s) for s in _as_list(where["subtype"])) + " cards")
    if "attribute" in where:
        parts.append(" or ".join(_as_list(where["attribute"])) + " cards")
    for key in ("all", "any"):
        if key in where:
            joiner = " that are " if key == "all" else " or "
            parts.append(joiner.join(selector_label(s) for s in where[key]))
    if "not" in where:
        parts.append(f"cards that are not {selector_label(where['not'])}")
    return "; ".join(parts) or "cards"


def _as_list(value) -> list:
    return [value] if isinstance(value, str) else list(value)


def race_label(slug: str) -> str:
    """``six-sages`` -> ``Six Sages``, ``will-of-hope`` -> ``Will of Hope``: a slug as cards print it."""
    words = str(slug).split("-")
    return " ".join(w if i and w in ("of", "the", "and") else w.capitalize() for i, w in enumerate(words))


def keyword_label(slug: str) -> str:
    """A keyword slug as cards print it: ``grimoire`` -> ``Grimoire``, ``crew-ex-deck`` -> ``<Crew> EX Deck``."""
    if str(slug).endswith("-ex-deck"):
        return f"<{race_label(slug[: -len('-ex-deck')])}> EX Deck"
    return race_label(slug)
