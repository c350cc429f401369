"""Heavy work off the event loop: the worker's pool of processes, its queue, each
client's quota, its cache, and the routes that use it (503 with Retry-After beyond
it). tests/web/test_event_loop.py holds the loop's heartbeat while they run."""

from __future__ import annotations

import os
import threading
import time
from contextlib import ExitStack, contextmanager

import pytest

from bidder.dealing import DealError
from bidder.web import heavy
from bidder.web.heavy import Busy, Child, Pool, serve_jobs
from bidder.web.teach import PAGES
from test_boards import send

CALLS = []


def counted(value):
    """*value*, each call noted in CALLS."""
    CALLS.append(value)
    return value


def refuse(message):
    """Raise a DealError (a BidderError: message and code) with *message*."""
    raise DealError(message, "unreachable")


@contextmanager
def held(pool: Pool, client: str, jobs: int = 1):
    """*jobs* of *client*'s admitted to *pool* for the block, as requests running."""
    with ExitStack() as stack:
        for _ in range(jobs):
            pool.admit("work", client)
            stack.callback(pool.leave, client)
        yield


def test_a_result_is_computed_once_then_served_from_the_cache():
    CALLS.clear()
    pool = Pool(0)
    assert pool.run("work", "a", counted, "x") == "x"
    assert pool.run("work", "b", counted, "x") == "x"
    assert pool.run("work", "a", counted, "y") == "y"
    assert CALLS == ["x", "y"]


@pytest.mark.parametrize("mine, others, admitted", [
    (0, 0, True), (1, 0, True), (2, 0, False),  # PER_CLIENT 2: the third is refused
    (0, 6, True), (0, 7, False),  # 1 process and a queue of 6: the eighth job is refused
    (1, 6, False),
], ids=lambda value: str(value))
def test_a_job_is_admitted_within_the_clients_quota_and_the_queue(mine, others, admitted):
    pool = Pool(1)
    with held(pool, "me", mine), ExitStack() as stack:
        for place in range(others):
            stack.enter_context(held(pool, f"other {place}"))
        if admitted:
            with held(pool, "me"):
                assert pool.admitted == mine + others + 1
        else:
            with pytest.raises(Busy) as refused:
                pool.admit("a set of hands", "me")
            assert refused.value.retry_after == 1
            assert "a set of hands" in refused.value.description
    assert pool.admitted == 0 and not pool.by_client


def test_past_its_quota_a_client_is_told_its_own_requests_are_running():
    pool = Pool(0)
    with held(pool, "me", 2), pytest.raises(Busy) as refused:
        pool.run("a set of hands", "me", counted, "x")
    assert "This address has 2 long requests running" in refused.value.description
    assert pool.run("a set of hands", "you", counted, "x") == "x"


def test_what_a_job_raises_is_raised_in_the_request_and_never_kept():
    pool = Pool(0)
    for _ in range(2):
        with pytest.raises(DealError) as raised:
            pool.run("work", "a", refuse, "no hand fires R4")
        assert (raised.value.message, raised.value.code) == ("no hand fires R4",
                                                             "unreachable")
    assert pool.admitted == 0 and not pool.cache.pages


def test_outside_an_app_the_work_is_simply_done():
    CALLS.clear()
    assert heavy.run("work", counted, 3) == 3
    assert CALLS == [3]


def test_a_pool_process_runs_each_job_sent_until_its_pipe_closes():
    """serve_jobs, as a pool process runs it, here in a thread (coverage is counted in
    this process)."""
    import multiprocessing
    ours, theirs = multiprocessing.Pipe()
    serving = threading.Thread(target=serve_jobs, args=(theirs, 0))
    serving.start()
    ours.send((counted, ("x",)))
    assert heavy.outcome(ours.recv_bytes()) == "x"
    ours.send((refuse, ("no",)))
    with pytest.raises(DealError):
        heavy.outcome(ours.recv_bytes())
    ours.close()
    serving.join()
    assert not serving.is_alive()


@pytest.fixture(scope="module")
def pool():
    """A pool of one real process, ended after the module."""
    made = Pool(1)
    yield made
    made.close()


def test_closing_a_pool_ends_its_idle_processes():
    made = Pool(1)
    assert made.run("work", "a", divmod, 7, 2) == (3, 1)
    (child,) = made.children
    made.close()
    assert made.children == [] and not child.process.is_alive()


def test_a_job_runs_in_another_process_and_its_errors_come_back(pool):
    child = pool.run("work", "a", os.getpid)
    assert child != os.getpid()
    assert pool.run("work", "a", os.getppid) == os.getpid()
    with pytest.raises(DealError):
        pool.run("work", "a", refuse, "no")
    assert len(pool.children) == 1


def test_a_job_is_answered_in_a_worker_holding_over_a_thousand_descriptors(pool):
    """A gevent worker with a thousand connections open holds descriptors past 1,024,
    which select() cannot watch: the pipe to the process may be one of them."""
    held = []
    try:
        while not held or held[-1] < 1100:
            held.append(os.open(os.devnull, os.O_RDONLY))
        assert pool.run("work", "a", divmod, 7, 2) == (3, 1)
    finally:
        for descriptor in held:
            os.close(descriptor)


def test_a_process_that_dies_is_a_503_and_the_next_job_gets_a_new_one(pool):
    with pytest.raises(Busy) as refused:
        pool.run("a set of hands", "a", os._exit, 3)
    assert "stopped before it finished" in refused.value.description
    assert pool.run("work", "b", divmod, 7, 2) == (3, 1)
    assert pool.admitted == 0


def test_a_process_that_cannot_be_started_is_a_503(monkeypatch):
    def cannot(*args, **kwargs):
        raise OSError("Resource temporarily unavailable")

    monkeypatch.setattr(heavy.multiprocessing, "get_context", cannot)
    with pytest.raises(Busy, match="stopped before it finished"):
        Pool(1).run("work", "a", divmod, 7, 2)


def test_a_job_out_of_time_ends_its_process():
    child = Child()
    try:
        with pytest.raises(TimeoutError):
            child.call(time.sleep, (60,), seconds=0)
    finally:
        child.end()
    assert not child.process.is_alive()


def test_a_set_past_the_pool_is_a_503_saying_to_retry_and_single_hands_still_deal(
        client, app):
    PAGES.clear()
    pool = app.extensions[heavy.EXTENSION]
    with held(pool, "127.0.0.1", heavy.PER_CLIENT):
        refused = client.get("/deal?print=1&seed=11&count=40")
        assert refused.status_code == 503
        assert refused.headers["Retry-After"] == "1"
        page = refused.get_data(as_text=True)
        assert "Server busy" in page and "(a set of hands)" in page
        assert client.get("/deal?seed=11&bid=1NT").status_code == 200
    assert client.get("/deal?print=1&seed=11&count=40").status_code == 200
    with held(pool, "127.0.0.1", heavy.PER_CLIENT):  # rendered already: no job needed
        assert client.get("/deal?print=1&seed=11&count=40").status_code == 200


@pytest.mark.parametrize("method, path, body, work", [
    ("POST", "/api/polls", {"json": {"apart": []}}, "a hand that tells misreadings apart"),
    ("GET", "/variants?variant=omit%3DR3%2BR1.hcp%3D15-18", {},
     "a combination of misreadings"),
    ("GET", "/deal?print=1&seed=12&count=40", {}, "a set of hands"),
], ids=["a poll on a hand telling misreadings apart", "a new combination of misreadings",
        "a printable set"])
def test_each_heavy_route_is_refused_past_the_pool(client, app, method, path, body, work):
    with held(app.extensions[heavy.EXTENSION], "127.0.0.1", heavy.PER_CLIENT):
        refused = client.open(path, method=method, **body)
    assert refused.status_code == 503
    assert int(refused.headers["Retry-After"]) >= 1  # a limited route's: its window's end
    assert work in refused.get_data(as_text=True)


def test_a_board_file_past_the_pool_is_a_503(client, app):
    with held(app.extensions[heavy.EXTENSION], "127.0.0.1", heavy.PER_CLIENT):
        refused = send(client, text="[Board \"1\"]\n")
        assert refused.status_code == 503
        assert "(a board file)" in refused.get_data(as_text=True)
    assert send(client, text="nothing").status_code == 400


@pytest.mark.parametrize("config, processes", [
    ({}, 0), ({"TESTING": False}, 1), ({"HEAVY_PROCESSES": 2}, 2)],
    ids=["tests run jobs in the request", "served, one process", "as configured"])
def test_the_app_has_a_pool_of_its_configured_size(tmp_path, config, processes):
    from bidder.web import create_app
    from helpers import TEST_SECRET_KEY
    app = create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY,
                      "STATE_URL": f"sqlite:///{tmp_path / 's.sqlite3'}", **config})
    assert app.extensions[heavy.EXTENSION].processes == processes
