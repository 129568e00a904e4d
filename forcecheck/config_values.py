"""Checking one setting's value, from a file or an environment variable, and making it canonical.

Each ``Setting`` has a kind (text, choice, date, int, path, list, paths, map, pins, source);
``coerce`` checks a value against it and calls ``fail`` (a failer naming the file and line, or
the variable) with a message when it does not fit.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forcecheck.config_files import ConfigError

if TYPE_CHECKING:
    from forcecheck.config import Setting


def coerce(setting: Setting, value: Any, fail: Callable[[str], None], base: Path | None) -> Any:
    """A setting's value from a file or a variable, checked and made canonical; ``fail`` raises."""
    import datetime

    if value is None:  # "severity:" with nothing under it: the setting's default
        return setting.default
    if setting.kind in ("str", "choice"):
        if isinstance(value, bool) or not isinstance(value, str):
            hint = f"; write it in quotes: \"{value}\"" if isinstance(value, (int, float)) and not isinstance(value, bool) else ""
            fail(f"expected text, got {value!r}{hint}")
        if setting.kind == "choice" and value not in setting.choices:
            fail(f"{value!r} is not one of {', '.join(setting.choices)}")
        return value
    if setting.kind == "date":
        if isinstance(value, datetime.datetime):
            value = value.date()
        if isinstance(value, datetime.date):
            return value.isoformat()
        if isinstance(value, str):
            try:
                return datetime.date.fromisoformat(value.strip()).isoformat()
            except ValueError:
                pass
        fail(f"{value!r} is not a date (YYYY-MM-DD)")
    if setting.kind == "points":  # a points cap: any whole number from 0 (an organiser's choice)
        if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() and len(value.strip()) <= 9:  # not "²"
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 999_999_999:
            fail(f"{str(value)[:40]!r} is not a points cap (a whole number from 0)")
        return value
    if setting.kind == "int":
        if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():  # "²" is a digit to isdigit, not to int
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 64:
            fail(f"{value!r} is not a whole number from 1 to 64")
        return value
    if setting.kind == "path":
        if not isinstance(value, str) or not value.strip():
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
    if setting.kind == "pins":
        return pins(value, fail)
    if setting.kind == "source":  # a URL as written; a folder relative to the file that names it
        if not isinstance(value, str) or not value.strip():
            fail(f"expected a URL or a folder, got {value!r}")
        from forcecheck.importers.fetch import is_url  # here: only a source setting asks; a check never loads the importers

        return value if is_url(value) or not base or Path(value).is_absolute() else str(base / value)
    if setting.kind == "map":
        if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
            fail(f"expected a mapping of text to text, got {value!r}")
        for k, v in value.items():
            if v not in ("error", "warning"):
                fail(f"{k}: {v!r} is not error or warning")
        return dict(value)
    return value  # pragma: no cover


_PIN_ROLE = re.compile(r"fow/cards\.json|ygo/cards\.cdb|ygo/cards-[a-z]{2,3}\.cdb|ygo/lflist\.conf")
_SHA256 = re.compile(r"[0-9a-fA-F]{64}")


def pins(value: Any, fail: Callable[[str], None], fail_at: Callable[[str], Callable[[str], None]] | None = None) -> dict[str, str]:
    """``pins:``: a mirror place (``fow/cards.json``) -> the sha256 its file must have
    (``fail_at(role)``: the failer naming that entry's line)."""
    if not isinstance(value, dict):
        fail(f"expected a mapping of files (fow/cards.json, ygo/cards.cdb, ...) to sha256, got {value!r}")
    pins = {}
    for role, digest in value.items():
        entry = fail_at(role) if fail_at else fail
        if not isinstance(role, str) or not _PIN_ROLE.fullmatch(role):
            entry(f"{role!r} is not a file catalog fetch imports (fow/cards.json, ygo/cards.cdb, ygo/cards-LANG.cdb, ygo/lflist.conf)")
        if not isinstance(digest, str) or not _SHA256.fullmatch(digest.strip()):
            entry(f"{role}: {digest!r} is not a sha256 (64 hexadecimal digits)")
        pins[role] = digest.strip().lower()
    return pins


def file_failer(name: str, path: Path, line: int | None) -> Callable[[str], None]:
    def fail(message: str) -> None:
        raise ConfigError(f"{name}: {message}", path, line)

    return fail


def env_failer(variable: str) -> Callable[[str], None]:
    def fail(message: str) -> None:
        raise ConfigError(f"{variable}: {message}")

    return fail
