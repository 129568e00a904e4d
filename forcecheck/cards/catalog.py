"""Catalogs: where card facts are looked up by name or printing code.

A catalog answers three questions for one game: the card with this name (in any of the
languages the catalog knows it in, see ``names.lookup_keys``), the card with this printing
code, and the nearest names to an unknown one. The embedded sample catalog and any
``--catalog`` JSON file are held in memory; a database backend only has to answer the same
questions (``name_rows``, ``by_printing``, ``name_index``).
"""

from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from forcecheck.cards.model import Card
from forcecheck.cards.names import (
    BARE,
    FOLDS,
    PLAIN,
    UNIQUE_FOLDS,
    bare_key,
    has_kana_or_kanji,
    index_keys,
    lookup_keys,
    normalize_name,
    normalize_printing,
)
from forcecheck.errors import CatalogError
from forcecheck.records import Record

if TYPE_CHECKING:
    from forcecheck.cards.correct import Correction

CATALOG_SCHEMA = "forcecheck-catalog/1"
SAMPLE_CATALOG_LABEL = "embedded sample catalog"


MEMO_LIMIT = 100_000
"""Spellings a catalog remembers per game and kind before it starts afresh (see Catalog.remembered)."""

_UNSEEN = object()


class NameMatch(Record, frozen=True):
    """A written name found in the catalog: the card, and which of its names it was."""

    card: Card
    lang: str
    """Language of the catalog name the written one matched: the list's language for this line.
    ``card.name_in(lang)`` is the catalog's spelling to show beside the list's."""
    fold: str
    """How closely it matched (``names.FOLDS``: plain, compact, marks, bare)."""

    __slots__ = ("card", "lang", "fold")

    def __init__(self, card: Card, lang: str, fold: str) -> None:
        _set = object.__setattr__
        _set(self, "card", card)
        _set(self, "lang", lang)
        _set(self, "fold", fold)

    @property
    def loose(self) -> bool:
        """Matched only after dot and dash look-alikes were unified or dropped."""
        return self.fold in UNIQUE_FOLDS


NameRows = Sequence[tuple[Card, str]]
"""The cards (with the language of the name) filed under one key: several only in a unique fold."""


class Catalog:
    """What every catalog answers: a card by name or printing code, and names near a name."""

    label: str

    def remembered(self, kind: str, game: str) -> tuple[dict, Callable[[str], object]]:
        """Lookup by name (``kind="name"``: the Card), printing code (``"printing"``: the Card)
        or name with its language (``"match"``: a NameMatch) *as written*, remembered: a batch
        spells the same cards again and again, and normalising a spelling costs more than a
        dict lookup. Returns the memo (so a hot loop can try it inline) and the function that
        fills it. Bounded: a hostile batch of made-up names cannot grow memory forever."""
        memos = self.__dict__.setdefault("_remembered", {})
        found = memos.get((kind, game))
        if found is None:
            memo: dict = {}
            find = {"name": self._card_matched, "printing": self.by_printing, "match": self.match_name}[kind]

            def lookup(written: str):
                card = memo.get(written, _UNSEEN)
                if card is _UNSEEN:
                    if len(memo) >= MEMO_LIMIT:
                        memo.clear()
                    card = memo[written] = find(game, written)
                return card

            found = memos[(kind, game)] = (memo, lookup)
        return found

    def _card_matched(self, game: str, written: str) -> Card | None:
        """``by_name`` through the remembered matches: a deck's language is worked out from the
        matches of the same spellings (``written_language``), so each is looked up once."""
        match = self.remembered("match", game)[1](written)
        return match.card if match is not None else None

    def name_rows(self, game: str, fold: str, key: str) -> NameRows:
        """The cards filed under ``key`` in ``fold`` (empty when none)."""
        raise NotImplementedError

    def name_folds(self) -> frozenset[str]:
        """The folds this catalog has names in (an English-only catalog tries no Japanese folds)."""
        return frozenset(FOLDS)

    def match_name(self, game: str, written: str) -> NameMatch | None:
        """The card a written name means in any language, with the language it matched in.
        Folds are tried closest first; a key a loose fold gives two cards resolves to neither."""
        for fold, key in lookup_keys(written, self.name_folds()):
            rows = self.name_rows(game, fold, key)
            if rows:
                if len(rows) > 1:
                    return None  # ambiguous: a looser fold only merges more
                card, lang = rows[0]
                return NameMatch(card, lang, fold)
        return None

    def by_name(self, game: str, name: str) -> Card | None:
        match = self.match_name(game, name)
        return match.card if match is not None else None

    def clashing(self, game: str, written: str) -> NameRows:
        """The cards a written name is ambiguous between (a loose fold met two or more), with
        the language of the names that met; empty when it is not ambiguous."""
        for fold, key in lookup_keys(written, self.name_folds()):
            rows = self.name_rows(game, fold, key)
            if rows:
                return rows if len(rows) > 1 else ()
        return ()

    def by_printing(self, game: str, code: str) -> Card | None:
        raise NotImplementedError

    def numbered_rivals(self, game: str) -> tuple[frozenset[Card], frozenset[Card]]:
        """The cards whose name, with a number before it (``first``) or after it (``last``), is
        another card's name: ``Colored Fish``/``7 Colored Fish`` would be a first pair, ``Jinzo``/
        ``Jinzo #7`` is a last pair. On such a card, ``7 Name`` or ``Name 7`` reads two ways.
        Worked out once per game from the names that begin or end with a number."""
        memo = self.__dict__.setdefault("_numbered_rivals", {})
        found = memo.get(game)
        if found is None:
            first: set[Card] = set()
            last: set[Card] = set()
            for key in self.numbered_keys(game):
                words = key.split()
                if len(words) < 2:
                    continue
                for number, base, into in ((words[0], words[1:], first), (words[-1], words[:-1], last)):
                    card = self.by_name(game, " ".join(base)) if number.isdigit() else None
                    if card is not None:
                        into.add(card)
            found = memo[game] = (frozenset(first), frozenset(last))
        return found

    def numbered_keys(self, game: str) -> list[str]:
        """The plain lookup keys of the game's names that begin or end with a number."""
        keys, _names = self.name_index(game)
        return [key for key in keys if key[:1].isdigit() or key[-1:].isdigit()]
    def known_printings(self, game: str, codes) -> set[str]:
        """The codes of ``codes`` that name a card of ``game``, as printing keys (upper-case,
        no leading zeros): what a banlist's passcodes are checked against, all at once."""
        from forcecheck.cards.names import normalize_printing

        keys = {normalize_printing(c).lstrip("0") or "0" for c in codes}
        return {key for key in keys if self.by_printing(game, key) is not None}

    def read_for_batch(self, game: str) -> None:
        """Get ready to check a batch of decks of ``game`` (a database reads the game's facts
        and keys at once); a catalog held in memory has nothing to do."""

    def name_index(self, game: str, unspaced: bool = False) -> tuple[list[str], list[str]]:
        """Every lookup key of the game's names and the display name each belongs to: names of
        spaced languages (English) by their plain key, or of unspaced languages (Japanese) by
        their bare key, each shown in its own language."""
        raise NotImplementedError

    def suggest(self, game: str, name: str, limit: int = 3) -> list[str]:
        """The nearest known card names to ``name`` (distinct cards, best first), in the script
        it is written in: a Japanese name gets Japanese names. Cards a loose fold could not
        tell apart come first. Remembered per spelling, bounded: a search of every name costs
        milliseconds, and a batch repeats its typos deck after deck."""
        memo = self.__dict__.setdefault("_suggestions", {})
        key = (game, name, limit)
        found = memo.get(key)
        if found is None:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            found = memo[key] = tuple(self._suggest(game, name, limit))
        return list(found)

    def _suggest(self, game: str, name: str, limit: int) -> list[str]:
        unspaced = has_kana_or_kanji(name)
        found = []
        for card, lang in self.clashing(game, name):
            shown = card.name_in(lang)
            if shown not in found:
                found.append(shown)
        keep = max(limit, len(found))
        keys, names = self.name_index(game, unspaced)
        query = bare_key(name) if unspaced else normalize_name(name)
        for shown in nearest(query, keys, names, limit, unspaced):
            if shown not in found:
                found.append(shown)
        return found[:keep]

    def correct(self, game: str, written: str) -> tuple[Card, Correction] | None:
        """The card a misspelt name clearly means, and how it was read (``cards.correct``);
        None when no one card is clearly meant. Remembered per spelling, bounded. A name written
        in kana or kanji is corrected among the Japanese names (keyed as the corrector folds)."""
        memos = self.__dict__.setdefault("_corrections", {})
        unspaced = has_kana_or_kanji(written)
        memo = memos.get((game, unspaced))
        if memo is None:
            from forcecheck.cards.correct import Corrector

            keys, names = self.name_index(game, unspaced)
            if unspaced:
                keys = [normalize_name(name) for name in names]
            memo = memos[(game, unspaced)] = ({}, Corrector(keys, names, unspaced))
        answers, corrector = memo
        found = answers.get(written, _UNSEEN)
        if found is _UNSEEN:
            if len(answers) >= MEMO_LIMIT:
                answers.clear()
            correction = corrector.correct(written)
            card = self.by_name(game, correction.name) if correction else None
            if card is not None:
                correction = _named_as_written(card, written, correction)
            found = answers[written] = (card, correction) if card is not None else None
        return found

    def cards(self, game: str | None = None) -> list[Card]:
        """Every card (for listings and tools, not for checking a deck)."""
        raise NotImplementedError

    def has_cards(self, game: str) -> bool:
        """Whether the catalog holds any card of ``game`` (one holding only banlists has none)."""
        return bool(self.cards(game))

    def unchecked(self) -> list[Card]:
        """The cards with construction text forcecheck does not model (``Card.unchecked``): a deck
        with one of them in its ruler area gets a warning. The goal is none."""
        return [card for card in self.cards() if card.unchecked]

    def info(self) -> dict:
        """What the catalog is: label, counts per game, names per game and language, sources."""
        counts: dict[str, int] = {}
        names: dict[str, dict[str, dict[str, int]]] = {}
        for card in self.cards():
            counts[card.game] = counts.get(card.game, 0) + 1
            per_game = names.setdefault(card.game, {})
            for lang, _name, printed in card.all_names():
                tally = per_game.setdefault(lang, {"cards": 0, "names": 0})
                tally["names"] += 1
                tally["cards"] += printed
        return {"catalog": self.label, "cards": counts, "names": names}


def _named_as_written(card: Card, written: str, correction):
    """The correction naming the card by the name of it the writer meant: the face or other
    name closest to what was written (``Bahamut, the King of Dragons`` read as the J-ruler
    face ``Bahamut, the Dragon King``, not as the front ``Falltgold, the Dragoon``)."""
    names = {name for _lang, name, _printed in card.all_names()}
    if len(names) < 2:
        return correction
    from rapidfuzz import fuzz

    from forcecheck.cards.correct import Correction

    key = normalize_name(written)

    def closeness(name: str) -> float:
        return fuzz.token_sort_ratio(key, normalize_name(name))

    best = max(sorted(names), key=closeness)
    return Correction(best, correction.why) if closeness(best) > closeness(correction.name) else correction


def nearest(query: str, keys: list[str], names: list[str], limit: int, unspaced: bool = False) -> list[str]:
    """The ``limit`` best distinct display names for the lookup key ``query`` among ``keys``.

    Spaced names: token_set_ratio forgives word order, missing words ("Arthur King of Knights")
    and typos. Unspaced (Japanese) names have no words: players shorten them
    (``ミラーフォース`` for ``聖なるバリア －ミラーフォース－``), so names that contain the query
    come first, the closest in length first; then WRatio, which weighs the whole string and its
    best-matching part, less for a name much shorter than the query. Names far below the best
    match are left out, so a near-certain match stands alone.
    """
    from rapidfuzz import fuzz, process

    if not keys or not query:
        return []
    found: list[str] = []
    if unspaced:
        for index in sorted((i for i, key in enumerate(keys) if query in key), key=lambda i: len(keys[i])):
            if names[index] not in found:
                found.append(names[index])
            if len(found) == limit:
                return found
    scored = process.extract(query, keys, scorer=fuzz.WRatio if unspaced else fuzz.token_set_ratio, limit=limit * 4)
    if unspaced:  # a name much shorter than what was written is only a piece of it (フォース in ミラーフォース)
        scored = sorted(((k, score * min(1.0, len(k) / len(query)) ** 0.5, i) for k, score, i in scored), key=lambda r: -r[1])
    best = None
    for _key, score, index in scored:
        best = score if best is None else best
        if score < max(60, best - 25):
            break
        if names[index] not in found:
            found.append(names[index])
        if len(found) == limit:
            break
    return found


def index_names(cards: Iterable[Card]) -> dict[tuple[str, str, str], list[tuple[Card, str]]]:
    """(game, fold, key) -> the cards filed under it, with the language of the name.

    Printed names are filed before other names (an alias never takes a card's own name); in the
    "plain" and "compact" folds the first card keeps a key two cards share, in the unique folds
    every card is kept, and the key then resolves to none."""
    index: dict[tuple[str, str, str], list[tuple[Card, str]]] = {}
    others: list[tuple[Card, str, str]] = []

    def file(card: Card, lang: str, name: str) -> None:
        for fold, key in index_keys(name, lang):
            rows = index.get((card.game, fold, key))
            if rows is None:
                index[(card.game, fold, key)] = [(card, lang)]
            elif fold in UNIQUE_FOLDS and all(c is not card for c, _l in rows):
                rows.append((card, lang))

    for card in cards:
        if not card.aliases and not card.names:  # most cards: one name
            file(card, card.lang, card.name)
            continue
        for lang, name, printed in card.all_names():
            if printed:
                file(card, lang, name)
            else:
                others.append((card, lang, name))
    for card, lang, name in others:
        file(card, lang, name)
    return index


class MemoryCatalog(Catalog):
    """Card facts held in memory, indexed by every name's keys and by printing code."""

    def __init__(self, cards: Iterable[Card], label: str):
        self.label = label
        self._cards: list[Card] = list(cards)

    def add(self, card: Card) -> None:
        self._cards.append(card)
        for cached in ("_index", "_folds", "_choices", "_by_printing"):
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
        self._cards  # every card built before the list grows
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
