"""Rate limits on practice answers, counted in the state store (SQLite and Redis)."""

import time

import pytest
from limits.storage import storage_from_string

from bidder.web import create_app
from bidder.web.rate_limits import LIMITED_MARK, limited_blueprints, limiter
from bidder.web.state.limits_storage import RedisLimits, SQLiteLimits

from helpers import TEST_SECRET_KEY


def practice_app(url, limit="3 per minute"):
    return create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY, "STATE_URL": url,
                       "PRACTICE_RATE_LIMIT": limit})


def posts(app, count, path="/practice/answer"):
    """The statuses of *count* answers posted from one address (no CSRF in the way)."""
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    client.get("/practice")
    return [client.post(path, data={"hand": "x", "bid": "1C"}) for _ in range(count)]


@pytest.mark.parametrize("path", ["/practice/answer", "/practice/count"])
def test_answers_past_the_limit_get_429_saying_what_to_do(url, path):
    responses = posts(practice_app(url), 4, path)
    assert [response.status_code for response in responses] == [303, 303, 303, 429]
    refused = responses[-1]
    assert int(refused.headers["Retry-After"]) > 0
    text = refused.get_data(as_text=True)
    assert "Too many answers" in text
    assert "(3 per 1 minute)" in text and "Wait a minute" in text


def test_the_count_is_shared_by_every_worker_on_the_store(url):
    one, two = practice_app(url), practice_app(url)
    assert [r.status_code for r in posts(one, 2) + posts(two, 2)] == [303, 303, 303, 429]


def test_the_advisor_and_the_api_are_not_limited(url):
    app = practice_app(url, "1 per minute")
    client = app.test_client()
    assert {client.get("/api/bid?hand=AKQJ.AKQ.AKQ.AKQ").status_code
            for _ in range(5)} <= {200, 422}
    assert {client.get("/").status_code for _ in range(5)} == {200}


def test_a_store_that_cannot_count_lets_answers_through(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    responses = posts(practice_app(f"sqlite:///{blocker / 's.db'}", "1 per minute"), 3)
    assert [response.status_code for response in responses] == [303, 303, 303]


def test_the_counters_work_as_limits_expects(url, tmp_path):
    limits = storage_from_string(url)
    assert isinstance(limits, (SQLiteLimits, RedisLimits))
    assert limits.check() is True
    assert limits.get("k") == 0
    assert limits.incr("k", 60) == 1
    assert limits.incr("k", 60, amount=2) == 3
    assert limits.get("k") == 3
    assert time.time() + 58 < limits.get_expiry("k") <= time.time() + 61
    assert limits.get("k") == 3  # read from the store
    assert time.time() + 58 < limits.get_expiry("k") <= time.time() + 61
    limits.clear("k")
    assert limits.get("k") == 0
    limits.incr("a", 60)
    limits.incr("b", 60)
    assert limits.reset() == 2
    assert limits.get("a") == limits.get("b") == 0


def test_a_broken_file_cannot_count(tmp_path):
    assert SQLiteLimits(f"sqlite:///{tmp_path / 'state.sqlite3'}").base_exceptions.__name__ == \
        "StoreUnavailable"
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    assert SQLiteLimits(f"sqlite:///{blocker / 's.db'}").check() is False


def test_the_window_read_after_a_count_costs_no_more_round_trips(url, monkeypatch):
    limits = storage_from_string(url)
    assert limits.check() is True
    limits.incr("elsewhere", 60)
    limits.incr("k", 60)
    read = []
    monkeypatch.setattr(type(limits), "read_window", lambda self, key: read.append(key) or (0, 0.0))
    assert limits.get("k") == 1 and limits.get_expiry("k") > 0
    assert read == []
    limits.get("k")
    assert read == ["k"]


def test_the_limit_comes_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("BIDDER_PRACTICE_RATE_LIMIT", "2 per minute")
    url = f"sqlite:///{tmp_path / 'state.sqlite3'}"
    app = create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY, "STATE_URL": url})
    assert [r.status_code for r in posts(app, 3)] == [303, 303, 429]


def test_the_live_poll_s_limits_come_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("BIDDER_POLL_RATE_LIMIT", "1 per minute")
    monkeypatch.setenv("BIDDER_LIVE_RATE_LIMIT", "2 per minute")
    monkeypatch.setenv("BIDDER_CODE_RATE_LIMIT", "1 per minute")
    url = f"sqlite:///{tmp_path / 'state.sqlite3'}"
    client = create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY,
                         "STATE_URL": url}).test_client()
    hand = {"hand": "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"}
    opened = [client.post("/api/polls", json=hand) for _ in range(2)]
    assert [answer.status_code for answer in opened] == [201, 429]
    code = opened[0].json["code"]
    client.post(f"/api/polls/{code}/join")
    assert [client.post(f"/api/polls/{code}/votes", json={"bid": "1C"}).status_code
            for _ in range(3)] == [200, 200, 429]
    assert [client.get(f"/api/polls/{name}").status_code
            for name in ("ZZZZZ", code)] == [404, 429]


@pytest.mark.parametrize("variable", ["BIDDER_PRACTICE_RATE_LIMIT", "BIDDER_LIVE_RATE_LIMIT",
                                      "BIDDER_POLL_RATE_LIMIT", "BIDDER_CODE_RATE_LIMIT",
                                      "BIDDER_DIAGNOSIS_RATE_LIMIT"])
@pytest.mark.parametrize("value", ["lots", "5 per fortnight"])
def test_a_limit_that_is_not_one_stops_the_app_saying_what_to_write(monkeypatch, value,
                                                                    variable):
    monkeypatch.setenv(variable, value)
    with pytest.raises(RuntimeError, match=f"{variable} is '{value}', "
                                           f"which is not a rate limit: write e.g."):
        create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY})


@pytest.mark.parametrize("hops, statuses", [
    (1, [303, 303, 303, 303]),  # two clients behind one proxy, each counted alone
    (0, [303, 303, 303, 429]),  # no proxy trusted: everyone is the proxy's address
])
def test_behind_a_proxy_each_client_is_counted_alone(monkeypatch, tmp_path, hops,
                                                      statuses):
    monkeypatch.setenv("BIDDER_PROXY_HOPS", str(hops))
    app = practice_app(f"sqlite:///{tmp_path / 'state.sqlite3'}")
    app.config["WTF_CSRF_ENABLED"] = False
    found = []
    for client_address in ("203.0.113.1", "203.0.113.2"):
        client = app.test_client()
        headers = {"X-Forwarded-For": client_address}
        client.get("/practice", headers=headers)
        found += [client.post("/practice/answer", data={"hand": "x", "bid": "1C"},
                              headers=headers).status_code for _ in range(2)]
    assert found == statuses


def is_limiters(hook) -> bool:
    """Whether *hook* is one of Flask-Limiter's per-request hooks (a bound method or a
    partial of the limiter)."""
    return getattr(hook, "__self__", None) is limiter or limiter in getattr(hook, "args", ())


def test_the_limiters_hooks_run_only_where_a_view_is_limited(tmp_path):
    """Every other request (a page, /api/bid) runs none of them; every limited view is
    in a blueprint that runs them all, so its headers and Retry-After are still sent."""
    app = practice_app(f"sqlite:///{tmp_path / 'state.sqlite3'}")
    hooks = (app.before_request_funcs, app.after_request_funcs, app.teardown_request_funcs)
    limited = {endpoint.rpartition(".")[0] for endpoint, view in app.view_functions.items()
               if getattr(view, LIMITED_MARK, None) == limiter}  # a proxy
    assert limited == set(limited_blueprints(app)) == {
        "teach.practice", "live", "live_api", "lti", "lti_login", "lti_launch",
        "lti_deep_linking", "lti_gradebook", "lti_poll", "diagnosis_api",
        "teach.diagnosis_round"}
    for funcs in hooks:
        assert not any(map(is_limiters, funcs.get(None, ())))
        for name in limited:
            assert sum(map(is_limiters, funcs[name])) == 1


def test_a_limited_answer_still_says_its_limit_in_its_headers(tmp_path):
    (response,) = posts(practice_app(f"sqlite:///{tmp_path / 'state.sqlite3'}"), 1)
    assert response.status_code == 303
    assert response.headers["X-RateLimit-Limit"] == "3"
    assert response.headers["X-RateLimit-Remaining"] == "2"
