"""Laying deck registration sheets out as PDF pages (fpdf2), a QR code (segno) on each.

Why these libraries: fpdf2 is pure Python, maintained, embeds TrueType and OpenType (CFF) fonts
with subsetting, ``.ttc`` collections included, and falls back glyph by glyph to the next font,
so a Japanese name and a Polish one print on one page; it needs only fontTools, Pillow and
defusedxml, all with wheels. segno is a pure-Python, dependency-free QR encoder following
ISO/IEC 18004; its module matrix is drawn here as vector squares (sharp at any printer).

A4 portrait. Each sheet: the title, the event's and player's facts, the QR code of the
registration's page for judges with its address under it; every section with its cards, their
counts and the section's total, in two columns; the deck's total, fingerprint, version and
verdict when submitted, and signature lines. A list that does not fit continues on another
page with the same head and foot (``page 2/2``), so pages of different players never mix.
"""

from __future__ import annotations

from collections.abc import Callable

from forcecheck.sheets.fonts import FontSet, find_fonts
from forcecheck.sheets.model import LABELS, Sheet

PAGE_W, PAGE_H = 210.0, 297.0
MARGIN = 12.0
QR_SIZE = 30.0
COLUMN_GAP = 8.0
LINE = 4.3
"""Height of a card line (mm), at 9 pt."""
FOOT_H = 36.0
COUNT_W = 8.0


class SheetWriter:
    """One PDF of sheets: ``add(sheet)`` for each, then ``output()``."""

    def __init__(self, fonts: FontSet | None = None, translate: Callable[[str], str] | None = None, title: str = ""):
        from fpdf import FPDF

        self.fonts = fonts or find_fonts()
        self.t = translate or (lambda text: text)
        self.pdf = FPDF(orientation="P", unit="mm", format="A4")
        self.pdf.set_auto_page_break(False)
        self.pdf.set_margins(MARGIN, MARGIN, MARGIN)
        self.pdf.set_creator("forcecheck")
        if title:
            self.pdf.set_title(title)
        if self.fonts.builtin:
            self.family = "helvetica"
        else:
            for face in self.fonts.faces:
                self.pdf.add_font(face.family, "", face.path, collection_font_number=face.index)
                self.pdf.add_font(face.family, "B", face.bold_path or face.path,
                                  collection_font_number=face.bold_index if face.bold_path else face.index)
            self.family = self.fonts.faces[0].family
            if len(self.fonts.faces) > 1:
                self.pdf.set_fallback_fonts([f.family for f in self.fonts.faces[1:]], exact_match=False)
        self.fonts.require([self.label(key) for key in LABELS], "the sheets' words in this language")

    def label(self, key: str) -> str:
        return self.t(LABELS[key])

    def font(self, size: float, bold: bool = False) -> None:
        self.pdf.set_font(self.family, "B" if bold else "", size)

    # -- a sheet -------------------------------------------------------------------------------
    def add(self, sheet: Sheet) -> None:
        self.fonts.require(sheet.texts(), f"the sheet of {sheet.player or 'this deck'}")
        width = (PAGE_W - 2 * MARGIN - COLUMN_GAP) / 2
        rows = self._rows(sheet, width)
        pages: list[list[list[tuple]]] = []
        state: dict = {"head": None}
        while True:
            self.pdf.add_page()
            top = self._head(sheet, continued=bool(pages))
            capacity = int((PAGE_H - MARGIN - FOOT_H - top) // LINE)
            left = len(rows)
            columns, rows = _fill_columns(rows, capacity, 2, state)
            if rows and len(rows) == left:  # nothing fitted (cannot happen on A4): never loop
                raise ValueError("a sheet's page has no room for its rows")
            pages.append(columns)
            for index, column in enumerate(columns):
                self._column(column, MARGIN + index * (width + COLUMN_GAP), top, width)
            if not rows:
                break
        count = len(pages)
        first = self.pdf.page - count + 1
        for number in range(count):
            self.pdf.page = first + number
            self._foot(sheet, number + 1, count)
        self.pdf.page = first + count - 1

    def empty(self, event: str | None) -> None:
        """The page printed for an event with no registrations yet."""
        self.pdf.add_page()
        self.font(16, bold=True)
        self.pdf.multi_cell(0, 8, self.label("empty_title") + (f": {event}" if event else ""))
        self.pdf.ln(2)
        self.font(11)
        self.pdf.multi_cell(0, 6, self.label("empty_text"))

    def output(self) -> bytes:
        return bytes(self.pdf.output())

    # -- parts ---------------------------------------------------------------------------------
    def _head(self, sheet: Sheet, continued: bool) -> float:
        """Title, facts and QR code; returns where the sections start."""
        pdf = self.pdf
        facts_w = PAGE_W - 2 * MARGIN - (QR_SIZE + 8 if sheet.url else 0)
        pdf.set_xy(MARGIN, MARGIN)
        self.font(15, bold=True)
        title = self.label("title") + (f" ({self.label('continued')})" if continued else "")
        pdf.multi_cell(facts_w, 7, title)
        pdf.set_draw_color(0)
        pdf.set_line_width(0.5)
        pdf.line(MARGIN, pdf.get_y() + 0.5, MARGIN + facts_w, pdf.get_y() + 0.5)
        pdf.set_y(pdf.get_y() + 2.5)
        facts = [("event", sheet.event), ("date", sheet.date), ("format", sheet.format_title),
                 ("banlist", sheet.banlist or self.label("none") if sheet.event else sheet.banlist)]
        facts = [(k, v) for k, v in facts if v]
        self._facts(facts, facts_w, size=9.5)
        self._facts([("player", sheet.player or "")], facts_w, size=14, bold=True)
        if sheet.player_id is not None or sheet.extra.get("player_id_line"):
            self._facts([("player_id", sheet.player_id or "")], facts_w, size=12, bold=True)
        if sheet.registration and not sheet.url:
            self._facts([("registration", sheet.registration)], facts_w, size=9)
        if sheet.ruler is not None:
            self._facts([("ruler", sheet.ruler or f"({self.label('none')})")], facts_w, size=10)
        bottom = pdf.get_y()
        if sheet.url:
            bottom = max(bottom, self._qr(sheet.url, PAGE_W - MARGIN - QR_SIZE - 4, MARGIN))
        return bottom + 4

    def _facts(self, facts: list[tuple[str, str]], width: float, size: float, bold: bool = False) -> None:
        pdf = self.pdf
        label_w = 28.0
        for key, value in facts:
            y = pdf.get_y()
            pdf.set_xy(MARGIN, y)
            self.font(8.5)
            pdf.set_text_color(80)
            pdf.cell(label_w, size * 0.5, self.label(key))
            pdf.set_text_color(0)
            self.font(size, bold)
            pdf.set_xy(MARGIN + label_w, y)
            pdf.multi_cell(width - label_w, size * 0.5, str(value), border="B", wrapmode="CHAR")
            pdf.set_y(pdf.get_y() + 1)

    def _qr(self, url: str, x: float, y: float) -> float:
        """The QR code of ``url`` at (x, y), the address under it; returns the bottom."""
        import segno

        qr = segno.make(url, error="m", micro=False)
        matrix = qr.matrix
        box = QR_SIZE + 4
        module = QR_SIZE / len(matrix)
        pdf = self.pdf
        pdf.set_fill_color(0)
        for row, line in enumerate(matrix):
            start = None
            for col, dark in enumerate(list(line) + [0]):
                if dark and start is None:
                    start = col
                elif not dark and start is not None:
                    pdf.rect(x + 2 + start * module, y + 2 + row * module, (col - start) * module, module, style="F")
                    start = None
        self.font(6.5)
        pdf.set_xy(x - 4, y + box)
        pdf.multi_cell(box + 8, 2.8, url, align="C", wrapmode="CHAR")
        pdf.set_x(x - 4)
        self.font(6)
        pdf.set_text_color(80)
        pdf.multi_cell(box + 8, 2.6, self.label("judges_page"), align="C")
        pdf.set_text_color(0)
        return pdf.get_y()

    def _rows(self, sheet: Sheet, width: float) -> list[tuple]:
        """The sections as printed rows: ("head", title, count), ("card", count, name), ("more", text)."""
        rows: list[tuple] = []
        for section in sheet.sections:
            if rows:
                rows.append(("gap",))
            rows.append(("head", str(section.get("title", "")), int(section.get("count") or 0)))
            for card in section.get("cards", ()):
                name = str(card.get("name", "")) + ("" if card.get("known", True) else f" ({self.label('unknown_card')})")
                pieces = self._wrap(name, width - COUNT_W - 2, 9)
                rows.append(("card", card.get("count"), pieces[0]))
                rows.extend(("more", piece) for piece in pieces[1:])
        return rows

    def _wrap(self, text: str, width: float, size: float) -> list[str]:
        """``text`` in lines that fit ``width`` (at words where it can, else at characters)."""
        self.font(size)
        if self.pdf.get_string_width(text) <= width:
            return [text]
        lines, current = [], ""
        for char in text:
            if self.pdf.get_string_width(current + char) > width and current:
                cut = current.rfind(" ")
                if cut > len(current) // 2:
                    lines.append(current[:cut])
                    current = current[cut + 1:]
                else:
                    lines.append(current)
                    current = ""
            current += char
        return lines + [current] if current else lines

    def _column(self, rows: list[tuple], x: float, y: float, width: float) -> None:
        pdf = self.pdf
        for row in rows:
            if row[0] == "head":
                title = row[1] + (f" ({self.label('continued')})" if len(row) > 3 else "")
                self.font(10, bold=True)
                pdf.set_xy(x, y - 0.4)
                pdf.cell(width - 14, LINE, title)
                pdf.cell(14, LINE, str(row[2]), align="R")
                pdf.set_line_width(0.3)
                pdf.line(x, y + LINE - 0.2, x + width, y + LINE - 0.2)
            elif row[0] == "card":
                self.font(9, bold=True)
                pdf.set_xy(x, y)
                pdf.cell(COUNT_W, LINE, str(row[1]), align="R")
                self.font(9)
                pdf.cell(width - COUNT_W, LINE, "  " + row[2])
                pdf.set_draw_color(190)
                pdf.set_line_width(0.1)
                pdf.line(x, y + LINE, x + width, y + LINE)
                pdf.set_draw_color(0)
            elif row[0] == "more":
                self.font(9)
                pdf.set_xy(x + COUNT_W, y)
                pdf.cell(width - COUNT_W, LINE, "  " + row[1])
            y += LINE

    def _foot(self, sheet: Sheet, number: int, count: int) -> None:
        pdf = self.pdf
        top = PAGE_H - MARGIN - FOOT_H + 2
        pdf.set_line_width(0.4)
        pdf.line(MARGIN, top, PAGE_W - MARGIN, top)
        self.font(10, bold=True)
        pdf.set_xy(MARGIN, top + 1.5)
        summary = ", ".join(f"{s.get('title')} {s.get('count')}" for s in sheet.sections)
        pdf.multi_cell(0, 5, f"{self.label('total')}: {sheet.total} {self.label('cards')}" + (f" ({summary})" if summary else ""),
                       wrapmode="CHAR")
        self.font(9)
        pdf.set_x(MARGIN)
        facts = []
        if sheet.fingerprint:
            facts.append(f"{self.label('fingerprint')} {sheet.fingerprint}")
        if sheet.version is not None:
            facts.append(f"{self.label('version')} {sheet.version}" + (f", {self.label('submitted')} {sheet.submitted}" if sheet.submitted else ""))
        pdf.multi_cell(0, 4.5, " · ".join(facts))
        last = []
        if sheet.legal is not None:
            last.append(self.label("legal") if sheet.legal else self.label("not_legal"))
        if count > 1:
            last.append(f"{self.label('page')} {number}/{count}")
        if last:
            pdf.set_x(MARGIN)
            self.font(9, bold=True)
            pdf.multi_cell(0, 4.5, " · ".join(last))
        line_y = PAGE_H - MARGIN - 5
        half = (PAGE_W - 2 * MARGIN - 12) / 2
        pdf.set_line_width(0.3)
        for index, key in enumerate(("player_signature", "judge_signature")):
            x = MARGIN + index * (half + 12)
            pdf.line(x, line_y, x + half, line_y)
            self.font(8)
            pdf.set_xy(x, line_y + 0.5)
            pdf.cell(half, 4, self.label(key))


def _fill_columns(rows: list[tuple], capacity: int, columns: int, state: dict) -> tuple[list[list[tuple]], list[tuple]]:
    """Rows for up to ``columns`` columns of ``capacity`` rows, and the rows left over. A section
    title is never the last row of a column; a section that goes on in the next column (or
    page) has its title again there, marked as continued (``state`` carries the section across
    pages)."""
    out: list[list[tuple]] = []
    rows = list(rows)
    current_head = state.get("head")
    for _ in range(columns):
        column: list[tuple] = []
        if rows and rows[0][0] != "head" and current_head is not None:
            column.append((*current_head, "continued"))
        while rows and rows[0][0] == "gap" and not column:
            rows.pop(0)  # no gap at the top of a column
        while rows and len(column) < capacity:
            row = rows[0]
            if row[0] == "gap" and len(column) >= capacity - 2:
                rows.pop(0)
                break
            if row[0] == "head" and len(column) >= capacity - 1:
                break  # keep a title with its first card
            if row[0] == "card" and len(column) == capacity - 1 and len(rows) > 1 and rows[1][0] == "more":
                break  # keep a wrapped name together where it fits
            if row[0] == "head":
                current_head = row[:3]
            column.append(rows.pop(0))
        out.append(column)
        if not rows:
            break
    state["head"] = current_head
    return out, rows


def write_sheets(sheets: list[Sheet], translate: Callable[[str], str] | None = None, event: str | None = None,
                 fonts: FontSet | None = None) -> bytes:
    """One PDF: a page (or more) per sheet, in the order given; a page saying there is nothing
    to print when ``sheets`` is empty."""
    writer = SheetWriter(fonts, translate, title=(writer_title(translate) + (f" · {event}" if event else "")))
    if not sheets:
        writer.empty(event)
    for sheet in sheets:
        writer.add(sheet)
    return writer.output()


def writer_title(translate) -> str:
    return (translate or (lambda t: t))(LABELS["title"])
