"""A room in a real browser: the instructor's projector page and thirty phones
(Playwright contexts in one shared Chromium) go through a vote, a discussion and a
second vote, and the reveal, against the app served by gunicorn's gevent worker (which
holds every page's event stream). The projector and the phones follow the poll by
server-sent events, without reloading; every page passes axe in light and dark. The
instructor steers by the cookie the start gave the browser (no key in any address),
and adds a phone as a remote by a one-time link from the instructor's own view."""

import re
from contextlib import ExitStack

import pytest

from buttons import press
from served import serving

pytestmark = pytest.mark.e2e

HAND = "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"  # 1C by R3
# Ten students' votes, and a room of three such tens: per ten, 4 right then 8 right.
FIRST = ["1C", "1C", "1C", "1H", "1H", "1H", "1D", "None", "1C", "1H"] * 3
SECOND = ["1C", "1C", "1C", "1C", "1C", "1H", "1C", "None", "1C", "1C"] * 3
PHONES = len(FIRST)
NAMES = {"1C": "1 club", "1H": "1 heart", "1D": "1 diamond", "None": "No bid"}
# The room's pages load all at once, so the server answers thirty in the time it answers
# one page elsewhere: the wait for the last of them is bounded by the room's whole share.
ROOM_TIMEOUT_MS = 2_000 * PHONES


@pytest.fixture(scope="module")
def live_server():
    """A server of the live tests' own, so their polls and votes meet no other test's."""
    with serving() as base:
        yield base


def press_each(pages, names) -> None:
    """Each page presses its button and waits for the page it leads to, the pages all at
    once (as a room votes), not one after another."""
    with ExitStack() as waits:
        for page in pages:
            waits.enter_context(page.expect_navigation(timeout=ROOM_TIMEOUT_MS))
        for page, name in zip(pages, names):
            page.get_by_role("button", name=name, exact=True).click(no_wait_after=True)


def open_each(pages, url: str) -> None:
    """Each page opens *url* itself, the pages all at once, and waits for it to load."""
    with ExitStack() as waits:
        for page in pages:
            waits.enter_context(page.expect_navigation(url=url, timeout=ROOM_TIMEOUT_MS))
        for page in pages:
            page.evaluate("url => { window.location.assign(url); }", url)


def kept(page) -> None:
    """Mark the page, so that a reload (which would drop the mark) can be told."""
    page.evaluate("window.keptMark = 'kept'")


def still_kept(page) -> bool:
    return page.evaluate("window.keptMark") == "kept"


def test_a_room_votes_discusses_votes_again_and_sees_its_misreadings(
        new_page, live_server, axe, browser_errors):
    projector = new_page()
    projector.goto(live_server + "/live")
    assert axe(projector) == []
    projector.get_by_label("Hand to paste").fill(HAND)
    press(projector, "Start the poll")
    code = projector.locator("#code").inner_text()
    assert projector.url == f"{live_server}/live/{code}/host"  # no key on the screen
    assert projector.locator("svg.live-qr").count() == 1
    assert f"Join at {live_server}/live/{code}" in projector.locator(".live-join").inner_text()
    assert axe(projector) == []
    stranger = new_page()
    stranger.goto(projector.url)
    assert "This is the instructor's page" in stranger.locator("h1").inner_text()

    phones = [new_page(width=390, height=844) for _ in range(PHONES)]
    phones[0].goto(live_server + "/live")
    phones[0].get_by_label("Code on the projector").fill(code.lower())
    press(phones[0], "Join")
    open_each(phones[1:], f"{live_server}/live/{code}")
    assert axe(phones[0]) == []

    own = projector.context.new_page()  # the instructor's own view, in another tab
    own.goto(f"{live_server}/live/{code}/teacher")
    assert axe(own) == []
    assert "30 joined" in own.locator("#joined").inner_text()
    press(own, "Steer from a phone too: a one-time link")
    link = own.locator("#remote-link").inner_text()
    assert axe(own) == []
    remote = new_page(width=390, height=844)  # the instructor's phone
    remote.goto(link)
    assert axe(remote) == []
    remote.get_by_role("link", name="Open the controls").click()
    remote.get_by_role("button", name="Close the vote", exact=True).wait_for()
    second = new_page()
    second.goto(link)  # used once already
    assert "used or has expired" in second.locator("main").inner_text()
    own.goto(f"{live_server}/live/{code}/teacher")
    kept(projector)
    kept(own)
    press_each(phones, [NAMES[bid] for bid in FIRST])
    for phone in phones:
        assert "Your answer" in phone.locator("#mine").inner_text()
    projector.locator("#answered").filter(has_text=str(PHONES)).wait_for()
    assert still_kept(projector)
    assert projector.locator(".live-bars").count() == 0  # no distribution while open
    own.locator("#right-so-far").filter(has_text="40 % right so far (12 of 30)").wait_for()
    assert "R2.len=3+" in own.locator("#bars").inner_text() and still_kept(own)
    for scheme in ("light", "dark"):
        own.emulate_media(color_scheme=scheme)
        assert axe(own) == []

    for phone in phones:
        kept(phone)
    press(remote, "Close the vote")  # from the instructor's phone
    for phone in phones:
        phone.locator("#closed").wait_for()
        assert still_kept(phone)
    press(projector, "Discuss, then vote again")
    for phone, bid in zip(phones, SECOND):
        phone.get_by_role("button", name=NAMES[bid], exact=True).wait_for()
        assert still_kept(phone)
    press_each(phones, [NAMES[bid] for bid in SECOND])
    projector.locator("#answered").filter(has_text=str(PHONES)).wait_for()

    press(projector, "Reveal the answers")
    bars = projector.locator("#bars").inner_text()
    assert "R2.len=3+" in bars and "R3.choose=shorter-lower" in bars
    assert "+12 since the first vote" in bars and "-9 since the first vote" in bars
    moved = projector.locator(".live-moves").inner_text()
    for line in (r"From wrong to right\s+12", r"From right to wrong\s+0",
                 r"Right both times\s+12", r"Wrong both times\s+6"):
        assert re.search(line, moved), (line, moved)
    assert "The answer:" in projector.locator(".live-answer").inner_text()
    for scheme in ("light", "dark"):
        projector.emulate_media(color_scheme=scheme)
        assert axe(projector) == []
    for phone in phones:
        phone.locator("#answer-title").wait_for()
    assert axe(phones[-1]) == []
    download = projector.request.get(f"{live_server}/live/{code}/summary.html")
    summary = new_page()  # the page as downloaded: opened from no server
    summary.set_content(download.text())
    assert "From wrong to right" in summary.locator("main").inner_text()
    assert summary.locator(".live-bar-fill").first.evaluate(
        "bar => getComputedStyle(bar).fill") != "rgb(0, 0, 0)"  # its own style sheet
    for scheme in ("light", "dark"):
        summary.emulate_media(color_scheme=scheme)
        assert axe(summary) == []
    assert browser_errors == []


def test_a_phone_without_javascript_votes_and_is_told_when_it_closes(
        new_page, live_server, browser_errors):
    projector = new_page()
    projector.goto(live_server + "/live")
    projector.get_by_label("A hand dealt for a rule").check()
    press(projector, "Start the poll")
    code = projector.locator("#code").inner_text()
    phone = new_page(javascript=False, width=390, height=844)
    phone.goto(f"{live_server}/live/{code}")
    press(phone, "1 club")
    press(phone, "No bid")
    assert "No bid" in phone.locator("#mine").inner_text()
    projector.reload()
    assert projector.locator("#answered").inner_text() == "1"
    press(projector, "Close the vote")
    phone.reload()
    assert phone.locator("#closed").is_visible()
    assert browser_errors == []


def test_a_count_first_poll_asks_the_phone_to_count_then_bid(new_page, live_server, axe,
                                                             browser_errors):
    projector = new_page()
    projector.goto(live_server + "/live")
    projector.get_by_label("Hand to paste").fill(HAND)
    projector.get_by_label("Count first").check()
    press(projector, "Start the poll")
    code = projector.locator("#code").inner_text()
    phone = new_page(width=390, height=844)
    phone.goto(f"{live_server}/live/{code}")
    assert axe(phone) == []
    phone.get_by_label("HCP").fill("12")
    phone.get_by_label("Distribution points").fill("1")
    press(phone, "Check my count")
    assert "HCP: 12, right." in phone.locator("#count-feedback").inner_text()
    assert axe(phone) == []
    press(phone, "1 club")
    assert "Your answer" in phone.locator("#mine").inner_text()
    assert browser_errors == []
