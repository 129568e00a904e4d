"""Issue 13: faults from outside the input. Imports killed at random points, two imports into
one catalog at once, leftovers of dead imports, full disks and read-only mounts under ``fmt``
and ``--output-file``, files and folders an unprivileged user cannot read.

The kill and concurrency tests run the real command in subprocesses. The full-disk and
read-only tests mount a small tmpfs when the tests run as root (CI does); elsewhere they are
skipped, and test_hostile_defects simulates ENOSPC at the write boundary instead.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from conftest import SAMPLES, faria
from hostile_support import assert_contract, run_main

LEGAL = SAMPLES / "bifrost" / "legal-faria-stranger.txt"
MESSY = "Main Deck:\n2 viviane\n2 Viviane\nRuler: Faria\n"


def fowsim_source(path: Path, prefix: str, count: int) -> Path:
    cards = [{"id": f"{prefix}-{i:05d}", "name": f"{prefix} Card {i}", "type": ["Chant"], "cost": "{R}{1}",
              "colour": ["R"], "abilities": [], "race": []} for i in range(count)]
    path.write_text(json.dumps({"fow": {"clusters": [{"sets": [{"cards": cards}]}]}}))
    return path


def cli(*args, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.Popen([sys.executable, "-m", "forcecheck", *map(str, args)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def sources_in(db: Path) -> set[str]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return {Path(p).name for (p,) in conn.execute("SELECT path FROM sources")}
    finally:
        conn.close()


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".") and ".tmp" in p.name)


# --- SIGKILL during catalog import -------------------------------------------------------------

@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="SIGKILL is POSIX")
def test_sigkill_at_random_points_of_an_import_leaves_a_usable_catalog(tmp_path):
    """Kill `catalog import` at random moments (reading, copying, writing, swapping): the
    catalog is always the old one or the new one, never half of each, and the next import
    cleans up whatever the dead one left beside it."""
    old = fowsim_source(tmp_path / "old.json", "Old", 50)
    new = fowsim_source(tmp_path / "new.json", "New", 4000)
    db = tmp_path / "c.db"
    first = cli("catalog", "import", "fowsim", old, "--db", db)
    assert first.wait(60) == 0, first.stderr.read()
    started = time.perf_counter()
    full = cli("catalog", "import", "fowsim", new, "--db", db)
    assert full.wait(120) == 0
    span = time.perf_counter() - started
    rng = random.Random(13)
    outcomes = set()
    expected = {"old.json", "new.json"}
    for trial in range(5):
        third = fowsim_source(tmp_path / f"third{trial}.json", f"Third{trial}", 4000)
        victim = cli("catalog", "import", "fowsim", third, "--db", db)
        time.sleep(rng.uniform(0.05, span))
        victim.send_signal(signal.SIGKILL)
        victim.wait(30)
        names = sources_in(db)
        assert names in (expected, expected | {third.name}), names  # the old catalog, or the new one
        expected = names
        run = run_main("check", LEGAL, "-f", "bifrost", "--catalog", db, "-o", "json")
        assert_contract(run, f"trial {trial}")
        assert run.code == 1 and "damaged" not in run.both  # it opens; the deck's cards are not in it
        outcomes.add(victim.returncode)
    assert -signal.SIGKILL in outcomes
    after = cli("catalog", "import", "fowsim", old, "--db", db)
    assert after.wait(60) == 0, after.stderr.read()
    assert leftovers(tmp_path) == []
    assert sources_in(db) == expected


def test_leftovers_of_dead_imports_are_removed_by_the_next_import(tmp_path):
    source = fowsim_source(tmp_path / "a.json", "A", 3)
    db = tmp_path / "c.db"
    assert run_main("catalog", "import", "fowsim", source, "--db", db).code == 0
    for name in (".c.db.4242.tmp", ".c.db.4242.tmp-journal", ".c.db.77.tmp"):
        (tmp_path / name).write_bytes(b"x" * 4096)
    (tmp_path / ".keep-me").write_text("not ours")
    assert run_main("catalog", "import", "fowsim", source, "--db", db).code == 0
    assert leftovers(tmp_path) == [] and (tmp_path / ".keep-me").exists()


# --- concurrent imports ----------------------------------------------------------------------------

def test_two_concurrent_imports_into_one_catalog_lose_nothing(tmp_path):
    """Before the writers' lock, one source in four trials of ten was lost: both imports copied
    the old file and the later rename dropped the earlier one's work."""
    for trial in range(3):
        db = tmp_path / f"c{trial}.db"
        base = fowsim_source(tmp_path / "base.json", "Base", 10)
        assert run_main("catalog", "import", "fowsim", base, "--db", db).code == 0
        one = fowsim_source(tmp_path / f"one{trial}.json", "One", 2000)
        two = fowsim_source(tmp_path / f"two{trial}.json", "Two", 2000)
        procs = [cli("catalog", "import", "fowsim", src, "--db", db) for src in (one, two)]
        for proc in procs:
            assert proc.wait(120) == 0, proc.stderr.read()
        assert sources_in(db) == {"base.json", one.name, two.name}, trial
        run = run_main("catalog", "info", "--db", db)
        assert "4,010 cards" in run.out
        assert leftovers(tmp_path) == []


# --- full disk and read-only targets (a real tmpfs, as root) -------------------------------------

@contextlib.contextmanager
def small_tmpfs(size: str = "256k"):
    if sys.platform != "linux" or os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a tmpfs needs root on Linux (CI runs as root); ENOSPC is simulated in test_hostile_defects")
    point = Path(tempfile.mkdtemp(prefix="fc-tmpfs-"))
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(point)], capture_output=True)
    if mounted.returncode != 0:
        point.rmdir()
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode(errors='replace').strip()}")
    try:
        yield point
    finally:
        subprocess.run(["umount", "-l", str(point)], check=False)
        with contextlib.suppress(OSError):
            point.rmdir()


def fill(folder: Path) -> None:
    """Fill the file system until it has no byte left."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for size in (65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)


def test_fmt_and_output_file_on_a_full_disk(tmp_path):
    with small_tmpfs() as disk:
        first, second = disk / "a.txt", tmp_path / "b.txt"
        first.write_text(MESSY)
        second.write_text(MESSY)
        report = disk / "report.json"
        report.write_text("previous report")
        fill(disk)
        run = run_main("fmt", first, second, "-f", "bifrost")
        assert_contract(run)
        assert run.code == 2 and f"{first}: cannot write (No space left on device); the file is unchanged" in run.err
        assert first.read_text() == MESSY and "4 Viviane" in second.read_text()
        out = run_main("check", LEGAL, "-f", "bifrost", "-o", "json", "--output-file", report)
        assert_contract(out)
        assert out.code == 2 and "No space left on device" in out.err
        assert report.read_text() == "previous report"
        assert sorted(p.name for p in disk.iterdir()) == ["a.txt", "filler", "report.json"]


def test_fmt_and_output_file_on_a_read_only_mount(tmp_path):
    with small_tmpfs() as disk:
        first = disk / "a.txt"
        first.write_text(MESSY)
        report = disk / "report.json"
        report.write_text("previous report")
        second = tmp_path / "b.txt"
        second.write_text(MESSY)
        remount = subprocess.run(["mount", "-o", "remount,ro", str(disk)], capture_output=True)
        if remount.returncode != 0:
            pytest.skip(f"cannot remount read-only: {remount.stderr.decode(errors='replace').strip()}")
        run = run_main("fmt", first, second, "-f", "bifrost")
        assert_contract(run)
        assert run.code == 2 and "Read-only file system" in run.err
        assert first.read_text() == MESSY and "4 Viviane" in second.read_text()
        out = run_main("check", LEGAL, "-f", "bifrost", "-o", "sarif", "--output-file", report)
        assert out.code == 2 and "Read-only file system" in out.err and report.read_text() == "previous report"
        imported = run_main("catalog", "import", "fowsim", fowsim_source(tmp_path / "s.json", "S", 2), "--db", disk / "c.db")
        assert_contract(imported)
        assert imported.code == 2 and "Read-only file system" in imported.err


def test_catalog_import_on_a_full_disk_keeps_the_old_catalog(tmp_path):
    with small_tmpfs("512k") as disk:
        db = disk / "c.db"
        assert run_main("catalog", "import", "fowsim", fowsim_source(tmp_path / "a.json", "A", 20), "--db", db).code == 0
        before = db.read_bytes()
        fill(disk)
        run = run_main("catalog", "import", "fowsim", fowsim_source(tmp_path / "b.json", "B", 3000), "--db", db)
        assert_contract(run)
        assert run.code == 2 and "cannot write the catalog" in run.err and "the catalog was not changed" in run.err
        assert db.read_bytes() == before and leftovers(disk) == []


# --- what an unprivileged user cannot read (a real permission, not a simulation) ----------------

NOBODY = 65534


def _as_nobody(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", sys.executable, "-m", "forcecheck", *map(str, args)],
        cwd=cwd, capture_output=True, text=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "HOME": str(cwd), "XDG_DATA_HOME": str(cwd), "FORCECHECK_CACHE_DIR": str(cwd / ".cache")}, timeout=120,
    )


@pytest.fixture
def world_dir():
    """A folder an unprivileged user can enter (pytest's tmp_path is private to root)."""
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("needs root and setpriv to run forcecheck as an unprivileged user")
    folder = Path(tempfile.mkdtemp(prefix="fc-nobody-"))
    folder.chmod(0o755)
    probe = _as_nobody("--version", cwd=folder)
    if probe.returncode != 0:
        shutil.rmtree(folder)
        pytest.skip(f"forcecheck cannot run as an unprivileged user here: {probe.stderr.strip()[-200:]}")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_unreadable_file_and_folder_as_an_unprivileged_user(world_dir):
    decks = world_dir / "decks"
    (decks / "locked").mkdir(parents=True)
    (decks / "locked" / "x.txt").write_text(faria())
    (decks / "secret.txt").write_text(faria())
    (decks / "ok.txt").write_text(faria())
    for path in (decks, decks / "ok.txt", decks / "secret.txt"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    (decks / "secret.txt").chmod(0o600)
    (decks / "locked").chmod(0o700)
    named = _as_nobody("check", "decks/secret.txt", "decks/ok.txt", "-f", "bifrost", "-o", "json", cwd=world_dir)
    assert named.returncode == 2, named.stderr
    rows = json.loads(named.stdout)["decks"]
    assert "Permission denied" in rows[0]["error"] and rows[1]["legal"] is True
    walked = _as_nobody("check", "decks", "-f", "bifrost", "-o", "json", cwd=world_dir)
    assert walked.returncode == 2, walked.stderr
    rows = {Path(r["path"]).name: r for r in json.loads(walked.stdout)["decks"]}
    assert rows["ok.txt"]["legal"] is True
    assert "cannot list this folder" in rows["locked"]["error"] and "Permission denied" in rows["secret.txt"]["error"]
