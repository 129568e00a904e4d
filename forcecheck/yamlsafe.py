"""YAML loading for user files: line numbers for every value, and no way to blow up.

PyYAML's ``safe_load`` loses line numbers, silently keeps the last of two equal keys and
expands aliases without limit ("billion laughs"). Composing the node tree ourselves fixes
all three: each value's line is kept by its path (``("rules", 3, "max")``), duplicate keys
are an error, and a cap on nodes visited and on depth stops alias bombs and deep nesting.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from forcecheck.errors import ForcecheckError

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML was built with it (about 10x faster); the pure one otherwise."""

MAX_NODES = 200_000
MAX_DEPTH = 64

PathKey = tuple[Any, ...]


class YamlError(ForcecheckError):
    """Malformed or hostile YAML."""


class LinedYaml:
    """A loaded YAML document plus the 1-based line of every value, looked up by path."""

    def __init__(self, data: Any, lines: dict[PathKey, int]):
        self.data = data
        self.lines = lines

    def line_of(self, path: PathKey) -> int | None:
        """Line of the value at ``path``, or of its nearest ancestor that has one."""
        path = tuple(path)
        while True:
            if path in self.lines:
                return self.lines[path]
            if not path:
                return None
            path = path[:-1]


def load_yaml(text: str, path: str | Path) -> LinedYaml:
    """Parse one YAML document from ``text``; raise YamlError naming ``path`` and the line."""
    try:
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as exc:
        if "nesting depth" in str(exc.problem or ""):  # PyYAML >= 6.0.4 stops deep nesting itself
            raise YamlError("YAML nested too deeply", path) from None
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "malformed YAML"
        raise YamlError(f"malformed YAML: {problem}", path, line) from None
    except yaml.YAMLError as exc:
        raise YamlError(f"malformed YAML: {exc}", path) from None
    except RecursionError:
        raise YamlError("YAML nested too deeply", path) from None
    if node is None:
        return LinedYaml(None, {})
    lines: dict[PathKey, int] = {}
    converter = _Converter(path)
    try:
        data = converter.convert(node, (), lines, 0)
    finally:
        converter.constructor.dispose()
    return LinedYaml(data, lines)


class _Converter:
    """Walks a composed node tree into Python values, recording lines, within the caps."""

    def __init__(self, path: str | Path):
        self.path = path
        self.budget = MAX_NODES
        self.constructor = yaml.SafeLoader("")

    def convert(self, node: yaml.Node, at: PathKey, lines: dict, depth: int) -> Any:
        path = self.path
        self.budget -= 1
        if self.budget < 0:
            raise YamlError(
                f"YAML document expands to over {MAX_NODES:,} values (alias bomb?)",
                path,
                node.start_mark.line + 1,
            )
        if depth > MAX_DEPTH:
            raise YamlError(f"YAML nested deeper than {MAX_DEPTH} levels", path, node.start_mark.line + 1)
        lines.setdefault(at, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise YamlError("YAML merge keys (<<) are not supported", path, key_node.start_mark.line + 1)
                key = self.convert(key_node, at + ("<key>",), {}, depth + 1)
                if isinstance(key, (list, dict)):
                    raise YamlError("a mapping key must be a plain value", path, key_node.start_mark.line + 1)
                if key in out:
                    raise YamlError(f"duplicate key {key!r}", path, key_node.start_mark.line + 1)
                out[key] = self.convert(value_node, at + (key,), lines, depth + 1)
                lines[at + (key,)] = key_node.start_mark.line + 1
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.convert(item, at + (i,), lines, depth + 1) for i, item in enumerate(node.value)]
        if node.tag == "tag:yaml.org,2002:str":
            return node.value  # the common case, without the constructor's bookkeeping
        try:
            return self.constructor.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            raise YamlError(f"bad YAML value: {exc}", path, node.start_mark.line + 1) from None
