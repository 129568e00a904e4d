"""Choosing a reader: by file extension, else by sniffing the content."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Collection

from forcecheck.decklists.model import Decklist
from forcecheck.decklists.text import read_text_decklist
from forcecheck.decklists.ydk import read_ydk
from forcecheck.decklists.ydke import has_code, read_ydke
from forcecheck.errors import InputFileError
from forcecheck.textfile import read_text
from forcecheck.lazyre import lazy

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
    if suffix == ".ydk" or (suffix not in (".txt", ".yaml", ".yml") and _looks_like_ydk(text)):
        return "ydk"
    if suffix in (".yaml", ".yml") or (suffix not in (".txt",) and _looks_like_yaml(text)):
        return "yaml"
    return "text"


def parse_decklist(text: str, path: str, known_headers: Collection[str] = (), suffix: str = "") -> Decklist:
    kind = decklist_kind(text, suffix)
    if kind == "ydke":
        deck = read_ydke(text, path)
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


def _looks_like_ydk(text: str) -> bool:
    lines = [ln.strip().lower() for ln in text.split("\n") if ln.strip()]
    return any(ln in ("#main", "#extra", "!side") for ln in lines[:5])


def _looks_like_yaml(text: str) -> bool:
    first = next((ln for ln in text.split("\n") if ln.strip() and not ln.lstrip().startswith("#")), "")
    return bool(_YAML_SNIFF.match(first)) and "sections:" in text
