"""The organiser's door (issue 41): wrong organiser tokens, per client address and overall.

Every try of the organiser token counts here: a ``Bearer`` header on the API (or a page) and the
login page's form. Other ``Authorization`` schemes are not tries (a proxy's Basic login in front
of the desk must not lock its own address out), nor is an empty login form. Per address (an IPv6
address by its /64, the block one subscriber holds):

- the first ``FREE_FAILURES`` (5) wrong tokens are answered 401, as before;
- each further one starts a wait that doubles (1, 2, 4, 8 s): 429 with ``Retry-After``; a try
  made before the wait is over is not looked at, and counts as a wrong one;
- at ``LOCK_AFTER`` (10) the address is locked out for ``LOCK_SECONDS`` (15 minutes): every try is
  429 with the time left, and not looked at (nor counted). After a lock-out a wrong token locks
  the address again at once, for twice as long each time (up to ``LOCK_MAX_SECONDS``, a day);
- a right token ends the address's wait and clears its count (only its own: never another
  address's); a day (``FORGET_SECONDS``) without a wrong token, once any lock-out is over, too.

Overall: past ``OVERALL_ALARM`` (50) wrong tokens from all addresses together within
``OVERALL_MINUTES`` (10), the first wrong token of any address locks that address out at once
(no free tries, no waits). The door never shuts for everyone: a right token from an address that
is not itself locked out is always let in, so a flood from many addresses cannot keep the
organiser out; it only costs each of its addresses a lock-out per guess (docs/desk.md says why).
Organiser sessions already open (the cookie) do not pass through the door at all.

The state is a table of fixed size in shared memory, like the client allowances (``limits``): a
file mapped by every worker process of one ``forcecheck serve`` (or anonymous memory for a desk in
one process), so the counts are per machine, whichever process serves a try. ``TABLE_GROUPS`` x
``WAYS`` addresses fit; past that the address whose last try is oldest is forgotten. Each wait's
start, each lock-out and the overall alarm are returned as events, for the audit log (the caller
writes them: address and counts, never the token tried).
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import struct
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from forcecheck.web.limits import SharedTable, region_locked

FREE_FAILURES = 5
"""Wrong tokens from one address answered 401 at once, before any wait."""
FIRST_WAIT_SECONDS = 1
"""The first wait after the free tries; each further wrong token doubles it."""
LOCK_AFTER = 10
"""Wrong tokens (counting tries that did not wait) after which an address is locked out."""
LOCK_SECONDS = 15 * 60
"""An address's first lock-out; each next one (a wrong token after it) lasts twice as long."""
LOCK_MAX_SECONDS = 24 * 3600
FORGET_SECONDS = 24 * 3600
"""An address's count is forgotten this long after its last wrong token (and its lock-out's end).
A right token clears it at once, so only addresses that never get in carry it that long."""
OVERALL_ALARM = 50
"""Wrong tokens from all addresses together within OVERALL_MINUTES: past them (the 51st), any
address's first wrong token locks it out."""
OVERALL_MINUTES = 10

WAYS = 8
TABLE_GROUPS = 4096
_SLOT = struct.Struct("<16sqqddq")  # address digest, wrong tokens, lock-outs, last wrong (s), blocked until (s), locked
_EMPTY = bytes(16)
_ALARM = struct.Struct("<d")  # when the overall alarm started (0: off)
_MINUTE = struct.Struct("<qq")  # minute (seconds since the epoch // 60), wrong tokens
_OVERALL = _ALARM.size + OVERALL_MINUTES * _MINUTE.size
_GROUP = WAYS * _SLOT.size
SIZE = _OVERALL + TABLE_GROUPS * _GROUP


def counted_as(host: str) -> str:
    """What the door counts a client address as: an IPv4 address itself, an IPv6 address by its
    /64 (one subscriber's block: a new address in it is no new client), an IPv4-mapped one as IPv4."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if address.version == 6:
        if address.ipv4_mapped:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


@dataclass
class Shut:
    """A try refused: wait ``retry_after`` seconds; ``locked``: a lock-out, else a wait."""

    retry_after: int
    locked: bool


@dataclass
class Outcome:
    ok: bool = False
    """The right token (let in)."""
    shut: Shut | None = None
    """Refused (429) before or after the token was looked at."""
    events: list[dict] = field(default_factory=list)
    """What the audit log records: ``action`` (``organiser.backoff``, ``organiser.lockout``,
    ``organiser.alarm``) and its details (address and counts; never the token tried)."""


class Door(SharedTable):
    SIZE = SIZE

    def __init__(self, path: str | None = None):
        super().__init__(path)
        self._lock = threading.Lock()  # the threads of this process (fcntl locks are per process)

    def attempt(self, host: str, now: float, right: Callable[[], bool]) -> Outcome:
        """One try of the organiser token from ``host`` at ``now``: ``right()`` says whether the
        token is the organiser's, and is called only when the address may try."""
        key = counted_as(host)
        digest = hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        group = _OVERALL + (int.from_bytes(digest[:4], "little") % TABLE_GROUPS) * _GROUP
        outcome = Outcome()
        with self._lock, self._locked(group, _GROUP):
            offset, own, (failures, lockouts, last, until, locked) = self._find(group, digest, now)
            where = {"address": host, **({"counted_as": key} if key != host else {})}
            if now < until:
                if locked:
                    outcome.shut = Shut(_seconds(until - now), True)
                    return outcome
                failures += 1  # a try that did not wait: not looked at, counted
                last = now
                if failures >= LOCK_AFTER:
                    lockouts, until = self._lock_out(outcome, where, failures, lockouts, now, None)
                    locked = 1
                else:
                    outcome.shut = Shut(_seconds(until - now), False)
                _SLOT.pack_into(self._map, offset, digest, failures, lockouts, last, until, locked)
                return outcome
            if right():
                if own:  # this address's count only: another's slot is never touched by a right token
                    _SLOT.pack_into(self._map, offset, _EMPTY, 0, 0, 0.0, 0.0, 0)
                outcome.ok = True
                return outcome
            failures += 1
            last = now
            overall, alarm_started = self._count_overall(now)
            if alarm_started:
                outcome.events.append({"action": "organiser.alarm", **where, "overall_failures": overall,
                                       "overall_minutes": OVERALL_MINUTES, "threshold": OVERALL_ALARM})
            alarm = overall > OVERALL_ALARM
            if failures >= LOCK_AFTER or alarm:
                lockouts, until = self._lock_out(outcome, where, failures, lockouts, now, overall, alarm)
                locked = 1
            elif failures > FREE_FAILURES:
                wait = FIRST_WAIT_SECONDS * 2 ** (failures - FREE_FAILURES - 1)
                until, locked = now + wait, 0
                outcome.shut = Shut(wait, False)
                if failures == FREE_FAILURES + 1:
                    outcome.events.append({"action": "organiser.backoff", **where, "failures": failures, "seconds": wait,
                                           "overall_failures": overall})
            _SLOT.pack_into(self._map, offset, digest, failures, lockouts, last, until, locked)
        return outcome

    def _lock_out(self, outcome: Outcome, where: dict, failures: int, lockouts: int, now: float, overall: int | None,
                  alarm: bool = False) -> tuple[int, float]:
        lockouts += 1
        seconds = min(LOCK_MAX_SECONDS, LOCK_SECONDS * 2 ** min(lockouts - 1, 16))
        outcome.shut = Shut(seconds, True)
        outcome.events.append({"action": "organiser.lockout", **where, "failures": failures, "lockouts": lockouts,
                               "seconds": seconds, **({"overall_failures": overall} if overall is not None else {}),
                               **({"overall_alarm": True} if alarm else {})})
        return lockouts, now + seconds

    def _find(self, group: int, digest: bytes, now: float) -> tuple[int, bool, tuple]:
        """(slot, whether it is the address's own, its state): its own slot in its group, else an
        empty or forgotten one, else the one whose last try is oldest (with a fresh state)."""
        fresh = (0, 0, 0.0, 0.0, 0)
        spare, oldest, oldest_at = None, group, math.inf
        for way in range(WAYS):
            offset = group + way * _SLOT.size
            stored, *state = _SLOT.unpack_from(self._map, offset)
            ends = max(state[2], state[3])
            forgotten = now >= state[3] and now - ends > FORGET_SECONDS
            if stored == digest:
                return offset, True, fresh if forgotten else tuple(state)
            if spare is None and (stored == _EMPTY or forgotten):
                spare = offset
            if ends < oldest_at:
                oldest, oldest_at = offset, ends
        return (spare if spare is not None else oldest), False, fresh

    def _count_overall(self, now: float) -> tuple[int, bool]:
        """One more wrong token overall: (wrong tokens within the window, whether the alarm starts now)."""
        minute = int(now // 60)
        with self._locked(0, _OVERALL):
            offset = _ALARM.size + (minute % OVERALL_MINUTES) * _MINUTE.size
            stored, count = _MINUTE.unpack_from(self._map, offset)
            _MINUTE.pack_into(self._map, offset, minute, (count if stored == minute else 0) + 1)
            total = self._overall(minute)
            (since,) = _ALARM.unpack_from(self._map, 0)
            if total <= OVERALL_ALARM:
                if since:
                    _ALARM.pack_into(self._map, 0, 0.0)
                return total, False
            if not since:
                _ALARM.pack_into(self._map, 0, now)
            return total, not since

    def _overall(self, minute: int) -> int:
        total = 0
        for back in range(OVERALL_MINUTES):
            stored, count = _MINUTE.unpack_from(self._map, _ALARM.size + ((minute - back) % OVERALL_MINUTES) * _MINUTE.size)
            if stored == minute - back:
                total += count
        return total

    def _locked(self, offset: int, length: int):
        return region_locked(self._fd, offset, length)



def _seconds(value: float) -> int:
    return max(1, math.ceil(value))
