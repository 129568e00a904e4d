"""Catalogs: where card facts are looked up by name or printing code.

What every catalog answers is the protocol in ``cards.protocol``; here are the catalogs held
in memory (the embedded sample catalog, with its name index made ahead, and any ``--catalog``
JSON file) and ``open_catalog``, which picks the catalog a check uses (an imported SQLite
catalog is ``cards.store``, loaded only when there is one).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cached_property
from pathlib import Path

from forcecheck.cards.model import Card
from forcecheck.cards.names import BARE, PLAIN, normalize_printing
from forcecheck.cards.protocol import Catalog, NameRows, index_names
from forcecheck.errors import CatalogError

CATALOG_SCHEMA = "forcecheck-catalog/1"
SAMPLE_CATALOG_LABEL = "embedded sample catalog"

class MemoryCatalog(Catalog):
    """Card facts held in memory, indexed by every name's keys and by printing code."""

    def __init__(self, cards: Iterable[Card], label: str):
        self.label = label
        self._cards: list[Card] = list(cards)

    def add(self, card: Card) -> None:
        self._cards.append(card)
        for cached in ("_index", "_folds", "_choices", "_by_printing", "_by_any_name"):
            self.__dict__.pop(cached, None)

    @cached_property
    def _by_printing(self) -> dict[tuple[str, str], Card]:
        """(game, printing code) -> card, made on the first lookup by code (most lists name
        their cards; a cold check of one need not normalise every code of the catalog)."""
        index: dict[tuple[str, str], Card] = {}
        for card in self._cards:
            for code in card.printings:
                index[(card.game, normalize_printing(code))] = card
        return index

    def __len__(self) -> int:
        return len(self._cards)

    def cards(self, game: str | None = None) -> list[Card]:
        return [c for c in self._cards if game is None or c.game == game]

    @cached_property
    def _index(self) -> dict[tuple[str, str, str], list[tuple[Card, str]]]:
        return index_names(self._cards)

    @cached_property
    def _folds(self) -> frozenset[str]:
        return frozenset(fold for _game, fold, _key in self._index)

    def name_folds(self) -> frozenset[str]:
        return self._folds

    def name_rows(self, game: str, fold: str, key: str) -> NameRows:
        return self._index.get((game, fold, key), ())

    def by_printing(self, game: str, code: str) -> Card | None:
        return self._by_printing.get((game, normalize_printing(code)))

    @cached_property
    def _by_any_name(self) -> dict[tuple[str, str], list[Card]]:
        index: dict[tuple[str, str], list[Card]] = {}
        for card in self._cards:
            for _lang, name, _printed in card.all_names():
                found = index.setdefault((card.game, name.casefold()), [])
                if all(other is not card for other in found):
                    found.append(card)
        return index

    def sharing_name(self, game: str, name: str) -> list[Card]:
        return list(self._by_any_name.get((game, name.casefold()), ()))

    @cached_property
    def _choices(self) -> dict[tuple[str, bool], tuple[list[str], list[str]]]:
        """Per game and script: lookup keys and the display names they came from."""
        out: dict[tuple[str, bool], tuple[list[str], list[str]]] = {}
        for (game, fold, key), rows in self._index.items():
            if fold not in (PLAIN, BARE):
                continue
            keys, names = out.setdefault((game, fold == BARE), ([], []))
            for card, lang in rows:
                keys.append(key)
                names.append(card.name_in(lang))
        return out

    def name_index(self, game: str, unspaced: bool = False) -> tuple[list[str], list[str]]:
        return self._choices.get((game, unspaced), ([], []))


SAMPLE_INDEX_SCHEMA = "forcecheck-sample-index/1"


def sample_index(text: str) -> dict:
    """The name index of the sample catalog whose file reads ``text``, as shipped beside it
    (``forcecheck/data/sample_index.json``, written by scripts/build_sample_catalog.py): what
    ``index_names`` files each name under, by record number, and the checksum of the catalog
    file it was made from. A test holds the shipped file to what the code makes now."""
    records = json.loads(text)["cards"]
    cards = [Card.from_dict(record) for record in records]
    number = {id(card): index for index, card in enumerate(cards)}
    rows = [[game, fold, key, [[number[id(card)], lang] for card, lang in filed]] for (game, fold, key), filed in index_names(cards).items()]
    return {"schema": SAMPLE_INDEX_SCHEMA, "catalog_crc32": _checksum(text), "names": rows}


def _checksum(text: str) -> int:
    """The CRC32 a sample index records of the catalog file it was made from."""
    import zlib

    return zlib.crc32(text.encode("utf-8"))


class PrebuiltCatalog(MemoryCatalog):
    """A catalog JSON file with its name index made ahead (the embedded sample, see
    ``sample_index``): opening it parses the two files and builds nothing; a card is built
    when a lookup meets it, every card only when all are asked for. Answers as MemoryCatalog."""

    def __init__(self, records: list[dict], names: list, label: str):
        self.label = label
        self._records = records
        self._built: list[Card | None] = [None] * len(records)
        self._filed: dict | None = {(game, fold, key): tuple((number, lang) for number, lang in filed) for game, fold, key, filed in names}

    def __len__(self) -> int:
        return len(self._cards) if "_cards" in self.__dict__ else len(self._records)

    def _card(self, number: int) -> Card:
        card = self._built[number]
        if card is None:
            card = self._built[number] = Card.from_dict(self._records[number])
        return card

    @cached_property
    def _cards(self) -> list[Card]:  # type: ignore[override]
        return [self._card(number) for number in range(len(self._records))]

    @cached_property
    def _index(self) -> dict[tuple[str, str, str], list[tuple[Card, str]]]:
        if self._filed is None:  # a card was added: indexed as any memory catalog
            return index_names(self._cards)
        return {where: [(self._card(number), lang) for number, lang in filed] for where, filed in self._filed.items()}

    @cached_property
    def _folds(self) -> frozenset[str]:
        return frozenset(fold for _game, fold, _key in (self._index if self._filed is None else self._filed))

    def name_rows(self, game: str, fold: str, key: str) -> NameRows:
        if self._filed is None:
            return MemoryCatalog.name_rows(self, game, fold, key)
        filed = self._filed.get((game, fold, key))
        return [(self._card(number), lang) for number, lang in filed] if filed else ()

    def add(self, card: Card) -> None:
        self._cards  # noqa: B018 - the property builds every card before the list grows
        self._filed = None
        MemoryCatalog.add(self, card)


def written_language(catalog: Catalog, game: str, written: Iterable[str]) -> str | None:
    """The language most of these written names matched in (a deck's language, for ``fmt``
    to keep a Japanese list Japanese); None when none of them is a known card name."""
    match = catalog.remembered("match", game)[1]
    tally: dict[str, int] = {}
    for name in written:
        found = match(name)
        if found is not None:
            tally[found.lang] = tally.get(found.lang, 0) + 1
    return max(tally, key=tally.__getitem__) if tally else None


def load_catalog_file(path: Path) -> Catalog:
    """Load a catalog JSON file in the ``forcecheck-catalog/1`` schema."""
    from forcecheck.textfile import read_bytes

    try:
        data = json.loads(read_bytes(path, max_bytes=512 * 1024 * 1024))
    except (ValueError, UnicodeDecodeError) as exc:
        raise CatalogError(f"not a forcecheck catalog (not JSON: {exc})", path) from None
    except RecursionError:  # "[[[[..." deeper than the parser goes
        raise CatalogError("not a forcecheck catalog (JSON nested too deeply)", path) from None
    except OSError as exc:  # pragma: no cover - read_bytes converts these
        raise CatalogError(str(exc), path) from None
    return catalog_from_json(data, path, label=f"catalog {path}")


def catalog_from_json(data: object, path: str | Path, label: str, trusted: bool = False) -> Catalog:
    """A catalog from catalog JSON. Each record is checked field by field (``cards.records``)
    unless ``trusted``: the sample catalog shipped inside the package, built by our own script
    and tested, need not pay for that on every cold start."""
    if not isinstance(data, dict) or data.get("schema") != CATALOG_SCHEMA:
        raise CatalogError(f"not a forcecheck catalog (expected \"schema\": \"{CATALOG_SCHEMA}\")", path)
    records = data.get("cards")
    if not isinstance(records, list):
        raise CatalogError("catalog has no \"cards\" list", path)
    if trusted:
        return MemoryCatalog([Card.from_dict(record) for record in records], label=label)
    from forcecheck.cards.records import RecordError, card_from_record

    cards = []
    for index, record in enumerate(records):
        try:
            cards.append(card_from_record(record))
        except RecordError as exc:
            raise CatalogError(f"card record {index} is malformed ({exc})", path) from None
    return MemoryCatalog(cards, label=label)


def sample_catalog() -> Catalog:
    """The small catalog of real card facts shipped inside the package."""
    here = Path(__file__).resolve().parent.parent / "data" / "sample_catalog.json"
    if here.is_file():  # an installed or checked-out package: no importlib.resources machinery to load
        text = here.read_text(encoding="utf-8")
    else:  # pragma: no cover - a zipped package
        from importlib import resources

        text = resources.files("forcecheck.data").joinpath("sample_catalog.json").read_text(encoding="utf-8")
    data = json.loads(text)
    prebuilt = _shipped_index(here, text)
    if prebuilt is not None:
        try:
            return PrebuiltCatalog(data["cards"], prebuilt["names"], label=SAMPLE_CATALOG_LABEL)
        except (KeyError, TypeError, ValueError):  # a damaged index file: index the catalog afresh
            pass
    return catalog_from_json(data, "forcecheck/data/sample_catalog.json", label=SAMPLE_CATALOG_LABEL, trusted=True)


def _shipped_index(catalog_file: Path, text: str) -> dict | None:
    """The sample's shipped name index, if it was made from this very catalog file (else the
    catalog is indexed as any other: a catalog edited by hand is never read with a stale index)."""
    try:
        index = json.loads(catalog_file.with_name("sample_index.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(index, dict) or index.get("schema") != SAMPLE_INDEX_SCHEMA:
        return None
    return index if index.get("catalog_crc32") == _checksum(text) else None


def default_db_path() -> Path:
    """Where ``catalog import`` writes and ``check`` looks when no catalog is named. (Here, not in
    ``store``: finding out that no catalog was imported need not load SQLite.)"""
    from platformdirs import user_data_path

    return user_data_path("forcecheck", appauthor=False) / "catalog.sqlite3"


def catalog_path(given: str | Path | None) -> Path | None:
    """Which catalog to use: the given path, else ``FORCECHECK_CATALOG``, else the default
    import location if a catalog was imported there; ``None`` means the embedded sample."""
    import os

    if given is not None:
        return Path(given)
    env = os.environ.get("FORCECHECK_CATALOG")
    if env:
        return Path(env)
    default = default_db_path()
    try:
        return default if default.is_file() else None
    except OSError as exc:  # a data folder this user may not enter: say so, never fall back silently
        raise CatalogError(f"cannot look for the imported catalog ({exc.strerror or exc})", default) from None


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
