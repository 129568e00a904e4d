#!/usr/bin/env python3
"""The layers of forcecheck as its imports draw them, measured from the source.

Every ``import`` of the package's own modules is read (``ast``, nothing is imported or run) and
sorted into kinds: at module level (the module needs the other to exist at all), inside a
function (deferred: loaded when that code runs, often to keep start-up fast, sometimes to
hide a circle) and under ``if TYPE_CHECKING`` (for annotations only; never counted).

A *unit* is a top-level module file or a top-level folder (``forcecheck/cards``), or with
``--files`` every module file. The layers are drawn from the module-level imports: a unit
that imports no other is on layer 0, any other one layer above the highest it imports; units
that import each other (a circle) share a layer. Then it prints:

- each layer and its units, with the number of modules and lines in each;
- the circles: module files that reach each other through imports of any kind (module level
  or deferred: either closes a circle), each with the imports that close it;
- the imports that reach *up*: a deferred import of a unit on the same layer or a higher one
  (at module level such an import would be a circle); the front doors (``cli``, ``api``,
  ``session``, ``web``) import the library inside their functions on purpose, to start fast;
  ``--verbose`` lists each with its file and line;
- the counts: units, layers, import statements by kind, edges between units.

``--json FILE`` writes the same as data, so that two runs (before and after a change) can be
compared: ``python3 scripts/import_layers.py --json before.json`` on one commit, then on the
other, then ``python3 scripts/import_layers.py --compare before.json after.json``.

Usage: python3 scripts/import_layers.py [--files] [--package forcecheck] [--also benchmarks]
       [--verbose] [--json FILE] [--compare BEFORE AFTER]
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class Module:
    """One module file: its dotted name, path, lines and the internal imports it makes."""

    def __init__(self, name: str, path: Path, is_package: bool, shown: Path):
        self.name = name
        self.path = path
        self.shown = shown
        """The path relative to the measured tree's root, as reports show it."""
        self.is_package = is_package
        self.lines = 0
        self.imports: list[tuple[str, str, int]] = []
        """(imported module, kind: 'module' | 'deferred' | 'typing', line)."""


def find_modules(packages: list[str], root: Path = ROOT) -> dict[str, Module]:
    found: dict[str, Module] = {}
    for package in packages:
        base = root / package
        for path in sorted(base.rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if "__pycache__" in parts or any(part.startswith(".") for part in parts):
                continue
            is_package = parts[-1] == "__init__"
            name = ".".join(parts[:-1] if is_package else parts)
            found[name] = Module(name, path, is_package, path.relative_to(root))
    return found


def _absolute(module: Module, level: int, target: str | None) -> str:
    """The dotted name a relative import (``from ..x import y``) names."""
    if level == 0:
        return target or ""
    base = module.name.split(".")
    if not module.is_package:
        base = base[:-1]
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([target] if target else []))


def _resolve(name: str, modules: dict[str, Module]) -> str | None:
    """The longest known module that ``name`` is or lies in (``a.b.c`` -> ``a.b`` if ``c`` is a name in it)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


class _Reader(ast.NodeVisitor):
    def __init__(self, module: Module, modules: dict[str, Module]):
        self.module = module
        self.modules = modules
        self.depth = 0  # inside a function (or a class body's function)
        self.typing = 0  # inside ``if TYPE_CHECKING:``

    def _kind(self) -> str:
        return "typing" if self.typing else ("deferred" if self.depth else "module")

    def _add(self, name: str, line: int) -> None:
        target = _resolve(name, self.modules)
        if target is not None and target != self.module.name:
            self.module.imports.append((target, self._kind(), line))

    def visit_Import(self, node: ast.Import) -> None:
        for name in dict.fromkeys(alias.name for alias in node.names):
            self._add(name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = _absolute(self.module, node.level, node.module)
        named = []
        for alias in node.names:  # ``from pkg import mod`` imports the module pkg.mod when there is one
            full = f"{base}.{alias.name}" if base else alias.name
            named.append(full if full in self.modules else base)
        for name in dict.fromkeys(named):  # one statement, one import of each module it names
            self._add(name, node.lineno)

    def _function(self, node) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        name = test.id if isinstance(test, ast.Name) else (test.attr if isinstance(test, ast.Attribute) else None)
        if name == "TYPE_CHECKING":
            self.typing += 1
            for child in node.body:
                self.visit(child)
            self.typing -= 1
            for child in node.orelse:
                self.visit(child)
        else:
            self.generic_visit(node)


def read_imports(modules: dict[str, Module]) -> None:
    for module in modules.values():
        text = module.path.read_text(encoding="utf-8")
        module.lines = text.count("\n") + (not text.endswith("\n") and bool(text))
        _Reader(module, modules).visit(ast.parse(text, str(module.path)))


def unit_of(name: str, modules: dict[str, Module], files: bool) -> str:
    """The unit a module belongs to, as a path: ``forcecheck/cards`` (a top-level folder),
    ``forcecheck/engine.py``; with ``files``, every module its own file."""
    parts = name.split(".")
    module = modules[name]
    if files:
        path = module.shown
        return str(path.parent) + "/" if module.is_package else str(path)
    if len(parts) == 1:
        return parts[0] + "/"  # the package's own __init__
    top = ".".join(parts[:2])
    if top in modules and modules[top].is_package:
        return "/".join(parts[:2])
    return "/".join(parts[:2]) + ".py"


def strongly_connected(nodes: list[str], edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm: the groups of nodes that reach each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            groups.append(sorted(group))

    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    for node in sorted(nodes):
        if node not in index:
            visit(node)
    return groups


def measure(packages: list[str], files: bool = False, root: Path = ROOT) -> dict:
    modules = find_modules(packages, root)
    read_imports(modules)
    units: dict[str, dict] = {}
    for name, module in modules.items():
        unit = units.setdefault(unit_of(name, modules, files), {"modules": 0, "lines": 0})
        unit["modules"] += 1
        unit["lines"] += module.lines
    statements = {"module": 0, "deferred": 0, "typing": 0}
    edges: dict[str, dict[str, set[str]]] = {kind: defaultdict(set) for kind in statements}
    where: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    file_edges: dict[str, set[str]] = defaultdict(set)
    file_where: dict[tuple[str, str], list[str]] = defaultdict(list)
    for name, module in modules.items():
        source = unit_of(name, modules, files)
        for target_name, kind, line in module.imports:
            statements[kind] += 1
            at = f"{module.shown}:{line}"
            if kind != "typing" and not (modules[target_name].is_package and name.startswith(target_name + ".")):
                file_edges[name].add(target_name)  # a package's own __init__ is loaded first anyway: no circle
                file_where[(name, target_name)].append(f"{at} ({kind})")
            target = unit_of(target_name, modules, files)
            if target == source or (target.endswith("/") and source.startswith(target)):
                continue  # inside one unit, or a unit's own package __init__
            edges[kind][source].add(target)
            where[(source, target, kind)].append(at)
    names = sorted(units)
    # layers from the module-level imports; a circle's units share one layer
    module_edges = {u: set(t) for u, t in edges["module"].items()}
    groups = strongly_connected(names, module_edges)
    group_of = {member: i for i, group in enumerate(groups) for member in group}
    layer_of_group: dict[int, int] = {}
    for i, group in enumerate(groups):  # Tarjan gives the groups dependencies first
        below = [layer_of_group[group_of[t]] for m in group for t in module_edges.get(m, ()) if group_of[t] != i]
        layer_of_group[i] = 1 + max(below) if below else 0
    layer = {u: layer_of_group[group_of[u]] for u in names}
    # circles between module files, through imports of any kind (a deferred import closes one as surely)
    circles = []
    for group in strongly_connected(list(modules), file_edges):
        if len(group) > 1:
            members = set(group)
            circles.append({"modules": [str(modules[m].shown) for m in group],
                            "imports": [f"{modules[a].shown} -> {modules[b].shown}: {', '.join(file_where[(a, b)])}"
                                        for a in group for b in sorted(file_edges[a]) if b in members]})
    upward = [
        {"from": source, "to": target, "from_layer": layer[source], "to_layer": layer[target], "at": where[(source, target, "deferred")]}
        for source, targets in sorted(edges["deferred"].items()) for target in sorted(targets)
        if layer[target] >= layer[source] and target not in edges["module"].get(source, ())
    ]
    return {
        "packages": packages,
        "unit": "module file" if files else "top-level file or folder",
        "units": {u: {**units[u], "layer": layer[u], "imports": sorted(edges["module"].get(u, ())),
                      "deferred": sorted(edges["deferred"].get(u, set()) - edges["module"].get(u, set()))} for u in names},
        "layers": max(layer.values()) + 1 if layer else 0,
        "statements": statements,
        "edges": {kind: sum(len(t) for t in edges[kind].values()) for kind in statements},
        "circles": circles,
        "upward": upward,
        "largest": sorted(((m.lines, str(m.shown)) for m in modules.values()), reverse=True)[:10],
    }


def report(data: dict, verbose: bool = False, out=sys.stdout) -> None:
    units = data["units"]
    print(f"{len(units)} units ({data['unit']}) of {', '.join(data['packages'])} on {data['layers']} layers", file=out)
    s, e = data["statements"], data["edges"]
    print(f"import statements of the project's own modules: {s['module']} at module level, {s['deferred']} inside functions, "
          f"{s['typing']} for type checking only", file=out)
    print(f"imports between units: {e['module']} at module level, {e['deferred']} inside functions only", file=out)
    print(file=out)
    print("layers (drawn from module-level imports; a folder: modules/lines, a file: lines):", file=out)
    for n in range(data["layers"] - 1, -1, -1):
        members = [u for u in units if units[u]["layer"] == n]
        print(f"  {n:>2}: " + ", ".join(f"{u} ({units[u]['modules']}/{units[u]['lines']})" if units[u]["modules"] > 1 else f"{u} ({units[u]['lines']})"
                                      for u in members), file=out)
    print(file=out)
    print(f"circles between modules (imports of any kind): {len(data['circles'])}", file=out)
    for circle in data["circles"]:
        print("  " + " <-> ".join(circle["modules"]), file=out)
        for line in circle["imports"]:
            print(f"    {line}", file=out)
    print(file=out)
    upward = data["upward"]
    sources = sorted({edge["from"] for edge in upward})
    print(f"imports inside functions that reach up to a unit on the same layer or higher: {sum(len(x['at']) for x in upward)} "
          f"({len(upward)} unit to unit, from {len(sources)} units)", file=out)
    for source in sources:
        mine = [x for x in upward if x["from"] == source]
        if verbose:
            for edge in mine:
                print(f"  {source} ({edge['from_layer']}) -> {edge['to']} ({edge['to_layer']}): {', '.join(edge['at'])}", file=out)
        else:
            print(f"  {source} (layer {mine[0]['from_layer']}) -> " + ", ".join(f"{x['to']} ({x['to_layer']}) x{len(x['at'])}" for x in mine), file=out)
    print(file=out)
    print("largest modules (lines): " + ", ".join(f"{path} {lines}" for lines, path in data["largest"]), file=out)


def compare(before: dict, after: dict, out=sys.stdout) -> None:
    print(f"{'':<44} {'before':>8} {'after':>8}", file=out)
    rows = [
        ("units", len(before["units"]), len(after["units"])),
        ("layers", before["layers"], after["layers"]),
        ("circles between modules", len(before["circles"]), len(after["circles"])),
        ("deferred imports reaching up", sum(len(x["at"]) for x in before["upward"]), sum(len(x["at"]) for x in after["upward"])),
        ("imports between units, module level", before["edges"]["module"], after["edges"]["module"]),
        ("imports between units, inside functions only", before["edges"]["deferred"], after["edges"]["deferred"]),
        ("import statements at module level", before["statements"]["module"], after["statements"]["module"]),
        ("import statements inside functions", before["statements"]["deferred"], after["statements"]["deferred"]),
        ("modules over 500 lines", sum(1 for n, _ in before["largest"] if n > 500), sum(1 for n, _ in after["largest"] if n > 500)),
    ]
    for label, a, b in rows:
        print(f"{label:<44} {a:>8} {b:>8}", file=out)
    gone = sorted(set(before["units"]) - set(after["units"]))
    new = sorted(set(after["units"]) - set(before["units"]))
    if gone or new:
        print("units only before: " + (", ".join(gone) or "none"), file=out)
        print("units only after:  " + (", ".join(new) or "none"), file=out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", action="append", help="a top-level folder to measure (default: forcecheck)")
    parser.add_argument("--also", action="append", default=[], help="another folder measured with it (benchmarks, scripts)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the tree to measure (default: this checkout)")
    parser.add_argument("--files", action="store_true", help="every module file is a unit (default: top-level files and folders)")
    parser.add_argument("--verbose", action="store_true", help="every import that reaches up, with its file and line")
    parser.add_argument("--json", metavar="FILE", help="also write the measurement as JSON")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"), help="compare two --json files and stop")
    args = parser.parse_args(argv)
    if args.compare:
        before, after = (json.loads(Path(p).read_text(encoding="utf-8")) for p in args.compare)
        compare(before, after)
        return 0
    data = measure((args.package or ["forcecheck"]) + args.also, args.files, args.root)
    report(data, args.verbose)
    if args.json:
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
