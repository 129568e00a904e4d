"""The README's examples run exactly as written: every command of its shell blocks, and what its
console blocks show a command print. The commands run in a fresh process with the installed
``forcecheck``; the files they name are laid out in a sandbox first. Examples that need a real
card database take it from ../shared and are skipped without it. The README is short (at most
400 lines) and sends the reader into the documentation (docs/, tests/test_docs.py runs its
pages' examples with the helpers below): every link it gives leads to a file that exists."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CJK_FONT_ADVICE, ROOT, SAMPLES, SHARED, faria, has_cjk_font, is_usage_error

README = (ROOT / "README.md").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent
LFLIST_2011 = SHARED / "data" / "ygo" / "lflist" / "fluorohydride_ygopro_47d1185_2012-02-17_lflist.conf"  # holds !2011.3.1
REAL_DATA = {
    "cards.json": SHARED / "data" / "fow" / "fowsim-cards.json",
    "cards.cdb": SHARED / "data" / "ygo" / "cards.cdb",
    "cards-ja.cdb": SHARED / "data" / "ygo" / "cards-ja.cdb",
    "lflist.conf": LFLIST_2011,
    "wanderer-list.json": SHARED / "data" / "fow" / "fowsim-wanderer-banlist.json",
    "GOAT.lflist.conf": SHARED / "data" / "ygo" / "lflist" / "projectignis_GOAT.lflist.conf",
    "EDISON.lflist.conf": SHARED / "data" / "ygo" / "lflist" / "projectignis_EDISON_2010.3_whitelist.lflist.conf",
}


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, flags=re.MULTILINE | re.DOTALL)


def environment(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FORCECHECK_", "GITHUB_"))}
    env.update(PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}", XDG_DATA_HOME=str(home / "xdg"), HOME=str(home), COLUMNS="120")
    env["FORCECHECK_CACHE_DIR"] = os.environ.get("FORCECHECK_CACHE_DIR", str(home / "cache"))
    env.update(extra)
    return env


def sh(line: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-e", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False)


def commands(block: str) -> list[str]:
    """The forcecheck commands of a shell block, as written (pip and pytest steps left out, and
    ``forcecheck serve``, a server that runs until stopped: tests/test_serve_cli.py starts it)."""
    out = []
    for line in block.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        for part in line.split("&&"):
            if re.match(r"\s*(forcecheck|python3 -m forcecheck)\b", part) and not re.match(r"\s*forcecheck serve\b", part):
                out.append(part.strip())
    return out


def sandbox(root: Path) -> Path:
    """The files the README's commands name, laid out as a new user would have them."""
    work = root / "work"
    (work / "decks").mkdir(parents=True)
    (work / "submissions").mkdir()
    (work / "sample_decks").symlink_to(SAMPLES)
    shutil.copy(SAMPLES / "bifrost" / "legal-faria-stranger.txt", work / "my_deck.txt")
    shutil.copy(SAMPLES / "bifrost" / "legal-faria-stranger.txt", work / "deck.txt")
    shutil.copy(SAMPLES / "bifrost" / "legal-atom-runes.yaml", work / "deck.yaml")
    shutil.copy(SAMPLES / "ygo-5ds" / "legal-synchro.ydk", work / "deck.ydk")
    (work / "decks" / "faria.txt").write_text(faria())
    for player in ("Ann", "Bob"):
        (work / "submissions" / f"{player.lower()}.txt").write_text(f"# Player: {player}\n" + faria())
    (work / "registered.txt").write_text(faria())
    (work / "played.txt").write_text(faria())
    for name, source in REAL_DATA.items():
        if source.is_file():
            (work / name).symlink_to(source)
    return work


SHELL_BLOCKS = [b for b in blocks("sh") if commands(b)]
NEEDS_REAL_DATA = ("cards.cdb", "cards.json", "lflist.conf", "wanderer-list.json", "2011.3.1")
"""A block naming these works on a real catalog: it imports one, or was written after the
README's import examples and uses what they imported."""


@pytest.fixture(scope="module")
def imported_catalog(tmp_path_factory):
    """A catalog with the real Force of Will and Yu-Gi-Oh! cards and the 2011.3.1 list, as the
    README's import commands leave it (built once for the blocks that come after them)."""
    missing = [str(p) for p in REAL_DATA.values() if not p.is_file()]
    if missing:
        pytest.skip(f"needs real card data from ../shared, absent here: {', '.join(missing)}")
    from forcecheck.importers.pipeline import import_banlists, import_files

    db = tmp_path_factory.mktemp("catalog") / "catalog.sqlite3"
    import_files("fowsim", [REAL_DATA["cards.json"]], db)
    import_files("ygopro", [REAL_DATA["cards.cdb"]], db)
    import_banlists([REAL_DATA["lflist.conf"]], db)
    return db


@pytest.fixture(scope="module")
def fetch_mirror(tmp_path_factory):
    """The public card data's mirror, served over HTTP from ../shared (this machine has no open
    internet): what the README's 'catalog fetch' commands download, FORCECHECK_FETCH_SOURCE naming it."""
    import http.server
    import threading

    files = {"fow/cards.json": REAL_DATA["cards.json"], "ygo/cards.cdb": REAL_DATA["cards.cdb"],
             "ygo/cards-ja.cdb": REAL_DATA["cards-ja.cdb"], "ygo/lflist.conf": SHARED / "data" / "ygo" / "lflist" / "fluorohydride_ygopro_HEAD_lflist.conf"}
    missing = [str(p) for p in files.values() if not p.is_file()]
    if missing:
        pytest.skip(f"needs real card data from ../shared, absent here: {', '.join(missing)}")
    root = tmp_path_factory.mktemp("mirror")
    for role, source in files.items():
        (root / role).parent.mkdir(exist_ok=True)
        (root / role).symlink_to(source)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), lambda *a, **k: Quiet(*a, directory=str(root), **k))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("block", SHELL_BLOCKS, ids=[commands(b)[0][:60] for b in SHELL_BLOCKS])
def test_every_readme_command_runs_as_written(tmp_path, block, request):
    run_shell_block(block, tmp_path, request)


CONSOLE_BLOCKS = blocks("console")


@pytest.mark.parametrize("block", CONSOLE_BLOCKS, ids=[b.splitlines()[0][2:60] for b in CONSOLE_BLOCKS])
def test_what_the_readme_shows_a_command_print_is_what_it_prints(tmp_path, block):
    """A console block's ``$ forcecheck ...`` lines print what is shown under them, as the
    documentation's console blocks do (tests/test_docs.py: COLUMNS=100, no colour)."""
    from test_docs import _run_for_output, console_runs

    runs = console_runs(block)
    assert runs and all(command.startswith("forcecheck ") for command, _ in runs)
    for i, (command, shown) in enumerate(runs):
        assert _run_for_output(command, tmp_path / str(i)) == shown, f"README: $ {command}"


def test_the_readme_is_short_and_its_links_lead_somewhere():
    """At most 400 lines; every relative link is a file of the repository (docs/ pages and their
    anchors are checked by mkdocs build --strict), and the site's address is forcecheck.DOCS_URL."""
    from forcecheck import DOCS_URL

    assert len(README.splitlines()) <= 400
    links = re.findall(r"\]\(([^)\s]+)\)", README)
    local = [link.split("#")[0] for link in links if not re.match(r"[a-z]+:", link)]
    assert "docs/index.md" in local and "docs/desk.md" in local and "CHANGELOG.md" in local
    assert [link for link in local if not (ROOT / link).is_file()] == []
    assert f"<{DOCS_URL}>" in README
    assert all(link.startswith(DOCS_URL) for link in links if link.startswith("https://forcecheck."))


NEEDS_EXTRA = {"forcecheck sheet": ("sheets", "fpdf"), "forcecheck serve": ("web", "fastapi")}
"""Commands that need an optional extra: (the extra, a module it installs)."""


def run_shell_block(block: str, tmp_path: Path, request) -> None:
    """Every forcecheck command of a shell block, run in a sandbox as a new user would (the
    documentation's pages are run by tests/test_docs.py the same way)."""
    work = sandbox(tmp_path)
    env = environment(tmp_path)
    if "catalog fetch" in block:
        env["FORCECHECK_FETCH_SOURCE"] = request.getfixturevalue("fetch_mirror")
    if any(word in block for word in NEEDS_REAL_DATA):
        catalog = request.getfixturevalue("imported_catalog")
        (tmp_path / "xdg" / "forcecheck").mkdir(parents=True)
        shutil.copy(catalog, tmp_path / "xdg" / "forcecheck" / "catalog.sqlite3")  # the per-user catalog
    for command in commands(block):
        done = sh(command, work, env)
        said = done.stdout + done.stderr
        extra = next((name for start, (name, module) in NEEDS_EXTRA.items()
                      if command.startswith(start) and importlib.util.find_spec(module) is None), None)
        if extra is not None:  # CI's lowest-versions step installs no extras: the command says which to install
            assert done.returncode == 2 and f"needs the {extra} extra" in done.stderr, f"{command}\n{said}"
            continue
        if command.startswith("forcecheck sheet") and not command.isascii() and not has_cjk_font():
            # a machine without a CJK font (.ci/run installs one): the sheet is refused with the package to install
            assert done.returncode == 2 and CJK_FONT_ADVICE in done.stderr, f"{command}\n{said}"
            continue
        assert done.returncode in (0, 1), f"{command}\n-> exit {done.returncode}\n{said}"
        assert "Traceback" not in said and not is_usage_error(done.stderr), f"{command}\n{said}"
        if command.startswith("forcecheck check") and ("--banlist \"2011.3.1\"" in command or "--as-of 2011-06-01" in command):
            assert "banlist 2011.3.1" in done.stdout, f"{command}\n{said}"
        if command.startswith("forcecheck register"):
            assert (work / "reg" / "registrations.csv").is_file() and (work / "reg" / "registrations.json").is_file()
        if command.startswith("forcecheck catalog show"):
            assert done.returncode == 0, said
        if command.startswith("forcecheck catalog fetch"):
            assert done.returncode == 0 and f"fetched {env['FORCECHECK_FETCH_SOURCE']}/" in done.stderr, said


def check_commands_table(text: str) -> None:
    """A page's table of commands (``| command | options |``) lists each command's options, and
    no others (-h/--help and -V/--version, which every command takes, apart)."""
    import typer.main

    from forcecheck.cli import app
    from forcecheck.cli.application import HIDDEN_ALIASES

    start = text.index("| command | options |")
    table = text[start : text.index("\n\n", start)]
    documented = {}
    for row in table.splitlines()[2:]:
        command, options = [c.strip() for c in row.strip("|").split("|")]
        words = [w for w in command.strip("`").split() if w.islower()]
        documented[" ".join(words)] = set(re.findall(r"--[a-z-]+", options))
    group = typer.main.get_command(app)
    actual = {}
    for name, command in group.commands.items():
        leaves = command.commands.items() if hasattr(command, "commands") else [(None, command)]
        for leaf, cmd in leaves:
            options = {
                o for p in cmd.params if p.param_type_name == "option" and not p.hidden
                for i, o in enumerate(p.opts) if o.startswith("--") and not (i and o in HIDDEN_ALIASES)  # an old name, not in help
            }
            actual[f"{name} {leaf}" if leaf else name] = options - {"--help"}
    assert documented == actual


def run_configuration_and_workflow(config: str, workflow_text: str, tmp_path: Path) -> None:
    """The example configuration and GitHub Actions workflow, as written, in a mixed-game
    repository (the documentation's CI and Configuration pages show them too)."""
    missing = [str(p) for p in REAL_DATA.values() if not p.is_file()]
    if missing:
        pytest.skip(f"needs real card data from ../shared, absent here: {', '.join(missing)}")
    import yaml

    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "team-formats").mkdir()
    (repo / ".forcecheck.yaml").write_text(config, encoding="utf-8")
    decks = repo / "decks"
    (decks / "abc").mkdir(parents=True)
    (decks / "ygo").mkdir()
    shutil.copy(SAMPLES / "bifrost" / "legal-faria-stranger.txt", decks / "faria.txt")
    shutil.copy(SAMPLES / "abc" / "legal-official-wb-holy-protector.txt", decks / "abc" / "holy-protector.txt")
    shutil.copy(SAMPLES / "ygo-5ds" / "legal-synchro.ydk", decks / "ygo" / "synchro.ydk")
    sources = repo / "cards" / "sources"
    sources.mkdir(parents=True)
    (sources / "fowsim-cards.json").symlink_to(REAL_DATA["cards.json"])
    (sources / "cards.cdb").symlink_to(REAL_DATA["cards.cdb"])
    (sources / "lflist.conf").symlink_to(REAL_DATA["lflist.conf"])

    workflow = yaml.safe_load(workflow_text)
    steps = [s for s in workflow["jobs"]["forcecheck"]["steps"] if "run" in s and "pip install" not in s["run"]]
    summary = tmp_path / "step-summary.md"
    env = environment(tmp_path, GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary))
    results = []
    for step in steps:
        assert step.get("if", "always()") in ("always()", "steps.catalog.outputs.cache-hit != 'true'")  # a cache miss here
        results.append(sh(step["run"], repo, env))
    imports, check, sarif_step = results
    assert imports.returncode == 0, imports.stdout + imports.stderr
    assert (repo / "cards" / "catalog.sqlite3").is_file()  # the configuration's catalog, written by the imports
    assert "into " + str(repo / "cards" / "catalog.sqlite3") in imports.stdout

    # annotations by default here; the Force of Will decks are legal, the Yu-Gi-Oh! deck breaks the
    # configured 2011.3.1 list (stricter than today's, for which the sample deck was built)
    assert check.returncode == 1, check.stdout + check.stderr
    lines = check.stdout.splitlines()
    assert lines and all(line.startswith("::error file=decks/ygo/synchro.ydk,") for line in lines), lines
    assert any("Glow-Up Bulb is forbidden on 2011.3.1" in line for line in lines), lines
    assert "catalog: cards/catalog.sqlite3 · config: .forcecheck.yaml" in check.stderr

    assert sarif_step.returncode == 0, sarif_step.stderr
    doc = json.loads((repo / "forcecheck.sarif").read_text())
    (sarif_run,) = doc["runs"]
    properties = sarif_run["properties"]
    assert {k: properties[k] for k in ("catalog", "config", "notes")} == {"catalog": "cards/catalog.sqlite3", "config": ".forcecheck.yaml", "notes": []}
    assert properties["banlists"] == [{"format": "ygo-5ds", "banlist": "2011.3.1", "reason": f"named by {repo / '.forcecheck.yaml'}:8"}]
    assert sorted(Path(s["address"]).name for s in properties["catalog_sources"]) == sorted(
        p.resolve().name for p in (REAL_DATA["cards.json"], REAL_DATA["cards.cdb"], REAL_DATA["lflist.conf"]))  # the data it judged by
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif_run["results"]}
    assert uris == {"decks/ygo/synchro.ydk"}

    text = summary.read_text()
    assert text.count("### forcecheck: 1 of 3 decks are illegal or unreadable") == 2
    assert re.search(r"\| decks/ygo/synchro\.ydk \| ygo-5ds \| \d+ \| 0 \| FC601 \|", text), text

    # each deck got its format and only the Yu-Gi-Oh! decks the list (no note: it applies where it was set)
    report = json.loads(sh("forcecheck check decks/ -o json", repo, env).stdout)
    assert {d["path"]: (d["format"], d["banlist"]) for d in report["decks"]} == {
        "decks/abc/holy-protector.txt": ("abc", None),
        "decks/faria.txt": ("bifrost", None),
        "decks/ygo/synchro.ydk": ("ygo-5ds", "2011.3.1"),
    }
    assert report["summary"]["notes"] == [] and report["summary"]["unreadable"] == 0


def test_the_format_table_says_which_list_each_format_applies_by_default():
    """Issue 39.5: the README's format table names each format's list by default, as its spec has it:
    none without a banlist rule, the list it carries, the latest imported one in force on --as-of,
    or a list that must be imported."""
    from forcecheck.format_spec.loader import load_format

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert rows
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 4, row
        for name in re.findall(r"`([a-z0-9-]+)`", cells[0]):
            rules = [r for r in load_format(name).rules if r.kind == "banlist"]
            said = cells[3]
            if not rules:
                assert said.startswith("none"), (name, said)
            elif any(getattr(r, "required", False) for r in rules):
                assert "must be imported" in said and "without it no verdict" in said, (name, said)
            elif any(r.imported for r in rules):
                assert "latest" in said and "imported" in said and "--as-of" in said and "today" in said, (name, said)
            else:
                assert "carries" in said, (name, said)
