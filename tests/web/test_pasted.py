"""What people paste, on the pages: a whole deal or a viewer link on the advisor shows
every seat's opening; /boards takes a bare deal string or link; a hand copied from a page
reads back; a card's spoken words are a label, not text a selection copies."""

import html
import re
from urllib.parse import quote

import pytest
from pathlib import Path

from tests.web.test_boards import send

DEAL = "N:AKQ2.J54.T9.8765 JT98.AK32.AK.432 7654.Q876.QJ8.KQ 3.T9.765432.AJT9"
VIEWER = ("https://www.bridgebase.com/tools/handviewer.html?n=skj10haqj8dq65ck94"
          "&s=sa7h97daj9ct86532&d=s")
EXAMPLE = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"


def words(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))
                    .split())


@pytest.mark.parametrize("text, seats", [
    (DEAL, 4), (f'[Deal "{DEAL}"]', 4), (VIEWER, 2), (DEAL.replace("N:", "e:"), 4)])
def test_a_whole_deal_on_the_advisor_shows_every_seats_opening(client, text, seats):
    response = client.get("/?hand=" + quote(text))
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert page.count('class="seat-bid"') == seats
    assert "<title>Every seat's opening" in page


def heading(response) -> str:
    """The first board's heading, as words."""
    page = response.get_data(as_text=True)
    found = re.search(r'<h2 id="board-1-title">(.*?)</h2>', page, re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


@pytest.mark.parametrize("text", [DEAL, VIEWER])
def test_a_deal_pasted_on_the_advisor_is_headed_as_pasted_not_as_a_files_game(client, text):
    assert heading(client.get("/?hand=" + quote(text))) == "The deal pasted"


@pytest.mark.parametrize("text, expected", [
    (DEAL, "Game 1 line 1"),
    (f'[Board "7"]\n[Deal "{DEAL}"]\n', "Board 7 game 1, line 1"),
], ids=["a-game-with-no-number-names-its-line-once", "a-numbered-board-gives-game-and-line"])
def test_a_board_on_the_boards_page_says_where_it_is_once(client, text, expected):
    assert heading(send(client, text)) == expected


def test_the_dealer_of_a_viewer_link_is_its_d(client):
    assert "Dealer: South" in words(client.get("/?hand=" + quote(VIEWER)))


def test_a_deal_dealing_a_card_twice_says_so_on_the_advisor(client):
    response = client.post("/", data={"hand": "N:AKQ2.J54.T9.8765 AKQ2.J54.T9.8765 - -"})
    assert response.status_code == 400
    assert "'AS' is in more than one hand (North and East)" in words(response)


@pytest.mark.parametrize("text", [DEAL, VIEWER, f"{DEAL}\n"])
def test_boards_takes_a_bare_deal_string_or_viewer_link(client, text):
    response = send(client, text)
    assert response.status_code == 200
    assert "1 board read from the PBN file" in words(response)


def test_a_hand_copied_from_the_advisor_reads_back(client):
    page = client.get("/?hand=" + quote(EXAMPLE)).get_data(as_text=True)
    diagram = page[page.index('<dl class="hand"'):page.index("</dl>")]
    copied = html.unescape(re.sub(r"<[^>]+>", "", diagram))  # as a selection copies it
    response = client.post("/", data={"hand": copied})
    assert response.status_code == 200
    assert "1NT" in words(response) or "Opens" in words(response)


def test_a_cards_spoken_words_are_left_out_of_a_selection():
    style = (Path(__file__).parents[2] / "static" / "style.css").read_text()
    rule = re.search(r"\.card \.visually-hidden \{([^}]*)\}", style)
    assert "user-select: none" in rule.group(1)


def test_the_advisor_honours_hide(client):
    response = client.get("/?hand=" + quote(EXAMPLE) + "&hide=1")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert 'id="result"' not in page and "R3" not in page
    assert "<title>What would you open?" in page
    shown = html.unescape(re.search(r'id="show-answer" href="([^"]+)"', page).group(1))
    assert shown == "/?hand=A.KT87.AJ9.T8542#result"
    assert 'id="result"' in client.get(shown.split("#")[0]).get_data(as_text=True)


def test_the_advisor_shows_the_answer_without_hide(client):
    page = client.get("/?hand=" + quote(EXAMPLE) + "&hide=0").get_data(as_text=True)
    assert 'id="result"' in page
