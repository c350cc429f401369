"""Browser tests: the app served by gunicorn on 127.0.0.1, driven in headless Chromium.

Fixtures for any tests/e2e/test_*.py (mark each test with @pytest.mark.e2e):

    server          base URL of gunicorn serving bidder.web:create_app() for the whole
                    session, e.g. "http://127.0.0.1:43817" (one worker, served as
                    `bidder serve` serves it; a random secret key; a state store of its own
                    in a temporary folder)
    browser         Playwright's Chromium: Debian's /usr/bin/chromium, headless, each launch
                    with a fresh temporary profile
    new_page        new_page(javascript=True, width=1280, height=900) -> a Page in a fresh
                    context, closed after the test
    kept_page       kept_page(...) -> as new_page, one page a test, lent from a context kept
                    for each size and cleared after each test as a fresh context (pages
                    it opened, cookies, storage, permissions, routes, media, size)
    page            kept_page() with the defaults
    expect          Playwright's expect(locator): waits for it to show what it should
    browser_errors  the test's console errors, page errors, CSP violations and requests to
                    any host but 127.0.0.1, as strings; assert browser_errors == []
    axe             axe(page) -> the axe-core violations (WCAG 2.0-2.2 A and AA, and best
                    practice) of the page as it is now; assert axe(page) == []
    screenshot      screenshot(page, "name") saves screenshots/name.png (full page)

Without Chromium, Playwright or axe-core (`npm ci` in this folder) the tests skip; with
CI=true in the environment they fail instead.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest

from browser_flags import chromium_args
from kept import cleared
from needs import missing
from served import LOOPBACK, serving

HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = chromium_args()
AXE_SCRIPT = HERE / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
SCREENSHOTS = HERE / "screenshots"
ACTION_TIMEOUT_MS = 10_000


@pytest.fixture(scope="session")
def server():
    """The app served by gunicorn on a free port of 127.0.0.1, for the whole session."""
    with serving() as base:
        yield base


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium from Debian, through Playwright."""
    if not Path(CHROMIUM).exists():
        missing(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright for Python is not installed (pip install -e '.[test]')")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def expect(browser):
    """Playwright's expect(), which waits for a locator to come to what it should show
    (imported here, so that without Playwright the tests skip)."""
    from playwright.sync_api import expect as waited_for
    return waited_for


@pytest.fixture
def browser_errors():
    """What went wrong in the browser during the test, as readable lines."""
    return []


@pytest.fixture
def new_page(browser, browser_errors):
    """Make pages in fresh contexts; everything they do wrong lands in browser_errors."""
    contexts = []

    def make(javascript: bool = True, width: int = 1280, height: int = 900):
        context = browser.new_context(viewport={"width": width, "height": height},
                                      java_script_enabled=javascript)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        for event, listener in listeners(page, browser_errors).items():
            page.on(event, listener)
        return page

    yield make
    for context in contexts:
        context.close()


def listeners(page, errors: list[str]) -> dict:
    """The page's listeners, by event, that put what goes wrong in it into *errors*."""
    return {"console": lambda message: _console_error(page, message, errors),
            "pageerror": lambda error: errors.append(f"page error: {error}"),
            "request": lambda request: _foreign_request(request, errors)}


def _console_error(page, message, errors: list[str]) -> None:
    # A 400 page for bad input is the app working; Chromium still logs its status. So is
    # a live-update stream refused with 429 beyond a client's bound (a page that moves on
    # leaves its stream open until the server next writes to it): the page listens again
    # after a while, as docs/live-poll.md says.
    loaded = message.text.startswith("Failed to load resource")
    own_status = loaded and message.location.get("url") == page.url
    stream_refused = (loaded and "status of 429" in message.text
                      and urlsplit(message.location.get("url", "")).path.endswith("/events"))
    if message.type == "error" and not (own_status or stream_refused):
        errors.append(f"console: {message.text}")


def _foreign_request(request, errors: list[str]) -> None:
    host = urlsplit(request.url).hostname
    if urlsplit(request.url).scheme in ("http", "https") and host != LOOPBACK:
        errors.append(f"request to another host: {request.url}")


@pytest.fixture(scope="session")
def _kept():
    """The contexts kept_page lends, each with its one page, by (javascript, width,
    height), for the worker's whole run."""
    kept: dict[tuple, tuple] = {}
    yield kept
    for context, *_ in kept.values():
        context.close()


@pytest.fixture
def kept_page(browser, browser_errors, server, _kept):
    """kept_page(javascript=True, width=1280, height=900) -> a page as new_page makes it,
    lent from one kept for each size: for the many tests that load a page and look at it
    (its layout, its accessibility, its count), which pay no new context and no new
    renderer each. After the test the pages it opened are closed, the page leaves for
    about:blank, and its site's cookies and storage, its permissions, routes and the
    emulated media are cleared (kept.cleared): the next test starts as in a fresh
    context. A test that needs two pages, or adds a script to every page it opens
    (add_init_script), uses new_page."""
    lent = []

    def lend(javascript: bool = True, width: int = 1280, height: int = 900):
        assert not lent, "kept_page lends one page a test: use new_page for more"
        key = (javascript, width, height)
        if key not in _kept:
            context = browser.new_context(viewport={"width": width, "height": height},
                                          java_script_enabled=javascript)
            context.set_default_timeout(ACTION_TIMEOUT_MS)
            page = context.new_page()
            _kept[key] = (context, page, context.new_cdp_session(page))
        context, page, _ = _kept[key]
        listening = listeners(page, browser_errors)
        for event, listener in listening.items():
            page.on(event, listener)
        lent.append((key, page, listening))
        return page

    yield lend
    for key, page, listening in lent:
        for event, listener in listening.items():
            page.remove_listener(event, listener)
        cleared(_kept, key, server)


@pytest.fixture
def page(kept_page):
    """A page with JavaScript on, 1280 px wide (kept_page's)."""
    return kept_page()


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's script, from npm (tests/e2e/node_modules)."""
    if not AXE_SCRIPT.exists():
        missing(f"axe-core is not installed: run `npm ci` in {HERE}")
    return AXE_SCRIPT.read_text(encoding="utf-8")


@pytest.fixture
def axe(axe_source):
    """Run axe-core in a page; returns its violations as (rule id, help, targets)."""

    def run(page) -> list[tuple[str, str, list[str]]]:
        if not page.evaluate("typeof window.axe?.run === 'function'"):  # once a document
            page.evaluate(axe_source + "\n;undefined")
        violations = page.evaluate(
            "async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags},"
            " resultTypes: ['violations']}))"
            ".violations.map(v => [v.id, v.help, v.nodes.map(n => n.target.join(' '))])",
            AXE_TAGS)
        return [tuple(violation) for violation in violations]

    return run


@pytest.fixture
def screenshot():
    """Save a full-page screenshot under screenshots/ (ignored by git)."""

    def take(page, name: str) -> Path:
        SCREENSHOTS.mkdir(exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
