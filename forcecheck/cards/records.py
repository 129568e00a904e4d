"""Card records read back from a catalog, checked before they become ``Card`` objects.

``Card.from_dict`` trusts its input (a batch builds thousands of cards and the importer wrote
them), so a catalog JSON file someone edited, or an SQLite catalog whose ``facts`` were
damaged, would otherwise fail deep inside a check (``'int' object has no attribute ...``).
``card_from_record`` checks the shape of every field it knows first and says which one is
wrong; fields it does not know are left to ``Card.from_dict``.
"""

from __future__ import annotations

from typing import Any

from forcecheck.cards.model import Card

_TEXT_LISTS = ("types", "subtypes", "attributes", "will", "deck_attributes", "printings", "aliases")
_FACE_TEXT_LISTS = ("types", "subtypes", "attributes")


class RecordError(ValueError):
    """A stored card record of the wrong shape; the message names the field."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _unencodable(text: str) -> bool:
    """A lone surrogate (a "\\ud800" JSON escape): no UTF-8 output could hold the name."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _facts_problem(record: dict, lists: tuple[str, ...]) -> str | None:
    name = record.get("name")
    if not isinstance(name, str) or not name.strip() or not name.isprintable() and _unencodable(name):
        return "'name' is not a card name"
    for key in lists:
        value = record.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            return f"'{key}' is not a list of text"
    if not isinstance(record.get("cost", ""), str):
        return "'cost' is not text"
    if not _is_int(record.get("total_cost", 0)):
        return "'total_cost' is not a whole number"
    return None


def record_problem(record: Any) -> str | None:
    """What is wrong with a stored card record, or None."""
    if not isinstance(record, dict):
        return "not a JSON object"
    problem = _facts_problem(record, _TEXT_LISTS)
    if problem:
        return problem
    if not isinstance(record.get("game"), str):
        return "'game' is not text"
    keywords = record.get("keywords", {})
    if not isinstance(keywords, dict) or not all(isinstance(k, str) and _is_int(v) for k, v in keywords.items()):
        return "'keywords' is not a map of keyword to number"
    if record.get("copy_limit") is not None and not _is_int(record["copy_limit"]):
        return "'copy_limit' is not a whole number"
    regions = record.get("regions")
    if regions is not None and (not isinstance(regions, list) or not all(isinstance(r, str) for r in regions)):
        return "'regions' is not a list of text"
    printing_regions = record.get("printing_regions", {})
    if not isinstance(printing_regions, dict) or not all(
        isinstance(v, list) and all(isinstance(r, str) for r in v) for v in printing_regions.values()
    ):
        return "'printing_regions' is not a map of printing to a list of regions"
    printing_types = record.get("printing_types", {})
    if not isinstance(printing_types, dict) or not all(
        isinstance(v, list) and all(isinstance(t, str) for t in v) for v in printing_types.values()
    ):
        return "'printing_types' is not a map of printing to a list of types"
    printing_names = record.get("printing_names", {})
    if not isinstance(printing_names, dict) or not all(isinstance(v, str) and v.strip() for v in printing_names.values()):
        return "'printing_names' is not a map of printing to name"
    faces = record.get("faces", [])
    if not isinstance(faces, list):
        return "'faces' is not a list"
    for index, face in enumerate(faces):
        problem = "not a JSON object" if not isinstance(face, dict) else _facts_problem(face, _FACE_TEXT_LISTS)
        if problem:
            return f"face {index}: {problem}"
    return None


def card_from_record(record: Any) -> Card:
    """The Card of a stored record; RecordError naming the field when the record is malformed."""
    problem = record_problem(record)
    if problem:
        raise RecordError(problem)
    try:
        return Card.from_dict(record)
    except (KeyError, TypeError, ValueError) as exc:  # a field this module does not know yet
        raise RecordError(f"{type(exc).__name__}: {exc}") from None
