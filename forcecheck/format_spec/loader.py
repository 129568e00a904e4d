"""Finding and loading format specs: YAML -> merged ``extends`` -> validated ``FormatSpec``.

Errors name the file, the line and the key (``formats/x.yaml:12: rules[3].max: ...``), taken
from the YAML node that the pydantic error points at, in whichever file of an ``extends``
chain defined it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forcecheck.errors import ForcecheckError, SpecError
from forcecheck.records import Record
from forcecheck.textfile import read_text

if TYPE_CHECKING:
    from forcecheck.yamlsafe import LinedYaml

MAX_EXTENDS_DEPTH = 8


def builtin_formats_dir() -> Path:
    """``forcecheck/formats`` in an installed wheel; the repository's ``formats/`` in a checkout."""
    packaged = Path(__file__).resolve().parent.parent / "formats"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent.parent / "formats"


def format_dirs(extra: Iterable[str | Path] = ()) -> list[Path]:
    """Search order: extra directories first (a team's own formats win), then the built-ins.
    An extra directory that is not one is an error: a mistyped path would leave the built-in
    formats in force without a word."""
    dirs = [Path(d) for d in extra]
    env = os.environ.get("FORCECHECK_FORMATS_PATH")
    if env:
        dirs.extend(Path(p) for p in env.split(os.pathsep) if p)
    for folder in dirs:
        problem = unusable_format_dir(folder)
        if problem:
            raise SpecError(f"{problem} of format files (--formats-dir, format_dirs or FORCECHECK_FORMATS_PATH)", folder)
    dirs.append(builtin_formats_dir())
    return dirs


def unusable_format_dir(folder: str | Path) -> str | None:
    """Why a folder named to hold format files cannot (``no such folder``, ``not a folder``), or None."""
    if os.path.isdir(folder):
        return None
    return "not a folder" if os.path.lexists(folder) else "no such folder"


def available_formats(extra: Iterable[str | Path] = ()) -> dict[str, Path]:
    """Format name -> spec file, first directory wins."""
    found: dict[str, Path] = {}
    for directory in format_dirs(extra):
        if not directory.is_dir():
            continue
        for path in sorted(directory.glob("*.yaml")) + sorted(directory.glob("*.yml")):
            found.setdefault(path.stem, path)
    return found


def find_format(name_or_path: str, extra: Iterable[str | Path] = ()) -> Path:
    candidate = Path(name_or_path)
    if candidate.suffix in (".yaml", ".yml") and os.path.lexists(candidate):
        return candidate  # a file, or what is there under that name: reading it says what is wrong (a folder, a FIFO)
    formats = available_formats(extra)
    if name_or_path in formats:
        return formats[name_or_path]
    folded = {name.casefold(): name for name in sorted(formats, reverse=True)}  # 'Bifrost' is bifrost
    if name_or_path.casefold() in folded:
        return formats[folded[name_or_path.casefold()]]
    choices = ", ".join(sorted(formats)) or "none"
    from forcecheck.wording import close_names, did_you_mean

    near = close_names(name_or_path, formats)
    hint = f"; {did_you_mean(near)}" if near else ""
    raise SpecError(f"unknown format {name_or_path!r}{hint} (available: {choices})")


def canonical_format_name(name: str, extra: Iterable[str | Path] = ()) -> str:
    """The name of the format ``name`` means, as ``formats list`` spells it (``Bifrost`` ->
    ``bifrost``), so settings per format (``formats: {bifrost: ...}``) find it; a file path or
    an unknown name is returned as given (finding it says what is wrong)."""
    if Path(name).suffix in (".yaml", ".yml"):
        return name
    formats = available_formats(extra)
    if name in formats:
        return name
    return next((known for known in sorted(formats) if known.casefold() == name.casefold()), name)


class _Origin(Record):
    """Which file (and which path inside it) a merged value came from, for error lines."""

    path: Path
    doc: LinedYaml
    prefix: tuple

    def __init__(self, path: Path, doc: LinedYaml, prefix: tuple) -> None:
        self.path = path
        self.doc = doc
        self.prefix = prefix


def load_format_cached(name_or_path: str, extra: Iterable[str | Path] = ()):
    """The spec as ``load_format`` gives it, from the spec cache when no file changed since it
    was last validated (forcecheck.format_spec.cache): what checking uses, to start fast."""
    from forcecheck.format_spec import cache

    path = find_format(name_or_path, extra)
    cached = cache.load_cached(path)
    if cached is not None:
        return cached
    spec, files = _validate(path, list(extra))
    cache.store(path, files, spec)
    return spec


def load_format(name_or_path: str, extra: Iterable[str | Path] = ()):
    """Load, merge and validate a format spec by name or file path."""
    return _validate(find_format(name_or_path, extra), list(extra))[0]


def _validate(path: Path, extra: list):
    """(FormatSpec, every file it was built from)."""
    from pydantic import ValidationError

    from forcecheck.format_spec.model import FormatSpec

    merged, origins = _load_merged(path, extra, seen=())
    files = sorted({o.path for o in origins.values()} | {path})
    try:
        return FormatSpec.model_validate(merged), files
    except ValidationError as exc:
        errors = exc.errors()
        # An unknown key is told first: it is the usual cause of a "Field required" beside it
        # (``sectons:`` for ``sections:``), and the one a did-you-mean can fix.
        error = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
        loc = tuple(error["loc"])
        data_path = _data_path(merged, loc)
        message = error["msg"]
        if error["type"] == "union_tag_invalid":
            data_path = data_path + ("kind",)
            ctx = error.get("ctx", {})
            message = f"unknown rule kind {ctx.get('tag')!r} (kinds: {ctx.get('expected_tags', '')})"
        elif error["type"] == "extra_forbidden":
            message = f"unknown key {data_path[-1]!r}" if data_path else "unknown key"
            if data_path and isinstance(data_path[-1], str):
                from forcecheck.wording import close_names, did_you_mean

                near = close_names(data_path[-1], [k for k in _spec_keys() if k != data_path[-1]])  # never the key it refused
                message += f"; {did_you_mean(near)}" if near else ""
        elif error["type"] in ("literal_error", "enum") and isinstance(error.get("input"), str):
            import re

            from forcecheck.wording import close_names, did_you_mean

            choices = re.findall(r"'([^']*)'", str(error.get("ctx", {}).get("expected", "")))
            near = close_names(error["input"], choices)
            message = f"{error['input']!r} is not one of {', '.join(repr(c) for c in choices)}" + (f"; {did_you_mean(near)}" if near else "")
        elif error["type"] == "unknown_section":
            data_path = ("rules", error["ctx"]["index"], "sections")
        origin = _origin_for(origins, data_path)
        in_file = _in_file(origin, data_path)
        line = origin.doc.line_of(in_file)
        where = _describe(in_file if origin.prefix else data_path, merged, data_path)
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise SpecError(f"{where}: {message}{more}" if where else f"{message}{more}", origin.path, line) from None


def _spec_keys() -> list[str]:
    """Every key a format spec may hold at any depth (the models' field names and aliases): the
    words a misspelt key is compared with."""
    from pydantic import BaseModel

    from forcecheck.format_spec import model

    keys: set[str] = set()
    for value in vars(model).values():
        if isinstance(value, type) and issubclass(value, BaseModel) and value is not BaseModel:
            for name, field in value.model_fields.items():
                keys.add(field.alias or name)
    return sorted(keys)


def _in_file(origin: _Origin, data_path: tuple) -> tuple:
    """Translate a merged-data path to the path inside the origin file."""
    if data_path[:1] in (("rules",), ("sections",)) and len(data_path) >= 2:
        return origin.prefix + data_path[2:]
    return data_path


def _load_merged(path: Path, extra: list, seen: tuple) -> tuple[dict, dict]:
    if path.resolve() in seen:
        raise SpecError("extends: loop (" + " -> ".join(p.name for p in seen) + f" -> {path.name})", path)
    if len(seen) >= MAX_EXTENDS_DEPTH:
        raise SpecError(f"extends: chain deeper than {MAX_EXTENDS_DEPTH}", path)
    from forcecheck.yamlsafe import (
        load_yaml,  # PyYAML only when a spec is read, not on a cache hit
    )

    try:
        doc = load_yaml(read_text(path), path)
    except ForcecheckError as exc:
        raise SpecError(exc.message, exc.path, exc.line) from None
    data = doc.data
    if not isinstance(data, dict):
        raise SpecError("a format spec must be a YAML mapping", path, doc.line_of(()))
    own: dict[tuple, _Origin] = {}
    for key in data:
        own[(key,)] = _Origin(path, doc, ())
    for list_key in ("rules", "sections"):
        items = data.get(list_key)
        if isinstance(items, list):
            for index in range(len(items)):
                own[(list_key, index)] = _Origin(path, doc, (list_key, index))
    parent_name = data.get("extends")
    if parent_name is None:
        return dict(data), own
    if not isinstance(parent_name, str):
        raise SpecError("extends: must name a format", path, doc.line_of(("extends",)))
    try:
        parent_path = find_format(parent_name, [path.parent] + extra)
    except SpecError as exc:
        raise SpecError(exc.message, path, doc.line_of(("extends",))) from None
    parent, parent_origins = _load_merged(parent_path, extra, seen + (path.resolve(),))
    return _merge(parent, parent_origins, data, own, path, doc)


def _merge(parent: dict, p_origins: dict, child: dict, c_origins: dict, path: Path, doc: LinedYaml):
    """Child keys replace the parent's; ``rules`` and ``sections`` merge by ``id``.

    ``remove_rules: [id, ...]`` in the child drops parent rules.
    """
    merged = dict(parent)
    origins = {k: v for k, v in p_origins.items() if len(k) == 1}
    remove = child.get("remove_rules", [])
    if not isinstance(remove, list) or not all(isinstance(r, str) for r in remove):
        raise SpecError("remove_rules: must be a list of rule ids", path, doc.line_of(("remove_rules",)))
    parent_ids = {r.get("id") for r in parent.get("rules", []) if isinstance(r, dict)}
    for rule_id in remove:
        if rule_id not in parent_ids:
            raise SpecError(f"remove_rules: no rule {rule_id!r} in the parent format", path, doc.line_of(("remove_rules",)))
    for key, value in child.items():
        if key in ("rules", "sections", "remove_rules", "extends"):
            continue
        merged[key] = value
        origins[(key,)] = c_origins[(key,)]
    merged["extends"] = child.get("extends")
    for list_key in ("rules", "sections"):
        base = [(item, p_origins.get((list_key, i))) for i, item in enumerate(parent.get(list_key, []))]
        if list_key == "rules":
            base = [(item, o) for item, o in base if not (isinstance(item, dict) and item.get("id") in remove)]
        child_items = child.get(list_key)
        if child_items is not None and not isinstance(child_items, list):
            merged[list_key] = child_items
            origins[(list_key,)] = c_origins[(list_key,)]
            continue
        for index, item in enumerate(child_items or []):
            origin = c_origins[(list_key, index)]
            item_id = item.get("id") if isinstance(item, dict) else None
            slot = next((i for i, (old, _o) in enumerate(base) if isinstance(old, dict) and item_id and old.get("id") == item_id), None)
            if slot is None:
                base.append((item, origin))
            else:
                base[slot] = (item, origin)
        merged[list_key] = [item for item, _o in base]
        for index, (_item, origin) in enumerate(base):
            if origin is not None:
                origins[(list_key, index)] = origin
        if (list_key,) in c_origins:
            origins[(list_key,)] = c_origins[(list_key,)]
    return merged, origins


def _data_path(data: Any, loc: tuple) -> tuple:
    """Pydantic locations include union tags (``'section-size'``); keep only real keys."""
    out: list = []
    node = data
    for part in loc:
        if isinstance(node, dict) and part in node:
            out.append(part)
            node = node[part]
        elif isinstance(node, dict) and part == "not_" and "not" in node:
            out.append("not")
            node = node["not"]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            out.append(part)
            node = node[part]
        elif isinstance(part, str) and not isinstance(node, (dict, list)):
            break
        elif isinstance(node, dict) and isinstance(part, str) and part not in node and loc[-1] == part:
            out.append(part)  # the missing or unknown key itself
    return tuple(out)


def _origin_for(origins: dict, data_path: tuple) -> _Origin:
    for length in (2, 1):
        key = data_path[:length]
        if key in origins:
            return origins[key]
    # the whole document: report against the most derived file
    return next(iter(o for k, o in origins.items() if len(k) == 1))


def _describe(path: tuple, merged: dict | None = None, data_path: tuple = ()) -> str:
    """``rules[1] (rule 'b').sections``: the path as the file that holds it counts (a child
    format's own rule index, not its place among the parent's rules), with the rule's id."""
    text = ""
    for position, part in enumerate(path):
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
        if position == 1 and path[0] == "rules" and merged is not None and len(data_path) >= 2:
            rules = merged.get("rules")
            rule = rules[data_path[1]] if isinstance(rules, list) and isinstance(data_path[1], int) and data_path[1] < len(rules) else None
            if isinstance(rule, dict) and isinstance(rule.get("id"), str):
                text += f" (rule {rule['id']!r})"
    return text
