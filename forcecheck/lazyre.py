"""Regular expressions compiled on first use, for patterns only unusual input reaches.

Compiling a pattern costs up to milliseconds (a lookahead-heavy one more), paid at import by
every run, and a one-deck check is meant to start fast. A pattern that a plain decklist never
needs (set codes alone on a line, Japanese text, lflist files, table cells) is declared with
``lazy(...)`` instead of ``re.compile(...)`` and behaves the same once used.
"""

from __future__ import annotations

import re

_METHODS = ("match", "fullmatch", "search", "sub", "subn", "findall", "finditer", "split")


class LazyPattern:
    """A compiled pattern's matching methods, compiling the pattern the first time one is called.
    Then the compiled pattern's own methods take their place on the instance, so a pattern a
    batch uses on every line costs no more per call than ``re.compile``'s."""

    def __init__(self, source: str, flags: int = 0):
        self.pattern = source
        self.flags = flags
        self._compiled: re.Pattern | None = None

    def compiled(self) -> re.Pattern:
        if self._compiled is None:
            self._compiled = compiled = re.compile(self.pattern, self.flags)
            for name in _METHODS:  # instance attributes shadow the methods below from now on
                setattr(self, name, getattr(compiled, name))
        return self._compiled

    def match(self, *args):
        return self.compiled().match(*args)

    def fullmatch(self, *args):
        return self.compiled().fullmatch(*args)

    def search(self, *args):
        return self.compiled().search(*args)

    def sub(self, *args):
        return self.compiled().sub(*args)

    def subn(self, *args):
        return self.compiled().subn(*args)

    def findall(self, *args):
        return self.compiled().findall(*args)

    def finditer(self, *args):
        return self.compiled().finditer(*args)

    def split(self, *args):
        return self.compiled().split(*args)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r}, {self.flags})"


def lazy(source: str, flags: int = 0) -> LazyPattern:
    return LazyPattern(source, flags)
