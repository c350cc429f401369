"""One vote per device that joined, on the SQLite file and on a real Redis: the join
sets the device cookie (before its write), a vote without it is refused, a class size
bounds the joins, count first is checked by the store, a vote retried after a store
stall counts once, and join codes and new polls are limited per client at rates no
class reaches."""

import re
from http.cookies import SimpleCookie

import pytest

from bidder.web import create_app
from bidder.web.live import ledger
from bidder.web.live.device import COOKIE
from bidder.web.rate_limits import CODE_LIMIT, LIVE_LIMIT, POLL_LIMIT
from bidder.web.state import StoreUnavailable, store_of

SECRET = "test-secret-key-not-for-production"
HAND = "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"  # 1C by R3; 12 HCP, 1 distribution point


def make_app(url, **config):
    return create_app({"TESTING": True, "SECRET_KEY": SECRET, "WTF_CSRF_ENABLED": False,
                       "STATE_URL": url, **config})


@pytest.fixture
def app(url):
    return make_app(url)


def opened(app, **body):
    """A poll opened through the API: its code and the admin's header."""
    answer = app.test_client().post("/api/polls", json={"hand": HAND, **body})
    assert answer.status_code == 201, answer.json
    return answer.json["code"], {"Authorization": f"Bearer {answer.json['admin']}"}


def counts(app, code, admin):
    return app.test_client().get(f"/api/polls/{code}", headers=admin).json["votes"]


VOTES = {"page": lambda client, code: client.post(f"/live/{code}/vote", data={"bid": "1C"}),
         "api": lambda client, code: client.post(f"/api/polls/{code}/votes",
                                                 json={"bid": "1C"})}
JOINS = {"page": lambda client, code: client.get(f"/live/{code}"),
         "api": lambda client, code: client.post(f"/api/polls/{code}/join")}


@pytest.mark.parametrize("door", ["page", "api"])
@pytest.mark.parametrize("device, taken", [
    ("joined", True), ("none", False), ("forged", False), ("joined-another-poll", False)],
    ids=["a-phone-that-joined-votes", "no-cookie-is-refused", "a-made-up-cookie-is-refused",
         "a-cookie-from-another-poll-is-refused"])
def test_only_a_device_that_joined_votes(app, door, device, taken):
    code, admin = opened(app)
    phone = app.test_client()
    if device == "joined":
        JOINS[door](phone, code)
    elif device == "forged":
        phone.set_cookie(COOKIE, "AAAAAAAAAAAAAAAAAAAAAA.made-up")
    elif device == "joined-another-poll":
        other, _ = opened(app)
        JOINS[door](phone, other)
    answer = VOTES[door](phone, code)
    assert (answer.status_code in (200, 303)) is taken
    if not taken:
        assert answer.status_code == 403
        said = answer.get_data(as_text=True)
        assert f"/live/{code}" in said or f"POST /api/polls/{code}/join" in said
    assert counts(app, code, admin) == ({"1C": 1} if taken else {})


@pytest.mark.parametrize("door", ["page", "api"])
def test_the_join_sets_a_signed_http_only_device_cookie_once(app, door):
    code, _ = opened(app)
    phone = app.test_client()
    first = JOINS[door](phone, code)
    cookie = SimpleCookie(device_cookies(first)[0])[COOKIE]
    assert cookie["httponly"] is True and re.fullmatch(r"[\w-]{22}\.[\w-]+", cookie.value)
    assert not device_cookies(JOINS[door](phone, code))


@pytest.mark.parametrize("size, phones, refused", [
    (3, 3, 0), (3, 4, 1), (1, 2, 1), (None, 5, 0)],
    ids=["the-class-size-all-get-in", "one-more-than-the-class-is-refused",
         "a-class-of-one", "no-class-size-takes-any"])
def test_joins_beyond_the_class_size_are_refused_saying_so(app, size, phones, refused):
    code, admin = opened(app, class_size=size)
    answers = [JOINS["api" if n % 2 else "page"](app.test_client(), code)
               for n in range(phones)]
    statuses = [answer.status_code for answer in answers]
    assert statuses.count(403) == refused and statuses.count(200) == phones - refused
    if refused:
        assert "this poll is full" in answers[-1].get_data(as_text=True)
        assert COOKIE in answers[-1].headers["Set-Cookie"]  # set before the refused write
    assert ledger.joined(store_of(app), code) == phones - refused


def test_a_phone_that_joined_gets_back_in_when_the_class_is_full(app):
    code, _ = opened(app, class_size=1)
    phone = app.test_client()
    assert JOINS["page"](phone, code).status_code == 200
    assert JOINS["page"](app.test_client(), code).status_code == 403
    assert JOINS["page"](phone, code).status_code == 200


def test_the_teacher_view_shows_devices_joined_against_votes(app):
    teacher = app.test_client()
    answer = teacher.post("/live", data={"hand": HAND, "class_size": "30"})
    code = answer.location.split("/")[2]
    phones = [app.test_client() for _ in range(3)]
    for phone in phones:
        JOINS["page"](phone, code)
    VOTES["page"](phones[0], code)
    own = teacher.get(f"/live/{code}/teacher").get_data(as_text=True)
    assert "<strong>3</strong> joined of a class of 30, <strong>1</strong> answered." in own


@pytest.mark.parametrize("size, status", [
    (1, 201), (ledger.MAX_DEVICES, 201), (None, 201), (0, 400), (ledger.MAX_DEVICES + 1, 400),
    ("30", 400), (True, 400), (2.5, 400)])
def test_a_class_size_is_a_whole_number_up_to_the_largest(app, size, status):
    answer = app.test_client().post("/api/polls", json={"hand": HAND, "class_size": size})
    assert answer.status_code == status
    if status == 400:
        assert answer.json["error"]["code"] == "bad_class_size"


@pytest.mark.parametrize("door", ["page", "api"])
def test_count_first_is_enforced_by_the_server_round_by_round(app, door):
    code, admin = opened(app, count_first=True)
    phone = app.test_client()
    JOINS[door](phone, code)
    count = ({"data": {"hcp": "12", "distribution": "1"}} if door == "page" else
             {"json": {"hcp": 12, "distribution": 1}})
    path = f"/live/{code}/count" if door == "page" else f"/api/polls/{code}/count"
    assert VOTES[door](phone, code).status_code == 403
    assert phone.post(path, **count).status_code in (200, 303)
    assert VOTES[door](phone, code).status_code in (200, 303)
    client = app.test_client()
    client.post(f"/api/polls/{code}/close", headers=admin)
    client.post(f"/api/polls/{code}/rounds", headers=admin)
    assert VOTES[door](phone, code).status_code == 403  # the second vote: count again
    assert phone.post(path, **count).status_code in (200, 303)
    assert VOTES[door](phone, code).status_code in (200, 303)
    assert counts(app, code, admin) == {"1C": 1}


@pytest.mark.parametrize("body, named", [
    ({"hcp": "12", "distribution": 1}, "hcp"), ({"hcp": 12}, "distribution"),
    ({"hcp": 12, "distribution": -1}, "distribution"), ({"hcp": 100, "distribution": 0}, "hcp"),
    ({"hcp": True, "distribution": 0}, "hcp")])
def test_a_count_that_is_not_one_is_refused_naming_it(app, body, named):
    code, _ = opened(app, count_first=True)
    phone = app.test_client()
    JOINS["api"](phone, code)
    answer = phone.post(f"/api/polls/{code}/count", json=body)
    assert answer.status_code == 400 and answer.json["error"]["message"].startswith(named)


@pytest.mark.parametrize("door", ["page", "api"])
@pytest.mark.parametrize("device", ["none", "joined-another-poll"])
def test_a_count_from_a_client_that_did_not_join_is_refused(app, door, device):
    code, _ = opened(app, count_first=True)
    phone = app.test_client()
    if device == "joined-another-poll":
        other, _ = opened(app, count_first=True)
        JOINS[door](phone, other)
    answer = (phone.post(f"/api/polls/{code}/count", json={"hcp": 1, "distribution": 0})
              if door == "api" else
              phone.post(f"/live/{code}/count", data={"hcp": "1", "distribution": "0"}))
    assert answer.status_code == 403 and "has not joined" in answer.get_data(as_text=True)
    assert ledger.joined(store_of(app), code) == 0


def test_a_count_in_a_poll_that_asks_none_changes_nothing(app):
    code, admin = opened(app)
    phone = app.test_client()
    JOINS["api"](phone, code)
    assert phone.post(f"/api/polls/{code}/count",
                      json={"hcp": 1, "distribution": 0}).status_code == 200
    assert VOTES["api"](phone, code).status_code == 200


def stall_once(monkeypatch, store, name, when):
    """Make the store's call *name* fail once as a stalled store does: *when* 'before' it
    runs (the request never reached the store) or 'after' (it ran, the answer was lost)."""
    real, failed = getattr(type(store), name), []

    def stalled(self, *args, **named):
        if not failed and when == "before":
            failed.append(1)
            raise StoreUnavailable("stalled")
        answer = real(self, *args, **named)
        if not failed:
            failed.append(1)
            raise StoreUnavailable("stalled after the write")
        return answer

    monkeypatch.setattr(type(store), name, stalled)


@pytest.mark.parametrize("door", ["page", "api"])
@pytest.mark.parametrize("when", ["before", "after"])
def test_a_vote_retried_after_a_store_stall_counts_once(app, monkeypatch, door, when):
    code, admin = opened(app)
    phone = app.test_client()
    JOINS[door](phone, code)
    stall_once(monkeypatch, store_of(app), "put_field_by_guard", when)
    assert VOTES[door](phone, code).status_code == 503
    assert VOTES[door](phone, code).status_code in (200, 303)
    assert VOTES[door](phone, code).status_code in (200, 303)
    assert counts(app, code, admin) == {"1C": 1}


@pytest.mark.parametrize("door", ["page", "api"])
def test_a_join_that_met_a_store_stall_sets_the_cookie_so_the_retry_is_the_same_device(
        app, monkeypatch, door):
    code, _ = opened(app)
    phone = app.test_client()
    store = store_of(app)
    stall_once(monkeypatch, store, "put_field_capped", "after")
    first = JOINS[door](phone, code)
    assert first.status_code == 503 and COOKIE in first.headers["Set-Cookie"]
    again = JOINS[door](phone, code)
    assert again.status_code == 200 and not device_cookies(again)
    assert ledger.joined(store, code) == 1


def device_cookies(answer) -> list[str]:
    """The device cookies *answer* sets."""
    return [line for line in answer.headers.getlist("Set-Cookie") if line.startswith(COOKIE)]


@pytest.mark.parametrize("door", ["page", "api"])
@pytest.mark.parametrize("polls, statuses", [(2, [True, True]), (3, [True, True, False])],
                         ids=["at-the-limit", "one-above"])
def test_new_polls_are_limited_per_client(url, door, polls, statuses):
    app = make_app(url, POLL_RATE_LIMIT="2 per minute")
    client = app.test_client()
    answers = [client.post("/live", data={"hand": HAND}) if door == "page" else
               client.post("/api/polls", json={"hand": HAND}) for _ in range(polls)]
    assert [answer.status_code in (201, 303) for answer in answers] == statuses
    if not statuses[-1]:
        assert answers[-1].status_code == 429 and "Retry-After" in answers[-1].headers


LOOKUPS = {"join form": lambda client, code: client.get(f"/live/join?code={code}"),
           "join page": lambda client, code: client.get(f"/live/{code}"),
           "events": lambda client, code: client.get(f"/live/{code}/events"),
           "api": lambda client, code: client.get(f"/api/polls/{code}"),
           "api join": lambda client, code: client.post(f"/api/polls/{code}/join")}


@pytest.mark.parametrize("door", LOOKUPS)
@pytest.mark.parametrize("misses, open_to_all", [(2, True), (3, False)],
                         ids=["at-the-limit", "one-above"])
def test_join_codes_that_name_no_poll_are_limited_per_client(url, door, misses, open_to_all):
    app = make_app(url, CODE_RATE_LIMIT="3 per minute", LIVE_STREAM_SECONDS=0)
    code, _ = opened(app)
    guesser = app.test_client()
    for guess in ("ZZZZZ", "YYYYY", "XXXXX")[:misses]:
        assert LOOKUPS[door](guesser, guess).status_code == 404
    hits = []
    for _ in range(5):
        answer = LOOKUPS[door](guesser, code)
        hits.append(answer.status_code)
        answer.close()
    assert all(status in (200, 303) for status in hits) is open_to_all
    if not open_to_all:
        assert set(hits) == {429}


def test_a_class_of_200_behind_one_address_joins_and_votes_under_the_default_limits(url):
    app = make_app(url, LIVE_STREAM_SECONDS=0)
    assert (app.config["CODE_RATE_LIMIT"], app.config["POLL_RATE_LIMIT"],
            app.config["LIVE_RATE_LIMIT"]) == (CODE_LIMIT, POLL_LIMIT, LIVE_LIMIT)
    code, admin = opened(app)
    phones = [app.test_client() for _ in range(200)]
    typo = [phone.get("/live/join?code=ABCDE").status_code for phone in phones[:150]]
    joins = [phone.get(f"/live/join?code={code.lower()}").status_code for phone in phones]
    pages = [phone.get(f"/live/{code}").status_code for phone in phones]
    votes = [VOTES["api"](phone, code).status_code for phone in phones]
    assert set(typo) == {404} and set(joins) == {303} and set(pages) == set(votes) == {200}
    assert counts(app, code, admin) == {"1C": 200}
