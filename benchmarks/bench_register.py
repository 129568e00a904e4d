"""Benchmark: `forcecheck register` over generated submissions, --jobs 1 and 2, with memory peaks.

    python benchmarks/bench_register.py [--submissions 10000] [--small 2000]

Each run is a fresh `python -m forcecheck register` process; its wall time and peak resident
memory (largest of the process and its workers) are printed beside a smaller batch, so the
ratio shows whether memory grows with the number of submissions (it should not, beyond the
table itself).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_check import generate  # noqa: E402


def run(folder: Path, jobs: int, out: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one register run in a fresh process."""
    script = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        f"p = subprocess.run([sys.executable, '-m', 'forcecheck', 'register', {str(folder)!r}, '-f', 'bifrost', "
        f"'--output-dir', {str(out)!r}, '--jobs', '{jobs}'], capture_output=True); "
        "w = time.perf_counter() - t; "
        "print(w, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out_text = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    wall, rss_kib = out_text.split()
    return float(wall), int(rss_kib) / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--submissions", type=int, default=10_000)
    parser.add_argument("--small", type=int, default=2_000)
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "register.json")
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in (args.small, args.submissions):
            folder = Path(tmp) / f"s{size}"
            folder.mkdir()
            generate(folder, size, seed=size)
            for jobs in (1, 2):
                wall, rss = run(folder, jobs, Path(tmp) / f"out{size}-{jobs}")
                results[f"{size}_jobs{jobs}"] = {"seconds": round(wall, 2), "peak_rss_mib": round(rss, 1), "per_second": round(size / wall, 1)}
                print(f"{size:>7} submissions  --jobs {jobs}  {wall:7.2f} s  {size / wall:8.0f} decks/s  peak RSS {rss:7.1f} MiB")
    big, small = results[f"{args.submissions}_jobs1"], results[f"{args.small}_jobs1"]
    print(f"memory ratio {args.submissions}/{args.small} submissions (--jobs 1): {big['peak_rss_mib'] / small['peak_rss_mib']:.2f}x "
          f"for {args.submissions / args.small:.0f}x the submissions")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
