"""The spec cache: a validated spec is read back without pydantic, gives the same results, and
is thrown away as soon as any file it came from changes."""

from __future__ import annotations

import json

from conftest import SAMPLES, cli_runner

from forcecheck.cli import app
from forcecheck.format_spec import cache
from forcecheck.format_spec.loader import find_format, load_format, load_format_cached

runner = cli_runner()


def test_cached_and_fresh_specs_give_the_same_reports(monkeypatch):
    for folder in ("bifrost", "abc", "ygo-5ds"):
        args = ["check", str(SAMPLES / folder), "-f", folder, "-o", "json"]
        runner.invoke(app, args)  # warms the cache
        assert cache.load_cached(find_format(folder)) is not None
        cached = runner.invoke(app, args).stdout
        monkeypatch.setenv("FORCECHECK_NO_SPEC_CACHE", "1")
        fresh = runner.invoke(app, args).stdout
        monkeypatch.delenv("FORCECHECK_NO_SPEC_CACHE")
        assert json.loads(cached) == json.loads(fresh)


def test_the_cached_view_has_the_models_data():
    spec = load_format("wanderer")
    load_format_cached("wanderer")
    view = load_format_cached("wanderer")
    assert type(view).__name__ == "SpecView"
    assert [r.id for r in view.rules] == [r.id for r in spec.rules]
    assert view.section("main").title == "Main Deck" and view.sideboard.locked == ["ruler", "rune"]


def test_a_changed_file_in_the_extends_chain_is_a_miss(tmp_path):
    (tmp_path / "base.yaml").write_text("name: base\ntitle: Base\ngame: fow\nsections:\n  - {id: main, title: Main Deck}\nrules: []\n")
    (tmp_path / "child.yaml").write_text("name: child\ntitle: Child\nextends: base\n")
    load_format_cached("child", [tmp_path])
    assert cache.load_cached(tmp_path / "child.yaml") is not None
    (tmp_path / "base.yaml").write_text("name: base\ntitle: Base, changed\ngame: fow\nsections:\n  - {id: main, title: Main Deck}\nrules: []\n")
    assert cache.load_cached(tmp_path / "child.yaml") is None
    assert load_format_cached("child", [tmp_path]).title == "Child"


def test_dated_banlist_versions_survive_the_cache(tmp_path):
    (tmp_path / "dated.yaml").write_text(
        "name: dated\ntitle: Dated\ngame: fow\nextends: bifrost\nrules:\n"
        "  - id: banned\n    kind: banlist\n    sections: [main]\n    description: test\n    versions:\n"
        "      - {name: V1, effective: 2020-01-01, source: tests, cards: {Viviane: 0}, combinations: [[Excalibur, Kai, the Resonant Knight]]}\n"
    )
    deck = str(SAMPLES / "bifrost" / "legal-faria-stranger.txt")
    args = ["check", deck, "-f", "dated", "--formats-dir", str(tmp_path), "--as-of", "2021-01-01", "-o", "json"]
    first = json.loads(runner.invoke(app, args).stdout)
    second = json.loads(runner.invoke(app, args).stdout)  # from the cache
    assert first == second
    assert [(v["rule"], v["card"]) for v in second["decks"][0]["violations"]] == [("banned", "Viviane")]


def test_a_changed_spec_model_is_a_miss(tmp_path, monkeypatch):
    """Before: an entry written before BanlistRule gained ``list_file`` was read back without it,
    and every ygo check and ``banlist list`` ended in an AttributeError (same version, same spec
    files, a changed model). The models' source is stamped like the spec files."""
    model = tmp_path / "model.py"
    model.write_text("# the models, version 1\n")
    monkeypatch.setattr(cache, "MODEL_SOURCE", model)
    monkeypatch.setenv("FORCECHECK_CACHE_DIR", str(tmp_path / "cache"))
    load_format_cached("ygo-5ds")
    assert cache.load_cached(find_format("ygo-5ds")) is not None
    model.write_text("# the models, version 2: a field more\n")
    assert cache.load_cached(find_format("ygo-5ds")) is None
    assert load_format_cached("ygo-5ds").name == "ygo-5ds"  # validated afresh, and stored again
    assert cache.load_cached(find_format("ygo-5ds")) is not None
