"""The advisor and rules pages in a real headless Chromium, served by gunicorn."""

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from bidder import openingBid
from bidder.cards import InvalidHandError, parse_hand

from browser_flags import PLAYWRIGHT_DISABLED_FEATURES, playwright_disabled_features
from helpers import bid_text
from needs import missing

pytestmark = pytest.mark.e2e

HAND = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"
SIZES = [(1280, 900), (390, 844)]
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


def test_the_browser_keeps_playwrights_switches_and_loads_no_page_of_its_own(browser):
    """Our --disable-features replaces Playwright's, so it must hold all of them; and a
    new context loads no page of the browser's own (the address bar's popup)."""
    theirs = playwright_disabled_features()
    assert theirs and set(theirs) <= set(PLAYWRIGHT_DISABLED_FEATURES)
    context = browser.new_context()
    context.new_page()
    targets = browser.new_browser_cdp_session().send("Target.getTargets", {"filter": [{}]})
    context.close()
    assert [target["url"] for target in targets["targetInfos"]
            if target["type"] == "browser_ui"] == []


def test_typing_a_hand_shows_the_bid_and_the_rule(page, server, browser_errors):
    response = submit(page, server, SHADOWED)
    assert response.status == 200
    assert page.locator("#bid").text_content() == bid_text("1C")
    assert page.locator("#rule").inner_text() == "by R3, 1 of a minor"
    assert page.locator(".notes li").first.text_content().startswith(
        f"R4 also applies and would bid {bid_text('1D')};")
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


def server_says(text: str) -> str:
    """What the server says of *text*: 13 of 13 cards, or the parser's message."""
    try:
        parse_hand(text)
    except InvalidHandError as error:
        return error.message
    return "13 of 13 cards"


def test_clicking_cards_builds_the_same_hand(expect, page, server, browser_errors):
    page.goto(server + "/")
    count = page.locator("#card-count")
    assert count.inner_text() == ""  # nothing is said of an empty field
    for card in SHADOWED.split():
        page.locator(f'button[data-card="{card}"]').click()
    expect(count).to_have_text("13 of 13 cards")
    assert page.locator('button[data-card="AS"]').get_attribute("aria-pressed") == "true"
    page.locator('button[data-card="AS"]').click()
    expect(count).to_have_text("a hand has 13 cards; this one has 12 (missing 1)")
    assert page.locator('button[data-card="AS"]').get_attribute("aria-pressed") == "false"
    page.locator('button[data-card="AS"]').click()
    with page.expect_navigation():
        page.get_by_role("button", name="Show the bid").click()
    assert page.locator("#bid").text_content() == bid_text("1C")
    assert sorted(page.get_by_label("Your hand").input_value().split()) == sorted(
        SHADOWED.split())
    assert browser_errors == []


@pytest.mark.parametrize("typed", [
    "as ks", "A4.KQ3.AQ76.KJ85", HAND + " 3S", "T♠,9♥️", "♠ K J", "AKQ2 K32 432 432",
    HAND.replace("10C", "2X"), "-.AKQJ1098765432..",
], ids=["two-cards", "dots", "fourteen", "symbols", "suit-by-suit-begun", "suit-groups",
        "a-typo", "a-dash-for-a-void"])
def test_the_live_count_follows_typing_in_the_servers_words(expect, page, server, typed):
    page.goto(server + "/")
    page.get_by_label("Your hand").type(typed)
    expect(page.locator("#card-count")).to_have_text(server_says(typed))


def test_the_live_count_of_a_paste_too_long_is_the_servers_refusal(expect, page, server):
    pasted = ("Opening bid advisor\n" + f"Your hand {HAND}\n" * 40)[:1695]
    page.goto(server + "/")
    page.get_by_label("Your hand").fill(pasted)
    count = page.locator("#card-count")
    sent = pasted.replace("\n", "\r\n")  # as a form sends a text area's lines
    expect(count).to_have_text(server_says(sent))
    assert count.inner_text().startswith("the input is 1,")
    assert "complete" not in count.get_attribute("class").split()
    with page.expect_navigation():
        page.get_by_role("button", name="Show the bid").click()
    assert count.inner_text() in page.locator("#hand-error").inner_text()


SUIT_BY_SUIT = "♠ K J 10 ♥ A Q J 8 ♦ Q 6 5 ♣ K 9 4"


@pytest.mark.parametrize("typed, complete, doubled", [
    (HAND, True, False),
    (HAND.replace("10C", "AS"), False, True),
    (HAND + " AS KH", False, True),
    (SUIT_BY_SUIT, True, False),
    ("S: KJ10 H: AQJ8 D: Q65 C: K94", True, False),
    ("c k94 d q65 h aqj8 s kjt", True, False),
    ("♠ A K Q J 10 9 8 ♥ – ♦ A K Q ♣ A K Q", True, False),
    ("♠ K K J 10 ♥ A Q J 8 ♦ Q 6 ♣ K 9 4", False, True),
    ("AKQ2.J54.T9.8765", True, False),
    ("AKQ2,J54,T9,8765", True, False),
    (HAND.replace("AD", "XD"), False, False),
    (HAND + " X", False, False),
], ids=["tokens", "a-card-twice", "two-cards-twice", "suit-by-suit", "letters-and-colons",
        "lower-case-clubs-first", "a-void", "suit-by-suit-twice", "dots", "suit-groups",
        "a-typo", "all-there-and-a-stray-word"])
def test_the_count_is_the_servers_verdict_and_marks_a_card_typed_twice(
        expect, page, server, typed, complete, doubled):
    page.goto(server + "/")
    page.get_by_label("Your hand").fill(typed)
    count = page.locator("#card-count")
    expect(count).to_have_text(server_says(typed))
    assert ("complete" in count.get_attribute("class").split()) is complete
    assert ("doubled" in count.get_attribute("class").split()) is doubled


def test_the_script_reads_the_notation_from_the_page(page, server):
    page.goto(server + "/")
    notation = json.loads(page.locator("#hand-form").get_attribute("data-notation"))
    assert notation["rank_texts"]["T"] == "10" and notation["size"] == 13
    script = page.request.get(server + "/static/app.js").text()
    for restated in ("13", "♠", "spades", '"T"', "[CDHS]", "10H"):
        assert restated not in script, restated


def test_a_hand_copied_from_a_page_and_pasted_gives_its_bid(expect, page, server,
                                                            browser_errors):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(server + "/rules")
    example = page.locator("#R7 .example")
    example.locator(".hand-line").evaluate("""line => {
        const range = document.createRange();
        range.selectNodeContents(line);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
    }""")
    page.keyboard.press("Control+C")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("♠ ")
    page.goto(server + "/")
    page.get_by_label("Your hand").focus()
    page.keyboard.press("Control+V")
    expect(page.locator("#card-count")).to_have_text("13 of 13 cards")
    with page.expect_navigation():
        page.get_by_role("button", name="Show the bid").click()
    assert page.locator("#rule").inner_text().startswith("by R7")
    assert browser_errors == []


@pytest.mark.parametrize("typed", [SUIT_BY_SUIT, "S AKQ2 H J54 D T9 C 8765",
                                   "♠ A K Q J 10 9 8 ♥ — ♦ A K Q ♣ A K Q"])
def test_a_hand_written_suit_by_suit_gets_its_bid(page, server, typed):
    submit(page, server, typed)
    assert page.locator("#bid").text_content() == bid_text(openingBid(typed))
    assert page.get_by_label("Your hand").input_value() == typed


def test_enter_sends_the_hand_and_shift_enter_starts_a_new_line(page, server):
    page.goto(server + "/")
    field = page.get_by_label("Your hand")
    field.fill("♠ A K Q J 10 9 8")
    field.press("Shift+Enter")
    field.press_sequentially("♥ - ♦ A K Q ♣ A K Q")
    assert field.input_value() == "♠ A K Q J 10 9 8\n♥ - ♦ A K Q ♣ A K Q"
    with page.expect_navigation():
        field.press("Enter")
    assert page.locator("#bid").text_content() == bid_text(
        openingBid("♠ A K Q J 10 9 8 ♥ - ♦ A K Q ♣ A K Q"))


@pytest.mark.parametrize("javascript", [True, False], ids=["script", "no-script"])
def test_on_a_phone_the_field_shows_all_13_cards_and_the_result_opens_at_the_bid(
        new_page, server, javascript):
    page = new_page(javascript=javascript, width=390, height=844)
    page.goto(server + "/")
    field = page.get_by_label("Your hand")
    for hand in (HAND, SUIT_BY_SUIT):
        field.fill(hand)
        assert field.evaluate("f => f.scrollHeight <= f.clientHeight + 1"), hand
        assert field.evaluate("f => f.scrollWidth <= f.clientWidth"), hand
        assert field.bounding_box()["x"] + field.bounding_box()["width"] <= 390
    with page.expect_navigation():
        page.get_by_role("button", name="Show the bid").click()
    assert urlsplit(page.url).fragment == "result"
    box = page.locator("#bid").bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 844
    assert page.get_by_label("Your hand").input_value() == SUIT_BY_SUIT


def focused(page) -> str:
    """The focused element: a card's data-card, else its text."""
    return page.evaluate("document.activeElement.dataset.card "
                         "|| document.activeElement.textContent.trim()")


def test_the_deck_is_one_tab_stop_and_the_arrow_keys_move_within_it(page, server):
    page.goto(server + "/")
    assert page.locator("#picker button[tabindex='0']").count() == 1
    page.get_by_role("button", name="Show the bid").focus()
    page.keyboard.press("Tab")
    assert focused(page) == "Or click cards to add or remove them"
    page.keyboard.press("Tab")
    assert focused(page) == "AS"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('.examples') !== null")
    page.keyboard.press("Shift+Tab")
    assert focused(page) == "AS"
    for key, card in [("ArrowRight", "KS"), ("ArrowDown", "KH"), ("End", "2H"),
                      ("ArrowRight", "2H"), ("Home", "AH"), ("ArrowUp", "AS"),
                      ("ArrowLeft", "AS"), ("ArrowUp", "AS"), ("ArrowDown", "AH"),
                      ("ArrowDown", "AD"), ("ArrowDown", "AC"), ("ArrowDown", "AC")]:
        page.keyboard.press(key)
        assert focused(page) == card, key
    page.keyboard.press("Enter")
    assert page.get_by_label("Your hand").input_value() == "AC"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    assert page.get_by_label("Your hand").input_value() == "AC KC"
    assert page.locator('button[data-card="KC"]').get_attribute("aria-pressed") == "true"
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    assert focused(page) == "KC"
    assert page.locator("#picker button[tabindex='0']").count() == 1
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"


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
         ("not-found", "/no/such/page"), ("variants", "/variants"),
         ("variant", "/variants?variant=none-as-string")]


@pytest.mark.parametrize("name, path", PAGES, ids=[name for name, _ in PAGES])
def test_accessibility_check_finds_nothing_in_light_and_dark(page, server, axe,
                                                             browser_errors, name, path):
    page.goto(server + path)
    assert axe(page) == []
    page.emulate_media(color_scheme="dark")  # the page once loaded, seen dark
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == (
        "rgb(20, 23, 27)")
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


@pytest.mark.parametrize("width, height", SIZES, ids=[str(width) for width, _ in SIZES])
@pytest.mark.parametrize("name, path", PAGES[:5], ids=[name for name, _ in PAGES[:5]])
def test_screenshots_and_no_sideways_scrolling(kept_page, server, screenshot, width, height,
                                               name, path):
    page = kept_page(width=width, height=height)
    page.goto(server + path)
    for scheme, suffix in (("light", ""), ("dark", "-dark")):  # the page once loaded
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, scheme
        assert screenshot(page, f"{name}-{width}{suffix}").stat().st_size > 10_000


def test_large_type_for_a_projector_stays_on_from_page_to_page(page, server):
    page.goto(server + "/")
    size = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
    page.get_by_label("Large type, for a projector").check()
    larger = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
    assert larger == pytest.approx(size * 150 / 112.5)
    page.goto(server + "/rules")
    assert page.get_by_label("Large type, for a projector").is_checked()
    assert page.evaluate("parseFloat(getComputedStyle(document.documentElement)"
                         ".fontSize)") == larger


def test_large_type_works_without_the_script_on_the_page(new_page, server):
    page = new_page(javascript=False)
    page.goto(server + "/rules")
    page.get_by_label("Large type, for a projector").check()
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "24px"


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
