"""scripts/import_layers.py measures the layers the imports draw (the documentation's
architecture page, and the before/after of a layout change): on a small package built here,
whose layers, circle and upward import are known, and on forcecheck itself."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

from conftest import ROOT

SCRIPT = ROOT / "scripts" / "import_layers.py"
_spec = importlib.util.spec_from_file_location("import_layers", SCRIPT)
layers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(layers)


def _package(root, files: dict[str, str]):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_layers_circles_and_upward_imports_of_a_known_package(tmp_path):
    _package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": "import os\n",                                          # layer 0
        "pkg/cards/__init__.py": "",
        "pkg/cards/model.py": "from pkg import base\nfrom . import store\n",  # cards: layer 1 (base below it)
        "pkg/cards/store.py": "def load():\n    from pkg.cards.model import X\n",  # closes a circle, inside a function
        "pkg/engine.py": "from pkg.cards import model\nfrom typing import TYPE_CHECKING\n"
                         "if TYPE_CHECKING:\n    from pkg import report\n",   # layer 2; the typing import does not count
        "pkg/report.py": "from pkg import engine, base\n",                    # layer 3
        "pkg/errors.py": "def show():\n    from pkg.report import engine\n",  # layer 0, reaching up to 3 inside a function
    })
    data = layers.measure(["pkg"], root=tmp_path)
    units = data["units"]
    assert {u: units[u]["layer"] for u in units} == {
        "pkg/": 0, "pkg/base.py": 0, "pkg/errors.py": 0, "pkg/cards": 1, "pkg/engine.py": 2, "pkg/report.py": 3}
    assert data["layers"] == 4
    assert units["pkg/cards"] == {"modules": 3, "lines": 4, "layer": 1, "imports": ["pkg/base.py"], "deferred": []}
    assert data["statements"] == {"module": 5, "deferred": 2, "typing": 1}
    (circle,) = data["circles"]
    assert circle["modules"] == ["pkg/cards/model.py", "pkg/cards/store.py"]
    assert circle["imports"] == ["pkg/cards/model.py -> pkg/cards/store.py: pkg/cards/model.py:2 (module)",
                                 "pkg/cards/store.py -> pkg/cards/model.py: pkg/cards/store.py:2 (deferred)"]
    (up,) = data["upward"]
    assert (up["from"], up["to"], up["from_layer"], up["to_layer"], up["at"]) == ("pkg/errors.py", "pkg/report.py", 0, 3, ["pkg/errors.py:2"])
    files = layers.measure(["pkg"], files=True, root=tmp_path)
    assert files["units"]["pkg/cards/model.py"]["layer"] == files["units"]["pkg/cards/store.py"]["layer"] + 1  # the deferred import draws no layer


def test_the_script_measures_forcecheck_and_compares_two_runs(tmp_path):
    done = subprocess.run([sys.executable, str(SCRIPT), "--json", str(tmp_path / "now.json")], capture_output=True, text=True, timeout=120, check=True)
    first = done.stdout.splitlines()[0]
    data = json.loads((tmp_path / "now.json").read_text())
    assert first == f"{len(data['units'])} units (top-level file or folder) of forcecheck on {data['layers']} layers"
    assert "forcecheck/engine.py" in data["units"] and data["units"]["forcecheck/cards"]["modules"] > 1
    assert "layers (drawn from module-level imports" in done.stdout and "circles between modules" in done.stdout
    compared = subprocess.run([sys.executable, str(SCRIPT), "--compare", str(tmp_path / "now.json"), str(tmp_path / "now.json")],
                              capture_output=True, text=True, timeout=60, check=True).stdout
    assert f"{'layers':<44} {data['layers']:>8} {data['layers']:>8}" in compared
