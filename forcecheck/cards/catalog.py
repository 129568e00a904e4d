"""Catalogs: where card facts are looked up by name or printing code.

A catalog answers three questions for one game: the card with this (normalised) name, the
card with this printing code, and the nearest names to an unknown one. The embedded
sample catalog and any ``--catalog`` JSON file are held in memory; a database backend
only has to answer the same three questions.
"""

from __future__ import annotations

import json
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from forcecheck.cards.model import Card
from forcecheck.cards.names import normalize_name, normalize_printing
from forcecheck.errors import CatalogError

if TYPE_CHECKING:
    from forcecheck.cards.correct import Correction

CATALOG_SCHEMA = "forcecheck-catalog/1"
SAMPLE_CATALOG_LABEL = "embedded sample catalog"


MEMO_LIMIT = 100_000
"""Spellings a catalog remembers per game and kind before it starts afresh (see Catalog.remembered)."""

_UNSEEN = object()


class Catalog:
    """What every catalog answers: a card by name or printing code, and names near a name."""

    label: str

    def remembered(self, kind: str, game: str) -> tuple[dict[str, Card | None], Callable[[str], Card | None]]:
        """Lookup by name (``kind="name"``) or printing code *as written*, remembered: a batch
        spells the same cards again and again, and normalising a spelling costs more than a
        dict lookup. Returns the memo (so a hot loop can try it inline) and the function that
        fills it. Bounded: a hostile batch of made-up names cannot grow memory forever."""
        memos = self.__dict__.setdefault("_remembered", {})
        found = memos.get((kind, game))
        if found is None:
            memo: dict[str, Card | None] = {}
            find = self.by_name if kind == "name" else self.by_printing

            def lookup(written: str) -> Card | None:
                card = memo.get(written, _UNSEEN)
                if card is _UNSEEN:
                    if len(memo) >= MEMO_LIMIT:
                        memo.clear()
                    card = memo[written] = find(game, written)
                return card

            found = memos[(kind, game)] = (memo, lookup)
        return found

    def by_name(self, game: str, name: str) -> Card | None:
        raise NotImplementedError

    def by_printing(self, game: str, code: str) -> Card | None:
        raise NotImplementedError

    def suggest(self, game: str, name: str, limit: int = 3) -> list[str]:
        """The nearest known card names to ``name`` (distinct cards, best first)."""
        keys, names = self.name_index(game)
        return nearest(name, keys, names, limit)

    def name_index(self, game: str) -> tuple[list[str], list[str]]:
        """Every lookup key of the game's names and the display name each belongs to."""
        raise NotImplementedError

    def correct(self, game: str, written: str) -> tuple[Card, Correction] | None:
        """The card a misspelt name clearly means, and how it was read (``cards.correct``);
        None when no one card is clearly meant. Remembered per spelling, bounded."""
        memos = self.__dict__.setdefault("_corrections", {})
        memo = memos.get(game)
        if memo is None:
            from forcecheck.cards.correct import Corrector

            memo = memos[game] = ({}, Corrector(*self.name_index(game)))
        answers, corrector = memo
        found = answers.get(written, _UNSEEN)
        if found is _UNSEEN:
            if len(answers) >= MEMO_LIMIT:
                answers.clear()
            correction = corrector.correct(written)
            card = self.by_name(game, correction.name) if correction else None
            found = answers[written] = (card, correction) if card is not None else None
        return found

    def cards(self, game: str | None = None) -> list[Card]:
        """Every card (for listings and tools, not for checking a deck)."""
        raise NotImplementedError

    def info(self) -> dict:
        """What the catalog is: label, counts per game, sources."""
        counts: dict[str, int] = {}
        for card in self.cards():
            counts[card.game] = counts.get(card.game, 0) + 1
        return {"catalog": self.label, "cards": counts}


def nearest(query: str, keys: list[str], names: list[str], limit: int) -> list[str]:
    """The ``limit`` best distinct display names for ``query`` among normalised ``keys``.

    token_set_ratio forgives word order, missing words ("Arthur King of Knights") and typos;
    names far below the best match are left out, so a near-certain match stands alone.
    """
    from rapidfuzz import fuzz, process

    key = normalize_name(query)
    if not keys or not key:
        return []
    found: list[str] = []
    best = None
    for _key, score, index in process.extract(key, keys, scorer=fuzz.token_set_ratio, limit=limit * 4):
        best = score if best is None else best
        if score < max(60, best - 25):
            break
        if names[index] not in found:
            found.append(names[index])
        if len(found) == limit:
            break
    return found


class MemoryCatalog(Catalog):
    """Card facts held in memory, indexed by normalised name and by printing code."""

    def __init__(self, cards: Iterable[Card], label: str):
        self.label = label
        self._by_name: dict[tuple[str, str], Card] = {}
        self._by_printing: dict[tuple[str, str], Card] = {}
        self._cards: list[Card] = []
        for card in cards:
            self.add(card)

    def add(self, card: Card) -> None:
        self._cards.append(card)
        self._by_name[(card.game, normalize_name(card.name))] = card
        for alias in card.aliases:
            self._by_name.setdefault((card.game, normalize_name(alias)), card)
        for code in card.printings:
            self._by_printing[(card.game, normalize_printing(code))] = card
        self.__dict__.pop("_choices", None)

    def __len__(self) -> int:
        return len(self._cards)

    def cards(self, game: str | None = None) -> list[Card]:
        return [c for c in self._cards if game is None or c.game == game]

    def by_name(self, game: str, name: str) -> Card | None:
        return self._by_name.get((game, normalize_name(name)))

    def by_printing(self, game: str, code: str) -> Card | None:
        return self._by_printing.get((game, normalize_printing(code)))

    @cached_property
    def _choices(self) -> dict[str, tuple[list[str], list[str]]]:
        """Per game: normalised names and the display names they came from (for suggestions)."""
        out: dict[str, tuple[list[str], list[str]]] = {}
        for (game, key), card in self._by_name.items():
            keys, names = out.setdefault(game, ([], []))
            keys.append(key)
            names.append(card.name)
        return out

    def name_index(self, game: str) -> tuple[list[str], list[str]]:
        return self._choices.get(game, ([], []))


def load_catalog_file(path: Path) -> Catalog:
    """Load a catalog JSON file in the ``forcecheck-catalog/1`` schema."""
    from forcecheck.textfile import read_bytes

    try:
        data = json.loads(read_bytes(path, max_bytes=512 * 1024 * 1024))
    except (ValueError, UnicodeDecodeError) as exc:
        raise CatalogError(f"not a forcecheck catalog (not JSON: {exc})", path) from None
    except OSError as exc:  # pragma: no cover - read_bytes converts these
        raise CatalogError(str(exc), path) from None
    return catalog_from_json(data, path, label=f"catalog {path}")


def catalog_from_json(data: object, path: str | Path, label: str) -> Catalog:
    if not isinstance(data, dict) or data.get("schema") != CATALOG_SCHEMA:
        raise CatalogError(f"not a forcecheck catalog (expected \"schema\": \"{CATALOG_SCHEMA}\")", path)
    records = data.get("cards")
    if not isinstance(records, list):
        raise CatalogError("catalog has no \"cards\" list", path)
    cards = []
    for index, record in enumerate(records):
        try:
            cards.append(Card.from_dict(record))
        except (KeyError, TypeError, ValueError) as exc:
            raise CatalogError(f"card record {index} is malformed ({exc!r})", path) from None
    return MemoryCatalog(cards, label=label)


def sample_catalog() -> Catalog:
    """The small catalog of real card facts shipped inside the package."""
    ref = resources.files("forcecheck.data").joinpath("sample_catalog.json")
    data = json.loads(ref.read_text(encoding="utf-8"))
    return catalog_from_json(data, "forcecheck/data/sample_catalog.json", label=SAMPLE_CATALOG_LABEL)


def catalog_path(given: str | Path | None) -> Path | None:
    """Which catalog to use: the given path, else ``FORCECHECK_CATALOG``, else the default
    import location if a catalog was imported there; ``None`` means the embedded sample."""
    import os

    if given is not None:
        return Path(given)
    env = os.environ.get("FORCECHECK_CATALOG")
    if env:
        return Path(env)
    from forcecheck.cards.store import default_db_path

    default = default_db_path()
    return default if default.is_file() else None


def open_catalog(given: str | Path | None) -> Catalog:
    """The catalog a check uses (see ``catalog_path``): an imported SQLite catalog, a catalog
    JSON file, or the embedded sample."""
    path = catalog_path(given)
    if path is None:
        return sample_catalog()
    from forcecheck.cards.store import SqliteCatalog, is_sqlite_file

    if is_sqlite_file(path):
        return SqliteCatalog(path)
    return load_catalog_file(path)
