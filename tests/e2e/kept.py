"""The pages kept_page lends (tests/e2e/conftest.py), made ready for the next test."""

from __future__ import annotations


def cleared(kept: dict, key: tuple, server: str) -> None:
    """The kept page of *key* made as a fresh context's: the other pages of its context
    closed, its storage, cookies, permissions, routes and emulated media cleared, on
    about:blank; closed and forgotten if it cannot be."""
    from playwright.sync_api import Error

    if key not in kept:  # the test cleared it already
        return
    context, page, chromium = kept[key]
    try:
        for other in context.pages:
            if other is not page:
                other.close()
        page.goto("about:blank")
        chromium.send("Storage.clearDataForOrigin", {"origin": server, "storageTypes": "all"})
        context.clear_cookies()
        context.clear_permissions()
        page.unroute_all(behavior="ignoreErrors")
        page.emulate_media(media="null", color_scheme="light")
        page.set_viewport_size({"width": key[1], "height": key[2]})
    except Error:  # a page the test left unusable: the next test gets a new one
        del kept[key]
        context.close()
