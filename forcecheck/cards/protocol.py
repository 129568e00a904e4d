"""The catalog protocol: what every catalog answers, and the pieces every catalog shares.

``Catalog`` answers for one game the card with this name (in any of the languages the catalog
knows it in, see ``names.lookup_keys``), the card with this printing code, and the nearest
names to an unknown one; a backend only has to answer ``name_rows``, ``by_printing`` and
``name_index``, and the rest (matching through the folds, remembering, suggesting, correcting)
is built on those here. ``index_names`` files cards under every key of their names, for a
catalog held in memory and for the SQLite store alike. The backends (``catalog.MemoryCatalog``,
``store.SqliteCatalog``) both import this module and never each other's at import time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from forcecheck.cards.model import Card
from forcecheck.cards.names import (
    FOLDS,
    UNIQUE_FOLDS,
    bare_key,
    has_kana_or_kanji,
    index_keys,
    lookup_keys,
    normalize_name,
    normalize_printing,
)
from forcecheck.memo import BoundedMemo
from forcecheck.records import Record

if TYPE_CHECKING:
    from forcecheck.cards.correct import Correction


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
            memo: BoundedMemo = BoundedMemo(MEMO_LIMIT)
            find = {"name": self._card_matched, "printing": self.by_printing, "match": self.match_name}[kind]

            def lookup(written: str):
                card = memo.get(written, _UNSEEN)
                if card is _UNSEEN:
                    card = memo.remember(written, find(game, written))
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

    def sharing_name(self, game: str, name: str) -> list[Card]:
        """Every card of ``game`` that has ``name`` (exactly, any case) among its names: the card
        it is the printed name of, and cards that carry it only as another name (a Skill card
        kept apart from the Spell whose name it shares, ``Destiny Draw (Skill Card)``), which a
        lookup by name never gives. A format binds such a name by the section it is written in."""
        folded = name.casefold()
        return [card for card in self.cards(game) if any(n.casefold() == folded for _lang, n, _printed in card.all_names())]

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
        memo = self.__dict__.get("_suggestions")
        if memo is None:
            memo = self.__dict__["_suggestions"] = BoundedMemo(MEMO_LIMIT)
        key = (game, name, limit)
        found = memo.get(key)
        if found is None:
            found = memo.remember(key, tuple(self._suggest(game, name, limit)))
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
            memo = memos[(game, unspaced)] = (BoundedMemo(MEMO_LIMIT), Corrector(keys, names, unspaced))
        answers, corrector = memo
        found = answers.get(written, _UNSEEN)
        if found is _UNSEEN:
            correction = corrector.correct(written)
            card = self.by_name(game, correction.name) if correction else None
            if card is not None:
                correction = _named_as_written(card, written, correction)
            found = answers.remember(written, (card, correction) if card is not None else None)
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
