"""Hostile input: whatever the bytes, forcecheck ends with exit 0, 1 or 2 and a message -
never a traceback, never a hang - and never loses what the user wrote.

Property tests are bounded (max_examples) so the suite stays fast; the numbers of generated
inputs are in each @settings.
"""

from __future__ import annotations

import os
import random
import sys

import pytest
from conftest import ROOT, SAMPLES, cli_runner, examples, faria
from hostile_families import mutate  # delete, duplicate, swap or corrupt lines and characters
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forcecheck.cli import app

runner = cli_runner()
FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def run_ok(*args):
    """Run the CLI; assert it ended as designed (0/1/2, no traceback) and return the result."""
    result = runner.invoke(app, [str(a) for a in args], catch_exceptions=True)
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crashed, f"crashed: {result.exception!r}"
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
    assert "Traceback" not in result.output and "Traceback" not in (result.stderr or "")
    if result.exit_code == 2:
        assert (result.stderr or result.stdout).strip(), "exit 2 without a message"
    return result


def write_bytes(tmp_path_factory, name: str, data: bytes):
    folder = tmp_path_factory.mktemp("hostile")
    path = folder / name
    path.write_bytes(data)
    return path


SUFFIXES = [".txt", ".yaml", ".ydk", ".deck", ""]


@settings(FAST, max_examples=examples(120))
@given(data=st.binary(max_size=2048), suffix=st.sampled_from(SUFFIXES))
def test_random_bytes(tmp_path_factory, data, suffix):
    path = write_bytes(tmp_path_factory, "deck" + suffix, data)
    run_ok("check", path, "-f", "bifrost", "-o", "json")


@settings(FAST, max_examples=examples(120))
@given(text=st.text(max_size=1500), suffix=st.sampled_from(SUFFIXES), fmt=st.sampled_from(["bifrost", "abc", "ygo-5ds"]))
def test_random_text(tmp_path_factory, text, suffix, fmt):
    path = write_bytes(tmp_path_factory, "deck" + suffix, text.encode("utf-8", "replace"))
    run_ok("check", path, "-f", fmt)


REAL_DECKS = sorted(p for folder in ("bifrost", "abc", "ygo-5ds") for p in (SAMPLES / folder).iterdir())


@settings(FAST, max_examples=examples(150))
@given(seed=st.integers(min_value=0, max_value=10**9), index=st.integers(min_value=0, max_value=len(REAL_DECKS) - 1))
def test_mutated_real_decklists(tmp_path_factory, seed, index):
    source = REAL_DECKS[index]
    fmt = {"bifrost": "bifrost", "abc": "abc", "ygo-5ds": "ygo-5ds"}[source.parent.name]
    text = mutate(source.read_text(encoding="utf-8"), random.Random(seed))
    path = write_bytes(tmp_path_factory, source.name, text.encode("utf-8"))
    run_ok("check", path, "-f", fmt, "-o", "sarif")
    run_ok("fmt", path, "-f", fmt, "--check")
    run_ok("fingerprint", path, "-f", fmt)


SPEC = (ROOT / "formats" / "bifrost.yaml").read_text(encoding="utf-8")


@settings(FAST, max_examples=examples(80))
@given(seed=st.integers(min_value=0, max_value=10**9))
def test_mutated_format_specs(tmp_path_factory, seed):
    folder = tmp_path_factory.mktemp("specs")
    text = mutate(SPEC, random.Random(seed)).replace("name: bifrost", "name: mutant", 1)
    (folder / "mutant.yaml").write_text(text, encoding="utf-8")
    run_ok("formats", "show", "mutant", "--formats-dir", folder)
    run_ok("check", SAMPLES / "bifrost" / "legal-faria-stranger.txt", "-f", "mutant", "--formats-dir", folder)


CONFIG = "format: bifrost\nformats:\n  'decks/**': abc\nselect: [FC1, copy-limit]\nignore: [FC005]\nseverity:\n  FC006: warning\nfail_on: error\n"


@settings(FAST, max_examples=examples(80))
@given(seed=st.integers(min_value=0, max_value=10**9), raw=st.text(max_size=300))
def test_mutated_and_random_configs(tmp_path_factory, seed, raw, monkeypatch):
    folder = tmp_path_factory.mktemp("config")
    text = mutate(CONFIG, random.Random(seed)) if seed % 2 else raw
    (folder / ".forcecheck.yaml").write_text(text, encoding="utf-8")
    (folder / "d.txt").write_text(faria())
    monkeypatch.chdir(folder)
    run_ok("check", "d.txt")
    run_ok("config", "show")


# --- limits ----------------------------------------------------------------------------------

def test_file_over_the_size_cap(tmp_path):
    path = tmp_path / "big.txt"
    with open(path, "wb") as fh:
        fh.write(b"Main Deck:\n")
        fh.write(b"4 Viviane\n" * 200_000)
    result = run_ok("check", path, "-f", "bifrost")
    assert result.exit_code == 2 and "over the 1,048,576-byte limit" in result.stdout


def test_line_over_the_length_cap(tmp_path):
    path = tmp_path / "d.txt"
    path.write_text(faria() + "Sideboard:\n1 " + "Viviane " * 200 + "\n")
    result = run_ok("check", path, "-f", "bifrost", "-o", "json")
    assert '"rule": "line-too-long"' in result.stdout


def test_a_million_copies(tmp_path):
    path = tmp_path / "d.txt"
    path.write_text(faria(side=[(1_000_000, "Viviane")]))
    result = run_ok("check", path, "-f", "bifrost", "-o", "json")
    assert result.exit_code == 1 and '"rule": "invalid-count"' in result.stdout


def test_thousands_of_made_up_names_get_suggestions_for_the_first_twenty_only(monkeypatch):
    """A suggestion searches the whole catalog; a file of made-up names is bounded by a budget
    per deck, and every name is still reported on its own line."""
    from forcecheck.cards.catalog import MemoryCatalog, sample_catalog
    from forcecheck.checking import FormatCache
    from forcecheck.decklists.readers import parse_decklist
    from forcecheck.engine import check_decklist
    from forcecheck.resolve import SUGGESTIONS_PER_DECK

    catalog = sample_catalog()
    asked = []
    real_suggest = MemoryCatalog.suggest
    monkeypatch.setattr(MemoryCatalog, "suggest", lambda self, game, name, limit=3: asked.append(name) or real_suggest(self, game, name, limit))
    rng = random.Random(3)
    made_up = ["".join(rng.choice("qwxzjkv") for _ in range(12)) for _ in range(2000)]
    fmt = FormatCache().get("bifrost")
    text = "Main Deck:\n1 Excalibrrrr\n" + "".join(f"1 {name}\n" for name in made_up)
    report = check_decklist(parse_decklist(text, "junk.txt", fmt.known_headers), fmt, catalog)
    unknown = [v for v in report.violations if v.rule == "unknown-card"]
    assert len(unknown) == 2001 and len(asked) == SUGGESTIONS_PER_DECK == 20
    assert "did you mean 'Excalibur'?" in unknown[0].message and unknown[0].line == 2
    assert all("names are suggested for the first 20 unknown cards" in v.message for v in unknown[20:])
    assert not any("names are suggested" in v.message for v in unknown[:20])


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("a: &a ['x','x','x','x','x','x','x','x','x']\n" + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)}]\n" for i in range(8)), "alias bomb"),
        ("sections:\n" + "".join("  " * (i + 1) + "- \n" for i in range(100)), "nested deeper"),
        ("[" * 5000 + "]" * 5000, "nested deeper than"),  # forcecheck's words, with or without libyaml
    ],
    ids=["billion-laughs", "deep-block", "deep-flow"],
)
def test_yaml_bombs_and_deep_nesting(tmp_path, text, fragment):
    path = tmp_path / "d.yaml"
    path.write_text(text)
    result = run_ok("check", path, "-f", "bifrost")
    assert result.exit_code == 2 and f"{path}:" in result.stdout and fragment in result.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks need privileges on Windows")
def test_a_directory_loop_via_symlinks_ends(tmp_path):
    decks = tmp_path / "decks"
    (decks / "a").mkdir(parents=True)
    (decks / "a" / "d.txt").write_text(faria())
    os.symlink(decks, decks / "a" / "loop")
    os.symlink(decks / "a", decks / "back")
    result = run_ok("check", decks, "-f", "bifrost", "-o", "json")
    assert result.exit_code == 0 and result.stdout.count('"path"') == 1


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_is_refused_without_reading_forever():
    result = run_ok("check", "/dev/zero", "-f", "bifrost")
    assert result.exit_code == 2 and "not a regular file" in result.stdout


@pytest.mark.parametrize("encoding,label", [("shift_jis", "Shift_JIS"), ("gbk", "GBK")])
def test_legacy_encodings_are_named(tmp_path, encoding, label):
    path = tmp_path / "d.txt"
    text = "Ruler:\n1 ファリア\n" if encoding == "shift_jis" else "Ruler:\n1 法莉娅\n"
    path.write_bytes(text.encode(encoding))
    result = run_ok("check", path, "-f", "bifrost")
    assert result.exit_code == 2 and "not valid UTF-8" in result.stdout and f"looks like {label}" in result.stdout and ":2:" in result.stdout


def test_bom_and_crlf(tmp_path):
    path = tmp_path / "d.txt"
    path.write_bytes(b"\xef\xbb\xbf" + faria().replace("\n", "\r\n").encode())
    assert run_ok("check", path, "-f", "bifrost").exit_code == 0


def test_register_tables_are_written_atomically(tmp_path, monkeypatch):
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "a.txt").write_text(faria())
    out = tmp_path / "out"
    out.mkdir()
    (out / "registrations.csv").write_text("previous table")

    def boom(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    result = run_ok("register", folder, "-f", "bifrost", "--output", out)
    assert result.exit_code == 2 and "No space left" in result.stderr
    assert (out / "registrations.csv").read_text() == "previous table"
    assert sorted(p.name for p in out.iterdir()) == ["registrations.csv"]


def test_catalog_import_interrupted_leaves_the_old_catalog(tmp_path, monkeypatch):
    from forcecheck.importers import pipeline

    source = tmp_path / "cards.json"
    source.write_text('{"fow": {"clusters": [{"sets": [{"cards": [{"id": "X-1", "name": "A", "type": ["Chant"]}]}]}]}}')
    db = tmp_path / "c.db"
    pipeline.import_files("fowsim", [source], db)
    before = db.read_bytes()

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "_store_source", interrupted)
    with pytest.raises(KeyboardInterrupt):
        pipeline.import_files("fowsim", [source], db)
    assert db.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["c.db", "c.db.lock", "cards.json"]
