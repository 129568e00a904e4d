"""Fonts that can print every character of a sheet, found at run time (nothing is downloaded).

Japanese, Chinese and Korean names need a CJK font. The sheets use Noto Sans CJK (SIL Open
Font License 1.1) where the system has it: Debian and Ubuntu's ``fonts-noto-cjk``, Fedora's
``google-noto-sans-cjk-fonts``, Arch's ``noto-fonts-cjk``; DejaVu Sans (Latin, Greek,
Cyrillic) beside it for the letters Noto CJK lacks (Ł, for one). FORCECHECK_SHEET_FONT names
other font files (TrueType/OpenType, ``.ttc`` collections too; several separated by ``:``), tried
first. fpdf2 embeds the glyphs used (a subset) in the PDF, so the file prints the same anywhere.

Without any of them, a sheet whose text is Latin-1 prints in the PDF's built-in Helvetica; a
sheet with a character no font found can print is refused with :class:`NoFontFor`, naming the
character and what to install, never printed with a blank or a box in place of a name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from forcecheck.errors import ForcecheckError

FONT_ENV = "FORCECHECK_SHEET_FONT"
_DIRS = ("/usr/share/fonts/opentype/noto", "/usr/share/fonts/noto-cjk", "/usr/share/fonts/google-noto-cjk",
         "/usr/share/fonts/google-noto-sans-cjk-fonts", "/usr/share/fonts/noto")
CJK_REGULAR = tuple(f"{d}/NotoSansCJK-Regular.ttc" for d in _DIRS)
CJK_BOLD = tuple(f"{d}/NotoSansCJK-Bold.ttc" for d in _DIRS)
DEJAVU_REGULAR = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
                  "/usr/share/fonts/TTF/DejaVuSans.ttf", "/usr/share/fonts/dejavu/DejaVuSans.ttf")
DEJAVU_BOLD = tuple(p.replace("DejaVuSans.ttf", "DejaVuSans-Bold.ttf") for p in DEJAVU_REGULAR)
INSTALL_HINT = ("install a font with those characters (Debian/Ubuntu: apt install fonts-noto-cjk; Fedora: "
                "dnf install google-noto-sans-cjk-fonts) or name one in FORCECHECK_SHEET_FONT")


class NoFontFor(ForcecheckError):
    """A sheet holds a character none of the fonts found can print."""


@dataclass(frozen=True)
class Face:
    family: str
    path: str
    index: int
    """The face of a .ttc collection (Noto Sans CJK's Japanese face, where it is one)."""
    bold_path: str | None
    bold_index: int


@dataclass(frozen=True)
class FontSet:
    faces: tuple[Face, ...]
    """In the order fpdf2 tries them for each glyph; empty: the PDF's built-in Helvetica."""

    @property
    def builtin(self) -> bool:
        return not self.faces

    def missing(self, texts) -> list[str]:
        """Characters of ``texts`` that no face can print (in order of first appearance)."""
        needed = dict.fromkeys(c for t in texts for c in t if not c.isspace() and c.isprintable())
        if self.builtin:
            return [c for c in needed if ord(c) > 0xFF]
        covered = set()
        for face in self.faces:
            covered |= _cmap(face.path, face.index)
        return [c for c in needed if ord(c) not in covered]

    def require(self, texts, where: str) -> None:
        missing = self.missing(texts)
        if missing:
            shown = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in missing[:5]) + (", ..." if len(missing) > 5 else "")
            found = ", ".join(Path(f.path).name for f in self.faces) or "only the PDF's built-in Helvetica (Latin-1)"
            raise NoFontFor(f"{where}: no font found here can print {shown} (fonts found: {found}); {INSTALL_HINT}")


def find_fonts() -> FontSet:
    """The fonts sheets use on this machine: FORCECHECK_SHEET_FONT's, Noto Sans CJK, DejaVu Sans."""
    faces = []
    for given in filter(None, os.environ.get(FONT_ENV, "").split(os.pathsep)):
        if not os.path.isfile(given):
            raise NoFontFor(f"{FONT_ENV}: no font file {given!r}")
        faces.append(Face(f"given{len(faces)}", given, _japanese_face(given), None, 0))
    regular = _first(CJK_REGULAR)
    if regular:
        bold = _first(CJK_BOLD)
        faces.append(Face("notocjk", regular, _japanese_face(regular), bold, _japanese_face(bold) if bold else 0))
    dejavu = _first(DEJAVU_REGULAR)
    if dejavu:
        faces.append(Face("dejavu", dejavu, 0, _first(DEJAVU_BOLD), 0))
    return FontSet(tuple(faces))


def _first(paths) -> str | None:
    return next((p for p in paths if os.path.isfile(p)), None)


@lru_cache(maxsize=16)
def _japanese_face(path: str) -> int:
    """The face of a collection whose name says Japanese (Noto Sans CJK JP: Japanese glyph
    forms of the characters the languages share); 0 for a single font."""
    if not path.lower().endswith((".ttc", ".otc")):
        return 0
    from fontTools.ttLib import TTCollection

    try:
        collection = TTCollection(path, lazy=True)
        for index, font in enumerate(collection.fonts):
            name = font["name"].getDebugName(4) or ""
            if " JP" in name and "Mono" not in name:
                return index
    except Exception as exc:  # noqa: BLE001 - a damaged font file is the user's to replace
        raise NoFontFor(f"cannot read the font {path}: {exc}") from None
    return 0


@lru_cache(maxsize=16)
def _cmap(path: str, index: int) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    try:
        font = TTFont(path, fontNumber=index, lazy=True)
        return frozenset(font.getBestCmap() or ())
    except Exception as exc:  # noqa: BLE001
        raise NoFontFor(f"cannot read the font {path}: {exc}") from None
