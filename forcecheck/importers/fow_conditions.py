"""Force of Will deckbuilding text -> ``Card.conditions`` and keywords (see ``cards.conditions``).

Regular wording is read by the patterns below; wording only one card uses comes from the table
``forcecheck/data/card_conditions.yaml`` (keyed by card name, each entry quoting the sentences
it models). Text of a ruler or sub-ruler that *looks* like deckbuilding ("you may have",
"you cannot have ... in your deck", "start the game with ... ruler") but that neither reads is
kept in ``Card.unchecked``: a deck using that ruler is warned, never silently passed.

What a pattern reads (fowsim English text; ``<<Bond>>``, ``≪Bond≫`` and ``«Bond»`` alike):

* ``[Partner] 1 (Moonchild)``; ``[Tag] (Six Sages)``, ``[Tag] "Neun"``, ``[Tag] "A" or "B"``;
  ``[Aid] "Snow White"`` (a keyword line and its reminder text);
* ``<Crew> EX Deck (10)`` -> keyword ``crew-ex-deck: 10`` (its deck is a format section; CR 319);
* "You may have only darkness and/or Cthulhu cards in your deck [with no attributes other than
  ...]"; "You cannot have non-darkness cards in your deck";
* "You cannot have cards with [Villains] in your deck [or magic stone deck]";
* "You must have exactly sixty cards in your deck"; "You have no maximum deck size, but must have
  at least 100 cards in your deck" (also keyword ``no-maximum-deck-size``, CR 402.3a);
* "You may only have cards with a total of exactly nine different card names in your deck";
* "You may have up to ten copies of cards named "Poison Apple" in your deck";
* the singleton text, [Stranger], [Grimoire] and [Divinity] (keywords read in ``fowsim``);
* marker keywords at the head of an ability: ``[Tales]``, ``[Villains]``, ``[Will of Hope]``,
  ``[Will of Despair]``, ``«Bond»`` -> keywords ``tales``, ... with the value 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from forcecheck.cards.conditions import ATTRIBUTES
from forcecheck.cards.names import normalize_name
from forcecheck.format_spec.slugs import slugify

RULER_TYPES = frozenset({"ruler", "j-ruler", "sub-ruler", "basic-ruler"})
"""Cards whose deckbuilding text is read (and, if not understood, reported)."""

NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "forty": 40, "fifty": 50, "sixty": 60,
}

_DOUBLE_ANGLE = re.compile(r"(?:<<|≪|«)\s*([^<>≪≫«»\n]+?)\s*(?:>>(?!>)|≫|»)")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
_SENTENCE_END = re.compile(r"(?<=[.!?])\)?\s+(?=[A-Z\"(\[<])")
_MARKER = re.compile(r"^\s*(?:\[|«)(Tales|Villains|Will of Hope|Will of Despair|Bond)(?:\]|»)", re.IGNORECASE)

_NUMBER = r"(\d+|[a-z]+)"
_PARTNER = re.compile(r"^\[Partner\]\s*(\d+)\s*\(([^)]+)\)", re.IGNORECASE)
_TAG_RACE = re.compile(r"^\[Tag\]\s*\(([^)]+)\)", re.IGNORECASE)
_TAG_NAMES = re.compile(r'^\[Tag\]\s*("[^"]+"(?:\s*(?:,|or)\s*"[^"]+")*)', re.IGNORECASE)
_AID = re.compile(r'^\[Aid\]\s*"([^"]+)"', re.IGNORECASE)
_EX_DECK = re.compile(r"^<([A-Za-z][\w ]*)>\s*EX Deck\s*\((\d+)\)", re.IGNORECASE)
_EX_DECK_MENTION = re.compile(r"<([A-Za-z][\w ]*)>\s*EX Deck", re.IGNORECASE)
_KEYWORD_LINE = re.compile(r"^\[(Stranger|Grimoire|Divinity)\]", re.IGNORECASE)

_ATTRIBUTE = "|".join(ATTRIBUTES)
_ONLY = re.compile(
    r"^You may have only (.+?) cards in your (?:main )?deck(?: with no attributes other than ((?:%s)(?:\s*(?:,|or|and/or|and)\s*(?:%s))*))?\.$"
    % (_ATTRIBUTE, _ATTRIBUTE),
    re.IGNORECASE,
)
_NON = re.compile(r"^You cannot have non-(%s) cards in your (?:main )?deck\.$" % _ATTRIBUTE, re.IGNORECASE)
_FORBID_KEYWORD = re.compile(
    r"^You cannot have cards with \[([^\]]+)\] in your deck( or (?:a |your )?magic stone deck)?\.$", re.IGNORECASE
)
_EXACT_SIZE = re.compile(rf"^You must have exactly {_NUMBER} cards in your deck\.$", re.IGNORECASE)
_NO_MAXIMUM = re.compile(rf"^You have no maximum deck size, but must have at least {_NUMBER} cards in your deck\.$", re.IGNORECASE)
_DISTINCT = re.compile(
    rf"^You may only have cards with a total of exactly {_NUMBER} different card names in your deck\.$", re.IGNORECASE
)
_COPIES_NAMED = re.compile(rf'^You may have up to {_NUMBER} copies of cards named "([^"]+)" in your deck\.$', re.IGNORECASE)
_SINGLETON = re.compile(r"^You (?:may not|cannot) have more than one copy of any card in your (?:main )?deck\.$", re.IGNORECASE)

_LOOKS_LIKE_DECKBUILDING = re.compile(
    r"\b(?:may|must|can|cannot|can't)\b(?:\s+not)?(?:\s+only)?\s+(?:have|include)\b[^.]*\b(?:deck|side ?board)\b"
    r"|\bno maximum deck size\b"
    r"|\b(?:begin|start) the game with\b[^.]*\b(?:deck|ruler|sub-ruler)s?\b",
    re.IGNORECASE,
)
"""Sentences a player would read as a deckbuilding rule: a ruler's sentence like this that no
pattern and no table entry reads is reported, not ignored."""


@dataclass
class Derived:
    conditions: list[dict[str, Any]] = field(default_factory=list)
    keywords: dict[str, int] = field(default_factory=dict)
    unchecked: list[str] = field(default_factory=list)

    def add(self, condition: dict[str, Any]) -> None:
        """Add a condition unless an equal one (text aside) is there: a J-ruler face or a
        reprint often repeats its front's text."""
        core = {k: v for k, v in condition.items() if k != "text"}
        if all({k: v for k, v in c.items() if k != "text"} != core for c in self.conditions):
            self.conditions.append(condition)


def clean_line(line: str) -> str:
    """One ability line with the source's spelling variants made one."""
    text = _DOUBLE_ANGLE.sub(lambda m: f"«{m.group(1)}»", line.translate(_QUOTES))
    return " ".join(text.split())


def sentences(line: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(line) if s.strip()]


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() else NUMBERS.get(word.lower())


def _sentence_key(text: str) -> str:
    return normalize_name(text.translate(_QUOTES))


@lru_cache(maxsize=1)
def table() -> dict[str, dict]:
    """The card-name table (normalised name -> entry), read once per import."""
    from importlib import resources

    import yaml

    raw = yaml.safe_load(resources.files("forcecheck.data").joinpath("card_conditions.yaml").read_text(encoding="utf-8"))
    return {normalize_name(name): dict(entry, name=name) for name, entry in (raw or {}).items()}


def derive(name: str, types: frozenset[str] | set[str], text: str) -> Derived:
    """The conditions, keywords and unread deckbuilding text of one card (all its faces' text)."""
    out = Derived()
    lines = [clean_line(line) for line in text.split("\n") if line.strip()]
    for line in lines:
        marker = _MARKER.match(line)
        if marker:
            out.keywords[slugify(marker.group(1))] = 1
    entry = table().get(normalize_name(name))
    table_sentences = set()
    if entry is not None:
        quoted = " ".join(entry.get("text", ()))
        for condition in entry.get("conditions", ()):
            out.add(dict(condition, text=quoted) if quoted else dict(condition))
        out.keywords.update(entry.get("keywords", {}))
        table_sentences = {_sentence_key(s) for s in entry.get("text", ())}
    if not RULER_TYPES & set(types):
        return out
    ex_decks = set()
    for line in lines:
        if _keyword_line(line, out, ex_decks):
            continue
        for sentence in sentences(line):
            if _sentence_key(sentence) in table_sentences:
                continue
            if _read_sentence(sentence, out):
                continue
            mention = _EX_DECK_MENTION.search(sentence)
            if mention and slugify(mention.group(1)) in ex_decks:
                continue  # the EX deck's own rules restated (CR 319): the format's section rules model them
            if _LOOKS_LIKE_DECKBUILDING.search(sentence) and sentence not in out.unchecked:
                out.unchecked.append(sentence)
    return out


def _keyword_line(line: str, out: Derived, ex_decks: set[str]) -> bool:
    """Read a deckbuilding keyword heading the line; the whole line (reminder text too) is then read."""
    match = _PARTNER.match(line)
    if match:
        out.add({"kind": "partner", "count": int(match.group(1)), "race": slugify(match.group(2)), "text": line})
        return True
    match = _TAG_RACE.match(line)
    if match:
        out.add({"kind": "tag", "race": slugify(match.group(1)), "text": line})
        return True
    match = _TAG_NAMES.match(line)
    if match:
        out.add({"kind": "tag", "names": re.findall(r'"([^"]+)"', match.group(1)), "text": line})
        return True
    match = _AID.match(line)
    if match:
        out.add({"kind": "aid", "ruler": match.group(1), "text": line})
        return True
    match = _EX_DECK.match(line)
    if match:
        deck = slugify(match.group(1))
        out.keywords[f"{deck}-ex-deck"] = int(match.group(2))
        ex_decks.add(deck)
        return True
    return bool(_KEYWORD_LINE.match(line))  # [Stranger] N, [Grimoire] (N), [Divinity]: keywords (fowsim.parse_keywords)


def _read_sentence(sentence: str, out: Derived) -> bool:
    """Read one sentence as a condition; False when no pattern knows it."""
    match = _ONLY.match(sentence)
    if match:
        items = [w.strip() for w in re.split(r"\s*(?:,|and/or|\bor\b|\band\b)\s*", match.group(1)) if w.strip()]
        attributes = [w.lower() for w in items if w.lower() in ATTRIBUTES]
        races = [slugify(w) for w in items if w.lower() not in ATTRIBUTES]
        condition: dict[str, Any] = {"kind": "only", "attributes": attributes}
        if races:
            condition["races"] = races
        if match.group(2):
            within = {w.lower() for w in re.findall(_ATTRIBUTE, match.group(2), re.IGNORECASE)}
            condition["within"] = True
            condition["attributes"] = sorted(set(attributes) | within, key=ATTRIBUTES.index)
        out.add(dict(condition, text=sentence))
        return True
    match = _NON.match(sentence)
    if match:
        out.add({"kind": "only", "attributes": [match.group(1).lower()], "text": sentence})
        return True
    match = _FORBID_KEYWORD.match(sentence)
    if match:
        scope = "deck-and-stones" if match.group(2) else "deck"
        out.add({"kind": "forbid", "where": {"keyword": slugify(match.group(1))}, "in": scope, "text": sentence})
        return True
    match = _EXACT_SIZE.match(sentence)
    if match and _number(match.group(1)) is not None:
        out.add({"kind": "deck-size", "exactly": _number(match.group(1)), "text": sentence})
        return True
    match = _NO_MAXIMUM.match(sentence)
    if match and _number(match.group(1)) is not None:
        out.add({"kind": "deck-size", "min": _number(match.group(1)), "text": sentence})
        out.keywords["no-maximum-deck-size"] = 1
        return True
    match = _DISTINCT.match(sentence)
    if match and _number(match.group(1)) is not None:
        out.add({"kind": "distinct-names", "exactly": _number(match.group(1)), "text": sentence})
        return True
    match = _COPIES_NAMED.match(sentence)
    if match and _number(match.group(1)) is not None:
        out.add({"kind": "copies", "where": {"name": match.group(2)}, "max": _number(match.group(1)), "text": sentence})
        return True
    return bool(_SINGLETON.match(sentence))  # the singleton keyword (fowsim.parse_keywords)
