"""The instructor's key stays off the screen: starting a poll gives the browser a cookie
scoped to the poll, no address or page carries a key, the pages with the instructor's
controls are never cached, and a second device is added by a one-time link."""

import re
from http.cookies import SimpleCookie

import pytest

from bidder.web import create_app
from bidder.web.live import instructor, ledger
from bidder.web.state import store_of

HAND = "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"
PUBLIC = "http://192.0.2.7:5000"


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "LIVE_STREAM_SECONDS": 0,
                       "SECRET_KEY": "test-secret-key-not-for-production",
                       "PUBLIC_URL": PUBLIC,
                       "STATE_URL": f"sqlite:///{tmp_path / 'state.sqlite3'}"})


def started(app):
    """The instructor's client, having started a poll from the page, and its code."""
    teacher = app.test_client()
    answer = teacher.post("/live", data={"source": "pasted", "hand": HAND})
    assert answer.status_code == 303
    return teacher, answer.location.split("/")[2], answer


def test_starting_gives_a_cookie_scoped_to_the_poll_and_a_clean_address(app):
    _, code, answer = started(app)
    assert answer.location == f"/live/{code}/host"
    (header,) = answer.headers.getlist("Set-Cookie")
    cookie = SimpleCookie(header)[instructor.COOKIE]
    assert cookie["path"] == f"/live/{code}" and cookie["httponly"] is True
    assert cookie["samesite"] == "Strict" and int(cookie["max-age"]) == ledger.POLL_SECONDS


INSTRUCTOR_PAGES = [("get", "host"), ("get", "teacher"), ("get", "summary.json"),
                    ("get", "summary.csv"), ("get", "summary.html"), ("post", "remote")]


@pytest.mark.parametrize("method, path", INSTRUCTOR_PAGES)
def test_instructor_pages_carry_no_key_and_are_never_cached(app, method, path):
    teacher, code, _ = started(app)
    answer = getattr(teacher, method)(f"/live/{code}/{path}")
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "no-store"
    assert "key=" not in answer.get_data(as_text=True)


@pytest.mark.parametrize("method, path", INSTRUCTOR_PAGES + [("post", "host")])
@pytest.mark.parametrize("cookie", ["none", "forged", "another-poll"])
def test_instructor_pages_refuse_a_browser_without_the_poll_s_cookie(app, method, path,
                                                                      cookie):
    _, code, _ = started(app)
    stranger = app.test_client()
    if cookie == "forged":
        stranger.set_cookie(instructor.COOKIE, f'["{code}", "0"].x.y', path=f"/live/{code}")
    elif cookie == "another-poll":
        other, other_code, _ = started(app)
        held = other.get_cookie(instructor.COOKIE, path=f"/live/{other_code}").value
        stranger.set_cookie(instructor.COOKIE, held, path=f"/live/{code}")
    answer = getattr(stranger, method)(f"/live/{code}/{path}", data={"action": "close"})
    assert answer.status_code == 403
    assert "Only the browser that started" in answer.get_data(as_text=True)
    assert ledger.load(store_of(app), code)[1].state == "open"


def test_a_later_poll_given_the_same_code_is_not_steered_by_the_old_cookie(app):
    teacher, code, _ = started(app)
    store = store_of(app)
    poll, _ = ledger.load(store, code)
    store.put(f"live:{code}", poll.__class__(code, "f" * 64, poll.rounds).to_json(), 60)
    assert teacher.get(f"/live/{code}/host").status_code == 403


def test_the_projector_links_to_the_teacher_view_and_shows_no_one_time_link(app):
    teacher, code, _ = started(app)
    projector = teacher.get(f"/live/{code}/host").get_data(as_text=True)
    assert f'href="/live/{code}/teacher"' in projector and "/remote" not in projector
    own = teacher.get(f"/live/{code}/teacher").get_data(as_text=True)
    assert f'action="/live/{code}/remote"' in own


def one_time_link(teacher, code) -> str:
    page = teacher.post(f"/live/{code}/remote").get_data(as_text=True)
    return re.search(r'id="remote-link">([^<]+)<', page).group(1)


def test_a_phone_added_by_a_one_time_link_steers_the_poll(app):
    teacher, code, _ = started(app)
    link = one_time_link(teacher, code)
    assert link.startswith(f"{PUBLIC}/live/{code}/remote/")
    remote = app.test_client()
    added = remote.get(link.removeprefix(PUBLIC))
    assert added.status_code == 200 and added.headers["Cache-Control"] == "no-store"
    assert f'href="/live/{code}/host"' in added.get_data(as_text=True)
    cookie = SimpleCookie(added.headers["Set-Cookie"])[instructor.COOKIE]
    assert cookie["path"] == f"/live/{code}" and cookie["samesite"] == "Strict"
    assert remote.post(f"/live/{code}/host", data={"action": "close"}).status_code == 303
    assert ledger.load(store_of(app), code)[1].state == "closed"


@pytest.mark.parametrize("ticket", ["used", "expired", "another-poll", "garbage"])
def test_a_one_time_link_works_once_within_its_minutes_for_its_poll(app, monkeypatch,
                                                                      ticket):
    teacher, code, _ = started(app)
    link = one_time_link(teacher, code).removeprefix(PUBLIC)
    if ticket == "used":
        assert app.test_client().get(link).status_code == 200
    elif ticket == "expired":
        monkeypatch.setattr(instructor, "TICKET_SECONDS", -1)
    elif ticket == "another-poll":
        _, other, _ = started(app)
        link = link.replace(f"/live/{code}/", f"/live/{other}/")
    else:
        link = f"/live/{code}/remote/not-a-ticket"
    refused = app.test_client().get(link)
    assert refused.status_code == 403 and "Set-Cookie" not in refused.headers
    assert "works once, within" in refused.get_data(as_text=True)


def test_without_a_public_address_the_one_time_link_is_a_path_without_a_qr_code(app):
    app.config["PUBLIC_URL"] = ""
    teacher, code, _ = started(app)
    page = teacher.post(f"/live/{code}/remote").get_data(as_text=True)
    assert re.search(rf'id="remote-link">/live/{code}/remote/', page) and "<svg" not in page


def test_the_api_takes_the_admin_token_in_a_header_and_never_the_page_s_cookie(app):
    client = app.test_client()
    opened = client.post("/api/polls", json={"hand": HAND}).json
    code = opened["code"]
    teacher, page_code, _ = started(app)
    assert teacher.post(f"/api/polls/{page_code}/close").status_code == 401
    assert client.post(f"/api/polls/{code}/close", headers={
        "Authorization": f"Bearer {opened['admin']}"}).status_code == 200
