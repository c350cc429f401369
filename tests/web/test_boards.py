"""The boards page through the test client: a PBN or LIN file uploaded or pasted (with
the form's CSRF token), every board shown as a diagram, what cannot be read said."""

import html
import io
import re
from urllib.parse import unquote_plus

import pytest

from bidder import explain

from helpers import CLUB_LIN, CLUB_PBN

CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]+)"')
ADVISOR_LINKS = re.compile(r'href="/\?hand=([^"]+)"')
BODY_LIMIT = 16 * 1024


def token(client) -> str:
    return CSRF_FIELD.search(client.get("/boards").get_data(as_text=True)).group(1)


def send(client, text: str = "", upload: bytes | None = None, name: str = "club.pbn",
         **fields):
    data = {"csrf_token": token(client), "text": text, **fields}
    if upload is not None:
        data["file"] = (io.BytesIO(upload), name)
    return client.post("/boards", data=data, content_type="multipart/form-data")


def words(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))
                    .split())


def test_the_form_carries_a_token_and_takes_a_file_or_text(client):
    page = client.get("/boards").get_data(as_text=True)
    assert 'enctype="multipart/form-data"' in page
    assert 'name="file" type="file"' in page and 'name="text"' in page
    assert CSRF_FIELD.search(page)
    assert '<a href="/boards" aria-current="page">Boards</a>' in page


@pytest.mark.parametrize("path, name", [(CLUB_PBN, "club.txt"), (CLUB_LIN, "club.pbn")],
                         ids=["pbn under another name", "lin named .pbn"])
def test_an_uploaded_file_is_read_by_its_content(client, path, name):
    response = send(client, upload=path.read_bytes(), name=name)
    assert response.status_code == 200
    text = words(response)
    assert "1 game could not be read; the others are shown." in text
    assert "Game 3, line" in text
    assert text.count("Previous board") == len(re.findall('class="board"', response.get_data(
        as_text=True))) - 1


def test_every_board_is_a_diagram_with_the_openings_and_the_table(client):
    response = send(client, text=CLUB_PBN.read_text())
    page = response.get_data(as_text=True)
    text = words(response)
    assert "4 boards read from the PBN file" in text
    assert ("Board 2 : The rules open 1♦ in third seat (West); at the table West opened "
            "1♦.") in text
    assert page.count('class="board"') == 4
    assert page.count('class="seat seat-') == 16
    assert "Hand not given" in text
    second = page.split('id="board-2"')[1].split('id="board-3"')[0]
    assert 'class="seat seat-e seat-dealer"' in second
    assert second.count("seat-vulnerable") == 2
    assert "could be short" in second and "<caption>The auction at the table</caption>" in second
    assert "https://www.bridgebase.com/tools/handviewer.html?" in second


def test_each_hand_links_to_the_advisor_with_its_cards(client):
    page = send(client, text=CLUB_PBN.read_text()).get_data(as_text=True)
    hands = [unquote_plus(html.unescape(found)) for found in ADVISOR_LINKS.findall(page)]
    assert len(hands) == 15
    assert explain(hands[0]).bid == "1C"


def test_a_pasted_file_up_to_the_body_limit_is_read(client):
    text = (CLUB_PBN.read_text() + "\n") * 5
    assert 4 * 1024 < len(text.encode()) < BODY_LIMIT - 1024
    response = send(client, text=text)
    assert response.status_code == 200
    assert "20 boards read" in words(response)


def test_a_file_over_the_limit_says_to_send_fewer_boards(client):
    response = send(client, text="x" * BODY_LIMIT)
    assert response.status_code == 413
    assert "send a file of fewer boards" in words(response)


@pytest.mark.parametrize("fields, message", [
    ({"text": "  "}, "Choose a PBN or LIN file, or paste one into the box"),
    ({"text": "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"}, "this is neither a PBN file"),
    ({"text": '[Dealer "N"]\n[Deal "N:x - - -"]'}, "No board in this file could be read"),
], ids=["nothing sent", "a class file", "no board that can be read"])
def test_what_cannot_be_shown_is_said_and_the_text_kept(client, fields, message):
    response = send(client, **fields)
    assert response.status_code == 400
    text = words(response)
    assert message in text
    if "Deal" in fields["text"]:
        assert "Game 1, line 2: the North hand 'x' is not four suits" in text
        assert ('[Deal "N:x - - -"]</textarea>'
                in html.unescape(response.get_data(as_text=True)))


def test_a_post_without_its_token_changes_nothing_and_says_to_reload(client):
    response = client.post("/boards", data={"text": CLUB_PBN.read_text()},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "The form expired or came from another site" in words(response)


def test_the_advisor_and_the_deal_page_link_each_hand_to_bbo(client):
    page = client.get("/?hand=AKQ2.J54.T9.8765").get_data(as_text=True)
    assert ('href="https://www.bridgebase.com/tools/handviewer.html?n=sakq2hj54dt9c8765'
            '&amp;d=n"') in page
    deal = client.get("/deal?bid=2NT&seed=7").get_data(as_text=True)
    assert "Open in BBO&#39;s hand viewer" in deal or "Open in BBO's hand viewer" in deal
