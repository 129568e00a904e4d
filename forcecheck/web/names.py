"""People's names at the desk (players, events): what is refused, and when two names are one.

A name is kept as it was typed (NFC, runs of spaces, tabs and line feeds made one space): nothing a player wrote is
rewritten. A name is refused, naming the character, when it holds something that is no part of a
name and can disguise one: a control character (C0, DEL, C1), a bidirectional override or
embedding (U+202A-U+202E) or isolate (U+2066-U+2069), which reorder the text around them on the
organiser's screen and printed sheets, or a line or paragraph separator (U+2028, U+2029).

Two names are the same player when their keys are equal: NFKC (fullwidth ＡＮＡ is ANA), format
characters removed (zero-width space, soft hyphen, BOM, joiners: invisible), case folded, spaces
made one, then the Unicode TR39 confusable skeleton (Cyrillic А looks like Latin A), computed by
ICU's SpoofChecker (the pyicu-wheels package), the reference implementation of Unicode's
confusables data, kept up to date with each Unicode release.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

MAX_NAME_CHARS = 200
"""Event and player names: a sentence, not a document."""

_BIDI_OVERRIDES = frozenset("\u202a\u202b\u202c\u202d\u202e")
_BIDI_ISOLATES = frozenset("\u2066\u2067\u2068\u2069")
_LINE_SEPARATORS = frozenset("\u2028\u2029")


def N_(text: str) -> str:
    """Marks a message for the desk's catalogs (its pages say it in the reader's language)."""
    return text


class NameRefused(ValueError):
    """A name that cannot be used; the message says why, for the person who typed it.
    ``template`` and ``params`` let a page say it in the reader's language."""

    def __init__(self, template: str, **params):
        super().__init__(template.format(**params))
        self.template = template
        self.params = params


def refused_character(text: str) -> str | None:
    """How the first character that no name may hold is named in a message, or None."""
    for char in text:
        if char in _BIDI_OVERRIDES:
            kind = "a bidirectional override"
        elif char in _BIDI_ISOLATES:
            kind = "a bidirectional isolate"
        elif char in _LINE_SEPARATORS:
            kind = "a line separator"
        elif unicodedata.category(char) == "Cc" and char not in "\t\n\r":  # those three are spaces, tidied
            kind = "a control character"
        else:
            continue
        name = unicodedata.name(char, "")
        return f"U+{ord(char):04X} {name} ({kind})" if name else f"U+{ord(char):04X} ({kind})"
    return None


def clean_name(value: str | None, what: str) -> str:
    """A name as typed (NFC, spaces tidied); NameRefused when empty, too long, or holding a
    character no name may hold."""
    raw = value or ""
    shown = refused_character(raw)
    if shown:
        raise NameRefused(N_("the {what} contains {char}: type the name as plain text"), what=what, char=shown)
    text = unicodedata.normalize("NFC", " ".join(raw.split()))
    if not text:
        raise NameRefused(N_("the {what} is empty"), what=what)
    if len(text) > MAX_NAME_CHARS:
        raise NameRefused(N_("the {what} is {length} characters long; at most {limit}"), what=what, length=len(text), limit=MAX_NAME_CHARS)
    return text


def sort_key(name: str) -> str:
    """How names are ordered in tables: as people read them, case aside."""
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()


@lru_cache(maxsize=4096)
def same_player_key(name: str) -> str:
    """Equal for names a person would read as the same (see the module's docstring)."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    text = " ".join(text.casefold().split())
    return _skeleton(text)


def _skeleton(text: str) -> str:
    return _spoof_checker().getSkeleton(0, text)


@lru_cache(maxsize=1)
def _spoof_checker():
    import icu

    return icu.SpoofChecker()


MAX_PLAYER_ID_CHARS = 64
"""A player ID (KONAMI ID, FoW player number) is a short code."""


def clean_player_id(value: str | None) -> str | None:
    """A player ID as typed (spaces tidied), None when empty; NameRefused when it holds a
    character no name may hold or is too long."""
    raw = value or ""
    shown = refused_character(raw)
    if shown:
        raise NameRefused(N_("the player ID contains {char}: type it as plain text"), char=shown)
    text = unicodedata.normalize("NFC", " ".join(raw.split()))
    if len(text) > MAX_PLAYER_ID_CHARS:
        raise NameRefused(N_("the player ID is {length} characters long; at most {limit}"), length=len(text), limit=MAX_PLAYER_ID_CHARS)
    return text or None


def player_id_key(player_id: str) -> str:
    """Equal for IDs that are one ID as written differently: width (fullwidth digits), case,
    spaces and hyphens aside ("0012-3456 78" is "001234567８")."""
    text = unicodedata.normalize("NFKC", player_id).casefold()
    return "".join(c for c in text if not c.isspace() and c not in "-‐‑‒–—_.")
