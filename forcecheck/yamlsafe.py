"""YAML loading for user files: line numbers for every value, and no way to blow up.

PyYAML's ``safe_load`` loses line numbers, silently keeps the last of two equal keys and
expands aliases without limit ("billion laughs"). Composing the node tree ourselves fixes
all three: each value's line is kept by its path (``("rules", 3, "max")``), duplicate keys
are an error, and caps on nodes visited, on the characters that aliases repeat and on depth
stop alias bombs (a few long strings repeated make as large a document as many short ones)
and deep nesting. A value PyYAML cannot convert (``!!int abc``, ``2024-02-30``) is an error
on its line, and an integer too long for Python to convert (over 4,300 digits) is kept as
its digits (a decklist reports it as a bad count, a format as a wrong type). Numbers read as a
person reads them, not as YAML 1.1 does: ``0100`` is 100 (not octal 64) and ``1:40`` is text (not
base 60's 100), so a cap or a count never silently becomes another number.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from forcecheck.errors import ForcecheckError

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML was built with it (about 10x faster); the pure one otherwise."""

MAX_NODES = 200_000
MAX_DEPTH = 64
MAX_REPEATED_CHARS = 1024 * 1024
"""Characters that aliases may add to a document beyond what its text holds: as much again as
the largest file forcecheck reads, so whatever a document expands to stays writable and readable."""
MAX_INT_DIGITS = 4000
"""Python refuses to convert longer digit strings (sys.get_int_max_str_digits, 4,300)."""
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_LEADING_ZERO = re.compile(r"[-+]?0[0-7_]+")
"""What YAML 1.1 (PyYAML) reads as an octal number: ``010`` is 8 to it, 10 to a person."""
_SURROGATE = re.compile("[\ud800-\udfff]")
"""A double-quoted ``"\\ud800"`` escape gives a lone surrogate, which no UTF-8 text can hold."""

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
        try:
            node = yaml.compose(text, Loader=_LOADER)
        except yaml.YAMLError:
            if _LOADER is yaml.SafeLoader:
                raise
            # libyaml stops deep nesting with its own error; the pure parser recurses, which is
            # told below in forcecheck's words, whichever parser this PyYAML has
            node = yaml.compose(text, Loader=yaml.SafeLoader)
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
        raise YamlError(f"YAML nested deeper than {MAX_DEPTH} levels", path) from None
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
        self.repeated = MAX_REPEATED_CHARS
        self.seen: set[int] = set()
        """Nodes converted once: meeting one again means an alias repeats it."""
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
        if isinstance(node, yaml.ScalarNode):
            if id(node) in self.seen:
                self.repeated -= len(node.value) + 1
                if self.repeated < 0:
                    raise YamlError(
                        f"YAML document expands to over {MAX_REPEATED_CHARS:,} more characters through aliases (alias bomb?)",
                        path,
                        node.start_mark.line + 1,
                    )
            else:
                self.seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise YamlError("YAML merge keys (<<) are not supported", path, key_node.start_mark.line + 1)
                key = self.convert(key_node, at + ("<key>",), {}, depth + 1)
                if isinstance(key, (list, dict)):
                    raise YamlError("a mapping key must be a plain value", path, key_node.start_mark.line + 1)
                if key in out:
                    shown = repr(key) if len(str(key)) <= 60 else repr(str(key)[:60]) + "..."
                    raise YamlError(f"duplicate key {shown}", path, key_node.start_mark.line + 1)
                out[key] = self.convert(value_node, at + (key,), lines, depth + 1)
                lines[at + (key,)] = key_node.start_mark.line + 1
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.convert(item, at + (i,), lines, depth + 1) for i, item in enumerate(node.value)]
        if node.tag == "tag:yaml.org,2002:str":
            value = node.value  # the common case, without the constructor's bookkeeping
            if not value.isascii() and _SURROGATE.search(value):
                raise YamlError("a string holds a lone surrogate ('\\ud800'-style escape): not text", path, node.start_mark.line + 1)
            return value
        if node.tag == _INT_TAG and len(node.value) > MAX_INT_DIGITS:
            return node.value  # too long to be a number anyone meant: kept as written
        if node.tag in (_INT_TAG, _FLOAT_TAG) and ":" in node.value:
            return node.value  # YAML 1.1 base 60 ("1:40" is 100): no one writing a count or a cap means it; kept as written
        if node.tag == _INT_TAG and _LEADING_ZERO.fullmatch(node.value):
            return int(node.value.replace("_", ""), 10)  # "0100" is 100, as YAML 1.2 and every flag read it, not YAML 1.1's octal 64
        try:
            return self.constructor.construct_object(node, deep=True)
        except Exception:  # noqa: BLE001 - PyYAML's converters raise what they meet: ValueError, KeyError, ...
            shown = node.value if isinstance(node.value, str) else ""
            kind = node.tag.rsplit(":", 1)[-1]
            raise YamlError(
                f"bad YAML value {shown[:40]!r}{'...' if len(shown) > 40 else ''}: not a valid {kind} (quote it to keep it as text)",
                path,
                node.start_mark.line + 1,
            ) from None
