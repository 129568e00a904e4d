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

import re
from enum import Enum
from functools import lru_cache

from forcecheck.cards.names import normalize_name
from forcecheck.records import Record


class Unclear(Enum):
    """Why a shortened name is corrected to no card and tried no further."""

    SEVERAL_BEGIN_SO = "a longer name also begins so"


_DROPPED_WORDS = frozenset({"the", "a", "an", "of", "in", "on", "at", "to", "for", "from", "with", "by", "and"})
"""Articles and small prepositions players drop, add or swap (``Fetal Movement of Outer World`` for
``Fetal Movement in Outer World``): a spelling variant, when one card alone folds so. ``and`` is
among them because names write it ``&`` (``Ghost Ogre & Snow Rabbit``), which the key drops."""
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


def _few_words_dropped(meant: set[str] | None, words: list[str]) -> set[str] | None:
    """The names a one-word spelling may mean: those that hold at most one small word besides
    (``Force`` is no spelling of ``The A. Forces``, whose ``the`` and ``a`` would both go)."""
    if meant is None or len(words) != 1:
        return meant
    return {name for name in meant if len(normalize_name(name).split()) <= 2}


def variant_key(key: str) -> str:
    """The key two spellings of one name share: words that matter, run together."""
    return "".join(_fold_words(key))


_DIGITS = re.compile(r"\d+")

COMMON_WORD_NAMES = 3
"""A one-word shortened name whose word this many other card names hold too is a common word,
not a name: it reads as no card. A word two other names hold (``ミラーフォース`` beside
``ミラーフォース・ドラゴン``) is still the card's own name, as players use it. A single word after
an archetype's name and a dash (``Bear`` of ``Brotherhood of the Fire Fist - Bear``, ``The Sword``
of ``Bujin Regalia - The Sword``) is a common noun, never a card on its own."""

_ABBREVIATION_FIRST = re.compile(r"^([A-Z]{2,4})\s+(\S.*\S)$")
"""``BW Gale the Whirlwind``: capitals, then a name."""

MIN_WORD_BEGINNING = 6
"""Names cut short after whole words (folded, without spaces) at least this long may be read as the one card beginning so."""

MIN_SWAPPED = 5
"""Names (folded, without spaces) at least this long take one swap of neighbouring letters as a typo."""

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
        shorts: list[tuple[list[str], str]] = []
        word_names: dict[str, set[str]] = {}
        """A word (folded) -> the names it is a word of: how common it is."""
        for key, name in zip(keys, names):
            words = _fold_words(key)
            folded = " ".join(words)
            self._variant.setdefault(folded.replace(" ", ""), set()).add(name)
            self._order.setdefault(" ".join(sorted(words)), set()).add(name)
            for word in words:
                word_names.setdefault(word, set()).add(name)
            if (folded, name) not in seen:
                seen.add((folded, name))
                self._typo_keys.append(folded.replace(" ", "") if unspaced else folded)
                self._typo_names.append(name)
                after_dash = name.split(" - ", 1)[1] if " - " in name else None
                shorts.extend((_fold_words(normalize_name(short)), name, short == after_dash)
                              for short in shortened(name, unspaced))
        for words, name, after_dash in shorts:
            if len(words) == 1 and (after_dash or len(word_names.get(words[0], set()) - {name}) >= COMMON_WORD_NAMES):
                continue  # "Dragon", "Moon", "Bear" after an archetype's name, or a word many names hold: no card is clearly meant
            self._short.setdefault("".join(words), set()).add(name)
        self._beginnings = sorted(set((k, n) for k, n in zip((variant_key(k) for k in keys), names))) if unspaced else []
        self._word_beginnings = sorted({(" ".join(k.split()) + " ", n) for k, n in zip(keys, names)}) if not unspaced else []
        """Every name's words (normalised, none dropped or folded) and the name: what a name cut short after whole words begins."""

    def correct(self, written: str) -> Correction | None:
        """The one card ``written`` clearly means, or None. Never a card whose name has other
        digits than the written one: a correction that would delete, add or change a digit is no
        typo (``4: Gawain`` is four copies written in an unusual way, never one Gawain)."""
        key = normalize_name(written)
        found = self._correct(key)
        if found is None and not self.unspaced:
            meant = self._abbreviated_prefix(written)
            found = Correction(meant, "its prefix abbreviated") if meant else None
        if found is not None and _DIGITS.findall(key) != _DIGITS.findall(normalize_name(found.name)):
            return None
        return found

    def _correct(self, key: str) -> Correction | None:
        words = _fold_words(key)
        if not words:
            return None
        folded = " ".join(words)
        meant = _few_words_dropped(self._variant.get(folded.replace(" ", "")), words)
        if meant:
            return Correction(next(iter(meant)), "spelling variant") if len(meant) == 1 else None
        meant = _few_words_dropped(self._order.get(" ".join(sorted(words))), words)
        if meant:
            return Correction(next(iter(meant)), "word order") if len(meant) == 1 else None
        compact = folded.replace(" ", "")
        if not self.unspaced and len(words) >= 2 and len(compact) >= MIN_WORD_BEGINNING:
            meant = self._words_beginning(" ".join(key.split()))
            if meant:
                return Correction(next(iter(meant)), "shortened name") if len(meant) == 1 else None
        if len(compact) >= MIN_SHORTENED:
            meant = self._short.get(compact) or self._beginning(compact)
            if meant is Unclear.SEVERAL_BEGIN_SO:
                return None  # not clearly one card, and no typo reading either
            if meant:
                return Correction(next(iter(meant)), "shortened name") if len(meant) == 1 else None
        return self._typo(folded)

    def _words_beginning(self, written: str) -> set[str]:
        """Names that begin with these whole words (``La Jinn`` of ``La Jinn the Mystical Genie of
        the Lamp``, ``Mystical Space`` of ``Mystical Space Typhoon``): the one card a judge reads,
        where one alone begins so; several is no reading."""
        from bisect import bisect_left

        prefix = written + " "
        found: set[str] = set()
        at = bisect_left(self._word_beginnings, (prefix, ""))
        while at < len(self._word_beginnings) and self._word_beginnings[at][0].startswith(prefix):
            found.add(self._word_beginnings[at][1])
            if len(found) > 1:
                return found
            at += 1
        return found

    def _abbreviated_prefix(self, written: str) -> str | None:
        """``BW Gale the Whirlwind`` for ``Blackwing - Gale the Whirlwind``: capitals standing for
        the prefix before a name's dash, then the rest of the name, which one card alone has after
        its dash, and whose prefix begins with the first capital."""
        match = _ABBREVIATION_FIRST.match(written.strip())
        if match is None:
            return None
        meant = self._short.get("".join(_fold_words(normalize_name(match.group(2)))))
        if not meant or len(meant) != 1:
            return None
        name = next(iter(meant))
        prefix = name.split(" - ", 1)[0] if " - " in name else ""
        return name if prefix[:1].upper() == match.group(1)[0] else None

    def _beginning(self, compact: str) -> set[str] | Unclear:
        """Japanese names written without their end (``強欲で謙虚`` for ``強欲で謙虚な壺``): the
        cards whose name begins so, the written part most of it; ``Unclear.SEVERAL_BEGIN_SO``
        when a longer name also begins so (the written part too little of it to say which)."""
        from bisect import bisect_left

        found: set[str] = set()
        at = bisect_left(self._beginnings, (compact, ""))
        while at < len(self._beginnings) and self._beginnings[at][0].startswith(compact):
            key, name = self._beginnings[at]
            if len(compact) < 0.6 * len(key):
                return Unclear.SEVERAL_BEGIN_SO
            found.add(name)
            at += 1
        return found

    def _typo(self, folded: str) -> Correction | None:
        """The one card within a few edits. Japanese names are compared without their spaces:
        their dots, dashes and spaces fold to spaces, and players drop them as freely as the
        exact lookup does (``ボルトヘッジホッグ`` is ``ボルト・ヘッジホッグ``), so a dropped dot is
        no edit and ``ボルドヘッジホッグ`` is one edit away, not two."""
        if self.unspaced:
            folded = folded.replace(" ", "")
        length = len(folded.replace(" ", ""))
        allowed = allowed_edits(length)
        if not self._typo_keys:
            return None
        from rapidfuzz import process
        from rapidfuzz.distance import OSA

        if not allowed:
            return self._swapped(folded) if length >= MIN_SWAPPED else None

        best: dict[str, int] = {}
        keys, indices = self._of_length_near(len(folded), allowed + 1)
        for _key, distance, at in process.extract(folded, keys, scorer=OSA.distance, score_cutoff=allowed + 1, limit=8):
            name = self._typo_names[indices[at]]
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


    def _of_length_near(self, length: int, edits: int) -> tuple[list[str], list[int]]:
        """The typo keys within ``edits`` characters of ``length`` and their indices: no key of
        another length is that few edits away (each edit changes the length by one at most), so
        comparing only these finds exactly what comparing all would, at a fraction of the cost
        (a sentence of the page is longer than nearly every name)."""
        memo = self.__dict__.setdefault("_near_lengths", {})
        found = memo.get((length, edits))
        if found is None:
            by_length = self.__dict__.get("_by_length")
            if by_length is None:
                by_length = self._by_length = {}
                for index, key in enumerate(self._typo_keys):
                    by_length.setdefault(len(key), []).append(index)
            indices = sorted(i for size in range(max(0, length - edits), length + edits + 1) for i in by_length.get(size, ()))
            found = memo[(length, edits)] = ([self._typo_keys[i] for i in indices], indices)
        return found

    def _swapped(self, folded: str) -> Correction | None:
        """A short name with two neighbouring letters swapped (``Ruhk Egg`` for ``Rukh Egg``): the
        one card that a single swap makes of it, with no other card within two edits. Short names
        take no other typo: one letter more or less makes another word too often."""
        from rapidfuzz import process
        from rapidfuzz.distance import OSA, Levenshtein

        keys, indices = self._of_length_near(len(folded), 2)
        near = process.extract(folded, keys, scorer=OSA.distance, score_cutoff=2, limit=8)
        names = {self._typo_names[indices[at]] for _key, _distance, at in near}
        swapped = {self._typo_names[indices[at]] for key, distance, at in near
                   if distance == 1 and Levenshtein.distance(folded, key) == 2}
        if len(swapped) == 1 and names == swapped:
            return Correction(next(iter(swapped)), "letters swapped")
        return None
