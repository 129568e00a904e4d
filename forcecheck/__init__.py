"""forcecheck: deck-construction validator for trading card games.

The package is organised by concern (see README "Architecture"): ``cards`` (facts),
``importers`` (public databases -> facts), ``decklists`` (files -> Decklist),
``spec`` (format YAML -> FormatSpec), ``rules`` (rule kinds), ``engine`` and ``report``.
Nothing heavy is imported here so that ``forcecheck --version`` starts fast.
"""

__version__ = "0.1.0"
