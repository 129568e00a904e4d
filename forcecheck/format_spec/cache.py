"""A cache of validated format specs, so a one-deck check starts without pydantic.

Validating a spec needs the pydantic models, and creating those classes is a large share of a
cold start. After a spec has been validated once, its data (``model_dump``) is kept in the
user cache directory with the size and modification time of every file it was built from
(the spec and its ``extends`` chain) and forcecheck's version. The next run that finds all of
them unchanged reads the data back as plain attribute objects that the compiler treats exactly
like the models (it only reads attributes). Anything unexpected is a miss: the cache can only
ever cost a validation, never change a result.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from forcecheck import __version__


def cache_dir() -> Path:
    override = os.environ.get("FORCECHECK_CACHE_DIR")
    if override:
        return Path(override)
    from platformdirs import user_cache_path

    return user_cache_path("forcecheck", appauthor=False) / "specs"


def _entry_path(root: Path) -> tuple[Path, str]:
    """The cache file of a spec and the spec's resolved path, which the entry records (two
    specs whose paths share a checksum then never read each other's entry). A CRC, not a
    cryptographic hash: hashlib's import alone is a noticeable share of a one-deck check."""
    from binascii import crc32

    resolved = str(root.resolve())
    return cache_dir() / f"{crc32(resolved.encode('utf-8', 'surrogatepass')):08x}-{root.stem[:40]}.json", resolved


def _stamp(path: Path) -> list:
    st = os.stat(path)
    return [str(path.resolve()), st.st_size, st.st_mtime_ns]


CACHE_FORMAT = 5
"""Bump when the spec models change shape: a cache written before is then not read."""

MODEL_SOURCE = Path(__file__).with_name("model.py")
"""The spec models' source is stamped with every entry, as the spec files are: between two
releases (an editable install, a checkout) the models change shape without a version or a
CACHE_FORMAT bump, and an entry written before would lack a field the compiler reads (a
``list_file`` that was not there yet stopped every ygo check with an AttributeError)."""


class SpecView(SimpleNamespace):
    """A validated spec read back from the cache: attributes like the FormatSpec model's."""

    def section(self, section_id: str):
        return next(s for s in self.sections if s.id == section_id)


PLAIN_MAPPINGS = frozenset({"cards"})
"""Spec fields whose value is a mapping of data (card -> copies), not a nested model."""


def _view(value: Any, top: bool = False) -> Any:
    if isinstance(value, dict):
        items = {k: (dict(v) if k in PLAIN_MAPPINGS and isinstance(v, dict) else _view(v)) for k, v in value.items()}
        return SpecView(**items) if top else SimpleNamespace(**items)
    if isinstance(value, list):
        return [_view(v) for v in value]
    return value


def load_cached(root: Path):
    """The cached spec for ``root`` if every file it came from is unchanged, else None."""
    if os.environ.get("FORCECHECK_NO_SPEC_CACHE"):
        return None
    try:
        path, resolved = _entry_path(root)
        entry = json.loads(path.read_text(encoding="utf-8"))
        if entry.get("version") != __version__ or entry.get("cache") != CACHE_FORMAT or entry.get("root") != resolved:
            return None
        for stamp in entry["files"]:
            if _stamp(Path(stamp[0])) != stamp:
                return None
        return _view(entry["spec"], top=True)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store(root: Path, files: Iterable[Path], spec) -> None:
    """Remember a validated spec; a cache that cannot be written is simply not used."""
    if os.environ.get("FORCECHECK_NO_SPEC_CACHE"):
        return
    try:
        from forcecheck.textfile import atomic_write

        target, resolved = _entry_path(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        entry = {
            "version": __version__,
            "cache": CACHE_FORMAT,
            "root": resolved,
            "files": [_stamp(Path(f)) for f in files] + [_stamp(MODEL_SOURCE)],
            "spec": spec.model_dump(mode="json"),
        }
        atomic_write(target, lambda handle: json.dump(entry, handle, ensure_ascii=False))
    except (OSError, TypeError, ValueError):
        return
