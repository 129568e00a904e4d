"""Finding and reading the configuration file: which file a run uses, and its settings as data.

The nearest ``.forcecheck.yaml`` (``.yml``), or ``pyproject.toml`` with ``[tool.forcecheck]``,
from the working directory up to the repository root or the home folder (``search_stop``,
``find_config_file``); read as YAML or TOML with the line of every key for messages
(``read_config_file``). What the settings mean and which value wins is ``forcecheck.config``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from forcecheck.errors import ForcecheckError

CONFIG_NAMES = (".forcecheck.yaml", ".forcecheck.yml")


class ConfigError(ForcecheckError):
    """A configuration file or variable that cannot be used (exit 2)."""


def search_stop(start: Path, home: Path | None = None) -> list[Path]:
    """The folders searched for a configuration file, nearest first: from ``start`` up to the
    repository root (a folder with ``.git``, a folder or a worktree's file) or the home folder;
    only ``start`` when it is inside neither."""
    here = start.resolve()
    try:
        home = (home or Path.home()).resolve()
    except RuntimeError:  # no home folder can be determined
        home = None
    chain = [here, *here.parents]
    for index, directory in enumerate(chain):
        if os.path.lexists(directory / ".git") or directory == home:  # a folder that cannot be looked into has none
            return chain[: index + 1]
    return [here]


def find_config_file(start: Path, home: Path | None = None) -> Path | None:
    """The nearest .forcecheck.yaml, or pyproject.toml with [tool.forcecheck], in ``search_stop``."""
    for directory in search_stop(start, home):
        for name in CONFIG_NAMES:
            candidate = directory / name
            if os.path.lexists(candidate):
                return candidate  # a folder, FIFO or dangling link of that name is an error, never passed over
        pyproject = directory / "pyproject.toml"
        if os.path.isfile(pyproject):
            try:
                text = pyproject.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                why = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
                raise ConfigError(f"cannot read it to look for [tool.forcecheck] ({why}); name the configuration with --config", pyproject) from None
            if "forcecheck" in text and _names_forcecheck(text):
                return pyproject
    return None


def _names_forcecheck(text: str) -> bool:
    """Whether a pyproject.toml has a ``tool.forcecheck`` key, in any TOML spelling (a
    ``[tool.forcecheck]`` table, ``forcecheck = ...`` under ``[tool]``, a dotted or inline
    key). Malformed TOML that seems to so counts: reading it then says what is wrong."""
    if "[tool.forcecheck" in text:
        return True
    if not _may_set_tool_forcecheck(text):
        return False  # most pyproject files: no TOML parser loaded (a check starts fast)
    import tomllib

    try:
        tool = tomllib.loads(text).get("tool")
    except tomllib.TOMLDecodeError:
        return True
    return isinstance(tool, dict) and "forcecheck" in tool


_TABLE_HEADER = re.compile(r"^\[\[?\s*([A-Za-z0-9_.\-\"' ]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"^([A-Za-z0-9_.\-\"' ]+?)\s*=")


def _may_set_tool_forcecheck(text: str) -> bool:
    """A line-by-line look for a table or key that may give ``tool.forcecheck`` a value
    (quotes and spaces dropped); the TOML parser confirms it. It errs towards yes: a
    ``forcecheck`` key anywhere but in a ``[project...]`` table (where a project's own
    ``forcecheck = "forcecheck.cli:run"`` script lives) counts, and lines that are neither a
    table header nor a key (array items, ``[1, 2],``) change nothing."""
    table = ""
    for raw in text.split("\n"):
        line = raw.strip()
        header = _TABLE_HEADER.match(line)
        if header:
            table = header.group(1).replace('"', "").replace("'", "").replace(" ", "")
            if table == "tool.forcecheck" or table.startswith("tool.forcecheck."):
                return True
            continue
        key = _KEY.match(line)
        if key is None:
            continue
        name = key.group(1).replace('"', "").replace("'", "").replace(" ", "")
        full = f"{table}.{name}" if table else name
        if full == "tool.forcecheck" or full.startswith("tool.forcecheck.") or (full == "tool" and "forcecheck" in line):
            return True
        if name.split(".")[0] == "forcecheck" and not table.startswith("project"):
            return True
    return False


def read_config_file(path: Path) -> tuple[dict, Callable[[tuple], int | None]]:
    """Settings from a config file, and the line of a key path (for errors and config show)."""
    from forcecheck.textfile import read_text

    text = read_text(path)
    if path.name == "pyproject.toml":
        import tomllib

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            line = getattr(exc, "lineno", None)
            raise ConfigError(f"malformed TOML: {exc}", path, line) from None
        tool = data.get("tool", {})
        section = tool.get("forcecheck", {}) if isinstance(tool, dict) else {}
        if not isinstance(section, dict):
            raise ConfigError("[tool.forcecheck] is not a table of settings", path)
        lines: dict[tuple, int] = {}
        table: tuple = ()
        for number, raw in enumerate(text.split("\n"), start=1):
            stripped = raw.strip()
            if stripped.startswith("["):
                name = stripped.strip("[] ")
                table = tuple(p.strip().strip('"') for p in name.split(".")[2:]) if name.startswith("tool.forcecheck") else None
                if table:
                    lines.setdefault(table, number)
                continue
            if table is not None and "=" in stripped:
                key = stripped.split("=", 1)[0].strip().strip('"')
                lines.setdefault(table + (key,), number)

        def toml_line(at: tuple) -> int | None:
            at = tuple(str(k).replace("_", "-") for k in at)
            while at:
                for variant in (at, tuple(k.replace("-", "_") for k in at)):
                    if variant in lines:
                        return lines[variant]
                at = at[:-1]
            return None

        return section, toml_line
    from forcecheck.yamlsafe import load_yaml

    try:
        doc = load_yaml(text, path)
    except ForcecheckError as exc:
        raise ConfigError(exc.message, exc.path, exc.line) from None
    if doc.data is None:
        return {}, lambda at: None
    if not isinstance(doc.data, dict):
        raise ConfigError("a config file must be a mapping of settings", path, doc.line_of(()))
    return doc.data, doc.line_of
