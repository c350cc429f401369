"""Fixtures for the web tests: `app` (testing settings, a fixed secret key, a ledger of
spent hands of its own) and `client`."""

import pytest

from bidder.web import create_app

TEST_SECRET_KEY = "test-secret-key-not-for-production"


@pytest.fixture
def app(tmp_path):
    """The app as tests see it."""
    return create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY,
                       "PRACTICE_LEDGER": str(tmp_path / "spent-hands.sqlite3")})


@pytest.fixture
def client(app):
    """A test client for `app`."""
    return app.test_client()
