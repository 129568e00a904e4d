"""A missing extra is told the pip command that adds it from where forcecheck came from (issue
39.6: the hint offered only ``pip install "forcecheck[sheets]"``, and forcecheck is not on the
package index)."""

from __future__ import annotations

import sys

import pytest
from conftest import ROOT, cli_runner

from forcecheck.install_hint import install_extra

PIP = f"{sys.executable} -m pip install"


@pytest.mark.parametrize("source, command", [
    ({"url": "file:///src/forcecheck", "dir_info": {"editable": True}}, f"{PIP} -e '/src/forcecheck[sheets]'"),
    ({"url": "file:///src/forcecheck", "dir_info": {}}, f"{PIP} '/src/forcecheck[sheets]'"),
    ({"url": "file:///src/my%20checkout", "dir_info": {"editable": True}}, f"{PIP} -e '/src/my checkout[sheets]'"),
    ({"url": "https://git.example.org/forcecheck.git", "vcs_info": {"vcs": "git", "commit_id": "0a1b2c", "requested_revision": "v0.3.0"}},
     f"{PIP} 'forcecheck[sheets] @ git+https://git.example.org/forcecheck.git@v0.3.0'"),
    ({"url": "https://git.example.org/forcecheck.git", "vcs_info": {"vcs": "git", "commit_id": "0a1b2c"}},
     f"{PIP} 'forcecheck[sheets] @ git+https://git.example.org/forcecheck.git@0a1b2c'"),
    ({"url": "file:///tmp/forcecheck-0.3.0-py3-none-any.whl", "archive_info": {}},
     f"{PIP} 'forcecheck[sheets] @ file:///tmp/forcecheck-0.3.0-py3-none-any.whl'"),
    # PEP 610's subdirectory: the project in a folder of the repository or the checkout
    ({"url": "https://git.example.org/tools.git", "vcs_info": {"vcs": "git", "commit_id": "0a1b2c"}, "subdirectory": "forcecheck"},
     f"{PIP} 'forcecheck[sheets] @ git+https://git.example.org/tools.git@0a1b2c#subdirectory=forcecheck'"),
    ({"url": "file:///src/tools", "dir_info": {"editable": True}, "subdirectory": "forcecheck/"}, f"{PIP} -e '/src/tools/forcecheck[sheets]'"),
    ({"url": "https://example.org/tools.tar.gz", "archive_info": {}, "subdirectory": "py/forcecheck"},
     f"{PIP} 'forcecheck[sheets] @ https://example.org/tools.tar.gz#subdirectory=py/forcecheck'"),
])
def test_the_command_installs_the_extra_from_forcecheck_s_own_source(source, command):
    assert install_extra("sheets", source) == command


def test_without_a_record_it_says_forcecheck_is_not_on_the_index():
    hint = install_extra("web", {})
    assert "not on the package index" in hint and "pip install -e '.[web]'" in hint
    assert not hint.endswith("forcecheck[web]")  # never a bare index install


def test_this_checkout_is_named_as_it_was_installed():
    """The test environment is the README's: an editable install of this checkout."""
    hint = install_extra("sheets")
    assert hint.startswith(PIP) and f"{ROOT}[sheets]" in hint and " -e " in hint


def test_the_sheet_command_without_its_extra_names_the_command(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "fpdf", None)  # as if the sheets extra were not installed
    from forcecheck.cli import app

    deck = tmp_path / "d.txt"
    deck.write_text("Ruler:\n1 Faria, the Sacred Queen\n", encoding="utf-8")
    result = cli_runner().invoke(app, ["sheet", str(deck), "-f", "bifrost", "--output-file", str(tmp_path / "d.pdf")])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"forcecheck: error: forcecheck sheet needs the sheets extra (fpdf is not installed): {install_extra('sheets')}"
    assert not (tmp_path / "d.pdf").exists()
