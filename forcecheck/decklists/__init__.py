"""Decklists: the model and one reader per input format. Knows nothing of cards or rules."""

from forcecheck.decklists.model import Decklist, Entry, ReadProblem, Section
from forcecheck.decklists.readers import DECKLIST_EXTENSIONS, read_decklist

__all__ = ["Decklist", "Entry", "ReadProblem", "Section", "read_decklist", "DECKLIST_EXTENSIONS"]
