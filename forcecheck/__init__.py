"""forcecheck: deck-construction validator for trading card games.

The package is organised by concern (see docs/architecture.md): ``cards`` (facts),
``importers`` (public databases -> facts), ``decklists`` (files -> Decklist),
``spec`` (format YAML -> FormatSpec), ``rules`` (rule kinds), ``engine`` and ``report``.
Nothing heavy is imported here so that ``forcecheck --version`` starts fast.
"""

__version__ = "0.3.0"

DOCS_URL = "https://forcecheck.readthedocs.io/en/latest/"
"""The documentation site (``mkdocs.yml`` ``site_url``, ``pyproject.toml`` ``[project.urls]``):
SARIF's ``informationUri``, and with ``rules/#fc201`` each rule's ``helpUri`` and the address
``forcecheck rules FC201`` prints. tests/test_docs.py holds the three to one address."""


def rule_url(code: str) -> str:
    """The documentation address of a rule code: its anchor, the code in lower case, on the
    rules page (``FC201`` -> ``.../rules/#fc201``)."""
    return f"{DOCS_URL}rules/#{code.lower()}"
