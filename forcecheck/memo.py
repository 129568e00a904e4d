"""Bounded memos: what a batch works out again and again, remembered without growing forever.

A batch of thousands of decks repeats the same card lines, header lines and spellings; reading
one again costs a dict lookup. A hostile batch of lines that are all different must not grow
memory without end, so each memo has a bound and starts afresh when it reaches it (simpler and
cheaper per hit than least-recently-used bookkeeping; a batch's repeats come back at once).

``BoundedMemo`` is a ``dict`` (a hit is ``memo.get(key)`` at C speed, as hot loops need);
``IdentityMemo`` remembers per object by identity, for objects that are not hashable or whose
equality costs more than the value (a format's header table): it keeps the object with its
value, so an ``id`` reused by a new object after the old one died never returns a stale value.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")
_UNSEEN: Any = object()


class BoundedMemo(dict, Generic[K, V]):
    """A dict that holds at most ``limit`` entries: adding one more forgets all of them first."""

    __slots__ = ("limit",)

    def __init__(self, limit: int):
        super().__init__()
        if limit < 1:
            raise ValueError("a memo's limit must be at least 1")
        self.limit = limit

    def remember(self, key: K, value: V) -> V:
        """Keep ``value`` under ``key`` (starting afresh when full) and return it."""
        if len(self) >= self.limit and key not in self:
            self.clear()
        self[key] = value
        return value


class IdentityMemo(Generic[K, V]):
    """Values remembered per object, by identity, for at most ``limit`` objects."""

    __slots__ = ("_kept",)

    def __init__(self, limit: int):
        self._kept: BoundedMemo[int, tuple[K, V]] = BoundedMemo(limit)

    def get(self, owner: K, default: V | None = None) -> V | None:
        kept = self._kept.get(id(owner))
        return kept[1] if kept is not None and kept[0] is owner else default

    def remember(self, owner: K, value: V) -> V:
        self._kept.remember(id(owner), (owner, value))
        return value

    def __len__(self) -> int:
        return len(self._kept)
