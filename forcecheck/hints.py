"""What a deck's unknown cards say about the run's set-up, said on the deck, after resolving:

* a deck checked against the **embedded sample catalog** (which knows only the cards of the
  sample decks and tests): each unknown-card finding says so, with the one command that
  imports every card (``forcecheck catalog fetch fow``);
* a deck of **another game**: its unknown names are cards of another game of the catalog, or it
  is a ``.ydk`` file checked under a Force of Will format: one finding (FC017) names the game
  and the formats that fit (``--format ygo-5ds``).

It reads the resolution and adds to its findings; the reader and the resolver are not touched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forcecheck.cards.catalog import SAMPLE_CATALOG_LABEL, Catalog, MemoryCatalog
from forcecheck.errors import ForcecheckError
from forcecheck.format_spec.loader import available_formats, load_format_cached
from forcecheck.memo import IdentityMemo
from forcecheck.records import replace
from forcecheck.resolve import InputFinding, Resolution
from forcecheck.rules.base import Finding

if TYPE_CHECKING:
    from forcecheck.decklists.model import Decklist

GAME_NAMES = {"fow": "Force of Will", "ygo": "Yu-Gi-Oh!"}
FILE_GAMES = {".ydk": "ygo"}
"""File kinds that belong to one game (a .ydk is YGOPro's deck file)."""
LOOKED_AT = 20
"""Unknown names of a deck looked up in the other games (as many as get spelling suggestions)."""

_GAMES: IdentityMemo[object, tuple[tuple[str, ...], dict[str, int]]] = IdentityMemo(16)
"""Per catalog: its games and, for the sample, its cards per game."""
_FORMATS: dict[str, list[str]] = {}


def explain(deck: Decklist, fmt, catalog: Catalog, resolution: Resolution) -> None:
    """Add the set-up findings of one resolved deck (see the module's docstring)."""
    unknown = [item for item in resolution.findings if item.rule == "unknown-card"]
    game = fmt.spec.game
    file_game = FILE_GAMES.get(_suffix(deck.path))
    if not unknown and (file_game is None or file_game == game):
        return

    other = _other_game(deck, game, file_game, catalog, unknown, resolution)
    if other is not None:
        resolution.findings.append(other)
    elif unknown and catalog.label == SAMPLE_CATALOG_LABEL:
        count = _games_of(catalog)[1].get(game, 0)
        advice = (f"not in the embedded sample catalog, which holds only the {count:,} {GAME_NAMES.get(game, game)} cards of the "
                  f"sample decks and tests: 'forcecheck catalog fetch {game}' imports every card")
        for item in unknown:
            said = item.finding.message
            said += f" It is {advice}" if said.endswith("?") else f"; {advice}"
            item.finding = replace(item.finding, message=said)


def _other_game(deck, game: str, file_game: str | None, catalog, unknown: list, resolution):
    """The FC017 finding when the deck is of another game than its format's, else None."""
    from forcecheck.wording import quoted

    own = GAME_NAMES.get(game, game)
    line = unknown[0].finding.line if unknown else None
    if file_game is not None and file_game != game:
        theirs = GAME_NAMES.get(file_game, file_game)
        message = (f"a {_suffix(deck.path)} file is a {theirs} decklist, not a {own} one: "
                   f"{_formats_for(file_game, theirs)}")
        return InputFinding("other-game", Finding(message=message, line=line))
    games = [g for g in _games_of(catalog)[0] if g != game]
    if not games or not unknown:
        return None
    looked = unknown[:LOOKED_AT]
    known_here = sum(1 for tally in resolution.deck.tallies.values() for _card in tally)
    for other in games:
        found = [(item, card) for item in looked if (card := _card_in(catalog, other, item.finding.card)) is not None]
        if found and len(found) > known_here and 2 * len(found) >= len(looked):
            theirs = GAME_NAMES.get(other, other)
            example = found[0][1].name
            first = "first " if len(unknown) > len(looked) else ""
            message = (f"{len(found)} of the {first}{len(looked)} unknown names are {theirs} cards (e.g. {quoted(example)}): this is a "
                       f"{theirs} deck, not a {own} one; {_formats_for(other, theirs)}")
            return InputFinding("other-game", Finding(message=message, line=found[0][0].finding.line))
    return None


def _card_in(catalog, game: str, written: str | None):
    """The card of ``game`` a written name or code is, if the catalog has one."""
    if not written:
        return None
    written = written.strip()
    card = catalog.remembered("printing", game)[1](written)  # remembered per spelling: a batch meets the same names again
    return card if card is not None else catalog.remembered("name", game)[1](written)


def _games_of(catalog) -> tuple[tuple[str, ...], dict[str, int]]:
    """The games a catalog has cards of, and (for an in-memory catalog such as the sample) how
    many of each; worked out once per catalog."""
    kept = _GAMES.get(catalog)
    if kept is None:
        counts: dict[str, int] = {}
        if isinstance(catalog, MemoryCatalog):  # in memory (the sample, a catalog JSON file): counting is cheap
            for card in catalog.cards():
                counts[card.game] = counts.get(card.game, 0) + 1
            games = tuple(sorted(counts))
        else:  # an imported catalog: one indexed query per game
            games = tuple(g for g in GAME_NAMES if catalog.has_cards(g))
        kept = _GAMES.remember(catalog, (games, counts))
    return kept


def _formats_for(game: str, title: str) -> str:
    """``check it with --format ygo-5ds`` (the built-in and FORCECHECK_FORMATS_PATH formats of ``game``)."""
    names = _FORMATS.get(game)
    if names is None:
        names = []
        try:
            for name in sorted(available_formats()):
                try:
                    if load_format_cached(name).game == game:
                        names.append(name)
                except ForcecheckError:
                    continue
        except ForcecheckError:
            pass
        _FORMATS[game] = names
    if not names:
        return f"check it with a {title} format"
    shown = [f"--format {name}" for name in names]
    return "check it with " + (", ".join(shown[:-1]) + " or " + shown[-1] if len(shown) > 1 else shown[0])


def _suffix(path: str) -> str:
    dot = path.rfind(".")
    return path[dot:].lower() if dot > max(path.rfind("/"), path.rfind("\\")) else ""
