"""What the browser tests need, and what happens when it is not there."""

import os

import pytest


def missing(what: str) -> None:
    """Skip for want of *what*; in CI (CI=true), fail instead, so nothing passes unseen."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what}; CI needs it for the browser tests", pytrace=False)
    pytest.skip(what)
