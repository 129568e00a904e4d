"""Pretty JSON text, the same as ``json.dumps(value, ensure_ascii=False, indent=2)``, faster.

With ``indent`` set, the standard library encodes in pure Python through a chain of generators;
a report of thousands of decks spent a large share of its time there. This writes the same
text directly, strings escaped by the standard library's C escaper, for the values reports hold
(dicts with string keys, lists and tuples, strings, numbers, booleans and None).
"""

from __future__ import annotations

from json import dumps
from json.encoder import encode_basestring

_CONSTANTS = {True: "true", False: "false"}


def pretty(value, depth: int = 0) -> str:
    """``value`` as indented JSON whose lines after the first sit ``depth`` levels (two spaces
    each) deep, as a document embedding it at that depth would print it."""
    if isinstance(value, str):
        return encode_basestring(value)
    if value is None:
        return "null"
    if value is True or value is False:
        return _CONSTANTS[value]
    if isinstance(value, int):
        return int.__repr__(value)
    inner = "\n" + "  " * (depth + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        parts = []
        for key, item in value.items():
            if not isinstance(key, str):
                return _fallback(value, depth)
            parts.append(encode_basestring(key) + ": " + pretty(item, depth + 1))
        return "{" + inner + ("," + inner).join(parts) + "\n" + "  " * depth + "}"
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        return "[" + inner + ("," + inner).join([pretty(item, depth + 1) for item in value]) + "\n" + "  " * depth + "]"
    return _fallback(value, depth)


def _fallback(value, depth: int) -> str:
    """Anything else (floats, non-string keys) as the standard library writes it."""
    return dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + "  " * depth)
