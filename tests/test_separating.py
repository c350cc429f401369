"""Hands that tell misreadings apart (bidder.dealing.separating_hands) and the smallest hand
that shows one (bidder.dealing.smallest_changed_hand)."""

from itertools import islice

import pytest

from bidder import packed
from bidder.dealing import (bids_of, changes, dealt_text, hand_stream, separating_hands,
                            smallest_changed_hand, smallness)
from bidder.misreadings import distinguishable, variant_by_id


def variants(*ids):
    return [variant_by_id(one) for one in ids]


def apart(found, chosen):
    """How many of the hands give every misreading a bid of its own."""
    return sum(len(set(bids_of(chosen, packed.encode(hand))[1:])) == len(chosen)
               for hand in found)


@pytest.mark.slow
def test_where_hands_tell_every_misreading_apart_those_are_given():
    found = separating_hands(variants("r3-unbalanced-only", "1nt-15-17"), 3)
    assert len(found) == 3
    for hand in found:
        bids = bids_of(variants("r3-unbalanced-only", "1nt-15-17"), packed.encode(hand))
        assert len(set(bids)) == 3


def test_the_search_goes_on_past_its_first_hands_until_enough_set_every_pair_apart():
    chosen = variants("r3-unbalanced-only", "1nt-15-17", "no-2nt")
    assert apart(separating_hands(chosen, 3, search=10, limit=10), chosen) < 3
    assert apart(separating_hands(chosen, 3, search=10), chosen) == 3


def test_where_none_does_the_first_still_changes_the_bid_on_each():
    chosen = variants("r3-unbalanced-only", "lower-case-bids")
    found = separating_hands(chosen, 3, search=3000, limit=3000)
    assert len(found) == 3
    for hand in found:
        bids = bids_of(chosen, packed.encode(hand))
        assert bids[1] != bids[0]


def test_a_misreading_that_changes_no_hand_searched_gives_none():
    assert separating_hands(variants("no-2nt"), 3, search=10, limit=10) == ()


@pytest.mark.parametrize("hand, expected", [
    ("2C 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D 4D 5D", (0, 0)),  # no honour at all
    ("JC 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D 4D 5D", (1, 1)),
    ("AC 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D 4D 5D", (4, 1)),
    ("QC JC 4C 5C 6C 7C 8C 9C 10C 2D 3D 4D 5D", (3, 2)),  # the ace's points, more cards
    ("AS AH AD AC KS KH KD KC QS QH QD QC JS", (37, 13)),
])
def test_a_hands_smallness_is_its_points_then_its_honours(hand, expected):
    from bidder.cards import DECK, parse_hand

    assert smallness([DECK.index(card) for card in parse_hand(hand).cards]) == expected


@pytest.mark.parametrize("reading", ["r3-unbalanced-only", "1nt-15-17", "no-2nt",
                                     "lower-case-bids"])
def test_the_hand_that_shows_a_misreading_is_the_smallest_searched(reading):
    variant = variant_by_id(reading)
    found = smallest_changed_hand(variant, 1, 2000)
    assert changes(variant, packed.encode(found))
    changed = [indexes for indexes in islice(hand_stream(1), 2000)
               if changes(variant, packed.encode_deal(indexes))]
    smallest = min(changed, key=smallness)
    assert found == dealt_text(smallest)


def test_past_the_search_the_first_hand_that_shows_it_is_taken():
    variant = variant_by_id("R1.hcp=15-18")
    first = next(indexes for indexes in hand_stream(1)
                 if changes(variant, packed.encode_deal(indexes)))
    assert smallest_changed_hand(variant, 1, 1) == dealt_text(first)


def test_a_misreading_no_hand_shows_has_no_smallest_hand(monkeypatch):
    monkeypatch.setattr("bidder.dealing.CHANGED_SEARCH", 5)
    assert smallest_changed_hand.__wrapped__(variant_by_id("no-2nt"), 1, 5) is None


@pytest.mark.slow
def test_every_misreading_has_a_smallest_hand_that_shows_it():
    for variant in distinguishable()[:5]:
        assert changes(variant, packed.encode(smallest_changed_hand(variant)))
