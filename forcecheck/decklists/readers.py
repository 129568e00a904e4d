"""Choosing a reader: by file extension, else by sniffing the content."""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

from forcecheck.decklists.model import Decklist
from forcecheck.decklists.text import read_text_decklist
from forcecheck.decklists.ydk import read_ydk
from forcecheck.decklists.ydke import has_code, read_ydke
from forcecheck.errors import ForcecheckError, InputFileError
from forcecheck.lazyre import lazy
from forcecheck.textfile import read_text

DECKLIST_EXTENSIONS = (".txt", ".yaml", ".yml", ".deck", ".dek", ".ydk")
"""Files a directory walk picks up; a file named on the command line is read whatever its name."""

_YAML_SNIFF = lazy(r"^(?:---\s*$|(?:format|sections|name|player)\s*:)", re.MULTILINE)


def read_decklist(path: Path, known_headers: Collection[str] = ()) -> Decklist:
    """Read one decklist file. Raises InputFileError (exit 2) when the file is unusable."""
    text = read_text(path)
    return parse_decklist(text, str(path), known_headers, suffix=path.suffix.lower())


def decklist_kind(text: str, suffix: str = "") -> str:
    """``ydke``, ``ydk``, ``yaml`` or ``text``: by the file's extension, else by sniffing the
    content. A ydke:// code anywhere in a file that is neither YAML nor a .ydk with its
    section markers is a ydke deck (``forcecheck.decklists.ydke``)."""
    if suffix not in (".yaml", ".yml") and has_code(text) and not (suffix == ".ydk" and _looks_like_ydk(text)):
        return "ydke"
    if suffix == ".ydk" or (suffix not in (".txt", ".yaml", ".yml") and _looks_like_ydk(text)) or _only_ydk(text):
        return "ydk"
    if suffix in (".yaml", ".yml") or (suffix not in (".txt",) and _looks_like_yaml(text)):
        return "yaml"
    return "text"


def parse_decklist(text: str, path: str, known_headers: Collection[str] = (), suffix: str = "") -> Decklist:
    kind = decklist_kind(text, suffix)
    if kind == "ydke":
        deck = read_ydke(text, path)
        deck.beside = _list_around_code(text, path, known_headers)
    elif kind == "ydk":
        deck = read_ydk(text, path)
    elif kind == "yaml":
        from forcecheck.decklists.yaml_deck import read_yaml_decklist  # PyYAML only when needed

        deck = read_yaml_decklist(text, path)
    else:
        deck = read_text_decklist(text, path, known_headers)
    if not deck.sections and not deck.problems:
        raise InputFileError("empty decklist: no sections and no cards", path)
    return deck


def _list_around_code(text: str, path: str, known_headers: Collection[str]) -> Decklist | None:
    """The text around a ydke:// code read as a text list (the code's lines left blank, so line
    numbers stay), or None when no line of it reads as a card line: the resolver decides, by the
    catalog, whether it is the code's deck said again or another deck."""
    around = ["" if has_code(line) else line for line in text.split("\n")]
    if not any(line.strip() for line in around):
        return None
    try:
        deck = read_text_decklist("\n".join(around), path, known_headers)
    except ForcecheckError:
        return None
    return deck if any(section.entries for section in deck.sections) else None


def _looks_like_ydk(text: str) -> bool:
    lines = [ln.strip().lower() for ln in text.split("\n") if ln.strip()]
    return any(ln in ("#main", "#extra", "!side") for ln in lines[:5])


_YDK_LINE = lazy(r"^\s*(?:#.*|!side|\d{1,10})\s*$", re.IGNORECASE)


def _only_ydk(text: str) -> bool:
    """A .ydk by its content, whatever the file is called (``deck.txt``, standard input, the desk's
    text box): a ``#main``/``#extra``/``!side`` marker, and every line a marker, a comment or a
    passcode. A text list under a ``#main`` heading has card names, so it stays text."""
    if not _looks_like_ydk(text):
        return False
    lines = [line for line in text.split("\n") if line.strip()]
    return any(line.strip().isdigit() for line in lines) and all(_YDK_LINE.match(line) for line in lines)


def _looks_like_yaml(text: str) -> bool:
    first = next((ln for ln in text.split("\n") if ln.strip() and not ln.lstrip().startswith("#")), "")
    return bool(_YAML_SNIFF.match(first)) and "sections:" in text
