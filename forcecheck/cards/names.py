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
_NON_WORD = re.compile(r"[^0-9a-z]+")


@lru_cache(maxsize=1 << 16)
def normalize_name(name: str) -> str:
    """The lookup key of a card name: ASCII-folded, lower-case, punctuation as single spaces."""
    text = _SUFFIX.sub("", name.translate(_QUOTES))
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    # German sharp s, ligatures and the like after NFKD
    text = text.casefold()
    text = text.replace("'", "")
    return _NON_WORD.sub(" ", text).strip()


@lru_cache(maxsize=1 << 16)
def normalize_printing(code: str) -> str:
    """The lookup key of a printing code: upper-case, no spaces (``cmf-001`` -> ``CMF-001``)."""
    return re.sub(r"\s+", "", code).upper()
