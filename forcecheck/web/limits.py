"""How much checking each client may ask of the desk: a token bucket per client address.

Checks and submissions cost the desk CPU; reading does not (much). A client (its address, or the
address a trusted proxy names in X-Forwarded-For) has an allowance of ``per_minute`` units, refilled
evenly over a minute; a check or submission costs one unit and one more per 64 KiB of its body
(an 848 KiB list costs 14, a typed list one), never more than the whole
allowance. Over it, the answer is 429 with Retry-After: the seconds until the request would pass.

The buckets live in a table of fixed size in shared memory (a file mapped by every worker process
of one ``forcecheck serve``, or anonymous memory for a desk in one process), so the limit is one
per client whichever process serves it. Each slot is locked on its own (``fcntl.lockf`` on its
bytes, or a thread lock in one process). Two addresses that share a slot share a bucket: with
65,536 slots that is rare and only makes the limit looser for them. Several desks on several
machines each keep their own table: put the limit on the reverse proxy there (docs/desk.md).
"""

from __future__ import annotations

import hashlib
import math
import mmap
import os
import struct
import threading
from contextlib import contextmanager

SLOTS = 65536
_SLOT = struct.Struct("<8sdd")  # key digest, tokens, last refill (seconds)
COST_BYTES = 64 * 1024


class Refused(Exception):
    def __init__(self, retry_after: int):
        super().__init__(retry_after)
        self.retry_after = retry_after


class ClientLimits:
    def __init__(self, per_minute: int, path: str | None = None):
        self.per_minute = per_minute
        self.rate = per_minute / 60.0
        self._fd = None
        size = SLOTS * _SLOT.size
        if path:
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            if os.fstat(self._fd).st_size < size:
                os.ftruncate(self._fd, size)
            self._map = mmap.mmap(self._fd, size)
        else:
            self._map = mmap.mmap(-1, size)
            self._lock = threading.Lock()

    @staticmethod
    def create_shared(path: str) -> None:
        """The table's file, made by the process that starts the workers."""
        with open(path, "wb") as out:
            out.truncate(SLOTS * _SLOT.size)

    @property
    def enabled(self) -> bool:
        return self.per_minute > 0

    def cost(self, body_bytes: int) -> float:
        return float(min(self.per_minute, 1 + body_bytes // COST_BYTES))

    def take(self, client: str, body_bytes: int, now: float) -> None:
        """Spend the request's cost from the client's allowance, or raise Refused."""
        if not self.enabled:
            return
        cost = self.cost(body_bytes)
        digest = hashlib.blake2b(client.encode("utf-8", "surrogatepass"), digest_size=8).digest()
        slot = int.from_bytes(digest[:4], "little") % SLOTS
        offset = slot * _SLOT.size
        with self._locked(offset):
            key, tokens, last = _SLOT.unpack_from(self._map, offset)
            if key != digest:
                tokens, last = float(self.per_minute), now
            tokens = min(float(self.per_minute), tokens + max(0.0, now - last) * self.rate)
            if tokens < cost:
                _SLOT.pack_into(self._map, offset, digest, tokens, now)
                raise Refused(max(1, math.ceil((cost - tokens) / self.rate)))
            _SLOT.pack_into(self._map, offset, digest, tokens - cost, now)

    @contextmanager
    def _locked(self, offset: int):
        if self._fd is None:
            with self._lock:
                yield
            return
        import fcntl

        fcntl.lockf(self._fd, fcntl.LOCK_EX, _SLOT.size, offset)
        try:
            yield
        finally:
            fcntl.lockf(self._fd, fcntl.LOCK_UN, _SLOT.size, offset)

    def close(self) -> None:
        self._map.close()
        if self._fd is not None:
            os.close(self._fd)
