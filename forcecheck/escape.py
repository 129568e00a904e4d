"""What the user wrote, made safe to print: every renderer shows it as text, never as codes.

A decklist, a header or a file name may carry terminal escape sequences (``ESC[2J`` clears the
screen, OSC sequences retitle the window), bidi overrides that reorder what is shown, bytes XML
cannot hold, or, in a file name that is not UTF-8, lone surrogates that no UTF-8 stream can
write. ``printable`` turns each into a visible escape (``\\x1b``, ``\\u202e``, ``\\xff`` for an
undecodable byte of a name) for the line formats; ``json_text`` escapes them inside an already
encoded JSON document, where the data stays exactly what it was.

A text utility of the basement (errors, readers and renderers all use it), so it imports nothing
of forcecheck but ``lazyre``.
"""

from __future__ import annotations

import re

from forcecheck.lazyre import lazy

_UNSAFE = lazy("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""C0 and C1 controls, DEL, line and paragraph separators, bidi embeddings/overrides/isolates,
and lone surrogates (an undecodable byte of a file name, as Python's file system decoding keeps it)."""


def _visible(match: re.Match) -> str:
    ch = match.group()
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"  # the byte of the file name that was not UTF-8
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every control, bidi or undecodable character shown as an escape."""
    if text.isprintable() and text.isascii():
        return text
    return _UNSAFE.sub(_visible, text)


def _json_escape(match: re.Match) -> str:
    ch = match.group()
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\\\x{code - 0xDC00:02x}"  # a file name's undecodable byte, as text: \xff
    return f"\\u{code:04x}"


_JSON_UNSAFE = lazy("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""What ``json.dumps(..., ensure_ascii=False)`` leaves raw that a terminal or a UTF-8 encoder
would trip on (it escapes C0 controls itself)."""


def json_text(encoded: str) -> str:
    """A JSON text with the characters above escaped (``\\u009b``): the same data, safe bytes.
    Lone surrogates cannot be encoded at all; they come from undecodable file names and become
    the text ``\\xNN``, as everywhere else."""
    if encoded.isascii():
        return encoded
    return _JSON_UNSAFE.sub(_json_escape, encoded)


_XML_UNSAFE = lazy("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def xml_text(text: str) -> str:
    """Text XML 1.0 can hold (tab and newline kept, as a JUnit failure body has lines)."""
    if text.isascii() and text.isprintable():
        return text
    return _XML_UNSAFE.sub(_visible, text)


def short(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, for echoing user input in a message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
