"""``forcecheck catalog fetch`` (issue 29, item 1): card data in one command, from a local HTTP
server serving a mirror (this machine has no open internet; the public addresses are the
defaults a user gets). Every failure ends in one line naming the address, exit 2, the catalog
exactly as it was and no temporary file left."""

from __future__ import annotations

import hashlib
import http.server
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import ROOT, SAMPLES, SHARED, cli_runner, make_cdb, needs_shared

from forcecheck.cli import app
from forcecheck.importers import fetch

runner = cli_runner()

LFLIST = "#[2011.9.1][2026.7]\n!2026.7\n63977008 3 --Junk Synchron\n!2011.9.1\n63977008 1 --Junk Synchron\n"


def run(*args, env=None):
    result = runner.invoke(app, [str(a) for a in args], env=env)
    assert "Traceback" not in result.output + (result.stderr or "")
    return result


def fowsim_json(*names: str) -> str:
    cards = [{"id": f"T-{i:03d}", "name": name, "type": ["Resonator"], "cost": "{W}", "colour": ["W"], "abilities": [], "race": []}
             for i, name in enumerate(names, start=1)]
    return json.dumps({"fow": {"clusters": [{"name": "T", "sets": [{"name": "S", "code": "T", "cards": cards}]}]}})


@pytest.fixture
def mirror(tmp_path):
    """A small made-up mirror: two Force of Will cards, one YGOPro card in English and Japanese, two lists."""
    root = tmp_path / "mirror"
    (root / "fow").mkdir(parents=True)
    (root / "ygo").mkdir()
    (root / "fow" / "cards.json").write_text(fowsim_json("Bright Knight", "Dark Knight"))
    make_cdb(root / "ygo" / "cards.cdb", [(63977008, 0, 0x1 | 0x20 | 0x1000, 3, 0x8, 0x8, "Junk Synchron")])
    make_cdb(root / "ygo" / "cards-ja.cdb", [(63977008, 0, 0x1 | 0x20 | 0x1000, 3, 0x8, 0x8, "ジャンク・シンクロン")])
    (root / "ygo" / "lflist.conf").write_text(LFLIST)
    return root


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the mirror folder; ``server.faults`` maps a path to a made-up misbehaviour."""

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        self.server.seen.append(self.path)
        path = self.path.split("://", 1)[-1].split("/", 1)[-1] if "://" in self.path else self.path.lstrip("/")
        fault = self.server.faults.get("/" + path)
        if fault == "cut":
            body = (Path(self.directory) / path).read_bytes()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body) + 1000))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        if fault == "html":
            body = b"<!DOCTYPE html><html><body><h1>Rate limit exceeded</h1></body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")  # said to be plain: the content tells
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if fault == "stall":
            self.send_response(200)
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.wfile.write(b"x" * 1000)
            self.wfile.flush()
            self.server.stalled.set()
            time.sleep(5)
            return
        if fault == "slow":  # a large file in small pieces, for the progress bar and for interrupting
            self.send_response(200)
            self.send_header("Content-Length", str(200 * 4096))
            self.end_headers()
            for _ in range(200):
                self.wfile.write(b"[" * 4096)
                self.wfile.flush()
                time.sleep(0.005)
            return
        self.path = "/" + path
        super().do_GET()


@pytest.fixture
def serve():
    """``serve(folder, faults={})`` -> base URL of a local HTTP server over ``folder``."""
    servers = []

    def start(folder: Path, faults: dict | None = None) -> str:
        handler = lambda *a, **k: _Handler(*a, directory=str(folder), **k)  # noqa: E731
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        server.daemon_threads = True
        server.faults, server.seen, server.stalled = faults or {}, [], threading.Event()
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def snapshot(folder: Path) -> dict[str, str]:
    """Every file beside (and in) the catalog's folder, with the sha256 of its content."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(folder.rglob("*"))}


@pytest.fixture
def catalog(tmp_path, mirror, serve):
    """A catalog already holding the made-up Force of Will data (what a failed fetch must keep)."""
    db = tmp_path / "cat" / "catalog.sqlite3"
    assert run("catalog", "fetch", "fow", "--source", serve(mirror), "--catalog", db).exit_code == 0
    return db


# -- what a fetch brings ------------------------------------------------------------------------

def test_fetch_imports_every_file_of_a_game_and_records_where_each_came_from(tmp_path, mirror, serve):
    base = serve(mirror)
    db = tmp_path / "catalog.sqlite3"
    result = run("catalog", "fetch", "ygo", "--locale", "ja", "--source", base, "--catalog", db)
    assert result.exit_code == 0, result.output
    assert "imported 2 records from 2 file(s) and 2 Forbidden/Limited lists" in result.stdout
    for role in ("ygo/cards.cdb", "ygo/cards-ja.cdb", "ygo/lflist.conf"):
        digest = hashlib.sha256((mirror / role).read_bytes()).hexdigest()
        assert f"fetched {base}/{role} ({(mirror / role).stat().st_size:,} bytes, sha256 {digest})" in result.stderr
    info = run("catalog", "info", "--catalog", db).stdout
    cdb = mirror / "ygo" / "cards.cdb"
    assert (f"source: ygopro {base}/ygo/cards.cdb (en; 1 records, {cdb.stat().st_size:,} bytes, "
            f"sha256 {hashlib.sha256(cdb.read_bytes()).hexdigest()}, fetched ") in info
    assert f"source: ygopro {base}/ygo/cards-ja.cdb (ja; 1 records" in info and f"lists: {base}/ygo/lflist.conf (" in info
    assert "as ygo/lflist.conf)" in info
    # the cards, both languages, and the lists are there: a Japanese list is checked against the list in force
    deck = tmp_path / "d.txt"
    deck.write_text("メインデッキ\n3 ジャンク・シンクロン\n")
    doc = json.loads(run("check", deck, "-f", "ygo-5ds", "--catalog", db, "--as-of", "2012-01-01", "-o", "json").stdout)
    assert doc["decks"][0]["banlist"] == "2011.9.1"
    assert [v["code"] for v in doc["decks"][0]["violations"]] == ["FC101", "FC601"]  # 3 cards in the main deck; limited to 1
    # the JSON report names the catalog and the data it was judged by
    sources = doc["summary"]["catalog_sources"]
    assert [(s["address"], s["role"], s["via"]) for s in sources] == [
        (f"{base}/ygo/cards.cdb", "ygo/cards.cdb", "fetch"), (f"{base}/ygo/cards-ja.cdb", "ygo/cards-ja.cdb", "fetch"),
        (f"{base}/ygo/lflist.conf", "ygo/lflist.conf", "fetch")]
    assert sources[0]["size"] == cdb.stat().st_size and sources[0]["sha256"] == hashlib.sha256(cdb.read_bytes()).hexdigest()
    assert all(s["catalog"] == str(db) for s in sources)
    stats = json.loads(run("stats", deck, "-f", "ygo-5ds", "--catalog", db, "-o", "json").stdout)
    assert stats["summary"]["catalog_sources"] == sources  # stats names the data it read by, as check does


def test_a_mirror_folder_is_a_source_too_and_fetching_again_replaces_the_files_of_another_address(tmp_path, mirror, serve):
    db = tmp_path / "catalog.sqlite3"
    assert run("catalog", "fetch", "fow", "--source", mirror, "--catalog", db).exit_code == 0
    info = run("catalog", "info", "--catalog", db).stdout
    assert f"source: fowsim {mirror / 'fow' / 'cards.json'} (en; 2 records" in info and "fow: 2 cards" in info
    (mirror / "fow" / "cards.json").write_text(fowsim_json("Bright Knight", "Dark Knight", "Grey Knight"))
    base = serve(mirror)
    assert run("catalog", "fetch", "fow", "--source", base, "--catalog", db).exit_code == 0
    info = run("catalog", "info", "--catalog", db).stdout
    assert "fow: 3 cards" in info and f"source: fowsim {base}/fow/cards.json (en; 3 records" in info
    assert str(mirror / "fow" / "cards.json") not in info  # the earlier fetch's records are gone, not merged in twice


def test_the_default_addresses_are_the_public_sources():
    assert [s.address for s in fetch.plan("fow")] == ["https://raw.githubusercontent.com/Force-of-Wind/fowsim/main/cardDatabase/static/cards.json"]
    assert [(s.role, s.address, s.locale) for s in fetch.plan("ygo", ["ja", "ja-JP"])] == [
        ("ygo/cards.cdb", "https://raw.githubusercontent.com/ProjectIgnis/BabelCDB/master/cards.cdb", "en"),
        ("ygo/cards-ja.cdb", "https://raw.githubusercontent.com/mycard/ygopro-database/master/locales/ja-JP/cards.cdb", "ja"),
        ("ygo/lflist.conf", "https://raw.githubusercontent.com/Fluorohydride/ygopro/master/lflist.conf", "en"),
    ]
    assert [s.address for s in fetch.plan("ygo", base="https://mirror.example/cards/")] == [
        "https://mirror.example/cards/ygo/cards.cdb", "https://mirror.example/cards/ygo/lflist.conf"]
    text = run("catalog", "fetch", "--help").stdout
    for where in ("Force-of-Wind/fowsim (AGPL-3.0)", "ProjectIgnis/BabelCDB", "mycard/ygopro-database", "Fluorohydride/ygopro (GPL-2.0)"):
        assert where in " ".join(text.split())


@pytest.mark.parametrize("args, message", [
    (["fow", "--locale", "ja"], "--locale: the Force of Will card data (fowsim) has English names only; locales are for ygo"),
    (["ygo", "--locale", "xx"], "--locale xx: no public YGOPro database in that language is known"),
    (["ygo", "--locale", "12"], "--locale '12' is not a language code"),
    (["mtg"], "no game 'mtg' to fetch (games: fow, ygo)"),
    (["fow", "--source", "no/such/mirror"], "--source no/such/mirror: no such folder"),
])
def test_what_cannot_be_fetched_is_one_line_before_anything_is_downloaded(tmp_path, args, message):
    result = run("catalog", "fetch", *args, "--catalog", tmp_path / "c.db")
    assert result.exit_code == 2 and message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "c.db").exists()


# -- failures leave the catalog as it was ---------------------------------------------------------

@pytest.mark.parametrize("fault, role, message", [
    ("cut", "fow/cards.json", "/fow/cards.json: the download was cut short ("),
    ("html", "fow/cards.json", "/fow/cards.json: the server sent an HTML page, not the fow/cards.json file (an error or sign-in page?)"),
    ("html", "ygo/lflist.conf", "/ygo/lflist.conf: the server sent an HTML page, not the ygo/lflist.conf file"),
    ("cut", "ygo/cards-ja.cdb", "/ygo/cards-ja.cdb: the download was cut short ("),
])
def test_a_download_cut_short_or_an_html_page_leaves_the_catalog_as_it_was(tmp_path, mirror, serve, catalog, fault, role, message):
    before = snapshot(catalog.parent)
    base = serve(mirror, {"/" + role: fault})
    game = role.split("/")[0]
    result = run("catalog", "fetch", game, "--locale", "ja", "--source", base, "--catalog", catalog) if game == "ygo" else \
        run("catalog", "fetch", game, "--source", base, "--catalog", catalog)
    assert result.exit_code == 2 and result.stdout == ""
    [line] = [ln for ln in result.stderr.splitlines() if ln.startswith("forcecheck: error:")]
    assert f"forcecheck: error: {base}" in line and message in line and line.endswith("; nothing was imported (the catalog was not changed)")
    assert snapshot(catalog.parent) == before  # the catalog byte for byte, and no download folder left beside it
    assert "fow: 2 cards" in run("catalog", "info", "--catalog", catalog).stdout


def test_a_file_of_the_wrong_kind_is_refused_by_name(tmp_path, mirror, serve, catalog):
    (mirror / "ygo" / "cards.cdb").write_text(fowsim_json("Not A Database"))
    (mirror / "fow" / "cards.json").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    base = serve(mirror)
    before = snapshot(catalog.parent)
    result = run("catalog", "fetch", "ygo", "--source", base, "--catalog", catalog)
    assert result.exit_code == 2
    assert (f"forcecheck: error: {base}/ygo/cards.cdb: not the ygo/cards.cdb file: not a YGOPro card database (not an SQLite file); "
            "nothing was imported (the catalog was not changed)") in result.stderr
    result = run("catalog", "fetch", "fow", "--source", base, "--catalog", catalog)
    assert result.exit_code == 2 and f"{base}/fow/cards.json: not the fow/cards.json file: not JSON text" in result.stderr
    (mirror / "ygo" / "cards.cdb").unlink()
    make_cdb(mirror / "ygo" / "cards.cdb", [(63977008, 0, 0x21, 3, 0x8, 0x8, "Junk Synchron")])
    (mirror / "ygo" / "lflist.conf").write_text('{"banned": [{"id": "X", "name": "Y"}]}')  # a Force of Will list where an lflist belongs
    result = run("catalog", "fetch", "ygo", "--source", base, "--catalog", catalog)
    assert result.exit_code == 2 and f"{base}/ygo/lflist.conf: not the ygo/lflist.conf file: not an lflist.conf" in result.stderr
    (mirror / "ygo" / "lflist.conf").write_text("!2011.9.1\n63977008 1\nJunk Synchron 0\n")  # a list with a line it cannot read
    result = run("catalog", "fetch", "ygo", "--source", base, "--catalog", catalog)
    assert result.exit_code == 2 and (f"{base}/ygo/lflist.conf: not the ygo/lflist.conf file: list '2011.9.1' cannot be applied: "
                                      "not 'passcode count': 'Junk Synchron 0'") in result.stderr
    assert snapshot(catalog.parent) == before


def test_an_unreachable_source_a_missing_file_and_a_silent_server_are_one_line_each(tmp_path, mirror, serve, catalog):
    before = snapshot(catalog.parent)
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{probe.getsockname()[1]}"
    result = run("catalog", "fetch", "fow", "--source", closed, "--catalog", catalog)
    assert result.exit_code == 2 and result.stderr.startswith(f"forcecheck: error: {closed}/fow/cards.json: cannot reach it (")
    # offline is no dead end (issue 39.2): the file's address, the import command and the mirror folder --source reads
    assert result.stderr.rstrip("\n").endswith(
        f"to go on without this network, download the files on a machine that has one (fow/cards.json from {closed}/fow/cards.json), "
        "then import them with 'forcecheck catalog import fowsim cards.json', or put them in a folder as fow/cards.json and run "
        "'forcecheck catalog fetch fow --source FOLDER'") and result.stderr.count("\n") == 1
    (mirror / "fow" / "cards.json").unlink()
    base = serve(mirror)
    result = run("catalog", "fetch", "fow", "--source", base, "--catalog", catalog)
    assert result.exit_code == 2 and f"{base}/fow/cards.json: the server answered HTTP 404 File not found" in result.stderr
    result = run("catalog", "fetch", "fow", "--source", mirror, "--catalog", catalog)
    assert result.exit_code == 2 and f"{mirror / 'fow' / 'cards.json'}: no such file in the mirror" in result.stderr
    (mirror / "fow" / "cards.json").write_text(fowsim_json("A"))
    base = serve(mirror, {"/fow/cards.json": "stall"})
    started = time.monotonic()
    result = run("catalog", "fetch", "fow", "--source", base, "--catalog", catalog, "--timeout", "0.5")
    assert result.exit_code == 2 and f"{base}/fow/cards.json: no answer within 0.5 s (--timeout)" in result.stderr
    assert time.monotonic() - started < 4
    assert snapshot(catalog.parent) == before


def test_pins_take_the_pinned_file_and_refuse_a_changed_one_naming_it(tmp_path, mirror, serve, catalog):
    base = serve(mirror)
    pinned = hashlib.sha256((mirror / "fow" / "cards.json").read_bytes()).hexdigest()
    config = tmp_path / "fc.yaml"
    config.write_text(f"catalog: {catalog}\npins:\n  fow/cards.json: {pinned}\n")
    assert run("catalog", "fetch", "fow", "--source", base, "--config", config).exit_code == 0
    (mirror / "fow" / "cards.json").write_text(fowsim_json("Bright Knight", "Dark Knight", "Changed Knight"))
    changed = hashlib.sha256((mirror / "fow" / "cards.json").read_bytes()).hexdigest()
    before = snapshot(catalog.parent)
    result = run("catalog", "fetch", "fow", "--source", base, "--config", config)
    assert result.exit_code == 2
    assert (f"forcecheck: error: {base}/fow/cards.json: the file changed: its sha256 is {changed}, the pin for fow/cards.json "
            f"in pins ({config}:2) is {pinned}") in result.stderr
    assert snapshot(catalog.parent) == before and "fow: 2 cards" in run("catalog", "info", "--catalog", catalog).stdout
    config.write_text(f"catalog: {catalog}\npins:\n  fow/cards.json: {changed.upper()}\n")  # the new pin (either case) takes it
    assert run("catalog", "fetch", "fow", "--source", base, "--config", config).exit_code == 0
    assert "fow: 3 cards" in run("catalog", "info", "--catalog", catalog).stdout


@pytest.mark.parametrize("pins, message", [
    ("  fow/cards.txt: " + "0" * 64, "pins: 'fow/cards.txt' is not a file catalog fetch imports"),
    ("  fow/cards.json: abc", "pins: fow/cards.json: 'abc' is not a sha256 (64 hexadecimal digits)"),
])
def test_a_pin_that_is_no_pin_is_a_configuration_error(tmp_path, pins, message):
    config = tmp_path / "fc.yaml"
    config.write_text("pins:\n" + pins + "\n")
    result = run("catalog", "fetch", "fow", "--config", config, "--catalog", tmp_path / "c.db")
    assert result.exit_code == 2 and message in result.stderr and f"{config}:2" in result.stderr


# -- the network as the environment sets it, terminals and interruptions --------------------------

def _with_default_interrupt() -> None:
    """In the child before it runs: Ctrl-C's signal as a terminal delivers it. A test run started
    in the background of a shell without job control (``pytest &``, nohup, some CI runners)
    ignores SIGINT, children inherit that, and Python then installs no handler: the interrupt
    test's SIGINT did nothing and the fetch ended later on its own (the test's rare failure,
    exit 2 for 130)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _fetch_process(args, env=None, **kwargs):
    return subprocess.Popen([sys.executable, "-m", "forcecheck", "catalog", "fetch", *map(str, args)],
                            env={**os.environ, **(env or {})}, cwd=ROOT, preexec_fn=_with_default_interrupt, **kwargs)


def test_proxies_come_from_the_environment(tmp_path, mirror, serve):
    """The source's host does not exist; the proxy the environment names serves it."""
    proxy = serve(mirror)
    db = tmp_path / "c.db"

    def fetch_with(env: dict, catalog: Path) -> subprocess.CompletedProcess:
        args = [sys.executable, "-m", "forcecheck", "catalog", "fetch", "fow", "--source", "http://cards.invalid", "--catalog", str(catalog)]
        return subprocess.run(args, env={**os.environ, "no_proxy": "", "NO_PROXY": "", **env}, cwd=ROOT, capture_output=True, text=True)

    done = fetch_with({"http_proxy": proxy, "HTTP_PROXY": proxy}, db)
    assert done.returncode == 0, done.stderr
    assert "source: fowsim http://cards.invalid/fow/cards.json" in run("catalog", "info", "--catalog", db).stdout
    done = fetch_with({"http_proxy": "", "HTTP_PROXY": ""}, tmp_path / "other.db")  # without the proxy: the host does not exist
    assert done.returncode == 2 and "http://cards.invalid/fow/cards.json: cannot reach it" in done.stderr


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name == "nt", reason="POSIX signals")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_fetch_leaves_no_temporary_file_and_the_catalog_as_it_was(tmp_path, mirror, serve, catalog, sig):
    before = snapshot(catalog.parent)
    base = serve(mirror, {"/ygo/lflist.conf": "stall"})  # the databases are in; the list stalls half-way
    process = _fetch_process(["ygo", "--source", base, "--catalog", catalog], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 20
    while not list(catalog.parent.glob(".*.fetch-*/ygo__lflist.conf")) and time.monotonic() < deadline:  # downloading it
        time.sleep(0.05)
    assert list(catalog.parent.glob(".*.fetch-*/ygo__cards.cdb")), "the first file was downloaded beside the catalog"
    time.sleep(0.2)
    process.send_signal(sig)
    _out, err = process.communicate(timeout=20)
    assert process.returncode == 130 and "forcecheck: interrupted" in err and "Traceback" not in err
    assert snapshot(catalog.parent) == before


def test_a_download_folder_a_killed_fetch_left_is_removed_by_the_next(tmp_path, mirror, catalog):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True).stdout.strip()
    leftover = catalog.parent / f".{catalog.name}.fetch-{dead}"
    leftover.mkdir()
    (leftover / "fow__cards.json").write_text("half")
    assert run("catalog", "fetch", "fow", "--source", mirror, "--catalog", catalog).exit_code == 0
    assert not leftover.exists()


@pytest.mark.skipif(os.name == "nt", reason="a pseudo-terminal")
def test_a_progress_bar_on_a_terminal_and_none_in_a_log(tmp_path, mirror, serve):
    import pty

    base = serve(mirror, {"/fow/cards.json": "slow"})  # 800 KiB in small pieces (not card data: the bar is what is looked at)
    leader, follower = pty.openpty()
    process = _fetch_process(["fow", "--source", base, "--catalog", tmp_path / "c.db"], {"COLUMNS": "120", "TERM": "xterm"},
                             stdout=subprocess.PIPE, stderr=follower)
    os.close(follower)
    seen = b""
    while True:
        try:
            piece = os.read(leader, 4096)
        except OSError:
            break
        if not piece:
            break
        seen += piece
    process.wait(timeout=30)
    os.close(leader)
    shown = seen.decode("utf-8", "replace")
    assert "fow/cards.json" in shown and "━" in shown and "/819.2 kB" in shown  # rich's bar and the bytes of the total
    logged = subprocess.run([sys.executable, "-m", "forcecheck", "catalog", "fetch", "fow", "--source", base, "--catalog",
                             str(tmp_path / "d.db")], cwd=ROOT, capture_output=True, text=True)
    assert "━" not in logged.stderr and "\x1b[" not in logged.stderr and "not the fow/cards.json file" in logged.stderr


# -- the real data, through a local HTTP mirror of ../shared ---------------------------------------

@needs_shared
def test_a_mirror_of_the_shared_data_fetches_real_card_data_a_real_deck_is_checked_by(tmp_path, serve):
    root = tmp_path / "mirror"
    (root / "fow").mkdir(parents=True)
    (root / "ygo").mkdir()
    data = SHARED / "data"
    shutil.copyfile(data / "fow" / "fowsim-cards.json", root / "fow" / "cards.json")
    shutil.copyfile(data / "ygo" / "cards.cdb", root / "ygo" / "cards.cdb")
    shutil.copyfile(data / "ygo" / "cards-ja.cdb", root / "ygo" / "cards-ja.cdb")
    shutil.copyfile(data / "ygo" / "lflist" / "fluorohydride_ygopro_HEAD_lflist.conf", root / "ygo" / "lflist.conf")
    base = serve(root)
    db = tmp_path / "catalog.sqlite3"
    result = run("catalog", "fetch", "fow", "--source", base, "--catalog", db)
    assert result.exit_code == 0 and "imported 5,340 records from 1 file(s)" in result.stdout
    result = run("catalog", "fetch", "ygo", "--locale", "ja", "--source", base, "--catalog", db)
    assert result.exit_code == 0 and "and 102 Forbidden/Limited lists" in result.stdout
    assert "names: en 10,450 cards, ja 10,307 cards" in result.stdout
    # the sample's Faria deck reads every card in the real data; the OCG list in force on a 2011 date is chosen
    doc = json.loads(run("check", SAMPLES / "bifrost" / "legal-faria-stranger.txt", "-f", "bifrost", "--catalog", db, "-o", "json").stdout)
    assert not [v for v in doc["decks"][0]["violations"] if v["code"] == "FC001"]
    assert {s["address"] for s in doc["summary"]["catalog_sources"]} == {f"{base}/{r}" for r in
                                                                         ("fow/cards.json", "ygo/cards.cdb", "ygo/cards-ja.cdb", "ygo/lflist.conf")}
    doc = json.loads(run("check", SAMPLES / "ygo-5ds" / "legal-synchro.ydk", "-f", "ygo-5ds", "--catalog", db, "--as-of", "2011-10-01", "-o", "json").stdout)
    assert doc["decks"][0]["banlist"] == "2011.9.1" and doc["decks"][0]["banlist_reason"] == "the latest imported list in force on 2011-10-01"


def test_the_mirror_is_a_setting_too(tmp_path, mirror, serve):
    """--source, else FORCECHECK_FETCH_SOURCE, else the configuration's fetch_source (a folder relative to it)."""
    base = serve(mirror)
    db = tmp_path / "c.db"
    assert run("catalog", "fetch", "fow", "--catalog", db, env={"FORCECHECK_FETCH_SOURCE": base}).exit_code == 0
    assert f"source: fowsim {base}/fow/cards.json" in run("catalog", "info", "--catalog", db).stdout
    config = tmp_path / "fc.yaml"
    config.write_text("fetch_source: mirror\n")
    assert run("catalog", "fetch", "fow", "--catalog", db, "--config", config).exit_code == 0
    assert f"source: fowsim {mirror / 'fow' / 'cards.json'}" in run("catalog", "info", "--catalog", db).stdout
    result = run("catalog", "fetch", "fow", "--catalog", db, "--config", config, "--source", tmp_path / "nowhere")
    assert result.exit_code == 2 and f"--source {tmp_path / 'nowhere'}: no such folder" in result.stderr
    assert "fetch_source" in run("config", "show", "--config", config).stdout


def test_a_file_imported_by_hand_is_recorded_too_and_an_older_catalog_reads_without_provenance(tmp_path, mirror):
    import sqlite3

    db = tmp_path / "c.db"
    source = mirror / "fow" / "cards.json"
    assert run("catalog", "import", "fowsim", source, "--catalog", db).exit_code == 0
    assert run("banlist", "import", mirror / "ygo" / "lflist.conf", "--catalog", db).exit_code == 0
    info = run("catalog", "info", "--catalog", db).stdout
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    assert f"source: fowsim {source} (en; 2 records, {source.stat().st_size:,} bytes, sha256 {digest}, imported " in info
    assert f"lists: {mirror / 'ygo' / 'lflist.conf'} (" in info
    deck = tmp_path / "d.txt"
    deck.write_text("Ruler: Bright Knight\n")
    doc = json.loads(run("check", deck, "-f", "bifrost", "--catalog", db, "-o", "json").stdout)
    assert [(s["address"], s["via"], s["role"]) for s in doc["summary"]["catalog_sources"]] == [
        (str(source), "import", "file"), (str(mirror / "ygo" / "lflist.conf"), "import", "file")]
    with sqlite3.connect(db) as conn:  # a catalog made before provenance was recorded
        conn.execute("DROP TABLE provenance")
    info = run("catalog", "info", "--catalog", db).stdout
    assert f"source: fowsim {source} (en; 2 records, imported " in info and "bytes" not in info
    assert json.loads(run("check", deck, "-f", "bifrost", "--catalog", db, "-o", "json").stdout)["summary"]["catalog_sources"] == []
