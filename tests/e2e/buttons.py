"""Pressing a page's buttons, as the browser tests do."""

from __future__ import annotations


def press(page, name: str):
    """Press the button called *name* and wait for the page it leads to; its response."""
    with page.expect_navigation() as navigation:
        page.get_by_role("button", name=name, exact=True).click()
    return navigation.value
