"""Reading user files safely: size cap, regular files only, no binary, clear decoding errors.

Every reader goes through :func:`read_text` so that the same hostile inputs (a FIFO, a 2 GiB
file, a PNG, Shift_JIS bytes) give the same one-line error everywhere.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

from forcecheck.errors import InputFileError

MAX_FILE_BYTES = 1024 * 1024
"""Decklists and specs are small; anything over 1 MiB is refused rather than parsed."""


STDIN = "-"
"""The path that names standard input (``forcecheck check - -f ygo-tcg``, a pasted ydke code)."""
_stdin: list[bytes] = []


def read_bytes(path: Path, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """Return the file's bytes or raise InputFileError naming the file; ``-`` is standard input
    (read once, with the same size limit)."""
    if str(path) == STDIN:
        return _read_stdin(path, max_bytes)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise InputFileError("no such file or directory", path) from None
    except OSError as exc:
        raise InputFileError(f"cannot read: {exc.strerror or exc}", path) from None
    if stat.S_ISDIR(st.st_mode):
        raise InputFileError("a folder, not a file", path)
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


def _read_stdin(path: Path, max_bytes: int) -> bytes:
    import sys

    if not _stdin:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise InputFileError("standard input is closed", path)
        try:
            _stdin.append(stream.read(max_bytes + 1))
        except OSError as exc:
            raise InputFileError(f"cannot read standard input: {exc.strerror or exc}", path) from None
    data = _stdin[0]
    if len(data) > max_bytes:
        raise InputFileError(f"standard input is over the {max_bytes:,}-byte limit", path)
    return data


def decode_text(data: bytes, path: Path) -> str:
    """Decode UTF-8 (a BOM is allowed); refuse binary data and other encodings with the line."""
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise InputFileError("binary file (contains NUL bytes), not text", path, line)
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
    """Write a file by calling ``write(handle)``, so that a failed or interrupted write leaves the
    previous file exactly as it was, and the file stays what it was:

    - a symbolic link is written through: its target gets the new content, the link stays;
    - the mode (and, as root, the owner) of the file is kept; a new file gets the umask's mode;
    - a file with several hard links is rewritten in place, so every link keeps sharing it
      (the space is reserved first, so a full disk fails before a byte changes);
    - anything else is written to a sibling temporary file, flushed to disk and renamed over it;
    - what is not a regular file (a FIFO, a device, a directory) is never replaced: InputFileError.
    """
    target = os.path.realpath(path)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise InputFileError("not a regular file (a FIFO, device or folder is not replaced)", path)
    if st is not None and st.st_nlink > 1:
        _write_in_place(target, write, newline)
        return
    tmp = _write_temporary(target, write, newline, st)
    try:
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _write_temporary(target: str, write, newline: str | None, st: os.stat_result | None) -> str:
    """A sibling temporary file holding the new content (synced), with the mode and owner of
    the file it will replace; removed again if anything fails."""
    import tempfile

    folder, name = os.path.split(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
    except OSError as exc:
        if st is None:  # no such folder, no permission: the OS's answer is the file's
            raise
        # the file is there but no file can be made beside it (/proc, a folder without write permission)
        raise OSError(exc.errno, f"no file can be made beside it in {folder or '.'} to write it through ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask())
        if st is not None and hasattr(os, "chown") and os.geteuid() == 0 and (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
            with contextlib.suppress(OSError):
                os.chown(tmp, st.st_uid, st.st_gid)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def _write_in_place(target: str, write, newline: str | None) -> None:
    """Overwrite a hard-linked file's content where it is, after reserving the space it needs."""
    import io

    buffer = io.StringIO(newline=newline)
    write(buffer)
    data = buffer.getvalue().encode("utf-8")
    with open(target, "r+b") as fh:
        if data and hasattr(os, "posix_fallocate"):
            try:
                os.posix_fallocate(fh.fileno(), 0, len(data))
            except OSError as exc:
                if exc.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
                    raise
        fh.write(data)
        fh.truncate()
        fh.flush()
        os.fsync(fh.fileno())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
