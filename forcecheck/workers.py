"""Running work over many files in worker processes, results in input order.

``check --jobs N`` and ``register --jobs N`` both go through ``run_in_order``: with one job the
work runs here; with more, each worker process runs an initializer once (it opens the catalog
and prepares the formats) and then takes items in chunks. Results come back in the order of
the items, so the output is the same whatever the number of jobs. Only a bounded number of
chunks is in flight, so a folder of 100,000 decklists is never held as 100,000 pending tasks.

Without a number of jobs (``jobs=None``, the default) a batch of ``AUTO_FROM`` files or more
runs on every core; fewer files run here, where starting workers would cost more than it saves.
"""

from __future__ import annotations

import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any, NamedTuple


class Worker(NamedTuple):
    """What a worker process runs: ``initializer(*initargs)`` once, then ``function(item)``.
    All three must be picklable (module-level functions and plain data).

    ``adopt``, when given, replaces the initializer in a worker *forked* from this process
    (Linux): the worker inherits what this process has set up (the catalog opened, the formats
    compiled), and ``adopt()`` makes it safe to use in a new process (it opens the worker's own
    database connections). Workers that start afresh (other systems) run the initializer."""

    function: Callable[[Any], Any]
    initializer: Callable[..., None]
    initargs: tuple = ()
    adopt: Callable[[], None] | None = None


_function: Callable[[Any], Any] | None = None


def _start(worker: Worker) -> None:
    global _function
    worker.initializer(*worker.initargs)
    _function = worker.function


def _adopted(worker: Worker) -> None:
    global _function
    worker.adopt()
    _function = worker.function


def _fork_context():
    """The fork start method where it is safe and the default (Linux), else None."""
    if not sys.platform.startswith("linux"):
        return None
    import multiprocessing

    try:
        return multiprocessing.get_context("fork")
    except ValueError:  # pragma: no cover - a build without fork
        return None


def _run_chunk(items: list) -> list:
    return [_function(item) for item in items]


def chunk_size(count: int, jobs: int) -> int:
    """Items per task: enough to keep the inter-process traffic low, few enough that every
    worker gets several tasks (so one slow chunk does not leave the others idle)."""
    return max(1, min(64, count // (jobs * 8) or 1))


AUTO_FROM = 200
"""Files from which a batch without a number of jobs runs on every core: below it, starting
the worker processes (each opens the catalog and compiles the formats) costs about what they save."""


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says), at most 64."""
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - macOS, Windows
        count = os.cpu_count() or 1
    return max(1, min(64, count))


def run_in_order(
    items: Iterable,
    jobs: int | None,
    here: Callable[[Any], Any],
    worker: Worker | None = None,
    progress: Callable[[int], None] | None = None,
    prepare: Callable[[], None] | None = None,
) -> Iterator:
    """``here(item)`` for every item when ``jobs`` is 1 (or there is one item); otherwise
    ``worker.function(item)`` in ``jobs`` processes (``None``: every core for a batch of
    ``AUTO_FROM`` items or more, else 1). Either way, results in input order. ``prepare()``
    runs here once before a batch of ``AUTO_FROM`` items or more (before the workers fork,
    so they share what it set up)."""
    iterator = iter(items)
    if jobs is None:
        head = list(islice(iterator, max(AUTO_FROM, cores() * 256)))
        jobs = cores() if len(head) >= AUTO_FROM else 1
    else:
        head = list(islice(iterator, max(1, jobs) * 256))
    if prepare is not None and len(head) >= AUTO_FROM:
        prepare()
    window = max(1, jobs) * 256
    if jobs <= 1 or worker is None or len(head) < 2:
        for item in head:
            yield here(item)
            if progress:
                progress(1)
        for item in iterator:
            yield here(item)
            if progress:
                progress(1)
        return
    from concurrent.futures import ProcessPoolExecutor

    context = _fork_context() if worker.adopt is not None else None
    if context is not None:  # forked: the workers start from what this process has set up
        options = {"mp_context": context, "initializer": _adopted, "initargs": (worker,)}
    else:
        options = {"initializer": _start, "initargs": (worker,)}
    size = chunk_size(len(head), jobs) if len(head) < window else 64
    chunks = _chunks(head, iterator, size)
    with ProcessPoolExecutor(max_workers=jobs, **options) as pool:
        pending: deque = deque()
        for chunk in islice(chunks, jobs * 2):
            pending.append(pool.submit(_run_chunk, chunk))
        while pending:
            results = pending.popleft().result()
            following = next(chunks, None)
            if following is not None:
                pending.append(pool.submit(_run_chunk, following))
            yield from results
            if progress:
                progress(len(results))


def _chunks(head: list, rest: Iterator, size: int) -> Iterator[list]:
    for start in range(0, len(head), size):
        yield head[start : start + size]
    while True:
        chunk = list(islice(rest, size))
        if not chunk:
            return
        yield chunk
