"""Practice on two servers sharing one Redis (BIDDER_STATE_URL=redis://...)."""

from bidder.web import create_app
from test_practice import (answer, csrf_token, hand_on_table, right_bid, state_of,
                           wrong_bid)

from helpers import TEST_SECRET_KEY


def server(url):
    """One machine's app on the shared Redis."""
    return create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY, "STATE_URL": url})


def test_a_replayed_cookie_fails_on_the_other_server(redis_url):
    one, two = server(redis_url), server(redis_url)
    student = one.test_client()
    hand = hand_on_table(student)
    before = student.get_cookie("session").value
    token = csrf_token(student)
    answer(student, wrong_bid(hand), hand)
    replayer = two.test_client()
    replayer.set_cookie("session", before)
    replayer.post("/practice/answer", data={"csrf_token": token, "hand": hand,
                                            "bid": right_bid(hand)})
    assert state_of(replayer) == state_of(student)
    assert (state_of(replayer).right, state_of(replayer).answered) == (0, 1)


def test_a_double_click_split_across_servers_counts_once(redis_url):
    one, two = server(redis_url), server(redis_url)
    first = one.test_client()
    hand = hand_on_table(first)
    token = csrf_token(first)
    second = two.test_client()
    second.set_cookie("session", first.get_cookie("session").value)
    answer(first, right_bid(hand), hand)
    second.post("/practice/answer", data={"csrf_token": token, "hand": hand,
                                          "bid": wrong_bid(hand)})
    assert state_of(second) == state_of(first)
    assert (state_of(second).right, state_of(second).answered) == (1, 1)
