"""Hands that tell misreadings apart (bidder.dealing.separating_hands)."""

from bidder import packed
from bidder.dealing import bids_of, separating_hands
from bidder.misreadings import variant_by_id


def variants(*ids):
    return [variant_by_id(one) for one in ids]


def test_where_hands_tell_every_misreading_apart_those_are_given_the_first_dealt_first():
    found = separating_hands(variants("r3-unbalanced-only", "1nt-15-17"), 3)
    assert len(found) == 3
    for hand in found:
        bids = bids_of(variants("r3-unbalanced-only", "1nt-15-17"), packed.encode(hand))
        assert len(set(bids)) == 3


def test_where_none_does_the_first_still_changes_the_bid_on_each():
    chosen = variants("r3-unbalanced-only", "no-2nt")
    found = separating_hands(chosen, 3, search=3000)
    assert len(found) == 3
    for hand in found:
        bids = bids_of(chosen, packed.encode(hand))
        assert bids[1] != bids[0]


def test_a_misreading_that_changes_no_hand_searched_gives_none():
    assert separating_hands(variants("no-2nt"), 3, search=10) == ()
