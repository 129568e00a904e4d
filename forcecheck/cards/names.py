"""Name normalisation: what a human types and what the catalog holds meet here.

Case, accents, curly quotes, punctuation and spacing are forgiven; a ``(Stranger)`` suffix
is dropped (it is a sub-type, not part of the name), and so are the data's face tags
(``[J-Ruler]``, ``[Alternative]``, ``[Inverse]``). Printing codes are normalised apart.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from forcecheck.lazyre import lazy

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00b4": "'", "`": "'"})
_SUFFIX = lazy(r"\s*[\(\[](?:stranger|shift|alternative|j-ruler|inverse)[\)\]]\s*$", re.IGNORECASE)
_NON_WORD = lazy(r"[\W_]+")
"""Anything but letters and digits, of any script (Japanese and Chinese names keep their letters)."""
_LETTERS = str.maketrans({"æ": "ae", "œ": "oe", "ø": "o", "ð": "d", "þ": "th", "ł": "l", "đ": "d", "ı": "i"})
"""Letters NFKD does not take apart."""
_JOINED = str.maketrans({"'": None, ".": None})
"""Marks that join rather than separate: "D.D. Crow" is "DD Crow", "Zeus' Grand Lightning"."""


def _fold_accents(text: str) -> str:
    """Drop accents on Latin, Greek and Cyrillic letters (é -> e) but keep the marks that make
    other scripts' letters (the dakuten of Japanese ガ), recomposed."""
    out = []
    base = ""
    for ch in text:
        if unicodedata.combining(ch):
            if base and ord(base) < 0x0530:
                continue
        else:
            base = ch
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


@lru_cache(maxsize=1 << 16)
def normalize_name(name: str) -> str:
    """The lookup key of a card name: accents folded, lower-case, punctuation as single spaces."""
    text = _SUFFIX.sub("", name.translate(_QUOTES))
    text = unicodedata.normalize("NFKD", text)
    if not text.isascii():
        text = _fold_accents(text)
    text = text.casefold().translate(_LETTERS).translate(_JOINED)
    return _NON_WORD.sub(" ", text).strip()


@lru_cache(maxsize=1 << 16)
def normalize_printing(code: str) -> str:
    """The lookup key of a printing code: upper-case, no spaces (``cmf-001`` -> ``CMF-001``)."""
    return re.sub(r"\s+", "", code).upper()


# --- names in languages written without spaces (Japanese) ----------------------------------------
#
# A card name is looked up fold by fold, the closest first (``lookup_keys``). Names in
# languages written with spaces between words (English, ...) have one key, ``normalize_name``
# (fold "plain"). Japanese names are keyed three ways, because what players type differs from
# the printed card in width, spacing and the shape of dots and dashes:
#
# * "compact": NFKC (full-width and half-width forms), case-folded, no whitespace (the
#   ideographic space too): ``Ａ・Ｏ・Ｊ　カタストル`` is ``a・o・jカタストル``;
# * "marks": the compact key with dot look-alikes (``・ ･ · •``) made ``・`` and dash
#   look-alikes (``－ − - ‐ – — ー``) made ``-``: ``聖なるバリア－ミラーフォース－`` and
#   ``聖なるバリアーミラーフォースー`` meet;
# * "bare": the compact key with every dot and dash dropped: ``ダークアームドドラゴン`` is
#   ``ダーク・アームド・ドラゴン``.
#
# The first two folds of a printed name belong to one card; when the data gives two cards the
# same "plain" or "compact" key the first card keeps it (the data's own duplicate). "marks" and
# "bare" are guesses: a key they give two different cards resolves to neither
# (``UNIQUE_FOLDS``), so a fold never picks one of two cards at random.

PLAIN, COMPACT, MARKS, BARE = "plain", "compact", "marks", "bare"
FOLDS = (PLAIN, COMPACT, MARKS, BARE)
"""Lookup order: the closest fold first."""
UNIQUE_FOLDS = frozenset({MARKS, BARE})
"""Folds whose key resolves only when exactly one card has it."""
UNSPACED_LANGUAGES = frozenset({"ja", "zh"})
"""Languages whose card names are written without spaces between words: keyed by the compact folds."""

_DOTS = "\u30fb\u00b7\u2022\u2027\u2219\u22c5"
"""・ · • ‧ ∙ ⋅ (after NFKC, which already makes the half-width ･ a ・)."""
_DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2500\u30fc"
"""- ‐ ‑ ‒ – — ― − ─ ー (after NFKC, which makes the full-width － a -, the half-width ｰ a ー)."""
_MARKS_TABLE = str.maketrans({**{ch: "\u30fb" for ch in _DOTS}, **{ch: "-" for ch in _DASHES}})
_BARE_TABLE = str.maketrans({ch: None for ch in _DOTS + _DASHES})
_WHITESPACE = lazy(r"\s+")
_KANA_KANJI = lazy(r"[\u3040-\u309f\u30a0-\u30fa\u30fd-\u30ff\u3005\u3006\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9d]")
"""Hiragana, katakana (not the ・ and ー a Latin name may borrow), kanji, half-width katakana."""
_KANA = lazy(r"[\u3040-\u309f\u30a0-\u30fa\u30fd-\u30ff\uff66-\uff9d]")


def has_kana_or_kanji(text: str) -> bool:
    """Whether the text has Japanese (or Chinese) letters: the script of a written name."""
    return not text.isascii() and _KANA_KANJI.search(text) is not None


def has_kana(text: str) -> bool:
    return not text.isascii() and _KANA.search(text) is not None


@lru_cache(maxsize=1 << 16)
def compact_key(name: str) -> str:
    """NFKC, case-folded, every whitespace (the ideographic space too) removed."""
    return _WHITESPACE.sub("", unicodedata.normalize("NFKC", name).casefold())


def marks_key(name: str) -> str:
    """The compact key with dot and dash look-alikes unified (``・`` and ``-``)."""
    return compact_key(name).translate(_MARKS_TABLE)


def bare_key(name: str) -> str:
    """The compact key with dots and dashes dropped altogether."""
    return compact_key(name).translate(_BARE_TABLE)


def index_keys(name: str, lang: str) -> list[tuple[str, str]]:
    """The (fold, key) pairs a catalog files one of a card's names under, in language ``lang``."""
    if lang in UNSPACED_LANGUAGES:
        keys = [(COMPACT, compact_key(name)), (MARKS, marks_key(name)), (BARE, bare_key(name))]
    else:
        keys = [(PLAIN, normalize_name(name))]
    return [(fold, key) for fold, key in keys if key]


def lookup_keys(written: str, folds: frozenset[str] | set[str] = frozenset(FOLDS)):
    """The (fold, key) pairs to try for a name as a list wrote it, closest first, only for the
    ``folds`` the catalog has. Lazy: an English name found by its plain key costs nothing more,
    and a name written in kana or kanji tries the Japanese folds before the plain one."""
    plain_first = PLAIN in folds and not has_kana_or_kanji(written)
    if plain_first:
        key = normalize_name(written)
        if key:
            yield PLAIN, key
    if COMPACT in folds:
        compact = compact_key(written)
        if compact:
            yield COMPACT, compact
            bare = compact.translate(_BARE_TABLE)
            if bare != compact:  # no dot or dash written: a card it meets in "marks" has none either, and "compact" missed it
                yield MARKS, compact.translate(_MARKS_TABLE)
            yield BARE, bare
    if PLAIN in folds and not plain_first:
        key = normalize_name(written)
        if key:
            yield PLAIN, key
