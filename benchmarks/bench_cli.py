"""Benchmark: the ``forcecheck`` command as users run it, end to end, beside a parse of the same files.

    python benchmarks/bench_cli.py [--decks 10000] [--rounds 3] [--catalog DB]

Every figure is a fresh process, timed from outside (start to exit), with its baseline measured in
the same run, alternated round by round and the best of each kept (as timeit repeats; a busy
neighbour on a shared machine slows single runs at random):

* batches: ``forcecheck check DIR -f bifrost -o FORMAT`` over 10,000 decklists, stdout to a
  file, for every output format, over a *mixed* folder (legal decks, illegal ones of five kinds,
  decks with unknown names) and, for text and concise, over legal decks only; each as a ratio to
  a parse-only process over the same files (the same interpreter reading every file and matching
  each line against one regular expression, what any tool must at least do: not forcecheck's
  own reader, so the baseline does not move with it; ``benchmarks/parse_only.py``). Goal: <= 4x.
* the default ``--jobs`` (all cores for a batch) against ``--jobs 1``: goal >= 1.7x on 2 cores.
* 1,000 copies of one deck with 4 unknown names against 1,000 copies of the same deck spelt
  right: the suggestions are worked out once per batch (goal: about the same).
* one 1 MiB list of real names (``-o text``): seconds, and its peak memory beside a small list.
* cold start: ``forcecheck check one.txt`` against ``python -c pass`` of a bare virtual
  environment (``python -m venv`` with no packages); goal <= 8x. Bytecode compiled first, as
  pip compiles an installed package.

Decks are generated from the catalog (the real imported one where ../shared has the data).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FORMATS = ("text", "concise", "json", "sarif", "github", "junit")
UNKNOWN_NAMES = [
    "Zorblax the Unseen", "Mirror of Endless Fog", "Captain Quillfeather", "Ashen Wyrm of Tolvar",
    "Glimmering Sprite Lantern", "Oathbreaker Saint Velune", "Hollow Crown Regent", "Stormcalling Tidewyrm",
    "Pale Archivist of Nonsuch", "Verdigris Colossus", "Lantern of the Drowned King", "Whisperthorn Matron",
]


# --- decks --------------------------------------------------------------------------------------

def mixed_decks(folder: Path, sources: list[Path], count: int, catalog, rng: random.Random) -> list[Path]:
    """``count`` Bifrost lists as a repository with problems has them: 40% legal as generated, and
    illegal ones: a fifth copy (copy-limit), a short main deck, four unknown names, a Stranger in
    the main deck, and a card written twice over the limit in main and side."""
    strangers = [c.name for c in catalog.cards("fow") if "stranger" in c.subtypes]
    paths = []
    for i in range(count):
        lines = sources[i % len(sources)].read_text(encoding="utf-8").splitlines()
        main = lines.index("Main Deck:")
        cards = [n for n in range(main + 1, len(lines)) if lines[n][:1].isdigit()][:15]
        kind = rng.random()
        if kind < 0.40:
            pass
        elif kind < 0.60:
            n = rng.choice(cards)
            lines[n] = "5" + lines[n][1:]
        elif kind < 0.75:
            for n in sorted(rng.sample(cards, 3), reverse=True):
                del lines[n]
        elif kind < 0.90:
            for n, name in zip(rng.sample(cards, 4), rng.sample(UNKNOWN_NAMES, 4)):
                lines[n] = f"4 {name}"
        else:
            lines[rng.choice(cards)] = f"4 {rng.choice(strangers)}"
        path = folder / f"mixed{i:06}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def copies_of(folder: Path, source: Path, count: int, unknown: int = 0) -> None:
    """``count`` copies of one deck, ``unknown`` of its main-deck names misspelt beyond correction."""
    lines = source.read_text(encoding="utf-8").splitlines()
    main = lines.index("Main Deck:")
    for k, name in enumerate(UNKNOWN_NAMES[:unknown]):
        lines[main + 1 + k] = f"4 {name}"
    text = "\n".join(lines) + "\n"
    for i in range(count):
        (folder / f"copy{i:05}.txt").write_text(text, encoding="utf-8")


def big_list(path: Path, catalog, size: int = (1 << 20) - 1) -> None:
    """One list of real card names of nearly ``size`` bytes (the largest file forcecheck reads
    is 1 MiB): a main deck of thousands of lines."""
    names = [c.name for c in catalog.cards("fow") if "ruler" not in c.types]
    rng = random.Random(7)
    lines = ["Main Deck:"]
    total = 11
    while True:
        line = f"{rng.randint(1, 4)} {rng.choice(names)}"
        if total + len(line.encode("utf-8")) + 1 > size:
            break
        lines.append(line)
        total += len(line.encode("utf-8")) + 1
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# --- timing -------------------------------------------------------------------------------------

def timed(cmd: list[str], stdout: Path | None = None, env: dict | None = None) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB, the largest of the process and its workers) of one run."""
    script = (
        "import resource, subprocess, sys, time, json; cmd, out = json.loads(sys.argv[1]); "
        "fh = open(out, 'w') if out else subprocess.DEVNULL; t = time.perf_counter(); "
        "subprocess.run(cmd, stdout=fh, stderr=subprocess.DEVNULL); w = time.perf_counter() - t; "
        "print(w, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", script, json.dumps([cmd, str(stdout) if stdout else None])],
                         capture_output=True, text=True, check=True, cwd=ROOT, env=env).stdout
    wall, rss = out.split()
    return float(wall), int(rss) / 1024


def best_pair(first: list[str], second: list[str], rounds: int, out: Path | None = None) -> tuple[float, float, float]:
    """Best wall time of each of two commands run alternately ``rounds`` times, and the second's peak RSS."""
    a = b = float("inf")
    rss = 0.0
    for _ in range(rounds):
        a = min(a, timed(first)[0])
        wall, peak = timed(second, out)
        b = min(b, wall)
        rss = max(rss, peak)
    return a, b, rss


def parse_command(folder: Path, headers: dict) -> list[str]:
    return [sys.executable, str(ROOT / "benchmarks" / "parse_only.py"), str(folder), json.dumps(headers)]


def check_command(folder: Path | str, catalog: str | None, *extra: str) -> list[str]:
    cmd = [sys.executable, "-m", "forcecheck", "check", str(folder), "-f", "bifrost", *extra]
    return cmd + (["--catalog", catalog] if catalog else [])


def bare_python(tmp: Path) -> str:
    """The interpreter of a bare virtual environment (no packages): the cold-start baseline."""
    venv = tmp / "bare-venv"
    if not venv.exists():
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    return str(venv / ("Scripts" if os.name == "nt" else "bin") / "python")


def cold_phases(deck: Path, runs: int) -> dict[str, float]:
    """The median milliseconds of each phase of a cold one-deck check (benchmarks/cold_phases.py)."""
    samples: dict[str, list[float]] = {}
    for _ in range(runs):
        out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "cold_phases.py"), str(deck), "bifrost"],
                             capture_output=True, text=True, check=True, cwd=ROOT).stdout
        for name, ms in json.loads(out.splitlines()[-1]).items():
            samples.setdefault(name, []).append(ms)
    return {name: round(statistics.median(values), 1) for name, values in samples.items()}


def median_times(commands: dict[str, list[str]], runs: int) -> dict[str, float]:
    """The median wall time of each command over ``runs`` rounds, the commands taking turns
    within a round: a busy spell of a shared machine then slows each of them alike, and a
    ratio between them holds (run back to back, one command's nine runs could all fall in one)."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, cmd in commands.items():
            start = time.perf_counter()
            subprocess.run(cmd, capture_output=True, check=False, cwd=ROOT)
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(taken) for name, taken in times.items()}


# --- the suite ----------------------------------------------------------------------------------

def run_cli_suite(tmp: Path, catalog, catalog_path: str | None, legal: list[Path], decks: int, rounds: int, row, results: dict) -> None:
    """Every end-to-end figure, printed with ``row(area, what, figure)`` and kept in ``results``."""
    import compileall

    from forcecheck.checking import FormatCache, check_file

    compileall.compile_dir(ROOT / "forcecheck", quiet=1)  # as pip leaves an installed package
    formats = FormatCache((), None, catalog)
    table = formats.get("bifrost").known_headers
    legal = [path for path in legal if not check_file(path, catalog, formats, "bifrost").violations]
    headers = {"sections": table.sections, "groups": table.groups, "sideboard": table.sideboard}
    legal_dir = tmp / "cli-legal"
    mixed_dir = tmp / "cli-mixed"
    for folder in (legal_dir, mixed_dir):
        folder.mkdir(exist_ok=True)
    for i in range(decks):  # the legal generated decks, as many files as the other folders
        (legal_dir / f"legal{i:06}.txt").hardlink_to(legal[i % len(legal)])
    mixed_decks(mixed_dir, legal, decks, catalog, random.Random(3))
    out = tmp / "report.out"
    results["cli"] = {}
    cores = os.cpu_count() or 1
    for folder, label, formats in ((mixed_dir, "mixed", FORMATS), (legal_dir, "legal", ("text", "concise"))):
        for fmt in formats:
            parse, check, rss = best_pair(parse_command(folder, headers), check_command(folder, catalog_path, "-o", fmt), rounds, out)
            results["cli"][f"{label}-{fmt}"] = {"decks": decks, "parse_s": round(parse, 3), "check_s": round(check, 3),
                                               "ratio": round(check / parse, 2), "peak_rss_mib": round(rss, 1)}
            row("cli", f"check {decks:,} {label} decks -o {fmt} (default jobs: {cores} cores)",
                f"{check:.2f} s = {check / parse:.2f}x parse ({parse:.2f} s), {rss:.0f} MiB")
    one, default, _rss = best_pair(check_command(mixed_dir, catalog_path, "-o", "concise", "--jobs", "1"),
                                   check_command(mixed_dir, catalog_path, "-o", "concise"), rounds, out)
    results["cli"]["jobs"] = {"cores": cores, "jobs1_s": round(one, 3), "default_s": round(default, 3), "speedup": round(one / default, 2)}
    row("cli", f"check {decks:,} mixed -o concise: default jobs ({cores} cores) vs --jobs 1", f"{one / default:.2f}x faster ({one:.2f} s -> {default:.2f} s)")

    clean_dir, typo_dir = tmp / "copies-clean", tmp / "copies-unknown"
    for folder, unknown in ((clean_dir, 0), (typo_dir, 4)):
        folder.mkdir(exist_ok=True)
        copies_of(folder, legal[0], 1000, unknown)
    clean, typos, _rss = best_pair(check_command(clean_dir, catalog_path, "-o", "concise", "--jobs", "1"),
                                   check_command(typo_dir, catalog_path, "-o", "concise", "--jobs", "1"), rounds, out)
    results["cli"]["unknown_copies"] = {"clean_s": round(clean, 3), "unknown_s": round(typos, 3), "ratio": round(typos / clean, 2)}
    row("cli", "1,000 copies of a deck with 4 unknown names vs spelt right (-o concise)", f"{typos:.2f} s vs {clean:.2f} s = {typos / clean:.2f}x")

    big, small = tmp / "big-list.txt", tmp / "small-list.txt"
    big_list(big, catalog)
    big_list(small, catalog, 1 << 16)
    wall_big, rss_big = min(timed(check_command(big, catalog_path, "-o", "text"), out) for _ in range(rounds))
    _wall, rss_small = timed(check_command(small, catalog_path, "-o", "text"), out)
    results["cli"]["big_list"] = {"bytes": big.stat().st_size, "seconds": round(wall_big, 2), "peak_rss_mib": round(rss_big, 1),
                                  "small_peak_rss_mib": round(rss_small, 1)}
    row("cli", "one 1 MiB list of real names -o text", f"{wall_big:.2f} s, {rss_big:.0f} MiB (64 KiB list: {rss_small:.0f} MiB)")

    bare = bare_python(tmp)
    one_deck = ROOT / "sample_decks" / "bifrost" / "legal-faria-stranger.txt"
    runs = 21
    script = Path(sys.executable).with_name("forcecheck")  # the console script pip installs: what a user types
    commands = {
        "bare": [bare, "-c", "pass"],
        "here": [sys.executable, "-c", "pass"],
        "version": [sys.executable, "-m", "forcecheck", "--version"],
        "single": [sys.executable, "-m", "forcecheck", "check", str(one_deck), "-f", "bifrost"],
    }
    if script.exists():
        commands["console"] = [str(script), "check", str(one_deck), "-f", "bifrost"]
    subprocess.run(commands["single"], capture_output=True, check=False, cwd=ROOT)  # the spec cache filled, as after a first run
    medians = median_times(commands, runs)
    bare_s, here_s, version, single = medians["bare"], medians["here"], medians["version"], medians["single"]
    console = medians.get("console")
    results["cold_start_s"] = {"bare_python": round(bare_s, 4), "python": round(here_s, 4), "version": round(version, 4),
                               "one_deck_check": round(single, 4), "ratio": round(single / bare_s, 2)}
    row("cold start", "python -c pass, bare venv / this environment", f"{bare_s * 1000:.0f} ms / {here_s * 1000:.0f} ms")
    row("cold start", "forcecheck --version", f"{version * 1000:.0f} ms ({version / bare_s:.1f}x bare python)")
    row("cold start", "python -m forcecheck check one.txt (sample catalog)", f"{single * 1000:.0f} ms ({single / bare_s:.1f}x bare python)")
    if console is not None:
        results["cold_start_s"]["console_script_check"] = round(console, 4)
        row("cold start", "forcecheck check one.txt (the console script)", f"{console * 1000:.0f} ms ({console / bare_s:.1f}x bare python)")
    phases = cold_phases(one_deck, runs)
    results["cold_start_phases_ms"] = phases
    for name, ms in phases.items():
        row("cold start", f"  phase: {name}", f"{ms:.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decks", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--catalog", help="an imported catalog (default: import ../shared's, else the sample catalog)")
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "cli.json")
    args = parser.parse_args()
    from benchmarks.corpus import fow_decks, open_bench_catalog

    results: dict = {}

    def row(area: str, what: str, figure: str) -> None:
        print(f"{area:<12} {what:<66} {figure}", flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        catalog, catalog_path = open_bench_catalog(tmp, args.catalog, row, results)
        source = tmp / "bifrost"
        source.mkdir()
        legal = fow_decks(source, args.decks, catalog, "bifrost", random.Random(1))
        run_cli_suite(tmp, catalog, catalog_path, legal, args.decks, args.rounds, row, results)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
