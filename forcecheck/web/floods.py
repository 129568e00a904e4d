"""Floods: connections the process cannot accept are counted, not logged one traceback each, and
every log line passes a rate limit that says how many it held back. Under any flood of
connections or requests the desk's log stays small.
"""

from __future__ import annotations

import logging
import sys
import time

LOG_RATE = 10.0
"""Log lines a second let through (bursts of LOG_BURST)."""
LOG_BURST = 200

_refused = {"count": 0, "since": 0.0, "timer": None}
_log = logging.getLogger("forcecheck.desk")
REFUSED_REPORT_SECONDS = 60.0


def count_refused_connections() -> None:
    """On the serving event loop: a connection the loop cannot accept (out of file descriptors)
    is counted, and the count said in one line a minute (and when the desk stops), instead of
    the loop's traceback per attempt. Other loop errors go on to the default handler."""
    import asyncio

    loop = asyncio.get_running_loop()

    def handler(loop, context):
        message = str(context.get("message", ""))
        if message.startswith("socket.accept() out of system resource"):
            if _refused["count"] == 0:
                _refused["since"] = time.monotonic()
                _refused["timer"] = loop.call_later(REFUSED_REPORT_SECONDS, report_refused)
            _refused["count"] += 1
            return
        loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


def report_refused() -> None:
    count, since = _refused["count"], _refused["since"]
    if _refused["timer"] is not None:
        _refused["timer"].cancel()
    _refused.update(count=0, timer=None)
    if count:
        _log.warning("forcecheck serve: %d connection%s could not be accepted in the last %.0f s (too many open files; "
                     "the open-file limit is %s: connections that stall are closed after --request-timeout)",
                     count, "s" if count != 1 else "", time.monotonic() - since, open_file_limit())


class FloodGate(logging.Filter):
    """At most ``LOG_RATE`` log lines a second (bursts of ``LOG_BURST``) for the whole process;
    the lines held back are counted and the count is said before the next line let through (and
    when the process ends). A flood of requests or of bad connections cannot fill the disk."""

    _tokens = float(LOG_BURST)
    _last = time.monotonic()
    _held = 0
    _held_since = 0.0
    _registered = False

    def __init__(self, name: str = ""):
        super().__init__(name)
        if not FloodGate._registered:  # once per process: the count is said when it ends
            import atexit

            FloodGate._registered = True
            atexit.register(say_held)

    def filter(self, record: logging.LogRecord) -> bool:
        gate = FloodGate
        now = time.monotonic()
        gate._tokens = min(float(LOG_BURST), gate._tokens + (now - gate._last) * LOG_RATE)
        gate._last = now
        if gate._tokens < 1:
            if gate._held == 0:
                gate._held_since = now
            gate._held += 1
            return False
        gate._tokens -= 1
        if gate._held:
            say_held()
        return True


def say_held() -> None:
    gate = FloodGate
    if gate._held:
        held, since = gate._held, gate._held_since
        gate._held = 0
        print(f"forcecheck serve: {held} log lines held back in {time.monotonic() - since:.0f} s (a flood of requests)",
              file=sys.stderr, flush=True)


def logging_config() -> dict:
    """uvicorn's logging, every handler behind the FloodGate, the desk's own lines and asyncio's too."""
    import copy

    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"flood": {"()": "forcecheck.web.floods.FloodGate"}}
    for handler in config["handlers"].values():
        handler["filters"] = ["flood"]
    config["handlers"]["plain"] = {"class": "logging.StreamHandler", "stream": "ext://sys.stderr", "filters": ["flood"]}
    config["loggers"]["forcecheck.desk"] = {"handlers": ["plain"], "level": "INFO", "propagate": False}
    config["loggers"]["asyncio"] = {"handlers": ["default"], "level": "WARNING", "propagate": False}
    return config


def open_file_limit() -> str:
    try:
        import resource

        return str(resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    except ImportError:  # pragma: no cover
        return "unknown"
