"""``check`` over worker processes gives, byte for byte, the output of one process.

A batch of ``workers.AUTO_FROM`` files or more runs on every core by default; the reports come
back in input order, so every output format must read exactly as with ``--jobs 1``: legal and
illegal decks, unknown names (with their suggestions), unreadable files and notes included.
"""

from __future__ import annotations

import os
import re
import shutil
import time

from conftest import ROOT, SAMPLES
from hypothesis import assume, given, settings
from hypothesis import strategies as st
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
    time.sleep(0.002)  # work that lasts: the second worker starts before the first has taken every chunk
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


_PREPARED: list = []


def _prepared(item):
    return item, tuple(_PREPARED)


def test_a_batch_is_prepared_once_before_the_workers_fork_and_a_few_files_are_not():
    """``prepare`` runs in this process once for a batch of AUTO_FROM items or more, before the
    workers fork (they see what it set up), and not at all for a few files."""
    calls = []

    def prepare():
        calls.append(1)
        _PREPARED.append("ready")

    worker = Worker(_prepared, _start, adopt=_start)
    try:
        few = list(run_in_order(range(3), None, _prepared, worker, prepare=prepare))
        assert few == [(i, ()) for i in range(3)] and calls == []
        many = list(run_in_order(range(AUTO_FROM), None, _prepared, worker, prepare=prepare))
        assert many == [(i, ("ready",)) for i in range(AUTO_FROM)] and calls == [1]
        one_job = list(run_in_order(range(AUTO_FROM), 1, _prepared, worker, prepare=prepare))
        assert [item for item, _ in one_job] == list(range(AUTO_FROM)) and calls == [1, 1]
    finally:
        _PREPARED.clear()


def test_a_batch_against_an_imported_catalog_reads_the_same_on_every_core(tmp_path, monkeypatch):
    """An imported catalog is read for the batch before the workers fork: unknown names, their
    suggestions and every verdict read as with one process and as with no reading ahead."""
    from test_catalog_store import fowsim_file, rec

    from forcecheck.cards import store
    from forcecheck.importers import pipeline
    from forcecheck.session import Session

    source = fowsim_file(tmp_path / "cards.json", [
        rec("T-001", "Test Ruler", ["Ruler"], colour=["W"]),
        rec("T-002", "Bright Knight", ["Resonator"], cost="{W}{1}", colour=["W"]),
        rec("T-003", "Dark Knight", ["Resonator"], cost="{B}", colour=["B"]),
    ])
    db = tmp_path / "c.db"
    pipeline.import_files("fowsim", [source], db)
    folder = tmp_path / "decks"
    folder.mkdir()
    for i in range(AUTO_FROM + 10):
        body = ["Ruler:", "1 Test Ruler", "Main Deck:", f"{4 + i % 2} Bright Knight", "4 Dark Knigt" if i % 3 else "4 Dark Knight", *(["1 Zorblax"] if i % 5 == 0 else [])]
        (folder / f"{i:04}.txt").write_text("\n".join(body) + "\n", encoding="utf-8")
    read = []
    original = store.SqliteCatalog.read_for_batch
    monkeypatch.setattr(store.SqliteCatalog, "read_for_batch", lambda self, game: (read.append(game), original(self, game)))
    monkeypatch.chdir(tmp_path)
    one = _check(folder, "json", "--catalog", str(db), "--jobs", "1")
    assert read == ["fow"] and one[0] == 1
    assert "read 'Dark Knigt' as 'Dark Knight' (typo)" in one[1] and "unknown card 'Zorblax'" in one[1]
    assert _check(folder, "json", "--catalog", str(db)) == one
    monkeypatch.setattr(Session, "_prepare_batch", lambda self: None)
    assert _check(folder, "json", "--catalog", str(db), "--jobs", "1") == one


# -- the paths a walk hands to the workers ------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(directory=st.sampled_from([".", "/", "//", "decks", "decks/fow", "/tmp/x y", "a/./b", "a//b/", "../up", "./c"]),
       name=st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"), min_size=1, max_size=12))
def test_a_walked_file_is_named_as_its_path_would_name_it(directory, name):
    """``child_path`` is ``str(Path(directory, name))`` for a folder given as a Path's text and a
    name listed in it, without making the Path."""
    from pathlib import Path

    from forcecheck.checking import child_path

    assume(name not in (".", ".."))
    directory = str(Path(directory))
    assert child_path(directory, name) == str(Path(directory, name))


def test_a_walk_names_files_as_paths_name_them(tmp_path, monkeypatch):
    """Files found in folders, and files named, come out as the text of their Path: the current
    folder is not written (``.`` gives ``deck.txt``, not ``./deck.txt``), nor a doubled slash."""
    from pathlib import Path

    from forcecheck.checking import expand_paths

    (tmp_path / "sub").mkdir()
    for name in ("b.txt", "a.YDK", "notes.md", "sub/c.yaml"):
        (tmp_path / name).write_text("x\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert list(expand_paths(["."])) == ["a.YDK", "b.txt", str(Path("sub", "c.yaml"))]
    assert list(expand_paths([str(tmp_path) + "//", "./notes.md"])) == [
        str(tmp_path / "a.YDK"), str(tmp_path / "b.txt"), str(tmp_path / "sub" / "c.yaml"), "notes.md"]


def test_a_library_callers_format_for_is_given_paths():
    """``checking.check_paths``: the walk gives text, and ``format_for`` is still called with a
    Path (a caller's callback may use its suffix)."""
    from pathlib import Path

    from forcecheck.cards.catalog import sample_catalog
    from forcecheck.checking import check_paths

    seen = []

    def format_for(path):
        seen.append(path)
        return "bifrost" if path.suffix == ".txt" else None

    run = check_paths([str(SAMPLES / "bifrost")], sample_catalog(), format_for=format_for)
    decks = list(run.iter_decks())
    assert seen and all(isinstance(path, Path) for path in seen)
    assert len(decks) == len(seen) and any(deck.legal for deck in decks)
