"""Reading user files safely: size cap, regular files only, no binary, clear decoding errors.

Every reader goes through :func:`read_text` so that the same hostile inputs (a FIFO, a 2 GiB
file, a PNG, Shift_JIS bytes) give the same one-line error everywhere.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from forcecheck.errors import InputFileError

MAX_FILE_BYTES = 1024 * 1024
"""Decklists and specs are small; anything over 1 MiB is refused rather than parsed."""


def read_bytes(path: Path, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """Return the file's bytes or raise InputFileError naming the file."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise InputFileError("no such file or directory", path) from None
    except OSError as exc:
        raise InputFileError(f"cannot read: {exc.strerror or exc}", path) from None
    if not stat.S_ISREG(st.st_mode):
        raise InputFileError("not a regular file (a FIFO, device or socket is not read)", path)
    if st.st_size > max_bytes:
        raise InputFileError(
            f"file is {st.st_size:,} bytes, over the {max_bytes:,}-byte limit for this kind of file",
            path,
        )
    try:
        with open(path, "rb") as fh:
            # read what stat announced (+1 to notice growth), never a max-sized buffer
            data = fh.read(min(st.st_size, max_bytes) + 1)
            if len(data) > st.st_size and len(data) <= max_bytes:
                data += fh.read(max_bytes + 1 - len(data))  # the file grew while we read it
    except OSError as exc:
        raise InputFileError(f"cannot read: {exc.strerror or exc}", path) from None
    if len(data) > max_bytes:
        raise InputFileError(f"file is over the {max_bytes:,}-byte limit", path)
    return data


def decode_text(data: bytes, path: Path) -> str:
    """Decode UTF-8 (a BOM is allowed); refuse binary data and other encodings with the line."""
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise InputFileError("binary file (contains NUL bytes), not a decklist", path, line)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        hint = _encoding_hint(data)
        raise InputFileError(
            f"not valid UTF-8 (byte 0x{data[exc.start]:02x}){hint}; save the file as UTF-8",
            path,
            line,
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _encoding_hint(data: bytes) -> str:
    """Name a likely legacy encoding: Shift_JIS and GBK decklists are real."""
    for name, label in (("shift_jis", "Shift_JIS"), ("gbk", "GBK")):
        try:
            data.decode(name)
        except UnicodeDecodeError:
            continue
        return f"; it looks like {label}"
    return ""


def read_text(path: Path, max_bytes: int = MAX_FILE_BYTES) -> str:
    """Read a small user text file: size-capped, regular, UTF-8, newlines normalised."""
    return decode_text(read_bytes(path, max_bytes), path)


def atomic_write(path: Path, write, newline: str | None = "") -> None:
    """Write a file by calling ``write(handle)`` on a sibling temporary file, then renaming it
    over ``path``: a failed or interrupted write leaves the previous file exactly as it was."""
    import tempfile

    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=str(path.parent) if str(path.parent) else ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as handle:
            write(handle)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
