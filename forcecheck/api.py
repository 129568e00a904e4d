"""The library's front door for programs: check a decklist's text, verify a played list, fingerprint.

The registration desk (``forcecheck.web``) calls these and nothing deeper, so a web request and a
CLI run of the same list give the same JSON deck object (``DeckReport.to_dict``, README "JSON
output": verdict, violations, ``sections`` as placed, ``ruler``, ``corrections``). In the spirit
of sqlfluff's ``api/simple``.

A :class:`Checker` holds one catalog and the compiled formats per event date (the banlist in force
on that date applies). Compiled formats keep per-card memos that checks fill in, and an imported
SQLite catalog is bound to the thread that opened it, so one Checker serves one thread at a time:
the desk runs all its checks on one worker thread (checks are CPU-bound Python, so more threads
would not check faster anyway).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from forcecheck.errors import ForcecheckError, InputFileError
from forcecheck.textfile import MAX_FILE_BYTES

UPLOAD_SUFFIXES = (".txt", ".yaml", ".yml", ".ydk", ".deck", ".dek")
"""Decklist files a player may upload; anything else is refused with its name."""


class DecklistTooLarge(InputFileError):
    """A decklist over the size the CLI reads (``textfile.MAX_FILE_BYTES``)."""


@dataclass(frozen=True)
class FormatInfo:
    name: str
    title: str
    game: str
    sections: tuple[tuple[str, str], ...]
    """(section id, title) in the format's order."""
    has_sideboard: bool

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "game": self.game,
                "sections": [{"id": i, "title": t} for i, t in self.sections], "sideboard": self.has_sideboard}


class Checker:
    """Check decklist texts against formats with one catalog; formats compiled once per event date."""

    def __init__(self, catalog: str | Path | None = None, format_dirs: Iterable[str | Path] = ()):
        self.catalog_choice = catalog
        self.format_dirs = [str(d) for d in format_dirs]
        self._catalog = None
        self._caches: dict[str | None, Any] = {}

    # -- what the checks run with -------------------------------------------------------------
    @property
    def catalog(self):
        """The card catalog, opened on first use (in the thread that checks)."""
        if self._catalog is None:
            from forcecheck.cards.catalog import open_catalog

            self._catalog = open_catalog(self.catalog_choice)
        return self._catalog

    def formats(self, as_of: str | None = None):
        """The FormatCache for an event date (``None``: today)."""
        cache = self._caches.get(as_of)
        if cache is None:
            from forcecheck.checking import FormatCache

            cache = self._caches[as_of] = FormatCache(self.format_dirs, None, self.catalog, as_of)
        return cache

    def compiled(self, format_name: str, as_of: str | None = None):
        """The compiled format (raises ForcecheckError for an unknown or broken format)."""
        return self.formats(as_of).get(format_name)

    def format_names(self) -> list[str]:
        from forcecheck.spec.loader import available_formats

        return sorted(available_formats(self.format_dirs))

    def describe_format(self, format_name: str, as_of: str | None = None) -> FormatInfo:
        fmt = self.compiled(format_name, as_of)
        spec = fmt.spec
        return FormatInfo(spec.name, getattr(spec, "title", None) or spec.name, spec.game,
                          tuple((s.id, s.title) for s in spec.sections), spec.sideboard is not None)

    def banlist_for(self, format_name: str, as_of: str | None = None) -> str | None:
        """The banlist the format applies on ``as_of`` (None: none)."""
        return self.compiled(format_name, as_of).banlist

    # -- reading -------------------------------------------------------------------------------
    def _read(self, text: str, format_name: str, as_of: str | None, filename: str):
        size = len(text.encode("utf-8"))
        if size > MAX_FILE_BYTES:
            raise DecklistTooLarge(f"decklist is {size:,} bytes, over the {MAX_FILE_BYTES:,}-byte limit", filename)
        from forcecheck.decklists.readers import parse_decklist

        fmt = self.compiled(format_name, as_of)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        deck = parse_decklist(text, filename, fmt.known_headers, suffix=Path(filename).suffix.lower())
        return deck, fmt

    # -- the front door ------------------------------------------------------------------------
    def check_text(self, text: str, format_name: str, as_of: str | None = None, filename: str = "decklist.txt") -> dict[str, Any]:
        """The JSON deck object for a decklist text (``error`` set when it cannot be read).

        Raises DecklistTooLarge over the CLI's size cap, and ForcecheckError for an unknown format:
        those are the caller's request, not the deck's content."""
        from forcecheck.engine import check_decklist
        from forcecheck.report.model import DeckReport

        fmt = self.compiled(format_name, as_of)
        try:
            deck, fmt = self._read(text, format_name, as_of, filename)
        except DecklistTooLarge:
            raise
        except InputFileError as exc:
            return DeckReport(path=filename, format=fmt.spec.name, error=str(exc)).to_dict()
        return check_decklist(deck, fmt, self.catalog).to_dict()

    def check_bytes(self, data: bytes, filename: str, format_name: str, as_of: str | None = None) -> dict[str, Any]:
        """As check_text, for an uploaded file: size-capped, UTF-8 (as the CLI reads files)."""
        return self.check_text(self.decode_upload(data, filename), format_name, as_of, filename)

    @staticmethod
    def decode_upload(data: bytes, filename: str) -> str:
        """The text of an uploaded decklist, or InputFileError naming the file (and line)."""
        from forcecheck.textfile import decode_text

        suffix = Path(filename).suffix.lower()
        if suffix not in UPLOAD_SUFFIXES:
            raise InputFileError(f"not a decklist file ({suffix or 'no extension'}); upload a {', '.join(UPLOAD_SUFFIXES[:3])} or .ydk file", filename)
        if len(data) > MAX_FILE_BYTES:
            raise DecklistTooLarge(f"file is {len(data):,} bytes, over the {MAX_FILE_BYTES:,}-byte limit", filename)
        return decode_text(data, Path(filename))

    def contents(self, text: str, format_name: str, as_of: str | None = None, filename: str = "decklist.txt") -> list[dict[str, Any]]:
        """Every section of the deck with its cards and counts, in the format's order (what a
        deck registration sheet prints). Cards are canonical names, unknown ones as written."""
        from forcecheck.canonical import canonical_sections

        deck, fmt = self._read(text, format_name, as_of, filename)
        out = []
        for group in canonical_sections(deck, fmt, self.catalog):
            cards = [{"name": e.name, "count": e.count, "known": e.known} for e in group.entries if e.count_ok]
            out.append({"id": group.key, "title": group.title or "(before any header)",
                        "count": sum(c["count"] for c in cards), "cards": cards})
        return out

    def fingerprint_text(self, text: str, format_name: str, as_of: str | None = None, filename: str = "decklist.txt") -> str:
        from forcecheck.canonical import fingerprint

        deck, fmt = self._read(text, format_name, as_of, filename)
        return fingerprint(deck, fmt, self.catalog)

    def verify_texts(self, registered: str, played: str, format_name: str, as_of: str | None = None,
                     names: tuple[str, str] = ("registered.txt", "played.txt")) -> dict[str, Any]:
        """``forcecheck verify``'s JSON answer: is ``played`` the registered list or a legal
        sideboard exchange of it, and is the played deck legal."""
        from forcecheck.engine import check_decklist
        from forcecheck.verify import compare

        deck_a, fmt = self._read(registered, format_name, as_of, names[0])
        deck_b, _ = self._read(played, format_name, as_of, names[1])
        verdict = compare(deck_a, deck_b, fmt, self.catalog)
        errors = [v for v in check_decklist(deck_b, fmt, self.catalog).violations if v.severity == "error"]
        return verdict.to_dict() | {"format": fmt.spec.name, "played_violations": [v.to_dict() for v in errors],
                                    "ok": verdict.ok and not errors}


_DEFAULT: Checker | None = None


def _default() -> Checker:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Checker()
    return _DEFAULT


def check_text(text: str, format_name: str, as_of: str | None = None, filename: str = "decklist.txt") -> dict[str, Any]:
    """Check a decklist text with the default catalog (see Checker.check_text)."""
    return _default().check_text(text, format_name, as_of, filename)


def verify_texts(registered: str, played: str, format_name: str, as_of: str | None = None) -> dict[str, Any]:
    """Verify a played list against a registered one with the default catalog (Checker.verify_texts)."""
    return _default().verify_texts(registered, played, format_name, as_of)


def fingerprint_text(text: str, format_name: str, as_of: str | None = None, filename: str = "decklist.txt") -> str:
    """The fingerprint of a decklist text with the default catalog."""
    return _default().fingerprint_text(text, format_name, as_of, filename)


__all__ = ["Checker", "DecklistTooLarge", "FormatInfo", "ForcecheckError", "check_text", "fingerprint_text", "verify_texts"]
