"""Benchmark: how far can all cores go on a 10,000-deck batch? One core against two, with and
without each process's warm-up, on the benchmark's mixed folder.

    python benchmarks/jobs_bound.py [--decks 10000] [--rounds 3] [--catalog DB]

Each figure is a fresh process that opens the catalog and the format, then times only the
batch (``Session.check_paths`` over the folder, every report read, fingerprints off as for
``-o concise``), with one job and with two. *Cold* is the batch as a user runs it: every
process meets the batch's cards for the first time (builds them, matches their spellings,
works out their answer to each rule). *Warm* checks every deck once before the timed batch, in
the process the workers fork from, so no process has any warm-up left: the speed-up of two
jobs then is the most that removing the warm-up (a persistent cache of it, say) could give.
*Split* (Linux) is the most any pool could give, warm-up included: no pool at all, the process
forks one child per job and each child checks its share of the folder (one half each for two
jobs) with nothing sent between processes and no parent reading or writing reports.
The process start (interpreter, imports, catalog, format) is timed apart and added to both
sides, as a command pays it before any worker forks. Rounds alternate; the best of each kept.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODES = ("cold", "warm", "split") if hasattr(os, "fork") else ("cold", "warm")
sys.path.insert(0, str(ROOT))


def child(folder: str, catalog: str | None, jobs: int, mode: str) -> None:
    """In a fresh process: the batch, and the CPU of this process and its workers (``start``:
    only what comes before the batch, timed from outside)."""
    from forcecheck.cli.runtime import session_from

    session = session_from(format_name="bifrost", catalog=Path(catalog) if catalog else None)
    session._prepare_batch()
    if mode == "start":
        return
    if mode == "warm":
        for path in sorted(Path(folder).iterdir()):
            session.check_file(path).detach(False)
    before, wall = os.times(), time.perf_counter()
    if mode == "split":
        decks = split(session, sorted(Path(folder).iterdir()), jobs)
    else:
        decks = sum(1 for _ in session.check_paths([folder], jobs=jobs, fingerprints=False).iter_decks())
    wall, after = time.perf_counter() - wall, os.times()
    cpu = (after.user - before.user + after.system - before.system
           + after.children_user - before.children_user + after.children_system - before.children_system)
    print(json.dumps({"batch_s": wall, "cpu_s": cpu, "decks": decks}))


def split(session, paths: list[Path], jobs: int) -> int:
    """Fork ``jobs`` children, each checking one contiguous share of ``paths``; wait for all."""
    share = -(-len(paths) // jobs)
    children = []
    for start in range(0, len(paths), share):
        pid = os.fork()
        if pid == 0:  # the child: its share, then out without the interpreter's shutdown
            code = 1  # never back into the parent's code, whatever happens
            try:
                session.after_fork()
                for path in paths[start : start + share]:
                    session.check_file(path).detach(False)
                code = 0
            finally:
                os._exit(code)
        children.append(pid)
    failed = [pid for pid in children if os.waitpid(pid, 0)[1] != 0]
    if failed:
        raise SystemExit(f"jobs_bound: {len(failed)} split child(ren) failed")
    return len(paths)


def measure(folder: Path, catalog: str | None, jobs: int, mode: str) -> dict:
    cmd = [sys.executable, __file__, "--child", str(folder), str(jobs), mode]
    if catalog:
        cmd += ["--catalog", catalog]
    wall = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT).stdout
    wall = time.perf_counter() - wall
    return {"start_s": wall} if mode == "start" else json.loads(out.splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decks", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--catalog", help="an imported catalog (default: import ../shared's, else the sample catalog)")
    parser.add_argument("--child", nargs=3, metavar=("FOLDER", "JOBS", "MODE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        folder, jobs, mode = args.child
        child(folder, args.catalog, int(jobs), mode)
        return 0
    from benchmarks.bench_cli import mixed_decks
    from benchmarks.corpus import fow_decks, open_bench_catalog

    def row(area: str, what: str, figure: str) -> None:
        print(f"{area:<10} {what:<62} {figure}", flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        catalog, catalog_path = open_bench_catalog(tmp, args.catalog, row, {})
        source, mixed = tmp / "bifrost", tmp / "mixed"
        source.mkdir()
        mixed.mkdir()
        legal = fow_decks(source, args.decks, catalog, "bifrost", random.Random(1))
        mixed_decks(mixed, legal, args.decks, catalog, random.Random(3))
        best: dict[tuple[str, int], dict] = {}
        start = float("inf")
        for _ in range(args.rounds):
            start = min(start, measure(mixed, catalog_path, 1, "start")["start_s"])
            for mode in MODES:
                for jobs in (1, 2):
                    got = measure(mixed, catalog_path, jobs, mode)
                    kept = best.get((mode, jobs))
                    if kept is None or got["batch_s"] < kept["batch_s"]:
                        best[(mode, jobs)] = got
        row("start", "a process to the batch: interpreter, imports, catalog, format", f"{start:.2f} s")
        for mode in MODES:
            one, two = best[(mode, 1)], best[(mode, 2)]
            what = "one child / two children" if mode == "split" else "--jobs 1 / --jobs 2"
            row(mode, f"{args.decks:,} mixed decks, {what} (batch only)",
                f"{one['batch_s']:.2f} s / {two['batch_s']:.2f} s (CPU {one['cpu_s']:.2f} / {two['cpu_s']:.2f} s)")
            row(mode, "  two jobs against one, the start added to both",
                f"{(start + one['batch_s']) / (start + two['batch_s']):.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
