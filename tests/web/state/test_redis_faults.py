"""A Redis store under faults, from both sides, against real redis-servers started for
these tests: one that keeps nothing on disk is named at start-up (logged, and by
`bidder serve`) and one that keeps AOF or RDB is not; a paused Redis (SIGSTOP) gives a
prompt 503 at each door, the store's and the rate limiter's calls both timed out."""

from __future__ import annotations

import logging
import os
import signal
from contextlib import contextmanager

import pytest
import redis

from bidder.cli.serve import store_warnings
from bidder.web import create_app
from bidder.web.rate_limits import LIMITER_REDIS_SECONDS, limiter
from bidder.web.state import StoreUnavailable, open_store
from bidder.web.state.redis_store import TIMEOUT_SECONDS
from helpers import TEST_SECRET_KEY

HAND = "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"


@pytest.fixture
def own_redis(tmp_path):
    """A redis-server of this test's own (it may be paused or reconfigured): its URL."""
    from redis_server import redis_server
    with redis_server(tmp_path) as url:
        yield url
        client = redis.Redis.from_url(url)  # as started: nothing to write when it stops
        client.config_set("appendonly", "no")
        client.config_set("save", "")


@contextmanager
def paused(url: str):
    """The Redis at *url* stopped (SIGSTOP) for the block, then let go on."""
    pid = redis.Redis.from_url(url).info("server")["process_id"]
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


@pytest.mark.parametrize("appendonly, save, warned", [
    ("no", "", True),
    ("yes", "", False),
    ("no", "60 1000", False),
    ("yes", "3600 1", False),
], ids=["neither AOF nor RDB: named", "AOF: quiet", "RDB snapshots: quiet", "both: quiet"])
def test_a_redis_that_keeps_nothing_on_disk_is_named_at_start_up(
        own_redis, caplog, appendonly, save, warned):
    client = redis.Redis.from_url(own_redis)
    client.config_set("appendonly", appendonly)
    client.config_set("save", save)
    with caplog.at_level(logging.WARNING):
        create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY, "STATE_URL": own_redis})
    said = store_warnings({"BIDDER_STATE_URL": own_redis})
    logged = [record.getMessage() for record in caplog.records if "keeps nothing" in
              record.getMessage()]
    if warned:
        assert said == logged and len(said) == 1
        assert "every live poll and every recorded practice answer is lost" in said[0]
        assert "CONFIG SET appendonly yes" in said[0] and "save 60 1000" in said[0]
    else:
        assert said == logged == []


def test_a_redis_that_refuses_config_get_is_said_to_be_unknown(own_redis, monkeypatch):
    store = open_store(own_redis)

    def refused(*args):
        raise redis.ResponseError("unknown command 'CONFIG'")

    monkeypatch.setattr(store.client, "config_get", refused)
    assert "cannot tell whether the Redis" in store.persistence_warning()


@pytest.mark.parametrize("environ", [{}, {"BIDDER_STATE_URL": "sqlite:////tmp/x/s.db"},
                                     {"BIDDER_STATE_URL": "redis://127.0.0.1:1/0"}],
                         ids=["the default file", "a file", "a Redis not there"])
def test_bidder_serve_warns_of_nothing_else(environ):
    assert store_warnings(environ) == []


def test_the_store_and_the_rate_limiter_time_out_promptly_and_never_retry(own_redis):
    store = open_store(own_redis)
    app = create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY, "STATE_URL": own_redis})
    with app.app_context():
        limits_client = limiter.storage.storage
    for client, seconds in ((store.client, TIMEOUT_SECONDS),
                            (limits_client, LIMITER_REDIS_SECONDS)):
        options = client.connection_pool.connection_kwargs
        assert options["socket_timeout"] == options["socket_connect_timeout"] == seconds
        assert options["retry"]._retries == 0


@pytest.mark.parametrize("pause", [True, False], ids=["paused: 503", "answering: counted"])
def test_a_paused_redis_is_a_prompt_503_at_a_vote(own_redis, pause):
    app = create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY, "STATE_URL": own_redis})
    client = app.test_client()
    code = client.post("/api/polls", json={"hand": HAND}).get_json()["code"]
    assert client.post(f"/api/polls/{code}/join").status_code == 200
    if pause:
        with paused(own_redis):
            response = client.post(f"/api/polls/{code}/votes", json={"bid": "1C"})
        assert response.status_code == 503
        assert "cannot keep polls just now" in response.get_json()["error"]["message"]
        assert response.headers["Retry-After"]
    else:
        assert client.post(f"/api/polls/{code}/votes", json={"bid": "1C"}).status_code == 200


def test_a_paused_redis_fails_each_operation_as_store_unavailable(own_redis):
    store = open_store(own_redis)
    store.prepare()
    with paused(own_redis):
        for call in (lambda: store.get("k"), lambda: store.put("k", "v", 60)):
            with pytest.raises(StoreUnavailable, match="Timeout"):
                call()
    assert store.put_if_absent("k", "v", 60) is None


class Started:
    """A gunicorn that stops at once, for `bidder serve` to start."""

    def __init__(self, command, env):
        self.command = command

    def wait(self) -> int:
        return 0

    def poll(self) -> int:
        return 0


@pytest.mark.parametrize("keeps", [False, True], ids=["keeps nothing: warned",
                                                      "keeps AOF: quiet"])
def test_bidder_serve_says_so_before_it_starts(own_redis, monkeypatch, keeps):
    import subprocess
    from click.testing import CliRunner
    from bidder.cli.commands import cli
    from redis_server import free_port
    redis.Redis.from_url(own_redis).config_set("appendonly", "yes" if keeps else "no")
    monkeypatch.setattr(subprocess, "Popen", Started)
    result = CliRunner().invoke(cli, ["serve", "--port", str(free_port())], env={
        "BIDDER_STATE_URL": own_redis, "BIDDER_SECRET_KEY": TEST_SECRET_KEY})
    assert result.exit_code == 0
    assert ("Warning: the Redis at" in result.output) is not keeps
