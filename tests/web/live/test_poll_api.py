"""The live poll's JSON API, on the SQLite file and on a real Redis, one server or two."""

import json

import jsonschema
import pytest

from bidder.web import create_app
from bidder.web.live import ledger
from bidder.web.live.device import COOKIE
from bidder.web.openapi import openapi_document

SECRET = "test-secret-key-not-for-production"
HAND = "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"  # 1C by R3


def make_app(url: str):
    return create_app({"TESTING": True, "SECRET_KEY": SECRET, "STATE_URL": url})


@pytest.fixture
def client(url):
    return make_app(url).test_client()


def start(client, hand=HAND):
    return start_body(client, {"hand": hand})


def start_body(client, body):
    """Open a poll with *body*, *client* joining it as a device too: code, admin header."""
    answer = client.post("/api/polls", json=body)
    assert answer.status_code == 201
    joined(client, answer.json["code"])
    return answer.json["code"], {"Authorization": f"Bearer {answer.json['admin']}"}


def joined(client, code):
    """*client*, having joined poll *code* (it holds the device cookie the join set)."""
    assert client.post(f"/api/polls/{code}/join").status_code == 200
    return client


def phone(app_client, code):
    """Another device that joined poll *code*: a client of the same app."""
    return joined(app_client.application.test_client(), code)


def test_a_poll_is_opened_voted_closed_and_revealed(client):
    code, admin = start(client)
    phones = [phone(client, code) for _ in range(5)]
    for device, bid in zip(phones, ["1C", "1C", "1H", None, "1D"]):
        assert device.post(f"/api/polls/{code}/votes", json={"bid": bid}).status_code == 200
    public = client.get(f"/api/polls/{code}").json
    assert public["state"] == "open" and public["answered"] == 5
    assert "votes" not in public and "right" not in public
    full = client.get(f"/api/polls/{code}", headers=admin).json
    assert full["votes"] == {"1C": 2, "1D": 1, "1H": 1, "None": 1}
    assert full["joined"] == 6  # the five phones and the client that opened it
    assert full["right"] == "1C"
    assert full["wrong"]["1H"] == ["R2.len=3+", "R2.len=4+"]
    assert "1C" not in full["wrong"] and "omit=R3" in full["wrong"]["None"]
    assert client.post(f"/api/polls/{code}/close", headers=admin).json["state"] == "closed"
    assert "votes" not in client.get(f"/api/polls/{code}").json
    assert client.post(f"/api/polls/{code}/reveal", headers=admin).json["state"] == "revealed"
    assert client.get(f"/api/polls/{code}").json["votes"] == full["votes"]
    assert "joined" not in client.get(f"/api/polls/{code}").json


def test_a_device_has_one_vote_a_round_and_its_second_replaces_the_first(client):
    code, admin = start(client)
    first = client.post(f"/api/polls/{code}/votes", json={"bid": "1H"})
    assert first.status_code == 200 and "Set-Cookie" not in first.headers
    again = client.post(f"/api/polls/{code}/votes", json={"bid": "1c"})
    assert again.json == {"round": 0, "bid": "1C", "answered": 1}
    assert client.get(f"/api/polls/{code}", headers=admin).json["votes"] == {"1C": 1}


def test_the_server_refuses_a_vote_once_the_poll_is_closed(client):
    code, admin = start(client)
    client.post(f"/api/polls/{code}/votes", json={"bid": "1H"})
    client.post(f"/api/polls/{code}/close", headers=admin)
    late = client.post(f"/api/polls/{code}/votes", json={"bid": "1C"})
    assert late.status_code == 409 and late.json["error"]["code"] == "poll_closed"
    assert client.get(f"/api/polls/{code}", headers=admin).json["votes"] == {"1H": 1}
    client.post(f"/api/polls/{code}/reveal", headers=admin)
    assert client.post(f"/api/polls/{code}/votes", json={"bid": "1C"}).status_code == 409


def test_a_second_vote_shows_the_shift_and_the_next_hand_starts_afresh(client):
    code, admin = start(client)
    devices = [phone(client, code) for _ in range(3)]
    for device, bid in zip(devices, ["1H", "1H", "1C"]):
        device.post(f"/api/polls/{code}/votes", json={"bid": bid})
    refused = client.post(f"/api/polls/{code}/rounds", headers=admin)
    assert refused.status_code == 409 and refused.json["error"]["code"] == "poll_open"
    client.post(f"/api/polls/{code}/reveal", headers=admin)
    second = client.post(f"/api/polls/{code}/rounds", headers=admin).json
    assert (second["round"], second["second"], second["state"]) == (1, True, "open")
    for device, bid in zip(devices, ["1C", "1H", "1C"]):
        device.post(f"/api/polls/{code}/votes", json={"bid": bid})
    shown = client.get(f"/api/polls/{code}", headers=admin).json
    assert shown["first"] == {"1C": 1, "1H": 2} and shown["votes"] == {"1C": 2, "1H": 1}
    assert shown["shift"] == {"1C": 1, "1H": -1}
    assert shown["students"] == {"wrong_to_right": 1, "right_to_wrong": 0, "stayed_right": 1,
                                 "stayed_wrong": 1, "first_only": 0, "second_only": 0}
    assert "students" not in client.get(f"/api/polls/{code}").json
    client.post(f"/api/polls/{code}/close", headers=admin)
    other = "AS KS QS JS 2H 3H 4H 5D 6D 7D 8C 9C 10C"
    moved = client.post(f"/api/polls/{code}/rounds", headers=admin, json={"hand": other}).json
    assert (moved["round"], moved["second"], moved["answered"]) == (2, False, 0)
    assert moved["hand"].startswith("AS KS QS JS")
    summary = client.get(f"/api/polls/{code}/summary", headers=admin).json
    assert [r["votes"] for r in summary["rounds"]] == [{"1C": 1, "1H": 2}, {"1C": 2, "1H": 1}, {}]
    assert [r.get("students", {}).get("wrong_to_right") for r in summary["rounds"]] == [
        None, 1, None]
    assert summary["misreadings"] == {"R2.len=3+": 3, "R2.len=4+": 3}


@pytest.mark.parametrize("path", ["close", "reveal", "rounds", "summary"])
@pytest.mark.parametrize("header", [None, "Bearer wrong", "Basic abc"])
def test_admin_steps_need_the_poll_s_own_token(client, path, header):
    code, _ = start(client)
    headers = {"Authorization": header} if header else {}
    method = client.get if path == "summary" else client.post
    answer = method(f"/api/polls/{code}/{path}", headers=headers)
    assert answer.status_code == 401 and "Bearer" in answer.json["error"]["message"]


@pytest.mark.parametrize("send, status, error", [
    ({"json": {"bid": "8NT"}}, 400, "bad_bid"),
    ({"json": {"bid": 1}}, 400, "bad_bid"),
    ({"json": ["1C"]}, 400, "not_an_object"),
    ({"data": "bid=1C", "content_type": "application/x-www-form-urlencoded"}, 415,
     "unsupported_media_type"),
])
def test_a_vote_that_is_not_a_bid_is_refused_saying_why(client, send, status, error):
    code, _ = start(client)
    answer = client.post(f"/api/polls/{code}/votes", **send)
    assert answer.status_code == status and answer.json["error"]["code"] == error


@pytest.mark.parametrize("body, error, named", [
    ({"hand": "AS KS"}, "wrong_count", ""), ({}, "missing_hand", ""),
    ({"hand": 3}, "missing_hand", ""),
    ({"apart": ["bogus"]}, "bad_misreading", "misreading 1, 'bogus', is not one"),
    ({"apart": ["R2.len=3+", "R1.hcp=99-12"]}, "bad_misreading",
     "misreading 2, 'R1.hcp=99-12', is not one: R1.hcp=99-12: '99-12' is not a range"),
    ({"apart": ["omit=R3"] * 9}, "bad_misreading", "name at most 8"),
    ({"apart": "omit=R3"}, "bad_misreading", "a list of ids"),
    ({"apart": ["omit=R3", 3]}, "bad_misreading", "a list of ids"),
    ({"apart": ["omit=R3"], "hand": HAND}, "hand_and_apart", "not both"),
    ({"hand": HAND, "count_first": "yes"}, "bad_count_first", "true or false, not 'yes'"),
    ({"hand": HAND, "count_first": 1}, "bad_count_first", "true or false"),
])
def test_a_poll_on_no_hand_is_refused_saying_why(client, body, error, named):
    answer = client.post("/api/polls", json=body)
    assert answer.status_code == 400 and answer.json["error"]["code"] == error
    assert named in answer.json["error"]["message"]


@pytest.mark.parametrize("body, count_first", [
    ({"hand": HAND}, False), ({"hand": HAND, "count_first": False}, False),
    ({"hand": HAND, "count_first": True}, True), ({"hand": HAND, "count_first": None}, False),
    ({"apart": [], "count_first": True}, True)])
def test_a_poll_may_ask_students_to_count_first(client, body, count_first):
    answer = client.post("/api/polls", json=body)
    assert answer.status_code == 201
    assert client.get(f"/api/polls/{answer.json['code']}").json["count_first"] is count_first


@pytest.mark.parametrize("named", [["R2.len=3+", "omit=R3"], ["omit=R3"],
                                   ["r3-unbalanced-only", "1nt-15-17", "R1.hcp=15-18"]])
def test_a_poll_tells_apart_the_misreadings_the_instructor_names(client, named):
    code, admin = start_body(client, {"apart": named})
    wrong = client.get(f"/api/polls/{code}", headers=admin).json["wrong"]
    assert any(named[0] in ids for ids in wrong.values())


@pytest.mark.parametrize("code", ["NOPE2", "xx", "ABCDEFGH", "AB0DE"])
def test_an_unknown_code_is_a_404_naming_it(client, code):
    answer = client.get(f"/api/polls/{code}")
    assert answer.status_code == 404 and answer.json["error"]["code"] == "no_such_poll"
    join = client.post(f"/api/polls/{code}/join")
    assert join.status_code == 404 and code.upper()[:12] in join.json["error"]["message"]
    vote = client.post(f"/api/polls/{code}/votes", json={"bid": "1C"})
    assert vote.status_code == 403 and vote.json["error"]["code"] == "not_joined"


def test_a_code_is_read_in_any_case(client):
    code, _ = start(client)
    assert client.get(f"/api/polls/{code.lower()}").json["code"] == code


def test_a_poll_survives_a_restart(url):
    code, admin = start(make_app(url).test_client())
    joined(make_app(url).test_client(), code).post(f"/api/polls/{code}/votes",
                                                   json={"bid": "1H"})
    again = make_app(url).test_client()
    assert again.get(f"/api/polls/{code}", headers=admin).json["votes"] == {"1H": 1}


def test_two_servers_sharing_redis_count_one_room(redis_url):
    one, two = make_app(redis_url), make_app(redis_url)
    code, admin = start(one.test_client())
    for n in range(10):
        server = joined((one, two)[n % 2].test_client(), code)
        server.post(f"/api/polls/{code}/votes", json={"bid": "1C"})
        server.post(f"/api/polls/{code}/votes", json={"bid": "1H"})  # replaces it
    two.test_client().post(f"/api/polls/{code}/close", headers=admin)
    late = joined(one.test_client(), code).post(f"/api/polls/{code}/votes", json={"bid": "1C"})
    assert late.status_code == 409
    assert one.test_client().get(f"/api/polls/{code}", headers=admin).json["votes"] == {"1H": 10}


def test_a_store_that_cannot_be_used_answers_503(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'gone' / 'state.sqlite3'}")
    (tmp_path / "gone" / "state.sqlite3").unlink()
    answer = app.test_client().post("/api/polls", json={"hand": HAND})
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "60"


def test_no_free_code_is_a_503(client, monkeypatch):
    start(client)
    code, _ = start(client)
    monkeypatch.setattr(ledger, "new_code", lambda: code)
    answer = client.post("/api/polls", json={"hand": HAND})
    assert answer.status_code == 503 and answer.json["error"]["code"] == "no_free_code"


def test_answers_match_the_openapi_description(client):
    document = openapi_document()
    schema = {**document["components"]["schemas"]["Poll"],
              "$defs": document["components"]["schemas"]}
    code, admin = start(client)
    client.post(f"/api/polls/{code}/votes", json={"bid": None})
    client.post(f"/api/polls/{code}/reveal", headers=admin)
    for answer in (client.get(f"/api/polls/{code}"),
                   client.post(f"/api/polls/{code}/rounds", headers=admin)):
        jsonschema.validate(json.loads(answer.data), schema)


def test_closing_twice_leaves_the_poll_closed_and_a_null_hand_asks_a_second_vote(client):
    code, admin = start(client)
    client.post(f"/api/polls/{code}/close", headers=admin)
    assert client.post(f"/api/polls/{code}/close", headers=admin).json["state"] == "closed"
    again = client.post(f"/api/polls/{code}/rounds", headers=admin, json={"hand": None})
    assert again.json["second"] is True


def test_votes_are_rate_limited_per_address(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": SECRET, "LIVE_RATE_LIMIT": "2 per minute",
                      "STATE_URL": f"sqlite:///{tmp_path / 'state.sqlite3'}"})
    client = app.test_client()
    code, _ = start(client)
    answers = [client.post(f"/api/polls/{code}/votes", json={"bid": "1C"}).status_code
               for _ in range(3)]
    assert answers == [200, 200, 429]


def test_a_vote_is_one_store_transaction_and_one_count_of_the_rate_limit(tmp_path, monkeypatch):
    from bidder.web.state.sqlite_store import SQLiteStore
    app = make_app(f"sqlite:///{tmp_path / 'state.sqlite3'}")
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    code, _ = start(client)
    client.post(f"/api/polls/{code}/votes", json={"bid": "1C"})
    opened, session = [], SQLiteStore._session
    monkeypatch.setattr(SQLiteStore, "_session",
                        lambda store: opened.append(1) or session(store))
    assert client.post(f"/api/polls/{code}/votes", json={"bid": "1H"}).status_code == 200
    assert client.post(f"/live/{code}/vote", data={"bid": "1D"}).status_code == 303
    assert len(opened) == 4


def test_a_vote_is_one_script_in_redis_and_one_count_of_the_rate_limit(redis_url,
                                                                        monkeypatch):
    from bidder.web.state.limits_storage import RedisLimits
    from bidder.web.state.redis_store import RedisStore
    client = make_app(redis_url).test_client()
    code, _ = start(client)
    sent = []
    for kind, names in ((RedisStore, ("get", "put", "fields", "put_field_by_guard",
                                      "put_if_absent")),
                        (RedisLimits, ("count_window", "read_window"))):
        for name in names:
            monkeypatch.setattr(kind, name, lambda store, *args, name=name, was=getattr(
                kind, name), **more: sent.append(name) or was(store, *args, **more))
    assert client.post(f"/api/polls/{code}/votes", json={"bid": "1H"}).status_code == 200
    assert sent == ["count_window", "put_field_by_guard"]
