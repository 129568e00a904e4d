"""ydke:// deck codes: the form Yu-Gi-Oh! players paste on Discord, and EDOPro and YGOPRODeck
copy and read.

A code is ``ydke://`` then three parts, each ended by ``!``: the main deck, the extra deck and
the side deck, each the standard base64 of its cards' passcodes as little-endian 32-bit
numbers, one per copy (EDOPro ``DeckManager::ExportDeckBase64``). A file or text holding one,
alone or inside other text (a chat message, a forum post), is a decklist: its sections are the
three parts, every card on the code's line, as a ``.ydk`` file lists them. The text around the
code is kept as comments, and ``Player:`` / ``Name:`` lines give the deck's player and title.

A code that cannot be read whole is never read as a shorter deck in silence: a part that is no
base64 (a character outside its alphabet, a length that is no multiple of 4) or that does not
decode to whole passcodes, a code cut short (fewer than three ``!``), words after its last
``!`` and a second code are each a finding on the code's line that says what is wrong in it;
a passcode no card has is an unknown card, as in a ``.ydk``.
"""

from __future__ import annotations

import re

from forcecheck.decklists.model import Decklist, Entry, Note, ReadProblem, Section
from forcecheck.lazyre import lazy

SCHEME = "ydke://"
PARTS = ("main", "extra", "side")
PART_NAMES = {"main": "main deck", "extra": "extra deck", "side": "side deck"}

_CODE = lazy(r"ydke://\S*", re.IGNORECASE)
_SCHEME = lazy(r"ydke://", re.IGNORECASE)
_WRAPPING = "<>()[]{}\"'`,.;:"
"""Characters a chat or a page wraps a code in (``<ydke://...!>``, `` `ydke://...!` ``): no
base64 character, so stripping them from the ends of a code changes none of it."""
_ALPHABET = lazy(r"[A-Za-z0-9+/]*={0,2}")
_METADATA = lazy(r"^\s*(?:#|//)?\s*(player|name|deck name|deck|event|date)\s*:\s*(\S.*?)\s*$", re.IGNORECASE)


def has_code(text: str) -> bool:
    """Whether ``text`` holds a ydke:// code (what the readers sniff for: one search in C, no copy)."""
    return _SCHEME.search(text) is not None


def read_ydke(text: str, path: str) -> Decklist:
    """The deck of the first ydke:// code in ``text``; see the module docstring."""
    deck = Decklist(path=path)
    codes = []
    for number, line in enumerate(text.split("\n"), start=1):
        found = list(_CODE.finditer(line))
        if not found:
            _surrounding(deck, line, number)
            continue
        codes += [(number, match) for match in found]
        rest = _CODE.sub(" ", line).strip(_WRAPPING + " \t\r")
        if rest:
            deck.notes.append(Note("comment", line.strip(), number))
    if not codes:
        return deck
    number, match = codes[0]
    _read_code(deck, match.group(0), number)
    for other, extra in codes[1:]:
        deck.problems.append(ReadProblem(
            "invalid-entry", f"a second ydke:// code ({_shown(extra.group(0))}): a decklist is one deck, and only the first "
                             f"code (line {number}) is read; give each deck a file of its own", other))
    return deck


def _surrounding(deck: Decklist, line: str, number: int) -> None:
    """A line around the code: metadata (``Player: Ann``, ``Name: Sky Striker``) or a comment."""
    stripped = line.strip()
    if not stripped:
        return
    meta = _METADATA.match(stripped)
    if meta:
        key = meta.group(1).lower()
        if key in ("name", "deck name", "deck"):
            deck.name = deck.name or meta.group(2)
        else:
            deck.metadata.setdefault(key, meta.group(2))
        return
    deck.notes.append(Note("comment", stripped, number))


def _shown(code: str, limit: int = 40) -> str:
    return code if len(code) <= limit else code[: limit - 3] + "..."


def _read_code(deck: Decklist, written: str, number: int) -> None:
    code = written.strip(_WRAPPING)
    body = code[len(SCHEME):]
    pieces = body.split("!")
    complete, tail = pieces[:-1], pieces[-1]
    problems = deck.problems

    def problem(message: str, part: str | None = None) -> None:
        problems.append(ReadProblem("invalid-entry", f"ydke:// code: {message}", number, part))

    if len(complete) < len(PARTS):
        have = len(complete)
        names = [PART_NAMES[p] for p in PARTS[have:]]
        missing = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        problem(f"cut short: it has {have} of the 3 '!' that end its main, extra and side decks, so the {missing} "
                f"{'is' if len(PARTS) - have == 1 else 'are'} not whole (copy the whole code, up to its last '!')")
        parts = complete + ([tail] if tail else [])
    else:
        parts = complete[: len(PARTS)]
        after = "!".join(pieces[len(PARTS):])
        if after:
            problem(f"{after[:24]!r} follows the '!' that ends the side deck: it is no part of a ydke:// code "
                    "(main!extra!side!), and is not read")
    for part, encoded in zip(PARTS, parts):
        section = Section(title=part, line=number, warn_if_empty=False, uniform="printing")
        deck.sections.append(section)
        passcodes = _decode(encoded, PART_NAMES[part], problem, part)
        section.entries.extend(Entry(str(p), 1, number, str(p)) for p in passcodes)


def _decode(encoded: str, name: str, problem, part: str) -> list[int]:
    """The passcodes of one part; a part that cannot be decoded whole gives none, and says why."""
    if not encoded:
        return []
    valid = _ALPHABET.match(encoded).end()
    if valid < len(encoded):
        padding = encoded.find("=")
        if 0 <= padding < valid:
            problem(f"the {name} part is no base64: '=' (padding) at its character {padding + 1} comes before its end; "
                    "its cards are not read", part)
        else:
            problem(f"the {name} part is no base64: {encoded[valid]!r} at its character {valid + 1} is outside the base64 "
                    "alphabet (A-Z, a-z, 0-9, +, / and = padding); its cards are not read", part)
        return []
    if len(encoded) % 4:
        problem(f"the {name} part has {len(encoded)} base64 characters, not a multiple of 4: the code was cut or "
                "changed; its cards are not read", part)
        return []
    import base64  # here: a check of any other list never loads them
    import binascii
    import struct

    try:
        raw = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError) as exc:
        problem(f"the {name} part is no base64 ({exc}); its cards are not read", part)
        return []
    if len(raw) % 4:
        problem(f"the {name} part decodes to {len(raw)} bytes, not whole passcodes (4 bytes each): the code was cut or "
                "changed; its cards are not read", part)
        return []
    return list(struct.unpack(f"<{len(raw) // 4}I", raw))


def encode(main: list[int], extra: list[int], side: list[int]) -> str:
    """The ydke:// code of three lists of passcodes (one per copy, in order)."""
    import base64
    import struct

    def part(codes: list[int]) -> str:
        return base64.b64encode(struct.pack(f"<{len(codes)}I", *codes)).decode("ascii")

    return f"{SCHEME}{part(main)}!{part(extra)}!{part(side)}!"


MAX_PASSCODE = 0xFFFFFFFF
"""A ydke code holds each passcode in 32 bits."""
