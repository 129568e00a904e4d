"""Card facts and catalogs: what forcecheck believes about each card, nothing about decks or rules."""

from forcecheck.cards.model import Card, Face

__all__ = ["Card", "Face"]
