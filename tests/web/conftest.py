"""Fixtures for the web tests: `app` (testing settings, a fixed secret key, a state
store of its own), `client`, `redis_url` (a real redis-server) and `url` (a fresh
store's URL, of each kind)."""

import pytest

from bidder.web import create_app
from helpers import TEST_SECRET_KEY


@pytest.fixture
def app(tmp_path):
    """The app as tests see it."""
    return create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY,
                       "STATE_URL": f"sqlite:///{tmp_path / 'state.sqlite3'}"})


@pytest.fixture
def client(app):
    """A test client for `app`."""
    return app.test_client()


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """The URL of a real redis-server started on a free loopback port for these tests."""
    from redis_server import redis_server
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture(params=["sqlite", "redis"])
def url(request, tmp_path):
    """A fresh store's URL, of each kind: a SQLite file, and the real Redis emptied."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'state.sqlite3'}"
    import redis
    found = request.getfixturevalue("redis_url")
    redis.Redis.from_url(found).flushdb()
    return found
