"""``forcecheck catalog fetch fow|ygo``: the public card data downloaded and imported in one step.

Each game's data is a few files, each with a place in a *mirror* (``role``) and a public
address it is downloaded from by default:

==========================  =========================================================================
``fow/cards.json``          Force-of-Wind/fowsim ``cardDatabase/static/cards.json`` (the fowsim card
                            database; repository licence AGPL-3.0)
``ygo/cards.cdb``           ProjectIgnis/BabelCDB ``cards.cdb`` (EDOPro's English card database; the
                            repository states no licence)
``ygo/cards-<lang>.cdb``    mycard/ygopro-database ``locales/<lang>-<REGION>/cards.cdb`` (the YGOPro
                            clients' database in that language, same schema; no licence stated)
``ygo/lflist.conf``         Fluorohydride/ygopro ``lflist.conf`` (every OCG and TCG Forbidden/Limited
                            list since 2011.9.1; repository licence GPL-2.0)
==========================  =========================================================================

``--source`` names a mirror laid out by role, as a base URL or a folder (offline machines, CI
caches, the tests). Every file is downloaded in full (into a hidden folder beside the catalog,
removed whatever happens) and checked before the catalog is touched: an HTTP error, a download
cut short (fewer bytes than announced), an HTML page served in the file's place, a file of the
wrong kind or a file whose sha256 is not the configured pin (``pins:``) stops the fetch with
one line naming its address, and the catalog stays exactly as it was. Then every file is
imported in one swap (``pipeline.store_sources``) with its address, size, sha256 and time.

Downloads use the standard library (``urllib``): it reads ``http_proxy`` / ``https_proxy`` /
``no_proxy`` from the environment and verifies HTTPS certificates; a timeout bounds every
connection and every read.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from forcecheck.errors import ForcecheckError
from forcecheck.records import Record

GAMES = ("fow", "ygo")

DEFAULT_ADDRESSES = {
    "fow/cards.json": "https://raw.githubusercontent.com/Force-of-Wind/fowsim/main/cardDatabase/static/cards.json",
    "ygo/cards.cdb": "https://raw.githubusercontent.com/ProjectIgnis/BabelCDB/master/cards.cdb",
    "ygo/lflist.conf": "https://raw.githubusercontent.com/Fluorohydride/ygopro/master/lflist.conf",
}
"""Where each file comes from by default (raw files of the repositories' default branches)."""

LOCALE_FOLDERS = {
    "ja": "ja-JP", "ko": "ko-KR", "zh": "zh-CN", "de": "de-DE", "fr": "fr-FR", "it": "it-IT", "es": "es-ES", "pt": "pt-PT",
}
"""The languages of mycard/ygopro-database's ``locales/`` folders (its English one is older than BabelCDB's)."""

LOCALE_ADDRESS = "https://raw.githubusercontent.com/mycard/ygopro-database/master/locales/{folder}/cards.cdb"

SOURCE_NOTES = {
    "fow/cards.json": "Force-of-Wind/fowsim (AGPL-3.0)",
    "ygo/cards.cdb": "ProjectIgnis/BabelCDB (no licence stated)",
    "ygo/cards-*.cdb": "mycard/ygopro-database (no licence stated)",
    "ygo/lflist.conf": "Fluorohydride/ygopro (GPL-2.0)",
}

MAX_BYTES = 512 * 1024 * 1024
"""No card file is near this; a source that sends more is not one."""

TIMEOUT = 60.0
"""Seconds to wait for a connection or for the next piece of a download."""

CHUNK = 1 << 16


class Source(Record):
    """One file to fetch: its ``role`` in a mirror, its ``address`` (a URL or a file), the
    importer that reads it (``fowsim``, ``ygopro``, ``banlist``) and the language of its names."""

    role: str
    address: str
    importer: str
    locale: str

    def __init__(self, role: str, address: str, importer: str, locale: str = "en") -> None:
        self.role = role
        self.address = address
        self.importer = importer
        self.locale = locale


class Fetched(Record):
    """A file downloaded in full: where it is now, its size and sha256."""

    source: Source
    path: Path
    size: int
    sha256: str

    def __init__(self, source: Source, path: Path, size: int, sha256: str) -> None:
        self.source = source
        self.path = path
        self.size = size
        self.sha256 = sha256


class FetchError(ForcecheckError):
    """A source that could not be used (unreachable, cut short, not the file, changed): the
    catalog is left as it was."""


class Unreachable(FetchError):
    """No answer at all (offline, a firewall, a name that does not resolve): the files must come
    another way, and the message says which (``offline_advice``)."""


IMPORT_COMMANDS = {"fowsim": "forcecheck catalog import fowsim", "ygopro": "forcecheck catalog import ygopro",
                   "banlist": "forcecheck banlist import"}


def offline_advice(sources: list[Source], game: str) -> str:
    """How to go on without a network: each file's address, the import command for it, and the
    mirror folder that ``--source`` reads (every file under its role's path)."""
    files = "; ".join(f"{s.role} from {s.address}" for s in sources)
    by_importer: dict[str, list[str]] = {}
    for source in sources:  # one import of every file an importer reads (a database and its names in other languages)
        by_importer.setdefault(source.importer, []).append(source.role.split("/")[-1])
    commands = " and ".join(f"'{IMPORT_COMMANDS[importer]} {' '.join(names)}'" for importer, names in by_importer.items())
    roles = ", ".join(s.role for s in sources)
    return (f"to go on without this network, download the files on a machine that has one ({files}), then import them "
            f"with {commands}, or put them in a folder as {roles} and run 'forcecheck catalog fetch {game} --source FOLDER'")


def locale_role(lang: str) -> str:
    return f"ygo/cards-{lang}.cdb"


def plan(game: str, locales: Iterable[str] = (), base: str | None = None) -> list[Source]:
    """The files ``game`` needs, from the mirror ``base`` (a URL or a folder) or, without one,
    from the public addresses. ``locales`` are language codes (``ja``) of extra YGOPro databases."""
    from forcecheck.importers.locales import locale_code

    if game not in GAMES:
        raise FetchError(f"no game {game!r} to fetch (games: {', '.join(GAMES)})")
    langs = []
    for raw in locales:
        lang = locale_code(raw)
        if lang is None:
            raise FetchError(f"--locale {raw!r} is not a language code (e.g. ja)")
        if lang != "en" and lang not in langs:
            langs.append(lang)
    if game == "fow":
        if langs:
            raise FetchError("--locale: the Force of Will card data (fowsim) has English names only; locales are for ygo")
        roles = [("fow/cards.json", "fowsim", "en")]
    else:
        if base is None:
            unknown = [lang for lang in langs if lang not in LOCALE_FOLDERS]
            if unknown:
                raise FetchError(f"--locale {unknown[0]}: no public YGOPro database in that language is known "
                                 f"(known: {', '.join(LOCALE_FOLDERS)}); a mirror (--source) may hold ygo/cards-{unknown[0]}.cdb")
        roles = [("ygo/cards.cdb", "ygopro", "en"), *((locale_role(lang), "ygopro", lang) for lang in langs), ("ygo/lflist.conf", "banlist", "en")]
    return [Source(role, _address(role, lang, base), importer, lang) for role, importer, lang in roles]


def _address(role: str, lang: str, base: str | None) -> str:
    if base is None:
        if role in DEFAULT_ADDRESSES:
            return DEFAULT_ADDRESSES[role]
        return LOCALE_ADDRESS.format(folder=LOCALE_FOLDERS[lang])
    if is_url(base):
        return base.rstrip("/") + "/" + role
    return str(Path(base, *role.split("/")).absolute())


def is_url(text: str) -> bool:
    return text.split(":", 1)[0].lower() in ("http", "https", "file", "ftp") and "://" in text


def check_source(base: str) -> None:
    """A ``--source`` that is no URL must be a folder (a mirror laid out by role)."""
    if not is_url(base) and not os.path.isdir(base):
        why = "not a folder" if os.path.lexists(base) else "no such folder"
        raise FetchError(f"--source {base}: {why}; name a mirror folder (fow/cards.json, ygo/cards.cdb, ...) or a base URL")


# -- downloading ---------------------------------------------------------------------------------

def download(source: Source, folder: Path, timeout: float = TIMEOUT, progress: Callable | None = None) -> Fetched:
    """``source`` into ``folder``, whole and checked to be no HTML page, or FetchError naming its
    address. ``progress(role, done, total)`` is told how far it got (``total`` None when unknown)."""
    target = folder / source.role.replace("/", "__")
    if not is_url(source.address):
        return _copy(source, target, progress)
    import http.client
    import socket
    import urllib.error
    import urllib.request

    from forcecheck import __version__

    request = urllib.request.Request(source.address, headers={"User-Agent": f"forcecheck/{__version__}"})
    where = source.address
    digest = hashlib.sha256()
    size = 0
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:  # proxies: the environment's (urllib's ProxyHandler)
            expected = _length(answer.headers.get("Content-Length"))
            html = "text/html" in (answer.headers.get("Content-Type") or "").lower()
            if expected is not None and expected > MAX_BYTES:
                raise FetchError(f"{where}: the server announces {expected:,} bytes, more than any card file ({MAX_BYTES:,})")
            with open(target, "wb") as out:
                if progress:
                    progress(source.role, 0, expected)
                while True:
                    piece = answer.read(CHUNK)
                    if not piece:
                        break
                    if size == 0 and (html or _looks_like_html(piece)):
                        raise FetchError(f"{where}: the server sent an HTML page, not the {source.role} file (an error or sign-in page?)")
                    size += len(piece)
                    if size > MAX_BYTES:
                        raise FetchError(f"{where}: more than {MAX_BYTES:,} bytes, more than any card file")
                    digest.update(piece)
                    out.write(piece)
                    if progress:
                        progress(source.role, size, expected)
            if expected is not None and size != expected:
                raise FetchError(f"{where}: the download was cut short ({size:,} of {expected:,} bytes)")
    except FetchError:
        raise
    except urllib.error.HTTPError as exc:
        raise FetchError(f"{where}: the server answered HTTP {exc.code} {exc.reason}") from None
    except http.client.IncompleteRead as exc:
        got = size + len(exc.partial or b"")
        total = f" of {got + exc.expected:,}" if exc.expected else ""
        raise FetchError(f"{where}: the download was cut short ({got:,}{total} bytes)") from None
    except TimeoutError:
        raise Unreachable(f"{where}: no answer within {timeout:g} s (--timeout)") from None
    except urllib.error.URLError as exc:
        raise Unreachable(f"{where}: cannot reach it ({_reason(exc.reason)})") from None
    except http.client.HTTPException as exc:
        raise FetchError(f"{where}: the server's answer is broken ({type(exc).__name__}: {exc})") from None
    except OSError as exc:
        if isinstance(exc, (ConnectionError, socket.gaierror)) or target.parent.exists():
            raise Unreachable(f"{where}: the connection failed ({_reason(exc)})") from None
        raise FetchError(f"cannot write the download beside the catalog ({exc.strerror or exc})") from None
    if size == 0:
        raise FetchError(f"{where}: the server sent an empty file")
    return Fetched(source, target, size, digest.hexdigest())


def _copy(source: Source, target: Path, progress: Callable | None) -> Fetched:
    """A mirror folder's file, copied as a download would be (so the import reads one snapshot)."""
    where = source.address
    if not os.path.isfile(where):
        raise FetchError(f"{where}: no such file in the mirror" if not os.path.lexists(where) else f"{where}: not a file")
    digest = hashlib.sha256()
    size = 0
    try:
        with open(where, "rb") as src, open(target, "wb") as out:
            while True:
                piece = src.read(CHUNK)
                if not piece:
                    break
                if size == 0 and _looks_like_html(piece):
                    raise FetchError(f"{where}: an HTML page, not the {source.role} file")
                size += len(piece)
                if size > MAX_BYTES:
                    raise FetchError(f"{where}: more than {MAX_BYTES:,} bytes, more than any card file")
                digest.update(piece)
                out.write(piece)
                if progress:
                    progress(source.role, size, None)
    except OSError as exc:
        raise FetchError(f"{where}: cannot read it ({exc.strerror or exc})") from None
    if size == 0:
        raise FetchError(f"{where}: an empty file")
    return Fetched(source, target, size, digest.hexdigest())


def _length(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _looks_like_html(first: bytes) -> bool:
    head = first[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return head.startswith((b"<!doctype html", b"<html", b"<head", b"<body"))


def _reason(reason: object) -> str:
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror
    return str(reason) or type(reason).__name__


# -- checking and importing ----------------------------------------------------------------------

def check_pin(fetched: Fetched, pins: dict[str, str], pin_source: str | None) -> None:
    """A configured pin (``pins: {ROLE: sha256}``) the file must match, or FetchError saying which file changed."""
    pinned = pins.get(fetched.source.role)
    if pinned and pinned.lower() != fetched.sha256:
        where = f" ({pin_source})" if pin_source else ""
        raise FetchError(
            f"{fetched.source.address}: the file changed: its sha256 is {fetched.sha256}, the pin for {fetched.source.role} "
            f"in pins{where} is {pinned.lower()}; update the pin after checking the new file, or fetch from a mirror of the pinned one"
        )


def read_fetched(fetched: Fetched):
    """What the file holds, read by its importer: a ``pipeline.SourceFile`` of card records, or
    (SourceFile, lists) for a Forbidden/Limited list. A file of the wrong kind is a FetchError
    naming its address (never the temporary file)."""
    from forcecheck.importers.pipeline import SourceFile, read_card_file

    source = fetched.source
    try:
        if source.importer == "banlist":
            from forcecheck.banlists import read_banlist_file, refuse_unread

            lists, _warnings = read_banlist_file(fetched.path)
            if any(b.game != "ygo" for b in lists):
                raise ForcecheckError("not an lflist.conf (a banned-list JSON)")
            for banlist in lists:  # as banlist import: stored without a line, the card there would go unchecked
                refuse_unread(banlist, source.address)
            for banlist in lists:
                banlist.source = source.address
            return SourceFile("banlist", source.address, fetched.sha256, fetched.size, [], role=source.role, via="fetch"), lists
        read = read_card_file(source.importer, fetched.path, source.locale, address=source.address)
    except ForcecheckError as exc:
        raise FetchError(f"{source.address}: not the {source.role} file: {exc.message}") from None
    return SourceFile(source.importer, source.address, fetched.sha256, fetched.size, read.records, read.locale,
                      role=source.role, via="fetch")


class FetchResult(Record):
    fetched: list[Fetched]
    imported: object
    """The ``pipeline.ImportResult`` of the import."""

    def __init__(self, fetched: list[Fetched], imported: object) -> None:
        self.fetched = fetched
        self.imported = imported


def fetch_into(
    sources: list[Source],
    db: Path,
    pins: dict[str, str] | None = None,
    pin_source: str | None = None,
    timeout: float = TIMEOUT,
    progress: Callable | None = None,
    fetched_one: Callable[[Fetched], None] | None = None,
) -> FetchResult:
    """Download every source, check each (pins, kind), then import them all in one swap of
    ``db``. The downloads live in a hidden folder beside the catalog, removed whatever happens;
    any failure raises before the catalog is touched."""
    from forcecheck.importers.pipeline import store_sources

    start = time.perf_counter()
    folder = download_folder(db)
    try:
        fetched = []
        for source in sources:
            got = download(source, folder, timeout, progress)
            check_pin(got, pins or {}, pin_source)
            fetched.append(got)
            if fetched_one:
                fetched_one(got)
        read = [read_fetched(item) for item in fetched]
        cards = [item for item in read if not isinstance(item, tuple)]
        lists = [item for item in read if isinstance(item, tuple)]
        imported = store_sources(cards, db, lists, start=start)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return FetchResult(fetched, imported)


def download_folder(db: Path) -> Path:
    """A new hidden folder beside the catalog for this fetch's downloads (``.CATALOG.fetch-PID``:
    on the catalog's file system, and found again by ``remove_dead_downloads`` if this process
    is killed)."""
    db = Path(db)
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
        remove_dead_downloads(db)
        folder = db.with_name(f".{db.name}.fetch-{os.getpid()}")
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
    except OSError as exc:
        raise FetchError(f"cannot make a folder for the downloads beside the catalog {db} ({exc.strerror or exc})") from None
    return folder


def remove_dead_downloads(db: Path) -> None:
    """Download folders of fetches into ``db`` that were killed (their process is gone)."""
    import glob

    for leftover in Path(db).parent.glob(f".{glob.escape(Path(db).name)}.fetch-*"):
        pid = leftover.name.rsplit("-", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(leftover, ignore_errors=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's process
    return True
