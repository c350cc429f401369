"""The boards page in a real headless Chromium, served by gunicorn: a file of several
boards uploaded without JavaScript or pasted with it, stepped through one board at a
time, a hand opened in the advisor; links to BBO's viewer never followed (no network);
the accessibility check and screenshots."""

import re
from urllib.parse import unquote_plus

import pytest

from bidder import explain

from helpers import CLUB_LIN, CLUB_PBN, bid_text

pytestmark = pytest.mark.e2e


def submit(page):
    with page.expect_navigation():
        page.get_by_role("button", name="Show the boards").click()


def shown_boards(page) -> list[str]:
    """The ids of the boards that can be seen."""
    return [board.get_attribute("id") for board in page.locator(".board").all()
            if board.is_visible()]


def test_an_uploaded_file_is_shown_one_board_at_a_time_without_javascript(
        new_page, server, browser_errors, screenshot):
    page = new_page(javascript=False)
    page.goto(server + "/boards")
    page.get_by_label("A PBN or LIN file").set_input_files(str(CLUB_PBN))
    submit(page)
    assert page.get_by_role("heading", name="4 boards read from the PBN file").is_visible()
    assert shown_boards(page) == ["board-1"]
    screenshot(page, "boards-1280")

    page.locator("#board-1").get_by_role("link", name="Next board").click()
    assert shown_boards(page) == ["board-2"]
    second = page.locator("#board-2")
    assert second.locator(".board-summary").inner_text() == (
        "The rules open 1♦ in third seat (West); at the table West opened 1♦.")
    assert second.locator(".seat-dealer h3").inner_text().startswith("East")
    page.locator("#board-2").get_by_role("link", name="Previous board").click()
    assert shown_boards(page) == ["board-1"]
    page.get_by_role("link", name="Board 4", exact=True).click()
    assert shown_boards(page) == ["board-3"]
    assert page.locator("#board-3 .seat-e").inner_text().endswith("Hand not given")
    assert browser_errors == []


def test_a_hand_opens_in_the_advisor_and_in_bbos_viewer_by_link(new_page, server,
                                                                browser_errors):
    page = new_page(javascript=False)
    page.goto(server + "/boards")
    page.get_by_label("A PBN or LIN file").set_input_files(str(CLUB_LIN))
    submit(page)
    page.locator("#board-1").get_by_role("link", name="Next board").click()
    west = page.locator("#board-2 .seat-w")
    viewer = west.get_by_role("link", name=re.compile(r"^BBO hand viewer\W+West's hand, "
                                                      r"Board 2 \(opens a new tab\)$"))
    assert viewer.get_attribute("href") == (
        "https://www.bridgebase.com/tools/handviewer.html?w=sj8h8dakq432cat74&d=e&v=n&b=2"
        "&a=pp1dd2d2sppp")
    advisor = west.get_by_role("link", name=re.compile(r"^Advisor\W+West's hand, Board 2$"))
    hand = unquote_plus(advisor.get_attribute("href").split("hand=", 1)[1])
    with page.expect_navigation():
        advisor.click()
    assert explain(hand).bid == "1D"
    assert page.locator("#bid").text_content() == bid_text("1D")
    assert browser_errors == []


@pytest.mark.parametrize("width", [1280, 375])
def test_a_pasted_file_passes_the_accessibility_check(new_page, server, axe, browser_errors,
                                                      screenshot, width):
    page = new_page(width=width)
    page.goto(server + "/boards")
    assert axe(page) == []
    page.get_by_label("Or paste it here").fill(CLUB_PBN.read_text())
    submit(page)
    assert shown_boards(page) == ["board-1"]
    assert axe(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"boards-pasted-{width}")
    assert browser_errors == []


def test_a_file_that_is_not_boards_is_said_and_kept(page, server, axe, browser_errors):
    page.goto(server + "/boards")
    page.get_by_label("Or paste it here").fill("5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C")
    submit(page)
    assert "this is neither a PBN file" in page.locator("#boards-error").inner_text()
    assert page.get_by_label("Or paste it here").input_value().startswith("5C 7H")
    assert axe(page) == []
