"""Invariants of the ledger, for any sequence of votes and a close among them: each
device counts once, with its last vote taken before the close."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bidder.web.live import ledger
from bidder.web.live.model import BID_KEYS, key_bid, tally
from bidder.web.state import open_store

HAND = "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"
VOTES = st.lists(st.tuples(st.sampled_from(["a", "b", "c", "d"]), st.sampled_from(BID_KEYS)),
                 max_size=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(votes=VOTES, close_at=st.integers(0, 12))
def test_each_device_counts_once_with_its_last_vote_before_the_close(tmp_path, votes, close_at):
    store = open_store(f"sqlite:///{tmp_path / 'state.sqlite3'}")
    store.prepare()
    poll, _ = ledger.create(store, HAND)
    for device in "abcd":
        ledger.join(store, poll, device)
    last = {}
    for place, (device, key) in enumerate(votes):
        if place == close_at:
            ledger.close(store, *ledger.load(store, poll.code))
        try:
            ledger.vote(store, poll.code, device, key_bid(key))
            last[device] = key
        except ledger.PollError:
            assert place >= close_at
    assert ledger.ballots(store, poll.code, 0) == last
    assert sum(tally(last).values()) == len(last)
