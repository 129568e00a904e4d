"""Configuration: command-line flags, then ``FORCECHECK_*`` environment variables, then the
nearest ``.forcecheck.yaml`` (or ``[tool.forcecheck]`` in ``pyproject.toml``) walking up from
the working directory, then defaults. Every value remembers where it came from, so
``forcecheck config show`` can say so.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forcecheck.errors import ForcecheckError

CONFIG_NAMES = (".forcecheck.yaml", ".forcecheck.yml")
OUTPUT_FORMATS = ("text", "concise", "json", "sarif", "github", "junit")


class ConfigError(ForcecheckError):
    """A configuration file or variable that cannot be used (exit 2)."""


@dataclass(frozen=True)
class Setting:
    name: str
    kind: str  # "str", "path", "list", "paths", "map", "choice"
    env: str | None
    default: Any
    choices: tuple[str, ...] = ()
    doc: str = ""


SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in [
        Setting("format", "str", "FORCECHECK_FORMAT", None, doc="format of decks that name none"),
        Setting("formats", "map", None, {}, doc="format per path glob, e.g. 'decks/abc/**': abc"),
        Setting("catalog", "path", "FORCECHECK_CATALOG", None, doc="card catalog (imported SQLite or catalog JSON)"),
        Setting("banlist", "str", "FORCECHECK_BANLIST", None, doc="banlist name, or none"),
        Setting("banlist_file", "path", "FORCECHECK_BANLIST_FILE", None, doc="lflist.conf file to take the banlist from"),
        Setting("select", "list", "FORCECHECK_SELECT", ["ALL"], doc="rules to report (codes, prefixes, slugs, rule ids)"),
        Setting("extend_select", "list", "FORCECHECK_EXTEND_SELECT", [], doc="rules to report in addition to select"),
        Setting("ignore", "list", "FORCECHECK_IGNORE", [], doc="rules not to report"),
        Setting("severity", "map", None, {}, doc="severity per rule token: error or warning"),
        Setting("format_dirs", "paths", "FORCECHECK_FORMATS_PATH", [], doc="extra directories of format files"),
        Setting("output_format", "choice", "FORCECHECK_OUTPUT_FORMAT", None, OUTPUT_FORMATS, doc="text, concise, json, sarif, github, junit"),
        Setting("fail_on", "choice", "FORCECHECK_FAIL_ON", "error", ("error", "warning"), doc="lowest severity that fails the run"),
        Setting("color", "choice", "FORCECHECK_COLOR", "auto", ("auto", "always", "never"), doc="colour in text output"),
    ]
}


@dataclass
class Config:
    values: dict[str, Any] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    file: Path | None = None

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def format_for(self, path: Path) -> str | None:
        """The format for a deck file: the first matching glob of ``formats``, else ``format``."""
        patterns: dict[str, str] = self.values.get("formats") or {}
        if patterns:
            base = self.file.parent if self.file else Path.cwd()
            try:
                rel = Path(os.path.abspath(path)).relative_to(os.path.abspath(base)).as_posix()
            except ValueError:
                rel = Path(path).as_posix()
            for pattern, fmt in patterns.items():
                if _glob_match(rel, pattern):
                    return fmt
        return self.values.get("format")


def _glob_match(path: str, pattern: str) -> bool:
    """``**`` crosses directories; ``*`` stays in one (as in .gitignore-style globs)."""
    import re

    regex = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            regex += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            regex += ".*"
            i += 2
        elif pattern[i] == "*":
            regex += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            regex += "[^/]"
            i += 1
        else:
            regex += re.escape(pattern[i])
            i += 1
    return re.fullmatch(regex, path) is not None or fnmatch.fnmatch(path, pattern)


def find_config_file(start: Path) -> Path | None:
    """The nearest .forcecheck.yaml, or pyproject.toml with [tool.forcecheck], from ``start`` up."""
    here = start.resolve()
    for directory in [here, *here.parents]:
        for name in CONFIG_NAMES:
            candidate = directory / name
            if candidate.is_file():
                return candidate
        pyproject = directory / "pyproject.toml"
        if pyproject.is_file():
            try:
                text = pyproject.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if "[tool.forcecheck]" in text:
                return pyproject
    return None


def _read_file(path: Path) -> tuple[dict, dict[str, int]]:
    """Settings from a config file, and the line of each key (for errors and config show)."""
    from forcecheck.textfile import read_text

    text = read_text(path)
    if path.name == "pyproject.toml":
        import tomllib

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            line = getattr(exc, "lineno", None)
            raise ConfigError(f"malformed TOML: {exc}", path, line) from None
        section = data.get("tool", {}).get("forcecheck", {})
        lines: dict[str, int] = {}
        in_table = False
        for number, raw in enumerate(text.split("\n"), start=1):
            stripped = raw.strip()
            if stripped.startswith("["):
                in_table = stripped.startswith("[tool.forcecheck")
                continue
            if in_table and "=" in stripped:
                lines.setdefault(stripped.split("=", 1)[0].strip().strip('"'), number)
        return section, lines
    from forcecheck.yamlsafe import load_yaml

    try:
        doc = load_yaml(text, path)
    except ForcecheckError as exc:
        raise ConfigError(exc.message, exc.path, exc.line) from None
    if doc.data is None:
        return {}, {}
    if not isinstance(doc.data, dict):
        raise ConfigError("a config file must be a mapping of settings", path, doc.line_of(()))
    return doc.data, {k: doc.line_of((k,)) for k in doc.data}


def _coerce(setting: Setting, value: Any, where: str, path: Path | None, line: int | None, base: Path | None) -> Any:
    def fail(message: str):
        raise ConfigError(f"{setting.name}: {message}", path, line) if path else ConfigError(f"{where}: {message}")

    if value is None:  # "severity:" with nothing under it: the setting's default
        return setting.default
    if setting.kind in ("str", "choice"):
        if not isinstance(value, str):
            fail(f"expected text, got {value!r}")
        if setting.kind == "choice" and value not in setting.choices:
            fail(f"{value!r} is not one of {', '.join(setting.choices)}")
        return value
    if setting.kind == "path":
        if not isinstance(value, str):
            fail(f"expected a path, got {value!r}")
        return str((base / value) if base and not Path(value).is_absolute() else Path(value))
    if setting.kind in ("list", "paths"):
        if isinstance(value, str):
            sep = os.pathsep if setting.kind == "paths" else ","
            value = [v.strip() for v in value.split(sep) if v.strip()]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            fail(f"expected a list of text, got {value!r}")
        if setting.kind == "paths" and base:
            return [str(base / v) if not Path(v).is_absolute() else v for v in value]
        return list(value)
    if setting.kind == "map":
        if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
            fail(f"expected a mapping of text to text, got {value!r}")
        if setting.name == "severity":
            for k, v in value.items():
                if v not in ("error", "warning"):
                    fail(f"{k}: {v!r} is not error or warning")
        return dict(value)
    return value  # pragma: no cover


def load_config(flags: dict[str, Any], cwd: Path | None = None, config_path: Path | None = None, env=None) -> Config:
    """Merge flags (non-None values), environment, the config file and defaults."""
    env = os.environ if env is None else env
    config = Config()
    path = config_path or find_config_file(cwd or Path.cwd())
    file_values: dict = {}
    lines: dict[str, int] = {}
    if path is not None:
        if not Path(path).is_file():
            raise ConfigError("no such config file", path)
        raw, lines = _read_file(Path(path))
        for key in raw:
            name = str(key).replace("-", "_")
            if name not in SETTINGS:
                raise ConfigError(f"unknown setting {key!r} (settings: {', '.join(SETTINGS)})", path, lines.get(key))
            file_values[name] = (raw[key], lines.get(key))
        config.file = Path(path)
    for name, setting in SETTINGS.items():
        if flags.get(name) not in (None, [], ()):
            config.values[name] = flags[name]
            config.sources[name] = "command line"
        elif setting.env and env.get(setting.env):
            config.values[name] = _coerce(setting, env[setting.env], setting.env, None, None, None)
            config.sources[name] = f"environment {setting.env}"
        elif name in file_values:
            value, line = file_values[name]
            base = Path(path).parent
            config.values[name] = _coerce(setting, value, name, Path(path), line, base)
            config.sources[name] = f"{path}:{line}" if line else str(path)
        else:
            config.values[name] = setting.default
            config.sources[name] = "default"
    return config
