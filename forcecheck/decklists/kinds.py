"""Group headers that name card kinds, in any spelling, plural or language.

Lists group their cards under headers naming what the cards are: ``Monsters: 19``, ``Synchros:``,
``XYZs``, ``Spells & Traps``, ``Fusion Monsters (3)``, ``モンスター``, ``魔法・罠``, ``Resonators (20
of 40)``. Rather than a longer list of such headers in every format, a header is read here as the
card kinds it names (``forcecheck/data/card_kinds.yaml``: every card type the catalogs know, with
its words in English, Japanese and Chinese), and the format says where cards of those kinds go
(``KindGroups.section_for``): a Synchro to the extra deck, a Tuner to the main deck. Nothing here
knows a card.

A header is a list of parts joined by ``&``, ``and``, ``/``, ``+``, ``,`` or ``・``; a part is
one or more kind words (``Fusion Monsters``: a card that is both), with ``card``/``cards``/``カード``
allowed. Every word must be a kind word, and every part must go to the same section.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cache

from forcecheck.memo import BoundedMemo

_CONNECTORS = re.compile(r"\s*(?:&|\+|/|,|、|・|･|\band\b|及び)\s*", re.IGNORECASE)
_FILLER = frozenset({"card", "cards", "カード", "卡", "卡牌"})
_TOKENS = re.compile(r"[a-z0-9]+(?:'[a-z]+)?|[^\sa-z0-9]+")


@cache
def vocabulary(game: str) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]], frozenset[str]]:
    """``(words, with, cards)`` of a game: every word or phrase (folded) -> the kinds it names,
    each kind -> the types a card of it always has besides it, and the names (folded) of cards
    made of kind words alone. Read once from the data file."""
    import json
    from importlib.resources import files

    data = json.loads(files("forcecheck.data").joinpath("card_kinds.json").read_text(encoding="utf-8")) or {}
    game_data = data.get(game) or {}
    words: dict[str, frozenset[str]] = {}
    with_: dict[str, frozenset[str]] = {}
    for kind, facts in (game_data.get("kinds") or {}).items():
        facts = facts or {}
        with_[kind] = frozenset(facts.get("with") or ())
        spellings = [kind.replace("-", " "), kind.replace("-", "")]
        spellings += list(facts.get("words") or ()) + list(facts.get("ja") or ()) + list(facts.get("zh") or ())
        for spelling in spellings:
            words.setdefault(_fold(spelling), frozenset({kind}))
    for phrase, kinds in (game_data.get("phrases") or {}).items():
        words[_fold(phrase)] = frozenset(kinds)
    return words, with_, frozenset(_fold(name) for name in game_data.get("cards") or ())


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().replace("-", " ").split())


def _singular(word: str, words: dict) -> str | None:
    """The word as the vocabulary has it: itself, or without a plural ending (``Monsters``, ``XYZs``)."""
    for candidate in (word, word[:-1] if word.endswith("s") else None, word[:-2] if word.endswith("es") else None):
        if candidate and candidate in words:
            return candidate
    return None


def kinds_named(title: str, game: str) -> list[frozenset[str]] | None:
    """The kinds each part of a header names (``Spells & Traps`` -> ``[{spell}, {trap}]``), or
    None when any word of it is no kind word."""
    words, _with, cards = vocabulary(game)
    text = _fold(title)
    if not words or text in cards:
        return None  # "融合" is Polymerization, not a group of Fusion monsters
    parts = [part for part in _CONNECTORS.split(text) if part]
    if not parts:
        return None
    out = []
    for part in parts:
        kinds = _part(part, words)
        if not kinds:
            return None
        out.append(kinds)
    return out


def _part(part: str, words: dict[str, frozenset[str]]) -> frozenset[str] | None:
    tokens = _TOKENS.findall(part)
    found: set[str] = set()
    at = 0
    while at < len(tokens):
        token = tokens[at]
        if token.isascii():
            for width in (3, 2, 1):  # "quick play spells", "magic stone": the longest phrase first
                phrase = tokens[at: at + width]
                if len(phrase) < width:
                    continue
                key = _singular(" ".join(phrase), words)
                if key is None and phrase[-1] in _FILLER and width > 1:
                    continue
                if key is not None:
                    found |= words[key]
                    at += width
                    break
            else:
                if token not in _FILLER:
                    return None
                at += 1
            continue
        kinds = _unspaced(token, words)  # "効果モンスター", "魔法カード": kind words run together
        if kinds is None:
            return None
        found |= kinds
        at += 1
    return frozenset(found) or None


def _unspaced(chunk: str, words: dict[str, frozenset[str]]) -> frozenset[str] | None:
    """A Japanese or Chinese run of kind words with no spaces, longest words first."""
    found: set[str] = set()
    at = 0
    while at < len(chunk):
        for end in range(len(chunk), at, -1):
            piece = chunk[at:end]
            if piece in words:
                found |= words[piece]
                at = end
                break
            if piece in _FILLER:
                at = end
                break
        else:
            return None
    return frozenset(found) or None


class KindGroups:
    """A format's groups named by card kinds: which section a header's kinds go to.

    ``section_for`` is the format's placement of a card of the given types (None: the format
    places no such card). Remembered per header title."""

    def __init__(self, game: str, section_for: Callable[[frozenset[str]], str | None],
                 takes: Callable[[frozenset[str], str], bool] | None = None):
        self.game = game
        self.section_for = section_for
        self.takes = takes
        self._memo: BoundedMemo[str, tuple[str | None, tuple[frozenset[str], ...]]] = BoundedMemo(4096)

    def group(self, title: str) -> str | None:
        """The section a group header titled so belongs to, or None (no group of kinds)."""
        return self.read(title)[0]

    def belongs_under(self, title: str, section_id: str) -> bool:
        """Whether a group so titled, written under ``section_id``'s header, is part of it (the
        section may hold such cards) rather than a new part of the section its kinds go to."""
        parts = self.kinds(title)
        return bool(parts) and self.takes is not None and all(self.takes(types, section_id) for types in parts)

    def kinds(self, title: str) -> tuple[frozenset[str], ...]:
        """The types of each part the header names (each with the types its kinds always have)."""
        return self.read(title)[1]

    def read(self, title: str) -> tuple[str | None, tuple[frozenset[str], ...]]:
        found = self._memo.get(title)
        if found is None:
            found = self._memo.remember(title, self._read(title))
        return found

    def _read(self, title: str) -> tuple[str | None, tuple[frozenset[str], ...]]:
        parts = kinds_named(title, self.game)
        if not parts:
            return None, ()
        _words, with_, _cards = vocabulary(self.game)
        parts = [piece for part in parts for piece in _side_by_side(part, with_)]
        typed = tuple(frozenset(kinds).union(*(with_.get(kind, ()) for kind in kinds)) for kinds in parts)
        sections = {self.section_for(types) for types in typed}
        if len(sections) != 1:
            return None, ()  # "Monsters & Synchros": parts that go to different sections are no one group
        return sections.pop(), typed


def _side_by_side(kinds: frozenset[str], with_: dict[str, frozenset[str]]) -> list[frozenset[str]]:
    """A part naming several base kinds side by side (``Monsters Spells Traps``, ``魔法罠``) is
    one part per base kind, each with the kinds that go with it (``Fusion Monsters`` stays one)."""
    bases = [kind for kind in kinds if not with_.get(kind)]
    if len(bases) < 2:
        return [kinds]
    return [frozenset({base} | {kind for kind in kinds if base in with_.get(kind, ())}) for base in bases]


def write_json() -> None:
    """Write ``card_kinds.json`` from ``card_kinds.yaml`` (the file people edit): a check reads
    the JSON, as PyYAML's import alone would be a tenth of a one-deck check's start.

        python -m forcecheck.decklists.kinds
    """
    import json
    from pathlib import Path

    import yaml

    folder = Path(__file__).resolve().parent.parent / "data"
    data = yaml.safe_load((folder / "card_kinds.yaml").read_text(encoding="utf-8"))
    (folder / "card_kinds.json").write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write_json()
