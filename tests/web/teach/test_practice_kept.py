"""No GET changes a score, and Skip cannot erase an answer: a practice set's link asks
before it ends a score (a form posted with its CSRF token starts it), and skipping a
hand the server recorded an answer for counts that answer, even from an older cookie;
against the SQLite file and a real Redis."""

from __future__ import annotations

import pytest

from bidder import explain
from bidder.bids import Bid
from bidder.web import create_app
from bidder.web.teach.practice import CANNOT_SKIP, SESSION_KEY
from helpers import TEST_SECRET_KEY
from test_practice import (answer, csrf_token, hand_on_table, post, state_of, turn_on,
                           wrong_bid)


@pytest.fixture(params=["sqlite", "redis"])
def client(request, tmp_path):
    """A test client of an app whose store is the SQLite file, or the real Redis."""
    url = (f"sqlite:///{tmp_path / 'state.sqlite3'}" if request.param == "sqlite"
           else request.getfixturevalue("redis_url"))
    return create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY,
                       "STATE_URL": url}).test_client()


def cookie(client) -> str:
    return client.get_cookie("session").value


def restore(client, value: str) -> None:
    client.set_cookie("session", value)


def score(client) -> tuple[int, int, int, int]:
    state = state_of(client)
    return state.right, state.answered, state.counts_right, state.counts_checked


# A set's link asks first --------------------------------------------------------------

def counted_once(client):
    turn_on(client, count_first=True)
    post(client, "/practice/count", {"hand": hand_on_table(client), "hcp": "0",
                                     "distribution": "0"})


@pytest.mark.parametrize("before, asks", [
    (lambda client: None, False),
    (lambda client: answer(client, "1C"), True),
    (counted_once, True),
], ids=["no score yet: the link starts the set", "a bid answered: it asks first",
        "a count checked: it asks first"])
def test_a_sets_link_asks_before_it_ends_a_score(client, before, asks):
    client.get("/practice")
    before(client)
    kept = score(client)
    page = client.get("/practice?set=31&bid=1NT")
    if not asks:
        assert page.status_code == 303
        assert (state_of(client).base, state_of(client).bids) == (31, "1NT")
        return
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "Start practice set 31?" in text
    assert "would not be kept" in text
    assert score(client) == kept and state_of(client).base != 31
    started = post(client, "/practice/set", {"set": "31", "rule": "", "bid": "1NT"})
    assert started.status_code == 303
    assert (state_of(client).base, state_of(client).bids) == (31, "1NT")
    assert score(client) == (0, 0, 0, 0)


def test_the_sets_form_without_its_token_changes_nothing(client):
    client.get("/practice")
    answer(client, "1C")
    kept = score(client)
    refused = client.post("/practice/set", data={"set": "31", "bid": "1NT"})
    assert refused.status_code == 400
    assert score(client) == kept


@pytest.mark.parametrize("fields, said", [
    ({"set": "x"}, "is not a whole number"),
    ({"set": "5", "rule": "R3", "bid": "1C"}, "it names both rules and bids"),
], ids=["a seed that is no number", "both rules and bids"])
def test_the_sets_form_with_fields_that_cannot_be_read_says_so(client, fields, said):
    client.get("/practice")
    answer(client, "1C")
    kept = score(client)
    response = post(client, "/practice/set", fields)
    assert response.status_code == 303
    assert said in client.get("/practice").get_data(as_text=True)
    assert score(client) == kept


# Skip cannot erase an answer ------------------------------------------------------------

@pytest.mark.parametrize("answered", [True, False],
                         ids=["answered, then an older cookie skips: counted",
                              "never answered: skipped"])
def test_skip_from_an_older_cookie_counts_the_answer_recorded(client, answered):
    hand = hand_on_table(client)
    older = cookie(client)
    if answered:
        answer(client, wrong_bid(hand), hand)
    restore(client, older)
    post(client, "/practice/next", {"hand": hand})
    state = state_of(client)
    assert state.hand != hand
    assert (state.right, state.answered) == ((0, 1) if answered else (0, 0))
    assert state.record.endswith("-") is answered


def test_skip_from_an_older_cookie_counts_the_count_recorded(client):
    turn_on(client, count_first=True)
    hand = hand_on_table(client)
    older = cookie(client)
    post(client, "/practice/count", {"hand": hand, "hcp": "0", "distribution": "0"})
    restore(client, older)
    post(client, "/practice/next", {"hand": hand})
    assert score(client)[2:] == (0, 1)


def test_a_skip_the_store_cannot_check_is_a_503_and_the_hand_stays(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY,
                      "STATE_URL": f"sqlite:///{tmp_path / 'state.sqlite3'}"})
    client = app.test_client()
    hand = hand_on_table(client)
    (tmp_path / "state.sqlite3").unlink()
    refused = post(client, "/practice/next", {"hand": hand})
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "60"
    assert CANNOT_SKIP.split(":")[0] in refused.get_data(as_text=True)
    with client.session_transaction() as session:
        assert session[SESSION_KEY]["hand"] == hand


def test_a_hand_dealt_under_another_store_is_simply_skipped(client):
    hand = hand_on_table(client)
    with client.session_transaction() as session:
        session[SESSION_KEY] = {**session[SESSION_KEY],
                                "token": "zzzzzz" + session[SESSION_KEY]["token"][6:]}
    post(client, "/practice/next", {"hand": hand})
    assert state_of(client).hand != hand and score(client) == (0, 0, 0, 0)
    assert csrf_token(client)


def test_a_hand_counted_then_skipped_keeps_its_one_count(client):
    counted_once(client)
    post(client, "/practice/next", {"hand": state_of(client).hand})
    assert score(client)[1:] == (0, 0, 1)


@pytest.mark.parametrize("answered_wrongly", [True, False],
                         ids=["answered: the first answer stands",
                              "not answered: answered now"])
def test_next_from_a_cookie_from_before_the_deal_deals_the_same_token(client,
                                                                     answered_wrongly):
    from test_practice import ANSWERED_BEFORE
    first = hand_on_table(client)
    answer(client, "1C", first)
    before_the_deal = cookie(client)
    post(client, "/practice/next", {"hand": first})
    hand, token = state_of(client).hand, state_of(client).token
    if answered_wrongly:
        answer(client, wrong_bid(hand), hand)
    restore(client, before_the_deal)
    post(client, "/practice/next", {"hand": first})
    assert (state_of(client).hand, state_of(client).token) == (hand, token)
    right = str(Bid.from_value(explain(hand).bid))
    kept = score(client)[:2]
    answer(client, right, hand)
    said = client.get("/practice").get_data(as_text=True)
    assert (ANSWERED_BEFORE.split(",")[0] in said) is answered_wrongly
    assert score(client)[:2] == (kept[0] + (not answered_wrongly), kept[1] + 1)


@pytest.mark.parametrize("value, kept", [
    ("", True), ("abcdefghijkl", True), ("abc-_fghij9L", True), ("abcdefghijk", False),
    ("abcdefghijklm", False), ("abcdefghij!l", False), (None, False), (12, False)])
def test_only_a_practice_id_or_none_is_kept(value, kept):
    from bidder.web.teach.practice import is_practice_id
    assert is_practice_id(value) is kept


def test_each_practice_has_an_id_of_its_own_and_its_turns_their_own_tokens(app):
    from dataclasses import replace
    from bidder.web.teach.practice import TOKEN, begun, new_token
    with app.test_request_context():
        one, other = begun(base=1), begun(base=1)
        assert one.id != other.id
        tokens = {new_token(replace(state, turn=turn)) for state in (one, other)
                  for turn in (0, 1)}
        assert len(tokens) == 4 and all(TOKEN.fullmatch(token) for token in tokens)
        assert new_token(one) == new_token(one)
        legacy = replace(one, id="")
        assert new_token(legacy) != new_token(legacy)
