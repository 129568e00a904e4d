"""How much checking each player and each address may ask of the desk: token buckets.

Checks and submissions cost the desk CPU; reading does not (much). At a venue every phone reaches
the desk through the venue's one public address, so the allowance is kept for what a player holds,
not for the address alone:

- a **browser** (the desk's session cookie, set by every page: the CSRF cookie) has ``per_minute``
  units, refilled evenly over a minute; its address has ``per_address`` (default 20 times as many,
  ``ROOM_FACTOR``): a bound a room of players does not reach (200 players checking and submitting
  within two minutes, then 120 of them again in the last 30 s, spend about 640), but a flood of
  made-up sessions from one address does;
- a **client without a session** (a script on the API) has ``per_minute`` for its address, as before;
- the page's **live check while typing** spends buckets of its own (per browser and per address),
  so typing never spends the allowance the Submit needs.

A check or submission costs one unit and one more per 64 KiB of its body (an 848 KiB list costs
14, a typed list one), never more than the whole allowance. Over it, the answer is 429 with a
Retry-After spread over a few seconds (``spread``), so a refused room does not all come back in
the same second.

The buckets live in a table of fixed size in shared memory (a file mapped by every worker process
of one ``forcecheck serve``, or anonymous memory for a desk in one process), so the limit is one
per client whichever process serves it; after the table, a ring of per-minute counts of the
refusals (429 and 503) the organiser's page shows. Each slot is locked on its own (``fcntl.lockf``
on its bytes, or a thread lock in one process). Two keys that share a slot share a bucket: with
65,536 slots that is rare and only makes the limit looser for them. Several desks on several
machines each keep their own table: put a flood limit on the reverse proxy there (docs/desk.md).
"""

from __future__ import annotations

import hashlib
import math
import mmap
import os
import random
import struct
import threading
from contextlib import contextmanager

SLOTS = 65536
_SLOT = struct.Struct("<8sdd")  # key digest, tokens, last refill (seconds)
COST_BYTES = 64 * 1024
ROOM_FACTOR = 20
"""An address's allowance, in browsers' allowances: 1,200 units a minute at the default 60."""
RING = 60
"""Minutes of refusal counts kept (the organiser's page shows the last ten)."""
_MINUTE = struct.Struct("<qqq")  # minute (seconds since the epoch // 60), 429s, 503s
_TABLE = SLOTS * _SLOT.size
SIZE = _TABLE + RING * _MINUTE.size


def spread(seconds: int) -> int:
    """A Retry-After between ``seconds`` and about twice it (at least two more): clients refused
    together come back apart."""
    return seconds + random.randint(0, max(2, seconds))


class Refused(Exception):
    def __init__(self, retry_after: int, whose: str = "client"):
        super().__init__(retry_after)
        self.retry_after = retry_after
        self.whose = whose
        """``browser`` (this player's allowance), ``address`` (the room's bound) or ``client``
        (a client without a session: its address's allowance)."""


@contextmanager
def region_locked(fd: int | None, offset: int, length: int):
    """An exclusive lock on a region of a table shared by the worker processes (``fcntl``, per
    process: each process's threads need a lock of their own beside it); none without a file."""
    if fd is None:
        yield
        return
    import fcntl

    fcntl.lockf(fd, fcntl.LOCK_EX, length, offset)
    try:
        yield
    finally:
        fcntl.lockf(fd, fcntl.LOCK_UN, length, offset)


class SharedTable:
    """A table of fixed size (``SIZE`` bytes) that the desk's worker processes share: the file at
    ``path``, made by the process that starts them (``create_shared``) and mapped into each; without
    a path, memory of this process alone. Regions of it are locked with ``region_locked``."""

    SIZE = 0

    def __init__(self, path: str | None = None):
        self._fd = None
        if path:
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            if os.fstat(self._fd).st_size < self.SIZE:
                os.ftruncate(self._fd, self.SIZE)
            self._map = mmap.mmap(self._fd, self.SIZE)
        else:
            self._map = mmap.mmap(-1, self.SIZE)

    @classmethod
    def create_shared(cls, path: str) -> None:
        """The table's file, made by the process that starts the workers."""
        with open(path, "wb") as out:
            out.truncate(cls.SIZE)

    def close(self) -> None:
        self._map.close()
        if self._fd is not None:
            os.close(self._fd)


class ClientLimits(SharedTable):
    SIZE = SIZE

    def __init__(self, per_minute: int, path: str | None = None, per_address: int | None = None):
        self.per_minute = per_minute
        self.per_address = per_minute * ROOM_FACTOR if per_address is None else per_address
        super().__init__(path)
        if path is None:
            self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        return self.per_minute > 0

    def cost(self, body_bytes: int, allowance: int | None = None) -> float:
        return float(min(self.per_minute if allowance is None else allowance, 1 + body_bytes // COST_BYTES))

    def take(self, client: str, body_bytes: int, now: float, session: str | None = None, live: bool = False) -> None:
        """Spend the request's cost from its allowances, or raise Refused (and count the 429).
        ``session``: the browser's session cookie, when the request carries one; ``live``: the
        page's check while typing, which spends buckets of its own."""
        if not self.enabled:
            return
        kind = "live" if live else "work"
        try:
            if session is None:
                self._spend(f"{kind}:client:{client}", self.cost(body_bytes), self.per_minute, now, "client")
                return
            room = f"{kind}:address:{client}"
            room_cost = self.cost(body_bytes, self.per_address)
            self._spend(room, room_cost, self.per_address, now, "address")
            try:
                self._spend(f"{kind}:browser:{session}", self.cost(body_bytes), self.per_minute, now, "browser")
            except Refused:
                self._give_back(room, room_cost, self.per_address)
                raise
        except Refused:
            if not live:  # a live check refused is a check the page skips, not a player turned away
                self.count(429, now)
            raise

    def _slot(self, key: str) -> tuple[bytes, int]:
        digest = hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).digest()
        return digest, (int.from_bytes(digest[:4], "little") % SLOTS) * _SLOT.size

    def _spend(self, key: str, cost: float, allowance: int, now: float, whose: str) -> None:
        rate = allowance / 60.0
        digest, offset = self._slot(key)
        with self._locked(offset, _SLOT.size):
            stored, tokens, last = _SLOT.unpack_from(self._map, offset)
            if stored != digest:
                tokens, last = float(allowance), now
            tokens = min(float(allowance), tokens + max(0.0, now - last) * rate)
            if tokens < cost:
                _SLOT.pack_into(self._map, offset, digest, tokens, now)
                raise Refused(spread(max(1, math.ceil((cost - tokens) / rate))), whose)
            _SLOT.pack_into(self._map, offset, digest, tokens - cost, now)

    def _give_back(self, key: str, cost: float, allowance: int) -> None:
        """Return what ``_spend`` took, when the request is refused by its other allowance."""
        digest, offset = self._slot(key)
        with self._locked(offset, _SLOT.size):
            stored, tokens, last = _SLOT.unpack_from(self._map, offset)
            if stored == digest:
                _SLOT.pack_into(self._map, offset, digest, min(float(allowance), tokens + cost), last)

    # -- refusals, per minute, for the organiser's page --------------------------------------------
    def count(self, status: int, now: float) -> None:
        """One refusal (429 or 503) in the minute of ``now``."""
        minute = int(now // 60)
        offset = _TABLE + (minute % RING) * _MINUTE.size
        with self._locked(offset, _MINUTE.size):
            stored, too_many, busy = _MINUTE.unpack_from(self._map, offset)
            if stored != minute:
                too_many = busy = 0
            too_many += status == 429
            busy += status == 503
            _MINUTE.pack_into(self._map, offset, minute, too_many, busy)

    def refusals(self, now: float, minutes: int = 10) -> list[tuple[int, int, int]]:
        """(minute, 429s, 503s) of each of the last ``minutes`` minutes that refused any, newest
        first; ``minute`` is seconds since the epoch // 60."""
        current = int(now // 60)
        found = []
        for minute in range(current, current - min(minutes, RING), -1):
            stored, too_many, busy = _MINUTE.unpack_from(self._map, _TABLE + (minute % RING) * _MINUTE.size)
            if stored == minute and (too_many or busy):
                found.append((minute, too_many, busy))
        return found

    @contextmanager
    def _locked(self, offset: int, length: int):
        if self._fd is None:
            with self._lock:
                yield
            return
        with region_locked(self._fd, offset, length):
            yield

