"""Binding a decklist to a format's sections and a catalog's cards.

Everything the user wrote ends up either in the ResolvedDeck (a known card with a valid
count in a section) or as a Finding (unknown card, bad count, unknown section, ...):
nothing is silently dropped, and unknown names never turn into a size error alone.

Reading a published list takes judgement, and every judgement is a finding on its line:
a line read in another way than the plain one (a table row of several cards, a count after
the name; ``line-read-as``), a misspelt name read as the card clearly meant
(``name-corrected``, ``cards.correct``), cards under no header placed where the format says
they go (``card-placed``, ``forcecheck.placement``), a title above the list (``deck-title``).

The package: ``model`` (the Resolution and its findings), ``lines`` (one card line's readings,
corrections and judgements), ``binding`` (the resolver: sections, loose blocks, placement).
"""

from __future__ import annotations

from forcecheck.resolve.binding import resolve
from forcecheck.resolve.model import CORRECTIONS_PER_DECK, SUGGESTIONS_PER_DECK, InputFinding, Resolution, resolve_card

__all__ = ["CORRECTIONS_PER_DECK", "SUGGESTIONS_PER_DECK", "InputFinding", "Resolution", "resolve", "resolve_card"]
