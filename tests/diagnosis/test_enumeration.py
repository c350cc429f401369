"""The enumeration: one hand for each way the readings count a suit pattern."""

import pytest

from bidder import packed
from bidder.cards import Rank
from bidder.exact import suit_lengths
from bidder.diagnosis import enumeration
from bidder.diagnosis.enumeration import (HONOURS, LONG, SCALES, Witness, _orders, _placed,
                                          every_witness, witnesses, worth)


@pytest.mark.parametrize("lengths", [(3, 3, 3, 4), (0, 0, 4, 9), (5, 5, 3, 0), (0, 0, 0, 13)],
                         ids=["flat", "a nine-card suit", "two long suits", "one suit"])
def test_every_witness_is_a_hand_of_its_lengths_and_counts(lengths):
    found = list(witnesses(lengths))
    assert len({witness.key() for witness in found}) == len(found)
    for witness in found:
        code = packed.encode_deal(witness.indexes())
        assert (code & ((1 << 52) - 1)).bit_count() == 13
        assert packed.tally(code).lengths == lengths
        assert packed.hcp(code) == witness.key()[1][0]


def test_every_hcp_a_flat_hand_can_hold_is_there():
    assert {witness.key()[1][0] for witness in witnesses((3, 3, 3, 4))} == set(range(38))


def test_two_long_suits_are_compared_on_every_scale_each_way():
    compared = {witness.key()[2] for witness in witnesses((5, 5, 3, 0))}
    assert {key[0] for key in compared} == {-1, 0, 1}
    assert all(len(key) == len(SCALES) for key in compared)


@pytest.mark.parametrize("counts, lengths, placed", [
    ((1, 0, 0, 0, 0), (4, 4, 4, 1), ((Rank.ACE,), (), (), ())),
    ((2, 0, 0, 0, 0), (13, 0, 0, 0), None),
    ((0, 0, 0, 0, 0), (13, 0, 0, 0), None),
    ((0, 0, 0, 0, 1), (9, 4, 0, 0), ((Rank.TEN,), (), (), ())),
], ids=["an ace in the only suit", "two aces in one suit", "thirteen spots in a suit",
        "a nine-card suit needs an honour"])
def test_honours_are_placed_where_they_fit_or_not_at_all(counts, lengths, placed):
    assert _placed(counts, lengths, (0, 1, 2, 3)) == placed


@pytest.mark.parametrize("lengths, orders", [
    ((3, 3, 3, 4), 1), ((5, 5, 3, 0), 2), ((6, 4, 3, 0), 1),
], ids=["flat", "two long suits", "one long suit"])
def test_two_long_suits_take_honours_in_either_order(lengths, orders):
    assert len(_orders(lengths)) == orders


def test_worth_counts_on_the_changed_scale():
    assert worth((Rank.ACE, Rank.JACK, Rank.TEN), {}) == 5
    assert worth((Rank.ACE, Rank.JACK, Rank.TEN), {Rank.TEN: 1}) == 6
    assert HONOURS[0] == Rank.ACE and LONG == 5


def test_every_pattern_is_enumerated():
    patterns = tuple(suit_lengths())
    assert len(set(patterns)) == 560
    assert all(next(witnesses(lengths), None) is not None for lengths in patterns)


def test_every_witness_walks_the_patterns_in_turn(monkeypatch):
    patterns = ((3, 3, 3, 4), (5, 5, 3, 0))
    monkeypatch.setattr(enumeration, "suit_lengths", lambda: iter(patterns))
    assert list(every_witness()) == [witness for lengths in patterns
                                     for witness in witnesses(lengths)]


def test_a_witness_writes_its_cards_in_the_deck_s_places():
    witness = Witness((1, 0, 0, 12), ((), (), (), (Rank.ACE, Rank.KING)))
    assert packed.text(packed.encode_deal(witness.indexes())).startswith("AS KS 9S")
