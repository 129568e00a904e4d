"""Correcting a card name the way a judge would: only when one card is clearly meant.

Exact and normalised matching (case, accents, spaces, punctuation; ``cards.names``) come
first, in the catalog. What is left are the ways players type names differently from the
card, in two kinds:

* *Variants* that keep every letter that matters: a dropped or added article or ``of``
  (``Magic Stone of the Six Sages``), a plural (``3 Mystical Space Typhoons``), British
  spelling (``Defence``), words run together or split (``Darkhole``), the same words in
  another order. Both the written name and every card name are folded the same way; the
  written name is corrected when exactly one card folds to the same key.
* *Typos*: a small edit distance (transpositions count one) relative to the name's length
  (none below 8 letters), with a clear margin over the next card; Japanese names are compared
  without their dots, dashes and spaces, as the exact lookup (``BARE``) ignores them.

Anything else stays unknown, with suggestions. Corrections never cross games: each game
has its own index.
"""

from __future__ import annotations

from functools import lru_cache

from forcecheck.cards.names import normalize_name
from forcecheck.records import Record

_DROPPED_WORDS = frozenset({"the", "a", "an", "of"})
_BRITISH = {"defence": "defense", "offence": "offense", "licence": "license", "grey": "gray", "armour": "armor",
            "colour": "color", "honour": "honor", "favour": "favor", "valour": "valor", "vapour": "vapor",
            "harbour": "harbor", "rumour": "rumor", "centre": "center", "theatre": "theater", "metre": "meter",
            "sabre": "saber", "spectre": "specter", "jewellery": "jewelry", "travelling": "traveling",
            "traveller": "traveler", "marvellous": "marvelous", "cancelled": "canceled"}


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _fold_words(key: str) -> list[str]:
    """A normalised name as the words that matter, each in one spelling."""
    return [_fold_word(word) for word in key.split() if word not in _DROPPED_WORDS]


@lru_cache(maxsize=1 << 15)
def _fold_word(word: str) -> str:
    """One word in the spelling all its variants share. Remembered: a game's names are made of
    a few thousand words, and the correction index folds every name."""
    word = _BRITISH.get(word, word)
    if word.endswith(("ise", "ised", "ising")) and len(word) > 5:
        word = word.replace("is", "iz")
    return _singular(word)


def variant_key(key: str) -> str:
    """The key two spellings of one name share: words that matter, run together."""
    return "".join(_fold_words(key))


MIN_SHORTENED = 4
"""Shortened names shorter than this (folded) are never read as a card: too many cards begin so."""


_JAPANESE_PARTS = str.maketrans({"\u3000": " ", "\uff0d": " ", "-": " "})
"""What parts a Japanese name: spaces and the dash (full-width or not), never the long vowel ー."""


def shortened(name: str, unspaced: bool = False) -> list[str]:
    """How players shorten a card's name: up to its first comma (``Gareth, the Dauntless
    Knight``), without a prefix before `` - `` (``Blackwing - Gale the Whirlwind``), or, for a
    Japanese name, its last part: without an archetype prefix before a space or a dash
    (``Ｅ・ＨＥＲＯ エアーマン``, ``ＢＦ－疾風のゲイル``) or a title before a dashed subtitle
    (``王家の眠る谷－ネクロバレー``, ``聖なるバリア －ミラーフォース－``)."""
    out = []
    if ", " in name:
        out.append(name.split(", ", 1)[0])
    if " - " in name:
        out.append(name.split(" - ", 1)[1])
    if unspaced:
        for parts in (name.replace("\u3000", " ").split(), name.translate(_JAPANESE_PARTS).split()):
            if len(parts) > 1 and parts[-1] not in out:
                out.append(parts[-1])
    return out


def allowed_edits(length: int) -> int:
    """Edits a typo may have in a name of ``length`` characters (folded): none below 8."""
    if length < 8:
        return 0
    if length < 14:
        return 1
    if length < 24:
        return 2
    return 3


class Correction(Record, frozen=True):
    name: str
    """The display name of the card meant (as the catalog has it)."""
    why: str
    """``spelling variant`` / ``word order`` / ``typo``."""

    def __init__(self, name: str, why: str) -> None:
        _set = object.__setattr__
        _set(self, "name", name)
        _set(self, "why", why)


class Corrector:
    """The correction index of one game's names (built once, on the first unknown name)."""

    def __init__(self, keys: list[str], names: list[str], unspaced: bool = False):
        self.names = names
        self.unspaced = unspaced
        self._short: dict[str, set[str]] = {}
        """Keys of names as players shorten them (``Gareth`` for ``Gareth, the Dauntless Knight``)."""
        self._variant: dict[str, set[str]] = {}
        self._order: dict[str, set[str]] = {}
        self._typo_keys: list[str] = []
        self._typo_names: list[str] = []
        seen: set[tuple[str, str]] = set()
        for key, name in zip(keys, names):
            folded = " ".join(_fold_words(key))
            self._variant.setdefault(folded.replace(" ", ""), set()).add(name)
            self._order.setdefault(" ".join(sorted(folded.split())), set()).add(name)
            if (folded, name) not in seen:
                seen.add((folded, name))
                self._typo_keys.append(folded.replace(" ", "") if unspaced else folded)
                self._typo_names.append(name)
                for short in shortened(name, unspaced):
                    self._short.setdefault(variant_key(normalize_name(short)), set()).add(name)
        self._beginnings = sorted(set((k, n) for k, n in zip((variant_key(k) for k in keys), names))) if unspaced else []

    def correct(self, written: str) -> Correction | None:
        key = normalize_name(written)
        words = _fold_words(key)
        if not words:
            return None
        folded = " ".join(words)
        meant = self._variant.get(folded.replace(" ", ""))
        if meant is not None:
            return Correction(next(iter(meant)), "spelling variant") if len(meant) == 1 else None
        meant = self._order.get(" ".join(sorted(words)))
        if meant is not None:
            return Correction(next(iter(meant)), "word order") if len(meant) == 1 else None
        compact = folded.replace(" ", "")
        if len(compact) >= MIN_SHORTENED:
            meant = self._short.get(compact) or self._beginning(compact)
            if meant:
                return Correction(next(iter(meant)), "shortened name") if len(meant) == 1 else None
        return self._typo(folded)

    def _beginning(self, compact: str) -> set[str]:
        """Japanese names written without their end (``強欲で謙虚`` for ``強欲で謙虚な壺``): the
        cards whose name begins so, the written part most of it."""
        from bisect import bisect_left

        found: set[str] = set()
        at = bisect_left(self._beginnings, (compact, ""))
        while at < len(self._beginnings) and self._beginnings[at][0].startswith(compact):
            key, name = self._beginnings[at]
            if len(compact) >= 0.6 * len(key):
                found.add(name)
            else:
                found.add("")  # a longer name also begins so: not clearly one card
            at += 1
        return found if "" not in found else {"", "?"}

    def _typo(self, folded: str) -> Correction | None:
        """The one card within a few edits. Japanese names are compared without their spaces:
        their dots, dashes and spaces fold to spaces, and players drop them as freely as the
        exact lookup does (``ボルトヘッジホッグ`` is ``ボルト・ヘッジホッグ``), so a dropped dot is
        no edit and ``ボルドヘッジホッグ`` is one edit away, not two."""
        if self.unspaced:
            folded = folded.replace(" ", "")
        allowed = allowed_edits(len(folded.replace(" ", "")))
        if not allowed or not self._typo_keys:
            return None
        from rapidfuzz import process
        from rapidfuzz.distance import OSA

        best: dict[str, int] = {}
        for _key, distance, index in process.extract(
            folded, self._typo_keys, scorer=OSA.distance, score_cutoff=allowed + 1, limit=8
        ):
            name = self._typo_names[index]
            best[name] = min(distance, best.get(name, distance))
        if not best:
            return None
        ranked = sorted(best.items(), key=lambda item: item[1])
        name, distance = ranked[0]
        if distance > allowed:
            return None
        if len(ranked) > 1 and ranked[1][1] < distance + 2:
            return None  # another card is about as close: not clearly meant
        return Correction(name, "typo")

