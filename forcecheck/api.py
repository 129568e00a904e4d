"""The library's front door for programs: check a decklist's text, verify a played list, fingerprint.

The registration desk (``forcecheck.web``) calls these and nothing deeper, so a web request and a
CLI run of the same list give the same JSON deck object (``DeckReport.to_dict``, docs/output.md "JSON
output": verdict, violations, ``sections`` as placed, ``ruler``, ``corrections``). In the spirit
of sqlfluff's ``api/simple``.

A :class:`Checker` wraps a :class:`~forcecheck.session.Session`, the settings of a run resolved
once (flags > environment > configuration file > defaults): catalog, banlist choice, rule
selection and severities apply as in ``forcecheck check``. ``forcecheck serve`` builds that
Session from its own flags, the environment and the configuration it finds, as ``check`` does.
Each check takes the event's date as its as-of (the banlist versions in force that day).

A Session keeps per-card memos in its compiled formats and an imported SQLite catalog is bound to
the thread that opened it, so one Checker serves one thread at a time (:meth:`Checker.twin` gives
another thread its own, with the same settings).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    aliases: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(section id, the other titles the format reads for it: other languages among them)."""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "game": self.game,
                "sections": [{"id": i, "title": t} for i, t in self.sections], "sideboard": self.has_sideboard}


class Checker:
    """Check decklist texts with the settings of one Session (by default: those ``forcecheck
    check`` would use in the working directory, with ``catalog`` and ``format_dirs`` as its flags)."""

    def __init__(self, session=None, *, catalog: str | Path | None = None, format_dirs: Iterable[str | Path] = ()):
        if session is None:
            from forcecheck.session import Session

            session = Session.from_options({"catalog": str(catalog) if catalog else None,
                                            "format_dirs": [str(d) for d in format_dirs]})
        self.session = session

    def twin(self) -> Checker:
        """A Checker with the same resolved settings and caches of its own (for another thread)."""
        from forcecheck.session import Session

        return Checker(Session(self.session.config, self.session.warn))

    # -- what the checks run with -------------------------------------------------------------
    @property
    def catalog(self):
        """The catalog of the top-level settings, opened on first use (in the thread that checks)."""
        return self.session.main_catalog

    def compiled(self, format_name: str, as_of: str | None = None, filename: str = "decklist.txt"):
        """The compiled format (raises ForcecheckError for an unknown or broken format)."""
        return self.session.compiled(filename, format_name, as_of)[0]

    def format_names(self) -> list[str]:
        from forcecheck.format_spec.loader import available_formats

        return sorted(available_formats(self.session.format_dirs))

    def describe_format(self, format_name: str, as_of: str | None = None) -> FormatInfo:
        fmt = self.compiled(format_name, as_of)
        spec = fmt.spec
        return FormatInfo(spec.name, getattr(spec, "title", None) or spec.name, spec.game,
                          tuple((s.id, s.title) for s in spec.sections), spec.sideboard is not None,
                          tuple((s.id, tuple(s.aliases or ())) for s in spec.sections))

    def banlist_for(self, format_name: str, as_of: str | None = None) -> str | None:
        """The banlist the format applies on ``as_of`` under these settings (None: none)."""
        return self.compiled(format_name, as_of).banlist

    # -- reading -------------------------------------------------------------------------------
    def _read(self, text: str, format_name: str, as_of: str | None, filename: str):
        """(deck, compiled format, catalog, settings); DecklistTooLarge over the CLI's size cap."""
        size = len(text.encode("utf-8"))
        if size > MAX_FILE_BYTES:
            raise DecklistTooLarge(f"decklist is {size:,} bytes, over the {MAX_FILE_BYTES:,}-byte limit", filename)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        return self.session.read_text(text, format_name, filename, as_of)

    # -- the front door ------------------------------------------------------------------------
    def check_text(self, text: str, format_name: str, as_of: str | None = None, filename: str = "decklist.txt") -> dict[str, Any]:
        """The JSON deck object for a decklist text (``error`` set when it cannot be read), its
        rules selected and graded as the Session's settings say (as ``forcecheck check -o json``).

        Raises DecklistTooLarge over the CLI's size cap, and ForcecheckError for an unknown format:
        those are the caller's request, not the deck's content."""
        return self._checked(text, format_name, as_of, filename)[0]

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
        deck, fmt, catalog, _settings = self._read(text, format_name, as_of, filename)
        return _contents(deck, fmt, catalog)

    def check_with_contents(self, text: str, format_name: str, as_of: str | None = None,
                            filename: str = "decklist.txt") -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """``check_text`` and ``contents`` of one list, read once (what a registration stores);
        contents are empty when the list cannot be read."""
        report, read = self._checked(text, format_name, as_of, filename)
        return report, (_contents(*read) if read is not None else [])

    def _checked(self, text: str, format_name: str, as_of: str | None, filename: str) -> tuple[dict[str, Any], tuple | None]:
        """The JSON deck object of one list, and what was read (deck, format, catalog), or None
        where the list could not be read (the object then carries the ``error``)."""
        from forcecheck.engine import check_decklist
        from forcecheck.report.model import DeckReport

        fmt = self.compiled(format_name, as_of, filename)
        try:
            deck, fmt, catalog, settings = self._read(text, format_name, as_of, filename)
        except DecklistTooLarge:
            raise
        except InputFileError as exc:
            return DeckReport(path=filename, format=fmt.spec.name, error=str(exc)).to_dict(), None
        return self.session.selection(settings).apply(check_decklist(deck, fmt, catalog)).to_dict(), (deck, fmt, catalog)

    def fingerprint_text(self, text: str, format_name: str, as_of: str | None = None, filename: str = "decklist.txt") -> str:
        from forcecheck.canonical import fingerprint

        deck, fmt, catalog, _settings = self._read(text, format_name, as_of, filename)
        return fingerprint(deck, fmt, catalog)

    def canonical_text(self, text: str, format_name: str, as_of: str | None = None, filename: str = "decklist.txt",
                       names: str | None = None, comments: bool = True) -> str:
        """The list in canonical form as plain text, as ``forcecheck fmt`` writes a text list
        (sections in the format's order, cards by their catalog names, copies summed), card names
        in ``names``' language (None: the language the list is written in). ``comments=False``
        leaves out the list's comments and metadata lines (a list published for anyone to read:
        a player's notes are not published with it)."""
        from forcecheck.canonical import canonical_text
        from forcecheck.records import replace

        deck, fmt, catalog, _settings = self._read(text, format_name, as_of, filename)
        original = text.replace("\r\n", "\n").replace("\r", "\n")
        if not comments:
            deck, original = replace(deck, notes=[], metadata={}), ""
        return canonical_text(deck, fmt, catalog, original, "text", names)

    def verify_texts(self, registered: str, played: str, format_name: str, as_of: str | None = None,
                     names: tuple[str, str] = ("registered.txt", "played.txt")) -> dict[str, Any]:
        """``forcecheck verify``'s JSON answer: is ``played`` the registered list or a legal
        sideboard exchange of it, and is the played deck legal."""
        from forcecheck.engine import check_decklist
        from forcecheck.verify import compare

        deck_a, fmt, catalog, settings = self._read(registered, format_name, as_of, names[0])
        deck_b, _, _, _ = self._read(played, format_name, as_of, names[1])
        verdict = compare(deck_a, deck_b, fmt, catalog)
        checked = self.session.selection(settings).apply(check_decklist(deck_b, fmt, catalog))
        errors = [v for v in checked.violations if v.severity == "error"]
        return verdict.to_dict() | {"format": fmt.spec.name, "played_violations": [v.to_dict() for v in errors],
                                    "ok": verdict.ok and not errors}


def _contents(deck, fmt, catalog) -> list[dict[str, Any]]:
    from forcecheck.canonical import canonical_sections

    out = []
    for group in canonical_sections(deck, fmt, catalog):
        cards = [{"name": e.name, "count": e.count, "known": e.known} for e in group.entries if e.count_ok]
        out.append({"id": group.key, "title": group.title or "(before any header)",
                    "count": sum(c["count"] for c in cards), "cards": cards})
    return out


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
