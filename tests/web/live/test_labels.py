"""The misreadings behind each wrong bid on a poll's hand, read from the packed hand: the
same as each misreading's full explanation gives, on a hand every rule decides and on
hands dealt at random."""

from __future__ import annotations

import pytest

from bidder.advice import explain, is_reachable
from bidder.bids import BIDS
from bidder.dealing import deal, random_hand
from bidder.misreadings import distinguishable
from bidder.rules import RULES
from bidder.web.live.hands import canonical
from bidder.web.live.labels import wrong_bids

HANDS = ([canonical(str(deal(seed, rule=rule))) for seed in (1, 2) for rule in RULES
          if is_reachable(rule)] + [canonical(str(random_hand(seed))) for seed in range(3, 9)])


def explained(hand: str) -> dict:
    """wrong_bids() as each misreading's full explanation gives it."""
    right, found = explain(hand).bid, {}
    for variant in distinguishable():
        theirs = explain(hand, variant.rules, variant.counting).bid
        if theirs != right:
            found.setdefault(theirs, []).append(variant.id)
    order = {bid.text: place for place, bid in enumerate(BIDS)}
    return {bid: tuple(ids) for bid, ids in sorted(found.items(), key=lambda i: order[i[0]])}


@pytest.mark.no_cover  # a full explanation for each misreading, on each hand
@pytest.mark.parametrize("hand", HANDS)
def test_the_wrong_bids_read_from_the_packed_hand_are_the_explanations(hand):
    assert wrong_bids(hand) == explained(hand)


def test_some_hand_of_the_table_has_wrong_bids_and_some_none_among_them():
    found = [wrong_bids(hand) for hand in HANDS]
    assert any(len(bids) >= 3 for bids in found) and any(None in bids for bids in found)
