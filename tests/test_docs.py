"""The documentation site (mkdocs.yml, docs/): every example on its pages runs as written, the
way tests/test_readme.py runs the README's, and what a page says a command prints is what it
prints.

- ``sh`` blocks: every forcecheck command runs in a sandbox laid out as for the README
  (``test_readme.run_shell_block``: exit 0 or 1, no traceback, no usage error, the README's
  checks on catalogs, banlists and fetches);
- ``console`` blocks: ``$ forcecheck ...`` lines and the output under each, compared exactly
  (``COLUMNS=100``, no colour). ``FORCECHECK_UPDATE_DOCS=1`` rewrites the outputs: review the diff;
- a block after ``<!-- output of: COMMAND -->``: that command's output (JSON compared as data);
- ``python`` blocks run in the sandbox (their asserts are the checks);
- ``yaml`` blocks: the example configuration and workflow run together in a mixed-game repository
  (``test_readme.run_configuration_and_workflow``), a format file (``name:``) loads, a YAML
  decklist (``format:``) is read;
- the commands table of the Command line page lists each command's options;
- the site's address is one (forcecheck.DOCS_URL, mkdocs.yml, pyproject.toml);
- with the docs extra installed: the site builds with ``--strict`` and no network, every rule code
  has its anchor where SARIF's ``helpUri`` points, every format its page, and no page loads
  anything from another site.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import ROOT, SAMPLES, is_usage_error
from test_readme import (  # noqa: F401 - fixtures the shell blocks use, as the README's do
    check_commands_table,
    environment,
    fetch_mirror,
    imported_catalog,
    run_configuration_and_workflow,
    run_shell_block,
    sandbox,
    sh,
)

from forcecheck import DOCS_URL, rule_url

DOCS = ROOT / "docs"
PAGES = {str(p.relative_to(DOCS)): p.read_text(encoding="utf-8") for p in sorted(DOCS.rglob("*.md"))}
COLUMNS = "100"
FENCE = re.compile(r"^(?:<!-- output of: (?P<command>.+?) -->\n)?```(?P<language>[\w-]*)\n(?P<body>.*?)^```\n", re.MULTILINE | re.DOTALL)


def fenced(language: str):
    """(page, block, the command it is the output of or None) of every block in that language."""
    return [(page, m["body"], m["command"]) for page, text in PAGES.items() for m in FENCE.finditer(text) if m["language"] == language]


def _id(page: str, body: str) -> str:
    first = next((line for line in body.splitlines() if line.strip() and not line.startswith("#")), "")
    return f"{page}: {first[:50]}"


def test_the_pages_are_found():
    assert {"index.md", "getting-started.md", "decklists.md", "cli.md", "configuration.md", "ci.md", "registration.md",
            "desk.md", "card-data.md", "api.md", "architecture.md", "performance.md", "formats/index.md"} <= set(PAGES)
    assert len(fenced("sh")) >= 10 and len(fenced("console")) >= 5 and fenced("python")


# --- sh blocks ---------------------------------------------------------------------------------------

SHELL = [(page, body) for page, body, _ in fenced("sh") if re.search(r"^\s*(forcecheck|python3 -m forcecheck)\b", body, re.M)]


@pytest.mark.parametrize(("page", "block"), SHELL, ids=[_id(p, b) for p, b in SHELL])
def test_every_command_on_the_pages_runs_as_written(page, block, tmp_path, request):
    run_shell_block(block, tmp_path, request)


# --- console blocks: commands and what they print ---------------------------------------------------

def console_runs(body: str) -> list[tuple[str, str]]:
    """(command, output) for each ``$ `` line of a console block."""
    runs: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            runs.append((line[2:], []))
        elif runs:
            runs[-1][1].append(line)
    return [(command, "\n".join(output)) for command, output in runs]


def _run_for_output(command: str, tmp_path: Path) -> str:
    work = sandbox(tmp_path)
    env = environment(tmp_path, COLUMNS=COLUMNS, NO_COLOR="1")
    done = sh(f"{command} 2>&1", work, env)
    assert done.returncode in (0, 1, 2) and "Traceback" not in done.stdout, f"{command}\n{done.stdout}"
    return "\n".join(line.rstrip() for line in done.stdout.splitlines())


CONSOLE = fenced("console")


@pytest.mark.parametrize(("page", "block", "_"), CONSOLE, ids=[_id(p, b) for p, b, _ in CONSOLE])
def test_what_a_page_shows_a_command_print_is_what_it_prints(page, block, _, tmp_path):
    runs = console_runs(block)
    assert runs, f"{page}: a console block with no '$ ' command"
    printed = [(command, _run_for_output(command, tmp_path / str(i))) for i, (command, _) in enumerate(runs)]
    if os.environ.get("FORCECHECK_UPDATE_DOCS"):
        new = "".join(f"$ {command}\n{output}\n" for command, output in printed)
        text = (DOCS / page).read_text(encoding="utf-8")
        (DOCS / page).write_text(text.replace(f"```console\n{block}```", f"```console\n{new}```", 1), encoding="utf-8")
        return
    for (command, shown), (_, output) in zip(runs, printed):
        assert output == shown, f"{page}: $ {command}\n--- the page shows ---\n{shown}\n--- it prints ---\n{output}"


OUTPUTS = [(page, body, command) for language in ("json", "text") for page, body, command in fenced(language) if command]


@pytest.mark.parametrize(("page", "block", "command"), OUTPUTS, ids=[f"{p}: {c[:60]}" for p, _, c in OUTPUTS])
def test_an_output_a_page_shows_is_the_command_s(page, block, command, tmp_path):
    work = sandbox(tmp_path)
    done = sh(command, work, environment(tmp_path, COLUMNS=COLUMNS, NO_COLOR="1"))
    assert done.returncode in (0, 1) and not is_usage_error(done.stderr), done.stderr
    if block.lstrip().startswith("{"):
        assert json.loads(block) == json.loads(done.stdout), f"{page}: the JSON shown is not what '{command}' prints"
    else:
        assert block.rstrip("\n") == done.stdout.rstrip("\n")


# --- python blocks --------------------------------------------------------------------------------

PYTHON = fenced("python")


@pytest.mark.parametrize(("page", "block", "_"), PYTHON, ids=[_id(p, b) for p, b, _ in PYTHON])
def test_every_python_example_runs(page, block, _, tmp_path):
    work = sandbox(tmp_path)
    done = subprocess.run([sys.executable, "-c", block], cwd=work, env=environment(tmp_path), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{page}\n{done.stdout}{done.stderr}"


# --- yaml blocks -------------------------------------------------------------------------------------

def _yaml_starting(first: str) -> list[tuple[str, str]]:
    return [(page, body) for page, body, _ in fenced("yaml") if body.startswith(first)]


def test_the_configuration_and_workflow_on_the_pages_run_together(tmp_path):
    ((_, config),) = _yaml_starting("# .forcecheck.yaml\n")
    ((_, workflow),) = _yaml_starting("name: decklists\n")
    run_configuration_and_workflow(config, workflow, tmp_path)


FORMAT_FILES = [(page, body) for page, body in _yaml_starting("name: ") if "\ngame: " in body]


@pytest.mark.parametrize(("page", "block"), FORMAT_FILES, ids=lambda v: v[:40])
def test_a_format_file_on_the_pages_loads(page, block, tmp_path):
    (tmp_path / "example.yaml").write_text(block, encoding="utf-8")
    done = sh(f"forcecheck formats show {tmp_path / 'example.yaml'}", tmp_path, environment(tmp_path))
    assert done.returncode == 0, f"{page}\n{done.stdout}{done.stderr}"


@pytest.mark.parametrize(("page", "block"), _yaml_starting("format: "), ids=lambda v: v[:40])
def test_a_yaml_decklist_on_the_pages_is_read(page, block, tmp_path):
    (tmp_path / "deck.yaml").write_text(block, encoding="utf-8")
    done = sh("forcecheck check deck.yaml -o json", tmp_path, environment(tmp_path))
    assert done.returncode in (0, 1), f"{page}\n{done.stdout}{done.stderr}"
    (deck,) = json.loads(done.stdout)["decks"]
    assert "error" not in deck and sum(deck["sections"].values()) > 0


def test_the_command_line_page_lists_each_command_s_options():
    check_commands_table(PAGES["cli.md"])


# --- one address -------------------------------------------------------------------------------------

def test_the_site_has_one_address():
    """forcecheck.DOCS_URL (SARIF, JSON, 'forcecheck rules') is the site's address in mkdocs.yml
    and the documentation URL in pyproject.toml; a rule's address is its anchor on the rules page."""
    site_url = re.search(r"^site_url:\s*(\S+)", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M).group(1)
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]
    assert DOCS_URL == site_url == urls["Documentation"] and DOCS_URL.endswith("/")
    assert urls["Changelog"] == DOCS_URL + "changelog/"
    assert rule_url("FC201") == DOCS_URL + "rules/#fc201"


# --- the built site (with the docs extra) ------------------------------------------------------------

@pytest.fixture(scope="module")
def site(tmp_path_factory):
    pytest.importorskip("mkdocs", reason="the docs extra is not installed: pip install -e '.[docs]'")
    pytest.importorskip("material", reason="the docs extra is not installed: pip install -e '.[docs]'")
    out = tmp_path_factory.mktemp("site") / "site"
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)]
    offline = ["unshare", "-n"] if subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode == 0 else []
    env = {k: v for k, v in os.environ.items() if not k.startswith("FORCECHECK_")} | {"NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(offline + command, cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_every_rule_code_has_its_anchor_where_sarif_points(site):
    from forcecheck.rules.registry import KINDS

    rules = _text(site / "rules" / "index.html")
    html = (site / "rules" / "index.html").read_text(encoding="utf-8")
    for kind in KINDS.values():
        path, anchor = kind.url.removeprefix(DOCS_URL).split("#")
        assert path == "rules/" and f'id="{anchor}"' in html, kind.code
        assert f"{kind.code} {kind.slug}" in rules and kind.doc in rules, kind.code


def _text(page: Path) -> str:
    """A built page's text, tags removed and entities read."""
    import html

    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))


def test_sarif_help_links_point_into_the_built_site(site, tmp_path):
    done = sh(f"forcecheck check {SAMPLES / 'bifrost'} -f bifrost -o sarif", tmp_path, environment(tmp_path))
    driver = json.loads(done.stdout)["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == DOCS_URL and (site / "index.html").is_file()
    for rule in driver["rules"]:
        path, anchor = rule["helpUri"].removeprefix(DOCS_URL).split("#")
        assert f'id="{anchor}"' in (site / path / "index.html").read_text(encoding="utf-8"), rule["id"]


def test_every_format_has_its_page_made_by_formats_show(site, tmp_path):
    from forcecheck.format_spec.loader import available_formats

    for name in available_formats():
        shown = sh(f"forcecheck formats show {name}", tmp_path, environment(tmp_path)).stdout
        assert shown.strip() and shown.strip() in _text(site / "formats" / name / "index.html"), name


def test_no_page_loads_anything_from_another_site(site):
    """No web fonts, scripts or styles from elsewhere: the site is read as it was built."""
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        tags = re.findall(r"<(?:script|link|img|iframe|source)\b[^>]*>", html)
        loaded = [t for t in tags if re.search(r'(?:src|href)="(?:https?:)?//', t) and 'rel="canonical"' not in t]
        assert not loaded, (page, loaded)
        assert "fonts.googleapis.com" not in html and "fonts.gstatic.com" not in html, page


def test_the_changelog_is_a_page_and_its_links_stay_inside(site):
    page = (site / "changelog" / "index.html").read_text(encoding="utf-8")
    assert "0.3.0" in page and "0.2.0" in page and "Keep a Changelog" in page
    assert 'href="../ci/#pre-commit"' in page


def test_the_pre_commit_rev_is_the_release_the_changelog_and_the_package_name():
    """Issue 39.6: the pre-commit example pinned v0.2.0, a tag that did not exist. The rev the docs
    name, the changelog's newest release and the package's version are one (the release is
    tagged v + that version when it lands)."""
    from forcecheck import __version__

    ci = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    (rev,) = re.findall(r"^\s+rev: (v[0-9.]+)\s", ci, flags=re.M)
    newest = re.search(r"^## \[([0-9.]+)\]", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), flags=re.M).group(1)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert rev == f"v{__version__}" and newest == __version__
    assert f"release tag (`v{__version__}`" in readme and f"(`v{__version__}`), or a full commit hash" in ci
