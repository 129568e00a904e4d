"""Pretty JSON text, the same as ``json.dumps(value, ensure_ascii=False, indent=2)``, faster.

With ``indent`` set, the standard library encodes in pure Python through a chain of generators;
a report of thousands of decks spent a large share of its time there. This writes the same
text directly, strings escaped by the standard library's C escaper, for the values reports hold
(dicts with string keys, lists and tuples, strings, numbers, booleans and None).
"""

from __future__ import annotations

from json import dumps
from json.encoder import encode_basestring

_LEAVES = {
    str: encode_basestring,
    type(None): lambda _value: "null",
    bool: lambda value: "true" if value else "false",
    int: int.__repr__,
}
"""How each kind of leaf value is written, by its exact type (a subclass of int or str goes
the general way): most of a report's values are leaves, written without a call of ``pretty``."""

_INDENTS = ["\n" + "  " * depth for depth in range(16)]


def pretty(value, depth: int = 0) -> str:
    """``value`` as indented JSON whose lines after the first sit ``depth`` levels (two spaces
    each) deep, as a document embedding it at that depth would print it."""
    leaf = _LEAVES.get(type(value))
    if leaf is not None:
        return leaf(value)
    if not isinstance(value, (dict, list, tuple)):
        if isinstance(value, str):
            return encode_basestring(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return int.__repr__(value)
        return _fallback(value, depth)
    if not value:
        return "{}" if isinstance(value, dict) else "[]"
    inner = _INDENTS[depth + 1] if depth < 15 else "\n" + "  " * (depth + 1)
    outer = _INDENTS[depth] if depth < 16 else "\n" + "  " * depth
    leaves = _LEAVES
    parts = []
    if isinstance(value, dict):
        for key, item in value.items():
            if type(key) is not str:
                if not isinstance(key, str):
                    return _fallback(value, depth)
                key = str.__str__(key)
            leaf = leaves.get(type(item))
            parts.append(encode_basestring(key) + ": " + (leaf(item) if leaf is not None else pretty(item, depth + 1)))
        return "{" + inner + ("," + inner).join(parts) + outer + "}"
    for item in value:
        leaf = leaves.get(type(item))
        parts.append(leaf(item) if leaf is not None else pretty(item, depth + 1))
    return "[" + inner + ("," + inner).join(parts) + outer + "]"


def scalar(value, depth: int) -> str:
    """A string, an int or None as JSON, with no call of ``pretty``; anything else as ``pretty``
    writes it at ``depth``. For writers that lay out a document's fixed keys themselves."""
    if value is None:
        return "null"
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is int:
        return int.__repr__(value)
    return pretty(value, depth)


def _fallback(value, depth: int) -> str:
    """Anything else (floats, non-string keys) as the standard library writes it."""
    return dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + "  " * depth)
