"""Heavy requests bounded per worker: a cap on sets and board files at once (503 with
Retry-After beyond it)."""

from contextlib import ExitStack

import pytest
from werkzeug.exceptions import ServiceUnavailable

from bidder.web.boards import UPLOADS
from bidder.web.heavy import AT_ONCE, Cap
from bidder.web.teach import PAGES, SETS
from test_boards import send


def test_a_cap_takes_its_limit_then_turns_one_more_away_until_a_slot_frees():
    cap = Cap("sets", limit=2)
    with cap.held(), cap.held():
        with pytest.raises(ServiceUnavailable) as raised:
            with cap.held():
                pass  # never reached
        assert raised.value.retry_after == 1
        assert "busy with other sets right now" in raised.value.description
    with cap.held():
        pass


def test_a_slot_is_freed_when_the_work_fails():
    cap = Cap("sets", limit=1)
    with pytest.raises(ValueError):
        with cap.held():
            raise ValueError
    with cap.held():
        pass


def busy(cap: Cap) -> ExitStack:
    """Every slot of *cap* taken, as by other requests running."""
    stack = ExitStack()
    for _ in range(AT_ONCE):
        stack.enter_context(cap.held())
    return stack


def test_a_set_beyond_the_cap_is_a_503_saying_to_retry_and_single_hands_still_deal(client):
    PAGES.clear()
    with busy(SETS):
        refused = client.get("/deal?print=1&seed=11&count=40")
        assert refused.status_code == 503
        assert refused.headers["Retry-After"] == "1"
        page = refused.get_data(as_text=True)
        assert "Server busy" in page
        assert "busy with other printable sets and large deals right now" in page
        assert client.get("/deal?seed=11&bid=1NT").status_code == 200
    assert client.get("/deal?print=1&seed=11&count=40").status_code == 200
    with busy(SETS):  # a set already rendered is served from the cache, no slot needed
        assert client.get("/deal?print=1&seed=11&count=40").status_code == 200


def test_a_board_file_beyond_the_cap_is_a_503(client):
    with busy(UPLOADS):
        refused = send(client, text="[Board \"1\"]\n")
        assert refused.status_code == 503
        assert "busy with other board files right now" in refused.get_data(as_text=True)
    assert send(client, text="nothing").status_code == 400


