"""Shared test helpers: the sample catalog, compiled formats, and a one-line "this deck gives these
violations" helper in the spirit of yamllint's rule tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forcecheck.cards.catalog import sample_catalog
from forcecheck.checking import FormatCache
from forcecheck.decklists.readers import parse_decklist
from forcecheck.engine import check_decklist

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_decks"
SHARED = ROOT.parent / "shared"
USAGE_ERROR = "forcecheck: error: "  # + what is wrong + "; see 'forcecheck COMMAND --help'" (forcecheck.cli.application.usage_line)


def has_cjk_font() -> bool:
    """Whether this machine has the CJK font forcecheck prints Japanese names on sheets with (Debian:
    apt install fonts-noto-cjk, which .ci/run installs), or one named in FORCECHECK_SHEET_FONT. Where
    it has none, a sheet with a Japanese name is refused with that advice: the tests assert the advice."""
    from forcecheck.sheets.fonts import CJK_REGULAR, FONT_ENV

    return any(os.path.isfile(p) for p in CJK_REGULAR) or bool(os.environ.get(FONT_ENV))


CJK_FONT_ADVICE = "apt install fonts-noto-cjk"
"""What forcecheck says where no font can print a Japanese name on a sheet."""


def is_usage_error(stderr: str) -> bool:
    """Whether a command's stderr holds a usage error (an unknown option or command, a missing
    argument, a value an option refuses): the command line was not understood, nothing was run."""
    return any(line.startswith(USAGE_ERROR) and line.endswith(" --help'") and "; see '" in line for line in stderr.splitlines())

needs_shared = pytest.mark.skipif(
    not (SHARED / "data").is_dir(),
    reason="../shared (third-party card data) is not beside this checkout; it is not shipped with the repo",
)

FULL_RUN = os.environ.get("FORCECHECK_TEST_FULL") == "1"
"""Set by CI's second pass (.ci/run, lowest versions): the large property and hostile-input tests
run every example they declare. The README's test command runs a quarter of them (``examples``),
so it stays within five minutes on two cores; benchmarks/hostile.py runs as many as asked."""


def examples(full: int) -> int:
    """How many generated examples a bounded property test runs: ``full`` in CI's second pass,
    else a quarter (at least 10)."""
    return full if FULL_RUN else max(10, full // 4)


def pytest_collection_modifyitems(config, items):
    """Outside CI's second pass, a browser test marked ``postgresql_in_full_run`` runs on SQLite
    alone: what it drives is the pages, and the storage and API tests run on both databases in
    every run. Deselected, not skipped: nothing is missing."""
    if FULL_RUN:
        return
    keep, drop = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        on_postgres = params.get("db_url") == "postgresql"
        (drop if on_postgres and item.get_closest_marker("postgresql_in_full_run") else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


_CATALOG = sample_catalog()
TESTS_DATE = "2022-07-01"
"""The event date of the ``violations``/``only`` helpers: inside the shipped Wanderer record (from
2022-06-15), so a check says what that list says and no more; a later date adds FC604 (the list
may have changed since), which tests/test_lists_by_date.py holds both ways."""
_FORMATS = FormatCache(as_of=TESTS_DATE)

FARIA_MAIN = [
    (4, "Gawain, the Knight of the Sun"),
    (4, "Perceval, the Seeker of Holy Grail"),
    (4, "Bedivere, the Restorer of Souls"),
    (4, "Kai, the Resonant Knight"),
    (4, "Avalon, Illusionary Home of Knights"),
    (4, "Excalibur"),
    (4, "Awakening of the Sacred Queen"),
    (4, "Sacred Wave Blade"),
    (4, "Traveler in Wonderland"),
    (4, "Viviane"),
]
FARIA_STONES = [(4, "Magic Stone of Light Vapors"), (3, "Light Magic Stone"), (3, "Water Magic Stone")]
FARIA_STRANGERS = [
    (2, "Siegfried, the Dragon Knight (Stranger)"),
    (2, "White Wizard (Stranger)"),
    (2, "Twin Swords of Water's Mercy (Stranger)"),
    (2, "Undine, the Spirit (Stranger)"),
    (2, "Arthur, the King of Knights (Stranger)"),
]
ATOM_MAIN = [
    (4, "Acolyte of the Sun"),
    (4, "Bethor, the Angel of Treasure"),
    (4, "Eir, Valkyrie of Mercy"),
    (4, "Phaleg, the Angel of War"),
    (4, "Phul, the Administrator of the Moon"),
    (4, "Sigrun, Valkyrie of Victory"),
    (4, "Sorceress of the Moon"),
    (4, "The Valkyrie's Chosen"),
    (4, "Warrior of the Sun"),
    (4, "Wererabbit Warrior"),
]
ATOM_RUNES = [(1, "Bewilder"), (1, "Dispel"), (1, "Turn Tail"), (1, "Ring of Legend"), (1, "Odin's Judgment")]

TITLES = {
    "ruler": "Ruler",
    "main": "Main Deck",
    "stones": "Magic Stone Deck",
    "extra": "Extra Deck",
    "rune": "Rune Deck",
    "stranger": "Stranger Deck",
    "armament": "Armament EX Deck",
    "crew": "Crew EX Deck",
    "treasury": "Treasury EX Deck",
    "side": "Sideboard",
}


def deck_text(**sections) -> str:
    """A text decklist; each keyword is a section id with a list of (count, name) or a ruler name."""
    lines = []
    for section_id, entries in sections.items():
        if entries is None:
            continue
        lines.append(f"{TITLES.get(section_id, section_id)}:")
        if isinstance(entries, str):
            entries = [(1, entries)]
        lines.extend(f"{count} {name}" for count, name in entries)
    return "\n".join(lines) + "\n"


def faria(**changes) -> str:
    sections = {"ruler": "Faria", "main": FARIA_MAIN, "stones": FARIA_STONES, "stranger": FARIA_STRANGERS}
    sections.update(changes)
    return deck_text(**sections)


def atom(**changes) -> str:
    sections = {"ruler": "Atom Seikhart", "main": ATOM_MAIN, "stones": [(12, "Light Magic Stone")], "rune": ATOM_RUNES}
    sections.update(changes)
    return deck_text(**sections)


def violations(text: str, format_name: str = "bifrost", path: str = "deck.txt", suffix: str = ".txt", catalog=None):
    fmt = _FORMATS.get(format_name)
    deck = parse_decklist(text, path, fmt.known_headers, suffix=suffix)
    return check_decklist(deck, fmt, catalog or _CATALOG).violations


def rules_of(text: str, format_name: str = "bifrost") -> list[str]:
    return [v.rule for v in violations(text, format_name)]


def only(text: str, format_name: str = "bifrost"):
    """The single violation of the deck (fails if there are none or several)."""
    found = violations(text, format_name)
    assert len(found) == 1, [f"{v.rule}: {v.message}" for v in found]
    return found[0]


def make_cdb(path, rows):
    """A YGOPro ``cards.cdb`` with the given (id, alias, type, level, race, attribute, name) rows,
    each with an optional eighth item, its ``ot`` (where it was released; default 0)."""
    import sqlite3

    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE datas (id INTEGER PRIMARY KEY, ot, alias, setcode, type, atk, def, level, race, attribute, category)")
    conn.execute("CREATE TABLE texts (id INTEGER PRIMARY KEY, name, desc)")
    for id, alias, type, level, race, attribute, name, *ot in rows:
        conn.execute("INSERT INTO datas VALUES (?, ?, ?, 0, ?, 0, 0, ?, ?, ?, 0)", (id, ot[0] if ot else 0, alias, type, level, race, attribute))
        conn.execute("INSERT INTO texts VALUES (?, ?, '')", (id, name))
    conn.commit()
    conn.close()
    return path


def cli_runner():
    """A CliRunner that keeps stderr apart from stdout with every supported typer/click: Click
    8.2+ always does (and has no ``mix_stderr``); older Click needs ``mix_stderr=False`` and
    reads its stderr buffer without flushing it first, so the runner below flushes it."""
    import contextlib
    import sys

    from typer.testing import CliRunner

    try:
        CliRunner(mix_stderr=False)
    except TypeError:
        return CliRunner()

    class _Flushed:
        def __init__(self, buffer):
            self._buffer = buffer

        def getvalue(self):
            sys.stderr.flush()
            return self._buffer.getvalue()

    class OldClickRunner(CliRunner):
        @contextlib.contextmanager
        def isolation(self, *args, **kwargs):
            with super().isolation(*args, **kwargs) as streams:
                yield (streams[0], _Flushed(streams[1]), *streams[2:])

    return OldClickRunner(mix_stderr=False)


@pytest.fixture
def catalog():
    return _CATALOG


@pytest.fixture(autouse=True)
def _isolated_user_data(tmp_path_factory, monkeypatch):
    """No test sees a catalog the developer imported into their own default location."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))
    monkeypatch.delenv("FORCECHECK_CATALOG", raising=False)
    monkeypatch.delenv("FORCECHECK_FORMATS_PATH", raising=False)
    monkeypatch.delenv("COLUMNS", raising=False)  # the report's own default width, whatever the runner (xdist sets one) says


@pytest.fixture(scope="session")
def _spec_cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("spec-cache")


@pytest.fixture(autouse=True)
def _isolated_spec_cache(_spec_cache_dir, monkeypatch):
    """Specs are cached in a folder of the test session, never the developer's."""
    monkeypatch.setenv("FORCECHECK_CACHE_DIR", str(_spec_cache_dir))


@pytest.fixture(scope="session")
def real_fow_catalog(tmp_path_factory):
    """Every card of ../shared's fowsim files, imported as a user would (skips without ../shared)."""
    if not (SHARED / "data" / "fow").is_dir():
        pytest.skip("../shared (third-party card data) is not beside this checkout; it is not shipped with the repo")
    from forcecheck.cards.store import SqliteCatalog
    from forcecheck.importers.pipeline import import_files

    db = tmp_path_factory.mktemp("real-fow") / "catalog.sqlite3"
    fow = SHARED / "data" / "fow"
    import_files("fowsim", [fow / "fowsim-cards.json", fow / "fowsim-abc2023-decks-cards.json"], db)
    return SqliteCatalog(db)


@pytest.fixture(scope="session")
def real_ygo_catalog(tmp_path_factory):
    """Every card of ../shared's YGOPro databases, English and Japanese names, imported as a user
    would (skips without ../shared)."""
    if not (SHARED / "data" / "ygo").is_dir():
        pytest.skip("../shared (third-party card data) is not beside this checkout; it is not shipped with the repo")
    from forcecheck.cards.store import SqliteCatalog
    from forcecheck.importers.pipeline import import_files

    db = tmp_path_factory.mktemp("real-ygo") / "catalog.sqlite3"
    ygo = SHARED / "data" / "ygo"
    import_files("ygopro", [ygo / "cards.cdb", ygo / "cards-ja.cdb"], db)
    return SqliteCatalog(db)


@pytest.fixture(scope="session")
def today_ygo_db(tmp_path_factory):
    """A catalog of ../shared's cards of 2026 (``cards-2026.cdb``) with the 2026 TCG, Traditional
    and Worlds lists imported, as a user would ('forcecheck catalog import ygopro', 'forcecheck
    banlist import'); its path (skips without ../shared)."""
    if not (SHARED / "data" / "ygo").is_dir():
        pytest.skip("../shared (third-party card data) is not beside this checkout; it is not shipped with the repo")
    from forcecheck.importers.pipeline import import_banlists, import_files

    db = tmp_path_factory.mktemp("today-ygo") / "catalog.sqlite3"
    ygo = SHARED / "data" / "ygo"
    import_files("ygopro", [ygo / "cards-2026.cdb"], db)
    lists = ygo / "lflist"
    import_banlists([lists / "projectignis_TCG_current.lflist.conf", lists / "projectignis_Traditional_2026.05.lflist.conf",
                     lists / "projectignis_Worlds_2026.05.lflist.conf"], db)
    return db


@pytest.fixture(scope="session")
def speed_ygo_db(tmp_path_factory):
    """A catalog of ../shared's cards of 2026 and its Speed Duel Skill cards (``cards-skills.cdb``)
    with EDOPro's Speed Duel whitelist imported, as a user would; its path (skips without ../shared)."""
    if not (SHARED / "data" / "ygo").is_dir():
        pytest.skip("../shared (third-party card data) is not beside this checkout; it is not shipped with the repo")
    from forcecheck.importers.pipeline import import_banlists, import_files

    db = tmp_path_factory.mktemp("speed-ygo") / "catalog.sqlite3"
    ygo = SHARED / "data" / "ygo"
    import_files("ygopro", [ygo / "cards-2026.cdb", ygo / "cards-skills.cdb"], db)
    import_banlists([ygo / "lflist" / "projectignis_Speed_2025.07.lflist.conf"], db)
    return db


@pytest.fixture(scope="session")
def real_catalogs(real_fow_catalog, real_ygo_catalog):
    """Both real catalogs by game, imported once per test session."""
    return {"fow": real_fow_catalog, "ygo": real_ygo_catalog}
