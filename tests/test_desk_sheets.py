"""Issue 32: deck registration sheets as PDF, made in-process (forcecheck.sheets): the desk's
sheets.pdf and `forcecheck sheet`. Each PDF is opened by a PDF library (pypdfium2): its pages,
its text, and its QR codes, decoded from the rendered page (zxing-cpp)."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta

import pytest
from desk_support import ARTIFACTS, BEARER, FARIA_ILLEGAL, FARIA_LEGAL, SAMPLES, Clock, db_url, make_app  # noqa: F401

pdfium = pytest.importorskip("pypdfium2", reason='the sheet tests read PDFs with pypdfium2: pip install -e ".[test,web-test]"')
zxingcpp = pytest.importorskip("zxingcpp", reason='the sheet tests decode QR codes with zxing-cpp: pip install -e ".[test,web-test]"')
pytest.importorskip("fpdf", reason='sheets need the sheets extra: pip install -e ".[web]"')

from forcecheck.sheets.fonts import CJK_REGULAR  # noqa: E402

PUBLIC = "https://desk.example.org"
NEEDS_CJK = pytest.mark.skipif(not any(os.path.isfile(p) for p in CJK_REGULAR),
                               reason="no Noto Sans CJK on this machine (Debian: apt install fonts-noto-cjk; .ci/run installs it)")
LONG = "Ruler:\n1 Faria, the Sacred Queen\nMain Deck:\n" + "\n".join(f"1 Made-up Card Number {n:03d}" for n in range(120)) + "\n"
"""A list of 120 different (unknown) cards: more than one page holds."""


def pages_of(data: bytes) -> list[str]:
    """Each page's text, its line breaks made spaces (where a line wraps is the layout's business)."""
    document = pdfium.PdfDocument(data)
    try:
        return [" ".join(document[i].get_textpage().get_text_bounded().split()) for i in range(len(document))]
    finally:
        document.close()


def qr_codes(data: bytes, page: int) -> list[str]:
    """The QR codes on a page, decoded from the page rendered at 200 dpi."""
    document = pdfium.PdfDocument(data)
    try:
        image = document[page].render(scale=200 / 72).to_pil()
    finally:
        document.close()
    return [r.text for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode]


@pytest.fixture
def desk(db_url):  # noqa: F811
    from fastapi.testclient import TestClient

    clock = Clock()
    with TestClient(make_app(db_url, clock, public_url=PUBLIC)) as client:
        client.headers.update(BEARER)
        yield client, clock


def new_event(client, clock, player_id="required", name="Tokyo Store Championship"):
    response = client.post("/api/events", json={"name": name, "format": "bifrost", "date": "2026-12-05",
                                                "deadline": (clock.now + timedelta(hours=2)).isoformat(), "player_id": player_id})
    assert response.status_code == 201, response.text
    return response.json()


def register(client, event_id, player, decklist=FARIA_LEGAL, player_id=None):
    body = {"player": player, "decklist": decklist} | ({"player_id": player_id} if player_id else {})
    response = client.post(f"/api/events/{event_id}/registrations", json=body)
    assert response.status_code == 201, response.text
    return response.json()


@NEEDS_CJK
def test_one_page_per_registration_by_name_with_everything_a_judge_needs(desk):
    client, clock = desk
    event = new_event(client, clock)
    zed = register(client, event["id"], "zed", FARIA_ILLEGAL, "0000000003")
    yamada = register(client, event["id"], "山田 太郎", FARIA_LEGAL, "0000000001")
    ann = register(client, event["id"], "Ann", LONG, "0000000002")
    bob = register(client, event["id"], "bob", FARIA_LEGAL, "0000000004")
    response = client.get(f"/api/events/{event['id']}/sheets.pdf")
    assert response.status_code == 200 and response.headers["content-type"] == "application/pdf"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "deck-sheets.pdf").write_bytes(response.content)
    pages = pages_of(response.content)
    # Ann's 120 cards take two pages; then bob, zed, 山田 (names sorted as registered, case aside)
    assert len(pages) == 5
    owners = [next(p for p in ("Ann", "bob", "zed", "山田 太郎") if p in page) for page in pages]
    assert owners == ["Ann", "Ann", "bob", "zed", "山田 太郎"]
    assert "Deck registration sheet (continued)" in pages[1] and "page 1/2" in pages[0] and "page 2/2" in pages[1]
    assert "Made-up Card Number 000 (unknown card)" in pages[0] and "Made-up Card Number 119 (unknown card)" in pages[1]
    assert "Main Deck (continued)" in pages[1]
    first = pages[2]  # bob's
    for text in ("Tokyo Store Championship", "2026-12-05", "Force of Will", "Player ID", "0000000004", "Ruler", "Faria",
                 "Main Deck", "Magic Stone Deck", "Sideboard", bob["fingerprint"], "Version 1", "legal when submitted",
                 "Player's signature", "Judge", f"{PUBLIC}/admin/registrations/{bob['id']}"[:30]):
        assert text in first, text
    assert "Total: 67 cards" in first and "Main Deck 40" in first
    assert "NOT LEGAL when submitted" in pages[3] and zed["fingerprint"] in pages[3]
    assert "山田 太郎" in pages[4] and yamada["fingerprint"] in pages[4]  # printed as text, not as boxes
    # each sheet's QR code opens that registration's page for judges (the address serve --public-url gives)
    assert qr_codes(response.content, 2) == [f"{PUBLIC}/admin/registrations/{bob['id']}"]
    assert qr_codes(response.content, 4) == [f"{PUBLIC}/admin/registrations/{yamada['id']}"]
    assert qr_codes(response.content, 0) == qr_codes(response.content, 1) == [f"{PUBLIC}/admin/registrations/{ann['id']}"]
    # one registration's sheet
    single = client.get(f"/api/events/{event['id']}/sheets.pdf", params={"registration": zed["id"]})
    assert len(pages_of(single.content)) == 1 and "zed" in pages_of(single.content)[0]


@NEEDS_CJK
def test_a_japanese_sheet_has_the_formats_japanese_section_titles(desk):
    client, clock = desk
    event = new_event(client, clock)
    register(client, event["id"], "山田 太郎", FARIA_LEGAL, "0000000001")
    response = client.get(f"/api/events/{event['id']}/sheets.pdf", params={"lang": "ja"})
    [page] = pages_of(response.content)
    for text in ("デッキ登録用紙", "プレイヤーID", "ルーラー", "メインデッキ", "魔石デッキ", "プレイヤー署名", "ジャッジ", "提出時に適正", "合計: 67 枚"):
        assert text in page, text
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "deck-sheets-ja.pdf").write_bytes(response.content)


def test_an_event_with_no_registrations_prints_an_empty_state_page(desk):
    client, clock = desk
    event = new_event(client, clock, player_id="off", name="Empty Cup")
    response = client.get(f"/api/events/{event['id']}/sheets.pdf")
    assert response.status_code == 200 and response.headers["content-type"] == "application/pdf"
    [page] = pages_of(response.content)
    assert "No registrations yet: Empty Cup" in page and "once players have registered" in page


def test_sheets_need_the_organiser_and_an_event(desk):
    client, clock = desk
    event = new_event(client, clock)
    assert client.get(f"/api/events/{event['id']}/sheets.pdf", headers={"Authorization": ""}).status_code == 401
    response = client.get("/api/events/nope/sheets.pdf")
    assert response.status_code == 404 and response.json() == {"detail": "no event 'nope'"}
    other = new_event(client, clock, name="Other")
    stranger = register(client, other["id"], "Eve", FARIA_LEGAL, "1")
    response = client.get(f"/api/events/{event['id']}/sheets.pdf", params={"registration": stranger["id"]})
    assert response.status_code == 404 and "in this event" in response.json()["detail"]


def test_without_a_public_url_sheets_print_the_registration_id_and_no_qr_code(db_url):  # noqa: F811
    from fastapi.testclient import TestClient

    clock = Clock()
    with TestClient(make_app(db_url, clock)) as client:
        client.headers.update(BEARER)
        event = new_event(client, clock, player_id="off")
        ann = register(client, event["id"], "Ann")
        data = client.get(f"/api/events/{event['id']}/sheets.pdf").content
    [page] = pages_of(data)
    assert f"Registration {ann['id']}" in page and "/admin/registrations/" not in page
    assert qr_codes(data, 0) == []


def test_a_machine_without_a_cjk_font(desk, monkeypatch):
    """No Noto Sans CJK and no other font: Latin-1 sheets print in the PDF's Helvetica; a sheet
    with a Japanese name is refused, naming the character and what to install (never boxes)."""
    import forcecheck.sheets.fonts as fonts

    monkeypatch.setattr(fonts, "CJK_REGULAR", ("/nonexistent/NotoSansCJK-Regular.ttc",))
    monkeypatch.setattr(fonts, "CJK_BOLD", ())
    monkeypatch.setattr(fonts, "DEJAVU_REGULAR", ())
    monkeypatch.delenv(fonts.FONT_ENV, raising=False)
    client, clock = desk
    event = new_event(client, clock, player_id="off")
    register(client, event["id"], "Zoë Smith")
    [page] = pages_of(client.get(f"/api/events/{event['id']}/sheets.pdf").content)
    assert "Zoë Smith" in page and "Main Deck" in page
    register(client, event["id"], "山田 太郎")
    response = client.get(f"/api/events/{event['id']}/sheets.pdf")
    assert response.status_code == 500
    detail = response.json()["detail"]
    assert detail.startswith("The deck sheets cannot be printed on this machine: the sheet of 山田 太郎: no font found here can print '山' (U+5C71)")
    assert "apt install fonts-noto-cjk" in detail and "FORCECHECK_SHEET_FONT" in detail
    page = client.get(f"/admin/events/{event['id']}/sheets.pdf")
    assert page.status_code == 500 and "apt install fonts-noto-cjk" in page.text and "<h1>" in page.text  # the organiser's page says it
    ja = client.get(f"/admin/events/{event['id']}/sheets.pdf", params={"lang": "ja"})
    assert ja.status_code == 500 and "このマシンではデッキ登録用紙を印刷できません" in ja.text and "fonts-noto-cjk" in ja.text


@NEEDS_CJK
def test_a_font_named_in_forcecheck_sheet_font_comes_first(monkeypatch):
    from forcecheck.sheets.fonts import FONT_ENV, find_fonts

    monkeypatch.setenv(FONT_ENV, "/nonexistent.ttf")
    from forcecheck.sheets.fonts import NoFontFor

    with pytest.raises(NoFontFor, match="FORCECHECK_SHEET_FONT: no font file '/nonexistent.ttf'"):
        find_fonts()
    regular = next(p for p in CJK_REGULAR if os.path.isfile(p))
    monkeypatch.setenv(FONT_ENV, regular)
    faces = find_fonts().faces
    assert faces[0].path == regular and faces[0].family == "given0" and faces[0].index == 0  # Noto Sans CJK JP is face 0


# -- forcecheck sheet -------------------------------------------------------------------------------------
def run_cli(*args, cwd=None, stdin=None):
    return subprocess.run([sys.executable, "-m", "forcecheck", *args], capture_output=True, cwd=cwd, input=stdin, timeout=120)


@NEEDS_CJK
def test_the_sheet_command_prints_one_deck_for_a_player_at_home(tmp_path):
    deck = tmp_path / "faria.txt"
    deck.write_text(FARIA_LEGAL, encoding="utf-8")
    done = run_cli("sheet", str(deck), "-f", "bifrost", "--player", "山田 太郎", "--event", "Store Championship", "--player-id", "0012345678",
                   "--as-of", "2026-12-05")
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr.decode().startswith(f"{tmp_path / 'faria.pdf'}: deck registration sheet of 山田 太郎 (67 cards, legal)")
    [page] = pages_of((tmp_path / "faria.pdf").read_bytes())
    for text in ("Deck registration sheet", "山田 太郎", "Store Championship", "0012345678", "Ruler", "Faria", "Main Deck", "Total: 67 cards",
                 "legal when submitted", "Player's signature"):
        assert text in page, text
    assert qr_codes((tmp_path / "faria.pdf").read_bytes(), 0) == []  # a list at home has no registration page
    out = tmp_path / "sheet.pdf"
    done = run_cli("sheet", "-", "-f", "bifrost", "--output-file", str(out), stdin=FARIA_ILLEGAL.encode())
    assert done.returncode == 0 and "NOT LEGAL when submitted" in pages_of(out.read_bytes())[0]
    assert "the deck is not legal in bifrost" in done.stderr.decode()
    piped = run_cli("sheet", "-", "-f", "bifrost", "--output-file", "-", stdin=FARIA_LEGAL.encode())
    assert piped.returncode == 0 and piped.stdout.startswith(b"%PDF-")


def test_the_sheet_command_refuses_what_it_cannot_print(tmp_path):
    essay = tmp_path / "essay.txt"
    essay.write_text("This is not a decklist at all.\nJust prose.\n", encoding="utf-8")
    done = run_cli("sheet", str(essay), "-f", "bifrost")
    assert done.returncode == 2 and "no card read in it" in done.stderr.decode() and not (tmp_path / "essay.pdf").exists()
    missing = run_cli("sheet", str(tmp_path / "nope.txt"), "-f", "bifrost")
    assert missing.returncode == 2 and "no such file or directory" in missing.stderr.decode()
    bad_name = run_cli("sheet", str(SAMPLES / "bifrost" / "legal-faria-stranger.txt"), "-f", "bifrost", "--player", "Eve\u202e",
                       "--output-file", str(tmp_path / "x.pdf"))
    assert bad_name.returncode == 2 and "U+202E" in bad_name.stderr.decode() and not (tmp_path / "x.pdf").exists()
