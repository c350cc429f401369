"""The page kept_page lends is cleared after each test as a fresh context would be: no
other page, no cookie, no stored setting, no permission, no route, no emulated media, its
own size."""

import pytest

from kept import cleared

pytestmark = pytest.mark.e2e

KEY = (True, 390, 844)


def test_a_kept_page_is_cleared_as_a_fresh_context_would_be(kept_page, server, _kept):
    page = kept_page(width=390, height=844)
    page.goto(server + "/practice")
    page.locator("#large-type").check()
    page.context.grant_permissions(["clipboard-read"])
    page.route("**/static/style.css", lambda route: route.abort())
    page.emulate_media(media="print", color_scheme="dark")
    page.set_viewport_size({"width": 800, "height": 600})
    page.context.new_page().goto(server + "/rules")  # as a link to a new tab would
    assert page.context.cookies() != [] and len(page.context.pages) == 2
    assert page.evaluate("localStorage.getItem('large-type')") == "1"

    cleared(_kept, KEY, server)
    assert _kept[KEY][1] is page and page.url == "about:blank"
    assert page.context.pages == [page]
    assert page.context.cookies() == []
    page.goto(server + "/rules")
    assert page.evaluate("localStorage.getItem('large-type')") is None
    assert page.evaluate("matchMedia('print').matches") is False
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") is False
    assert page.evaluate("[innerWidth, innerHeight]") == [390, 844]
    assert page.evaluate("getComputedStyle(document.body).display") != ""  # styles load
    assert page.evaluate("navigator.permissions.query({name: 'clipboard-read'})"
                         ".then(found => found.state)") != "granted"


def test_a_page_the_test_left_unusable_is_replaced(kept_page, server, _kept):
    page = kept_page(width=390, height=844)
    page.context.close()
    cleared(_kept, KEY, server)
    assert KEY not in _kept
