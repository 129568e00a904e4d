"""Today's failures of the shape and mutation suites (issue 28), listed in one place.

Every entry is a cell the suites run in CI (tests/reading_suites.py): ``("read-back:<deck>",
shape)`` for the shape suite, ``(family, shape)`` for the mutation suite, ``(family,
"reference:<deck>")`` for a mutant counted from its structured form (a YAML list of name and
count: no line to read, so only a rule or a name lookup can miss it), with the cause in one line.
The tests mark these cells as strict xfail: a reader change that fixes one shows as XPASS (remove
the entry), a cell that newly fails shows as a failure. ``python tests/reading_suites.py`` prints
today's failing cells in this form.

The table is empty: issue 28 fixed every cell it held (the causes it named are in the git
history of this file, at the commit that merged the suites). A cell that fails now is new: give
it a cause here only with a reason it cannot be fixed, never to make CI pass.
"""

from __future__ import annotations

UNEXPLAINED = "UNEXPLAINED: look at this cell (python tests/reading_suites.py) and give it a cause"


def cause_of(family: str, shape: str) -> str:
    """The name of the cause constant for a failing cell (for ``python tests/reading_suites.py``)."""
    return "UNEXPLAINED"


KNOWN_FAILURES: dict[tuple[str, str], str] = {}
