"""What some tests need from the machine, and what happens when it is not there."""

import os

import pytest


def missing(what: str, needed_for: str = "the browser tests") -> None:
    """Skip for want of *what*; in CI (CI=true), fail instead, so nothing passes unseen."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what}; CI needs it for {needed_for}", pytrace=False)
    pytest.skip(what)
