"""The advisor and rules pages in a real headless Chromium, served by gunicorn."""

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from bidder import openingBid

from helpers import bid_text
from needs import missing

pytestmark = pytest.mark.e2e

HAND = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"
SHADOWED = "AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C"
NO_BID = "AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C"
TYPO = "5C 7H AS JD 9D 2C KH 1H 4C 8H 8C AD 10C"


def link(server, hand):
    return f"{server}/?hand={hand.replace(' ', '+')}"


def submit(page, server, hand):
    """Type *hand* into the labelled field and press the button, as a person would."""
    page.goto(server + "/")
    page.get_by_label("Your hand").fill(hand)
    with page.expect_navigation() as navigation:
        page.get_by_role("button", name="Show the bid").click()
    return navigation.value


def test_the_browser_is_debian_chromium(browser):
    assert int(browser.version.split(".")[0]) >= 120


def test_typing_a_hand_shows_the_bid_and_the_rule(page, server, browser_errors):
    response = submit(page, server, SHADOWED)
    assert response.status == 200
    assert page.locator("#bid").text_content() == bid_text("1C")
    assert page.locator("#rule").inner_text() == "by R3, 1 of a minor"
    assert "R4 also applies and would bid 1D" in page.locator("#result").inner_text()
    assert parse_qs(urlsplit(page.url).query) == {"hand": [SHADOWED]}
    assert page.get_by_label("Your hand").input_value() == SHADOWED
    assert browser_errors == []


def test_a_shareable_link_opens_the_same_result(new_page, server, browser_errors):
    first = new_page()
    submit(first, server, NO_BID)
    shared = new_page()
    shared.goto(first.url)
    assert shared.locator("#bid").inner_text() == "No bid"
    assert "returns None" in shared.locator(".bid-note").inner_text()
    assert shared.locator("#result").inner_text() == first.locator("#result").inner_text()
    assert browser_errors == []


def test_a_typo_shows_the_message_and_keeps_the_text(page, server, browser_errors):
    response = submit(page, server, TYPO)
    field = page.get_by_label("Your hand")
    assert response.status == 400
    assert field.input_value() == TYPO
    assert field.get_attribute("aria-invalid") == "true"
    assert page.locator("#hand-error").inner_text().startswith(
        "Not a hand yet: card 8 '1H' is not a card")
    assert page.evaluate("document.activeElement.id") == "hand"
    assert page.title().startswith("Error:")
    assert "hand-error" in field.get_attribute("aria-describedby")
    assert browser_errors == []


def test_without_javascript_everything_works_the_same(new_page, server, browser_errors):
    plain, enhanced = new_page(javascript=False), new_page()
    plain.goto(server + "/")
    assert plain.locator("html").get_attribute("class") == "no-js"
    assert plain.locator("#picker").is_hidden() and plain.locator("#card-count").is_hidden()
    plain.get_by_label("Your hand").fill(HAND)
    with plain.expect_navigation():
        plain.get_by_role("button", name="Show the bid").click()
    submit(enhanced, server, HAND)
    assert enhanced.locator("html").get_attribute("class") == "js"
    assert plain.locator("#bid").text_content() == bid_text(openingBid(HAND)) == "1♣ club"
    assert plain.locator("#result").inner_text() == enhanced.locator("#result").inner_text()
    response = plain.goto(link(server, TYPO))
    assert response.status == 400
    assert plain.get_by_label("Your hand").input_value() == TYPO
    assert "is not a card" in plain.locator("#hand-error").inner_text()
    assert browser_errors == []


def test_clicking_cards_builds_the_same_hand(page, server, browser_errors):
    page.goto(server + "/")
    count = page.locator("#card-count")
    assert count.inner_text() == "0 of 13 cards (13 to go)"
    for card in SHADOWED.split():
        page.locator(f'button[data-card="{card}"]').click()
    assert count.inner_text() == "13 of 13 cards"
    assert page.locator('button[data-card="AS"]').get_attribute("aria-pressed") == "true"
    page.locator('button[data-card="AS"]').click()
    assert count.inner_text() == "12 of 13 cards (1 to go)"
    assert page.locator('button[data-card="AS"]').get_attribute("aria-pressed") == "false"
    page.locator('button[data-card="AS"]').click()
    with page.expect_navigation():
        page.get_by_role("button", name="Show the bid").click()
    assert page.locator("#bid").text_content() == bid_text("1C")
    assert sorted(page.get_by_label("Your hand").input_value().split()) == sorted(
        SHADOWED.split())
    assert browser_errors == []


@pytest.mark.parametrize("typed, shown", [
    ("as ks", "2 of 13 cards (11 to go)"),
    ("A4.KQ3.AQ76.KJ85", "13 of 13 cards"),
    (HAND + " 3S", "14 of 13 cards (1 too many)"),
    ("T♠,9♥️", "2 of 13 cards (11 to go)"),
])
def test_the_live_count_follows_typing(page, server, typed, shown):
    page.goto(server + "/")
    page.get_by_label("Your hand").type(typed)
    assert page.locator("#card-count").inner_text() == shown


def test_typed_cards_press_their_buttons(page, server):
    page.goto(server + "/")
    page.get_by_label("Your hand").fill("t♠ 9♥️ as")
    pressed = page.locator('button[aria-pressed="true"]')
    assert sorted(pressed.evaluate_all("buttons => buttons.map(b => b.dataset.card)")) == [
        "10S", "9H", "AS"]


def test_screen_readers_hear_card_and_suit_names(page, server):
    page.goto(link(server, SHADOWED))
    snapshot = page.locator(".hand").aria_snapshot()
    for spoken in ("ace of spades", "king of hearts", "queen of diamonds", "jack of clubs",
                   "Spades", "Hearts", "Diamonds", "Clubs"):
        assert spoken in snapshot
    assert "♠" not in snapshot.replace("Spades", "")


def test_keyboard_reaches_the_field_then_the_button_with_a_visible_focus(page, server):
    page.goto(server + "/")
    page.get_by_label("Your hand").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Show the bid"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"


PAGES = [("advisor", "/"), ("result", "/?hand=" + SHADOWED.replace(" ", "+")),
         ("no-bid", "/?hand=" + NO_BID.replace(" ", "+")),
         ("error", "/?hand=" + TYPO.replace(" ", "+")), ("rules", "/rules"),
         ("not-found", "/no/such/page")]


@pytest.mark.parametrize("name, path", PAGES, ids=[name for name, _ in PAGES])
def test_accessibility_check_finds_nothing(page, server, axe, browser_errors, name, path):
    page.goto(server + path)
    assert axe(page) == []
    assert browser_errors == []


@pytest.mark.parametrize("hand", [SHADOWED, TYPO])
def test_accessibility_of_the_page_scripts_never_touched(page, server, axe, hand):
    # axe itself needs JavaScript, so keep the page's own script out instead.
    page.route("**/static/app.js", lambda route: route.abort())
    page.goto(link(server, hand))
    assert page.locator("html").get_attribute("class") == "no-js"
    assert page.locator("#picker").is_hidden()
    assert axe(page) == []


@pytest.mark.parametrize("width", [1280, 375])
@pytest.mark.parametrize("name, path", PAGES[:5], ids=[name for name, _ in PAGES[:5]])
def test_screenshots_and_no_sideways_scrolling(new_page, server, screenshot, width, name,
                                               path):
    page = new_page(width=width)
    page.goto(server + path)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert screenshot(page, f"{name}-{width}").stat().st_size > 10_000


def test_the_page_reflows_at_320_pixels(new_page, server):
    page = new_page(width=320)
    page.goto(link(server, "KS QS JS 9S 8S 7S 6S 5S QH 2H 3D 2D 4C"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


def test_print_shows_the_result_without_the_controls(page, server, screenshot):
    page.goto(link(server, SHADOWED))
    page.emulate_media(media="print")
    for hidden in ("nav", ".picker", ".examples", "button[type=submit]"):
        assert page.locator(hidden).first.is_hidden(), hidden
    assert page.locator("#bid").is_visible() and page.locator(".trace").is_visible()
    screenshot(page, "result-print")
    assert page.pdf(format="A4")[:4] == b"%PDF"


def test_every_page_sets_language_title_and_one_heading(page, server):
    titles = set()
    for _, path in PAGES:
        page.goto(server + path)
        assert page.locator("html").get_attribute("lang") == "en"
        assert page.locator("h1").count() == 1
        titles.add(page.title())
    assert len(titles) == len(PAGES)


def test_the_rules_page_links_to_a_2nt_hand(page, server):
    page.goto(server + "/rules")
    page.locator("#R5").get_by_role("link", name=re.compile("See why")).click()
    page.wait_for_load_state()
    assert page.locator("#bid").inner_text() == "2NT"
    assert page.locator("#rule").inner_text().startswith("by R5")


@pytest.mark.parametrize("ci, outcome", [("true", pytest.fail.Exception),
                                         ("", pytest.skip.Exception)])
def test_a_missing_browser_fails_in_ci_and_skips_elsewhere(monkeypatch, ci, outcome):
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="Chromium"):
        missing("Chromium is not installed")
