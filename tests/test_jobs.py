"""``check`` over worker processes gives, byte for byte, the output of one process.

A batch of ``workers.AUTO_FROM`` files or more runs on every core by default; the reports come
back in input order, so every output format must read exactly as with ``--jobs 1``: legal and
illegal decks, unknown names (with their suggestions), unreadable files and notes included.
"""

from __future__ import annotations

import os
import re
import shutil

from conftest import ROOT, SAMPLES
from typer.testing import CliRunner

from forcecheck.cli import app
from forcecheck.workers import AUTO_FROM, Worker, cores, run_in_order

runner = CliRunner()
FORMATS = ("text", "concise", "json", "sarif", "github", "junit")


def _mixed_folder(tmp_path):
    """More than AUTO_FROM files: every Bifrost sample (legal and illegal, text and YAML), decks
    with unknown names, and files that cannot be read, in several sub-folders."""
    folder = tmp_path / "decks"
    samples = sorted(p for p in (SAMPLES / "bifrost").iterdir() if p.is_file())
    legal = SAMPLES / "bifrost" / "legal-speaker-grimoire.txt"
    text = legal.read_text(encoding="utf-8")
    count = 0
    while count < AUTO_FROM + 20:
        sub = folder / f"round{count // 50:02}"
        sub.mkdir(parents=True, exist_ok=True)
        for sample in samples:
            shutil.copy(sample, sub / f"{count:04}-{sample.name}")
            count += 1
        (sub / f"{count:04}-typos.txt").write_text(text.replace("Main Deck:", "Main Deck:\n4 Zorblax the Unseen\n3 Gawain, the Knigt of the Sun"), encoding="utf-8")
        (sub / f"{count + 1:04}-binary.txt").write_bytes(b"\x00\xff\x00 not a decklist")
        count += 2
    return folder, count


def _check(folder, fmt, *extra):
    result = runner.invoke(app, ["check", str(folder), "-f", "bifrost", "-o", fmt, "--color", "never", *extra])
    out = result.stdout
    if fmt == "junit":  # the seconds each deck took differ from run to run, nothing else may
        out = re.sub(r'time="[0-9.]+"', 'time="-"', out)
    return result.exit_code, out


def test_default_jobs_and_more_jobs_give_the_output_of_one_job(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    folder, count = _mixed_folder(tmp_path)
    assert count >= AUTO_FROM  # so the default runs on every core
    for fmt in FORMATS:
        one = _check(folder, fmt, "--jobs", "1")
        assert one[0] == 2 and "unknown card 'Zorblax the Unseen'" in one[1]
        assert _check(folder, fmt) == one, fmt
    assert _check(folder, "text", "--jobs", "3") == _check(folder, "text", "--jobs", "1")


def _pid(item):
    return item, os.getpid()


def _start():
    pass


def test_the_default_is_every_core_for_a_batch_and_one_process_for_a_few_files():
    worker = Worker(_pid, _start)
    here = os.getpid()
    few = list(run_in_order(range(AUTO_FROM - 1), None, lambda item: (item, os.getpid()), worker))
    assert few == [(i, here) for i in range(AUTO_FROM - 1)]  # a few files: no worker processes
    many = list(run_in_order(range(AUTO_FROM * 2), None, lambda item: (item, os.getpid()), worker))
    assert [item for item, _pid in many] == list(range(AUTO_FROM * 2))  # in input order
    pids = {pid for _item, pid in many}
    if cores() > 1:
        assert here not in pids and len(pids) >= 2
    else:  # pragma: no cover - a one-core machine checks in one process
        assert pids == {here}
