"""The state store's fixtures: an empty store of each kind, the SQLite file and a real
Redis, for every test of the store's behaviour."""

import pytest

from bidder.web.state import open_store


@pytest.fixture(params=["sqlite", "redis"])
def store(request, tmp_path):
    """A prepared, empty store of each kind."""
    if request.param == "sqlite":
        store = open_store(f"sqlite:///{tmp_path / 'state.sqlite3'}")
    else:
        store = open_store(request.getfixturevalue("redis_url"))
        store.client.flushdb()
    store.prepare()
    return store
