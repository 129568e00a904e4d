"""Name normalisation: what a human types and what the catalog holds meet here.

Case, accents, curly quotes, punctuation and spacing are forgiven; a ``(Stranger)`` suffix
is dropped (it is a sub-type, not part of the name), and so are the data's face tags
(``[J-Ruler]``, ``[Alternative]``, ``[Inverse]``). Printing codes are normalised apart.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00b4": "'", "`": "'"})
_SUFFIX = re.compile(r"\s*[\(\[](?:stranger|shift|alternative|j-ruler|inverse)[\)\]]\s*$", re.IGNORECASE)
_NON_WORD = re.compile(r"[\W_]+")
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
