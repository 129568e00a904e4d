"""Deck registration sheets as PDF (the ``sheets`` extra: fpdf2 and segno), made in-process:
the desk's ``sheets.pdf`` and ``forcecheck sheet`` print the same page.

``model`` says what a sheet holds, ``fonts`` finds fonts that can print every character on it,
``pdf`` lays the pages out. Nothing here needs a browser or a system library.
"""

from forcecheck.sheets.model import LABELS, Sheet

__all__ = ["LABELS", "Sheet"]
