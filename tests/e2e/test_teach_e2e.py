"""The teaching pages in a real headless Chromium, served by gunicorn: practice (right,
wrong, count first, rounds and their summary, the bid buttons on the first screen,
twenty hands on a phone), dealing to order with the answer hidden or shown, printed sets,
the statistics on a phone, bids shown as bids, the accessibility check in light and dark,
and screenshots at 1280 x 900 and 390 x 844."""

import re
from urllib.parse import parse_qs, unquote_plus, urlsplit

import pytest

from bidder import Suit, distributionPoints, explain, highCardPoints, openingBid
from bidder.bids import Bid
from bidder.teaching import TEACHING_RULES
from bidder.why_not import why_not

from buttons import press
from helpers import bid_text

pytestmark = pytest.mark.e2e

SIZES = [(1280, 900), (390, 844)]
SIZE_IDS = [str(width) for width, _ in SIZES]
WIDTHS = [width for width, _ in SIZES]
DECIDING = {rule.id for rule in TEACHING_RULES}
PDF_PAGE = re.compile(rb"/Type\s*/Page\b(?!s)")


def button_name(bid) -> str:
    """A bid button as a screen reader names it: '1 club', '2 hearts', '2NT', 'No bid'."""
    if bid is None or bid.endswith("NT"):
        return bid or "No bid"
    suit = Suit("CDHS".index(bid[-1]))
    return f"{bid[:-1]} {suit.word[:-1] if bid[0] == '1' else suit.word}"


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

@pytest.mark.parametrize("width, height", SIZES, ids=SIZE_IDS)
def test_practice_right_then_wrong_without_javascript(new_page, server, screenshot,
                                                      browser_errors, width, height):
    page = new_page(javascript=False, width=width, height=height)
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
    page = new_page(javascript=False, width=390, height=844)
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
    screenshot(page, "teach-practice-count-error-390")

    hcp.fill(str(highCardPoints(hand)))
    page.get_by_label("Distribution points", exact=True).fill(str(distributionPoints(hand) + 1))
    press(page, "Check my count")
    lines = page.locator(".t-count-feedback li").all_inner_texts()
    assert lines[0].startswith("✓ HCP")
    assert lines[1].startswith("✗ Distribution points: you counted")
    assert page.locator("#score").inner_text() == (
        "Bids right: 0 of 0 · Counts right: 0 of 1")
    assert page.locator(".scorecard").is_visible()
    screenshot(page, "teach-practice-counted-390")
    press(page, button_name(openingBid(hand)))
    assert page.locator(".t-feedback h2").inner_text().startswith("✓ Right")
    assert browser_errors == []


def test_twenty_hands_in_a_row_on_a_phone(new_page, server, browser_errors):
    page = new_page(javascript=False, width=390, height=844)
    page.goto(server + "/practice")
    opened = set()
    for number in range(1, 21):
        assert page.locator("#hand-title").inner_text() == f"Hand {number}"
        bid = openingBid(hand_on_table(page))
        opened.add(bid)
        button = page.get_by_role("button", name=button_name(bid), exact=True)
        box = button.bounding_box()
        assert box["height"] >= 44 and box["x"] + box["width"] <= 390
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


EIGHT_HEARTS_SEED = 169688889  # /deal?bid=1H: eight hearts, two lines on a phone


def on_first_screen(locator, width: int, height: int) -> bool:
    """Whether the element is wholly inside a page just opened (not scrolled)."""
    box = locator.bounding_box()
    return (box is not None and 0 <= box["x"] and box["x"] + box["width"] <= width
            and 0 <= box["y"] and box["y"] + box["height"] <= height)


@pytest.mark.parametrize("count_first", [False, True], ids=["bid", "count-first"])
@pytest.mark.parametrize("width, height", SIZES, ids=SIZE_IDS)
def test_the_bid_buttons_are_on_the_first_screen_on_every_hand(kept_page, server, width,
                                                               height, count_first):
    page = kept_page(width=width, height=height)
    page.goto(server + "/practice")
    if count_first:
        page.get_by_label("Count first").check()
        press(page, "Save settings")
    rules = set()
    for _ in TEACHING_RULES:  # a round: a hand for every rule that decides bids
        rules.add(explain(hand_on_table(page)).rule)
        if count_first:
            for label in ("HCP", "Distribution points", "Check my count"):
                assert on_first_screen(page.get_by_text(label, exact=True).last, width,
                                       height), label
            page.get_by_label("HCP", exact=True).fill("0")
            page.get_by_label("Distribution points", exact=True).fill("0")
            press(page, "Check my count")
        buttons = page.locator('button[name="bid"]')
        assert buttons.count() == 19
        for button in buttons.all():
            assert on_first_screen(button, width, height), button.inner_text()
        hand, side = (page.locator(".t-practice-hand").bounding_box(),
                      page.locator(".t-practice-side").bounding_box())
        if width >= 1000:  # the hand on the left, the bidding box on the right
            assert hand["x"] + hand["width"] <= side["x"] and side["y"] < hand["y"] + 50
        else:
            assert hand["y"] + hand["height"] <= side["y"]
        press(page, "Skip this hand")
    assert rules == DECIDING


@pytest.mark.parametrize("width, height", SIZES, ids=SIZE_IDS)
def test_a_wrong_answer_is_answered_first_about_the_bid_chosen(new_page, server, screenshot,
                                                               browser_errors, width,
                                                               height):
    page = new_page(javascript=False, width=width, height=height)
    page.goto(server + "/practice")
    hand = hand_on_table(page)
    advice = explain(hand)
    chosen = Bid.parse("2NT" if advice.bid != "2NT" else "None")
    press(page, button_name(chosen.text))
    reason = why_not(advice, chosen)
    said = page.locator("#chosen")
    assert said.inner_text() == f"You chose {chosen.display}. {reason[:1].upper()}{reason[1:]}"
    assert page.locator("#answer").text_content().startswith(
        f"This hand opens {bid_text(advice.bid)} by {advice.rule}, {advice.fired.name}.")
    for element in (said, page.locator("#answer"),
                    page.get_by_role("button", name="Next hand")):
        assert on_first_screen(element, width, height)
    assert page.locator("dl.hand").count() == 1
    trace = page.locator(".trace")
    assert trace.is_hidden()
    page.locator("#why summary").click()
    assert trace.is_visible() and page.locator("#why .scorecard").is_visible()
    screenshot(page, f"teach-practice-wrong-opened-{width}")
    assert browser_errors == []


def play_round(page, wrong_for=frozenset()) -> list[str]:
    """Bid every hand of the round on the table, wrongly for the rules in *wrong_for*;
    the deciding rules in turn. Ends on the round's summary."""
    rules = []
    while page.locator("#summary-title").count() == 0:
        hand = hand_on_table(page)
        advice = explain(hand)
        rules.append(advice.rule)
        wrong = "2NT" if advice.bid != "2NT" else None
        press(page, button_name(wrong if advice.rule in wrong_for else advice.bid))
        last = page.get_by_role("button", name="Round summary").count()
        press(page, "Round summary" if last else "Next hand")
    return rules


SET_FITTING_NONE = 1  # sets 31, 123, 328 and 352 of the first 400 fit a misreading


@pytest.mark.parametrize("width, height", SIZES, ids=SIZE_IDS)
def test_after_a_round_of_eight_a_summary_and_the_missed_ones_again(new_page, server, expect,
                                                                    screenshot, axe,
                                                                    browser_errors, width,
                                                                    height):
    page = new_page(width=width, height=height)
    # a set whose two wrong answers (2NT for R3 and for R6) fit no misreading: in about one
    # round in a hundred dealt at random they fit one, and the summary then offers its
    # hands first (and focuses that button), which a fixed set keeps out of this test
    page.goto(server + f"/practice?set={SET_FITTING_NONE}")
    assert set(play_round(page, wrong_for={"R3", "R6"})) == DECIDING
    assert page.locator("#summary-title").inner_text() == "Round over: 6 of 8 right"
    assert page.get_by_role("button", name=re.compile("this misreading")).count() == 0
    rows = page.locator(".t-summary-table tbody tr").all_inner_texts()
    assert len(rows) == 8
    assert [row.split("\t")[0] for row in rows if "✗" in row] == ["R3 1 of a minor",
                                                                    "R6 2 of a suit"]
    missed = page.get_by_role("button", name=re.compile("^Practise the ones I missed"))
    assert missed.inner_text() == "Practise the ones I missed (R3, R6: 8 hands)"
    # autofocus brings it into view, at the page's first rendering after its load (on a
    # busy machine, after Playwright's load): the summary's hand table alone is taller
    # than the screen
    expect(missed).to_be_focused()
    assert on_first_screen(missed, width, height)
    assert axe(page) == []
    screenshot(page, f"teach-practice-summary-{width}")

    missed.click()
    page.wait_for_url(server + "/practice")
    assert page.locator(".t-round-place").inner_text() == "1 of 8 in this round"
    assert sorted(play_round(page)) == ["R3"] * 4 + ["R6"] * 4
    assert page.locator("#summary-title").inner_text() == "Round over: 8 of 8 right"
    assert page.get_by_role("button", name=re.compile("^Practise")).count() == 0
    press(page, "Next round")
    assert page.locator(".t-round-place").inner_text() == "1 of 8 in this round"
    assert page.locator("#score").inner_text() == "Bids right: 14 of 16"
    assert browser_errors == []


def test_saved_settings_say_so(new_page, server, browser_errors):
    page = new_page(javascript=False, width=390, height=844)
    page.goto(server + "/practice")
    page.get_by_label("Natural frequencies").check()
    press(page, "Save settings")
    status = page.get_by_role("status")
    assert status.inner_text() == "Settings saved: count first off, natural frequencies on."
    assert on_first_screen(status, 390, 844)
    assert page.get_by_label("Natural frequencies").is_checked()
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
    assert page.locator("#bid").text_content() == "2NT"
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
    assert page.locator("svg.t-chart").count() == 4
    assert page.get_by_role("img", name="Share of hands that open each bid").is_visible()
    assert "Exactly, over all 635,013,559,600 hands" in page.locator(".lead").inner_text()
    assert page.locator(".t-chart-sample").count() == 0

    page.get_by_label("Sample of hands").fill("2000")
    page.get_by_label("Seed").fill("3")
    press(page, "Deal a sample")
    assert query(page) == {"hands": "2000", "seed": "3"}
    assert "Beside them, 2,000 random hands dealt from seed 3" in page.locator(
        ".lead").inner_text()
    assert page.locator(".t-chart-sample").first.is_visible()
    assert page.get_by_role("columnheader", name="95 % interval").first.is_visible()
    follow(page, "The exact figures alone")
    assert page.locator(".t-chart-sample").count() == 0
    assert browser_errors == []


@pytest.mark.parametrize("width, height", SIZES, ids=SIZE_IDS)
def test_a_hand_shown_to_a_class_hides_its_answer_until_asked(new_page, server, screenshot,
                                                              browser_errors, width, height):
    page = new_page(javascript=False, width=width, height=height)
    page.goto(server + "/rules")
    follow(page, "Deal")
    page.get_by_label("Opening bid", exact=True).select_option("1H")
    page.get_by_label("Hide the answer until asked").check()
    press(page, "Deal")
    assert query(page)["hide"] == "1"
    assert page.title().endswith(": what would you open? · bidder")
    assert page.locator("#result").count() == 0
    assert "1♥" not in page.locator("main").inner_text()
    assert page.locator("dl.hand").is_visible()
    show = page.get_by_role("link", name="Show the answer")
    assert on_first_screen(show, width, height)
    screenshot(page, f"teach-deal-hidden-{width}")
    page.goto(server + f"/deal?bid=1H&seed={EIGHT_HEARTS_SEED}&hide=1")  # a long suit
    assert page.locator(".hand-suit").nth(1).inner_text().count("hearts") == 8
    assert on_first_screen(show, width, height)
    follow(page, "Show the answer")
    assert urlsplit(page.url).fragment == "result" and "hide" not in query(page)
    assert page.locator("#bid").text_content() == bid_text("1H")
    assert on_first_screen(page.locator("#bid"), width, height)
    assert browser_errors == []


@pytest.mark.parametrize("javascript", [True, False], ids=["script", "no-script"])
def test_a_printed_set_is_a_teaching_mix_with_reasons_and_a_print_button(
        new_page, server, browser_errors, javascript):
    page = new_page(javascript=javascript)
    if javascript:
        page.add_init_script("window.print = () => { window.printed = true; };")
    page.goto(server + "/deal?print=1&seed=5")
    rules = [cell.split(" ", 1)[0] for cell in
             page.locator(".t-key-table tbody td:last-child").all_inner_texts()]
    assert len(rules) == 12 and set(rules) == DECIDING
    assert all(page.locator(".t-key-why").all_inner_texts())
    button = page.get_by_role("button", name="Print", exact=True)
    how = page.get_by_text("Print with your browser's Print command")
    if javascript:
        assert button.is_visible() and how.is_hidden()
        button.click()
        assert page.evaluate("window.printed") is True
    else:
        assert button.is_hidden() and how.is_visible()
    follow(page, "As dealt instead")
    assert query(page)["mix"] == "natural"
    assert browser_errors == []


def test_the_statistics_read_on_a_phone(new_page, server, screenshot):
    page = new_page(width=390, height=844)
    page.goto(server + "/stats")
    # A wide table may scroll sideways in its own box; none may be cut off.
    cut = page.evaluate("""[...document.querySelectorAll('.table-wrap')]
        .filter(wrap => wrap.scrollWidth > wrap.clientWidth
                && !['auto', 'scroll'].includes(getComputedStyle(wrap).overflowX)).length""")
    assert cut == 0
    heights = page.evaluate("""[...document.querySelectorAll('.t-chart text')]
        .map(text => text.getBoundingClientRect().height)""")
    assert min(heights) >= 12
    lefts = page.evaluate("""[...document.querySelectorAll('.t-chart text')]
        .map(text => text.getBoundingClientRect().left)""")
    assert min(lefts) >= 0
    assert fits(page, 390)


PAGES_WITH_BIDS = [("advisor", "/?hand=AH+KH+QH+5H+4H+AS+3S+2S+KD+3D+2D+3C+2C",
                    "#bid .bid-mark"),
                   ("rules", "/rules", "#R2 .rule-facts .bid-mark"),
                   ("deal", "/deal?bid=1H&seed=3", "#bid .bid-mark"),
                   ("print", "/deal?bid=1H&count=2&print=1&seed=3", ".t-key-table .bid-mark"),
                   ("practice", "/practice", 'button[value="1H"] .bid-mark')]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name, path, mark", PAGES_WITH_BIDS,
                         ids=[name for name, _, _ in PAGES_WITH_BIDS])
def test_bids_look_like_bids_on_every_page(page, server, name, path, mark, scheme):
    page.emulate_media(color_scheme=scheme)
    page.goto(server + path)
    bid = page.locator(mark).first
    assert bid.locator("[aria-hidden=true]").inner_text() == "♥"
    assert bid.locator(".visually-hidden").inner_text().strip() in ("heart", "hearts")
    hearts = page.evaluate("getComputedStyle(document.documentElement)"
                           ".getPropertyValue('--hearts').trim()")
    colour = bid.evaluate("mark => getComputedStyle(mark).color")
    assert colour == page.evaluate(f"""(() => {{ const probe = document.createElement('i');
        probe.style.color = '{hearts}'; document.body.append(probe);
        return getComputedStyle(probe).color; }})()""")


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

SCHEMES = ("light", "dark")

PAGES = [("deal", "/deal?bid=2NT&seed=7"), ("deal-hidden", "/deal?bid=2NT&seed=7&hide=1"),
         ("deal-r4", "/deal?rule=R4"),
         ("deal-bad-seed", "/deal?seed=abc"), ("stats", "/stats"),
         ("stats-sample", "/stats?hands=2000&seed=3"),
         ("stats-bad", "/stats?hands=0"), ("practice", "/practice"),
         ("print", "/deal?count=12&print=1&seed=5"),
         ("print-key", "/deal?count=12&print=1&seed=5&part=key")]


@pytest.mark.parametrize("name, path", PAGES, ids=[name for name, _ in PAGES])
def test_accessibility_check_finds_nothing(page, server, axe, browser_errors, name, path):
    page.goto(server + path)
    for scheme in SCHEMES:  # the page once loaded, seen in each scheme in turn
        page.emulate_media(color_scheme=scheme)
        assert axe(page) == [], scheme
    assert browser_errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_accessibility_of_every_practice_state(page, server, axe, browser_errors, scheme):
    page.emulate_media(color_scheme=scheme)
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
    page.locator("#why summary").click()
    assert axe(page) == []
    press(page, "Next hand")
    page.get_by_label("Count first").uncheck()
    press(page, "Save settings")
    assert axe(page) == []
    assert browser_errors == []


@pytest.mark.parametrize("width, height", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("name, path", PAGES, ids=[name for name, _ in PAGES])
def test_screenshots_and_no_sideways_scrolling(kept_page, server, screenshot, width, height,
                                               name, path):
    page = kept_page(javascript=False, width=width, height=height)
    page.goto(server + path)
    for scheme, suffix in zip(SCHEMES, ("", "-dark")):
        page.emulate_media(color_scheme=scheme)
        assert fits(page, width), scheme
        assert screenshot(page, f"teach-{name}-{width}{suffix}").stat().st_size > 10_000
