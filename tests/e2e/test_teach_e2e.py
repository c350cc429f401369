"""The teaching pages in a real headless Chromium, served by gunicorn: practice (right,
wrong, count first, twenty hands on a phone) with JavaScript off, dealing to order, a
printed set, the statistics, the accessibility check and screenshots."""

import re
from urllib.parse import parse_qs, unquote_plus, urlsplit

import pytest

from bidder import Suit, distributionPoints, highCardPoints, openingBid

from helpers import bid_text

pytestmark = pytest.mark.e2e

WIDTHS = [1280, 375]
PDF_PAGE = re.compile(rb"/Type\s*/Page\b(?!s)")


def button_name(bid) -> str:
    """A bid button as a screen reader names it: '1 club', '2 hearts', '2NT', 'No bid'."""
    if bid is None or bid.endswith("NT"):
        return bid or "No bid"
    suit = Suit("CDHS".index(bid[-1]))
    return f"{bid[:-1]} {suit.word[:-1] if bid[0] == '1' else suit.word}"


def press(page, name: str):
    """Press the button called *name* and wait for the page it leads to."""
    with page.expect_navigation() as navigation:
        page.get_by_role("button", name=name, exact=True).click()
    return navigation.value


def follow(page, name: str):
    """Follow the link called *name*."""
    with page.expect_navigation() as navigation:
        page.get_by_role("link", name=name, exact=True).click()
    return navigation.value


def hand_on_table(page) -> str:
    return page.locator('input[name="hand"]').first.input_value()


def dealt_hand(page) -> str:
    href = page.get_by_role("link", name="Open in the advisor").get_attribute("href")
    return unquote_plus(href.split("hand=", 1)[1])


def query(page) -> dict:
    return {name: values[0] for name, values in parse_qs(urlsplit(page.url).query).items()}


def pdf_pages(page, paper: str) -> int:
    return len(PDF_PAGE.findall(page.pdf(format=paper)))


def fits(page, width: int) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= width


# Practice, JavaScript off ---------------------------------------------------------------

@pytest.mark.parametrize("width", WIDTHS)
def test_practice_right_then_wrong_without_javascript(new_page, server, screenshot,
                                                      browser_errors, width):
    page = new_page(javascript=False, width=width)
    page.goto(server + "/practice")
    assert page.locator("html").get_attribute("class") == "no-js"
    screenshot(page, f"teach-practice-prompt-{width}")
    press(page, button_name(openingBid(hand_on_table(page))))
    assert page.url == server + "/practice"
    feedback = page.locator(".t-feedback")
    assert feedback.locator("h2").inner_text().startswith("✓ Right")
    assert page.locator("#score").inner_text() == "Bids right: 1 of 1"
    assert page.locator(".trace").count() == 0
    screenshot(page, f"teach-practice-right-{width}")

    press(page, "Next hand")
    hand = hand_on_table(page)
    press(page, button_name("2NT" if openingBid(hand) != "2NT" else None))
    assert feedback.locator("h2").first.inner_text().endswith("Not this time")
    assert page.locator(".trace > li").count() == 9
    assert page.locator(".trace").is_hidden()
    assert page.locator("#answer").text_content().startswith(
        f"This hand opens {bid_text(openingBid(hand))} by")
    assert page.locator("#score").inner_text() == "Bids right: 1 of 2"
    assert fits(page, width)
    screenshot(page, f"teach-practice-wrong-{width}")
    assert browser_errors == []


def test_count_first_checks_each_number_on_its_own(new_page, server, screenshot,
                                                    browser_errors):
    page = new_page(javascript=False, width=375)
    page.goto(server + "/practice")
    page.get_by_label("Count first").check()
    press(page, "Save settings")
    assert page.get_by_role("button", name="No bid", exact=True).count() == 0
    hand = hand_on_table(page)

    hcp = page.get_by_label("HCP", exact=True)
    hcp.fill("abc")
    page.get_by_label("Distribution points", exact=True).fill("0")
    assert press(page, "Check my count").status == 400
    assert hcp.input_value() == "abc"
    assert hcp.get_attribute("aria-invalid") == "true"
    assert page.locator("#count-hcp-error").inner_text().startswith(
        "HCP 'abc' is not a whole number")
    screenshot(page, "teach-practice-count-error-375")

    hcp.fill(str(highCardPoints(hand)))
    page.get_by_label("Distribution points", exact=True).fill(str(distributionPoints(hand) + 1))
    press(page, "Check my count")
    lines = page.locator(".t-count-feedback li").all_inner_texts()
    assert lines[0].startswith("✓ HCP")
    assert lines[1].startswith("✗ Distribution points: you counted")
    assert page.locator("#score").inner_text() == (
        "Bids right: 0 of 0 · Counts right: 0 of 1")
    assert page.locator(".scorecard").is_visible()
    screenshot(page, "teach-practice-counted-375")
    press(page, button_name(openingBid(hand)))
    assert page.locator(".t-feedback h2").inner_text().startswith("✓ Right")
    assert browser_errors == []


def test_twenty_hands_in_a_row_on_a_phone(new_page, server, browser_errors):
    page = new_page(javascript=False, width=375, height=740)
    page.goto(server + "/practice")
    opened = set()
    for number in range(1, 21):
        assert page.locator("#hand-title").inner_text() == f"Hand {number}"
        bid = openingBid(hand_on_table(page))
        opened.add(bid)
        button = page.get_by_role("button", name=button_name(bid), exact=True)
        box = button.bounding_box()
        assert box["height"] >= 44 and box["x"] + box["width"] <= 375
        press(page, button_name(bid))
        if number % 8:
            press(page, "Next hand")
        else:
            press(page, "Round summary")
            assert page.locator("#summary-title").inner_text() == "Round over: 8 of 8 right"
            press(page, "Next round")
    assert page.locator("#score").inner_text() == "Bids right: 20 of 20"
    assert {"1NT", "2NT", None} <= opened
    assert any(bid and bid[0] in "34" for bid in opened)
    assert browser_errors == []


# Dealing, printing, statistics ----------------------------------------------------------

def test_an_instructor_deals_a_2nt_hand_prints_a_set_and_shows_the_statistics(
        new_page, server, screenshot, browser_errors):
    page = new_page(javascript=False)
    page.goto(server + "/rules")
    follow(page, "Deal")
    page.get_by_label("Opening bid", exact=True).select_option("2NT")
    press(page, "Deal")
    args = query(page)
    assert args["bid"] == "2NT"
    assert openingBid(dealt_hand(page)) == "2NT"
    assert page.locator("#bid").inner_text() == "2NT"
    first = dealt_hand(page)

    follow(page, "Another hand")
    assert query(page) == {"bid": "2NT", "seed": str(int(args["seed"]) + 1)}
    assert dealt_hand(page) != first and openingBid(dealt_hand(page)) == "2NT"

    follow(page, "Print 12 like this")
    assert page.locator(".t-sheet-hand").count() == 12
    bids = page.locator(".t-key-table td.t-bid").all_inner_texts()
    assert bids == ["2NT"] * 12
    assert pdf_pages(page, "A4") == pdf_pages(page, "Letter") == 3
    page.emulate_media(media="print")
    for hidden in (".site-header", ".t-set-controls", ".site-footer"):
        assert page.locator(hidden).is_hidden(), hidden
    screenshot(page, "teach-print-sheet-paper")
    page.emulate_media(media="screen")

    follow(page, "Statistics")
    assert page.locator("svg.t-chart").count() == 3
    assert page.get_by_role("img", name="Share of hands that open each bid").is_visible()
    assert "Over 100,000 random hands" in page.locator(".lead").inner_text()
    assert browser_errors == []


@pytest.mark.parametrize("part, pages", [("", 3), ("&part=sheet", 2), ("&part=key", 1)])
def test_a_set_of_twelve_fits_a4_and_letter(page, server, part, pages):
    page.goto(f"{server}/deal?count=12&print=1&seed=5{part}")
    assert pdf_pages(page, "A4") == pdf_pages(page, "Letter") == pages


def test_asking_for_r4_says_why_no_hand_fires_it(page, server, browser_errors):
    response = page.goto(server + "/deal?rule=R4")
    assert response.status == 400
    alert = page.get_by_role("alert").inner_text()
    assert alert.startswith("Cannot deal that. No hand fires R4: R3 always applies first")
    assert page.get_by_label("Rule").get_attribute("aria-invalid") == "true"
    assert browser_errors == []


# Accessibility and screenshots -----------------------------------------------------------

PAGES = [("deal", "/deal?bid=2NT&seed=7"), ("deal-r4", "/deal?rule=R4"),
         ("deal-bad-seed", "/deal?seed=abc"), ("stats", "/stats"),
         ("stats-bad", "/stats?hands=0"), ("practice", "/practice"),
         ("print", "/deal?count=12&print=1&seed=5"),
         ("print-key", "/deal?count=12&print=1&seed=5&part=key")]


@pytest.mark.parametrize("name, path", PAGES, ids=[name for name, _ in PAGES])
def test_accessibility_check_finds_nothing(page, server, axe, browser_errors, name, path):
    page.goto(server + path)
    assert axe(page) == []
    assert browser_errors == []


def test_accessibility_of_every_practice_state(page, server, axe, browser_errors):
    page.goto(server + "/practice")
    page.get_by_label("Count first").check()
    press(page, "Save settings")
    assert axe(page) == []
    page.get_by_label("HCP", exact=True).fill("")
    press(page, "Check my count")
    assert axe(page) == []
    page.get_by_label("HCP", exact=True).fill("99")
    page.get_by_label("Distribution points", exact=True).fill("9")
    press(page, "Check my count")
    assert axe(page) == []
    press(page, button_name("2NT" if openingBid(hand_on_table(page)) != "2NT" else None))
    assert axe(page) == []
    assert browser_errors == []


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name, path", PAGES, ids=[name for name, _ in PAGES])
def test_screenshots_and_no_sideways_scrolling(new_page, server, screenshot, width, name,
                                               path):
    page = new_page(javascript=False, width=width)
    page.goto(server + path)
    assert fits(page, width)
    assert screenshot(page, f"teach-{name}-{width}").stat().st_size > 10_000
