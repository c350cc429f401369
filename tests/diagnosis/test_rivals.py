"""The rival of a reading about to be named: which class it is, how many answers tell the two
apart, and the item asked while too few do."""

import pytest

from bidder import packed
from bidder.bids import BID_BY_VALUE
from bidder.cards import parse_hand
from bidder.diagnosis import rounds
from bidder.diagnosis.answers import Answer
from bidder.diagnosis.bank import Row, shipped
from bidder.diagnosis.choosing import options
from bidder.diagnosis.hypotheses import answers as reading_answers
from bidder.diagnosis.learner import Belief
from bidder.diagnosis.rivals import CONFIRMING, confirming, rival, told_apart
from bidder.misreadings import variant_by_id

HAND = parse_hand("AS KS 2S AH 3H 2H KD 3D 2D 5C 4C 3C 2C")
BANK = shipped()
CLASSES = BANK.classes(("bid",))


def belief(weights) -> Belief:
    return Belief(tuple((place,) for place in range(len(weights))), tuple(weights), 0.0, (),
                  0.1, (0.0,) * len(weights))


@pytest.mark.parametrize("weights, leader, expected", [
    ((0.9, 0.05, 0.05), 0, 1), ((0.9, 0.04, 0.06), 0, 2), ((0.05, 0.9, 0.05), 1, 0),
    ((1.0,), 0, None),
], ids=["the first of equals", "the likeliest other", "the rules may be the rival",
        "no other class"])
def test_the_rival_is_the_likeliest_class_but_the_leader(weights, leader, expected):
    assert rival(belief(weights), leader) == expected


# a row where reading 0 answers 1NT 16 0, reading 1 1C 16 0, reading 2 1NT 15 0
ROW = Row(0, (("1NT", 16, 0), ("1C", 16, 0), ("1NT", 15, 0)), (0, 1, 2))


def answer(bid, hcp=None):
    return Answer(HAND, None if bid is None else BID_BY_VALUE[bid], hcp)


@pytest.mark.parametrize("given, mine, theirs, counting, count", [
    (answer("1NT"), 0, 1, False, 1),
    (answer("1C"), 0, 1, False, 0),
    (answer("2NT"), 0, 1, False, 0),
    (answer("1NT"), 0, 2, False, 0),
    (answer("1NT", 16), 0, 2, True, 1),
    (answer("1NT", 16), 0, 2, False, 0),
    (answer("1NT", 15), 0, 2, True, 0),
], ids=["as the leader where the bids differ", "as the rival", "as neither",
        "bids alike, no count given", "the count given tells them apart",
        "a count given, counting off: read as the bid alone", "the count given is the rival's"])
def test_an_answer_tells_two_readings_apart_where_they_differ_as_the_leader_answers(
        given, mine, theirs, counting, count):
    assert told_apart([given], [ROW], mine, theirs, counting) == count


def place_of(reading_id):
    return next(place for place, members in enumerate(CLASSES)
                if BANK.ids[members[0]] == reading_id)


def telling(first, second, number):
    """*number* answers, as *first* answers, on bank hands where it bids otherwise than
    *second*."""
    one, two = variant_by_id(first), variant_by_id(second)
    found = []
    for row in BANK.rows:
        mine = reading_answers(one, row.code)
        if mine[0] != reading_answers(two, row.code)[0]:
            hand = parse_hand(" ".join(map(str, packed.cards(row.code))))
            found.append(Answer(hand, None if mine[0] is None else BID_BY_VALUE[mine[0]]))
        if len(found) == number:
            return found
    raise AssertionError("too few hands tell them apart")


@pytest.mark.parametrize("number, asked", [(CONFIRMING - 1, True), (CONFIRMING, False)],
                         ids=["one answer short: an item telling them apart",
                              "enough answers: none"])
def test_while_too_few_answers_tell_the_leader_from_its_rival_an_item_that_does_is_asked(
        number, asked):
    given = telling("1nt-15-17", "R1.hcp=14-18", number)
    weights = [0.0] * len(CLASSES)
    leader, other = place_of("1nt-15-17"), place_of("R1.hcp=14-18")
    weights[leader], weights[other] = 0.97, 0.03
    found = Belief(CLASSES, tuple(weights), 0.0, (), 0.1, (0.0,) * len(CLASSES))
    rows = [BANK.by_code[packed.encode_cards(item.hand.cards)] for item in given]
    codes = frozenset(row.code for row in rows)
    item = confirming(found, leader, given, rows, False,
                      options(BANK, ("bid",), False, False), codes)
    assert (item is not None) is asked
    if item is not None:
        row = item.rows[0]
        assert row.code not in codes
        assert row.answer(CLASSES[leader][0])[0] != row.answer(CLASSES[other][0])[0]


def test_with_every_hand_telling_them_apart_asked_the_posterior_decides():
    weights = [0.0] * len(CLASSES)
    leader, other = place_of("1nt-15-17"), place_of("R1.hcp=14-18")
    weights[leader], weights[other] = 0.97, 0.03
    found = Belief(CLASSES, tuple(weights), 0.0, (), 0.1, (0.0,) * len(CLASSES))
    every = frozenset(row.code for row in BANK.rows)
    assert confirming(found, leader, [], [], False, options(BANK, ("bid",), False, False),
                      every) is None


def test_a_round_sure_of_a_reading_asks_again_before_naming_it_when_its_rival_needs_it(
        monkeypatch):
    """Played without slips a round names its reading; asking for more answers telling it
    from its rival than were given, the same answers name nothing yet and ask a hand that
    tells the two apart."""
    reading = variant_by_id("swap=R2/R5")
    given, found = [], rounds.diagnose([], ladders=False, counting=False)
    while found.next is not None:
        given += [Answer(hand, None if bid is None else BID_BY_VALUE[bid])
                  for hand in found.next.hands
                  for bid in [reading_answers(reading, packed.encode_cards(hand.cards))[0]]]
        found = rounds.diagnose(given, ladders=False, counting=False)
    assert found.named == "swap=R2/R5"
    monkeypatch.setattr("bidder.diagnosis.rivals.CONFIRMING", 99)
    rounds._diagnosed.cache_clear()
    try:
        again = rounds.diagnose(given, ladders=False, counting=False)
    finally:
        rounds._diagnosed.cache_clear()
    assert again.named is None and again.next is not None
    known = rounds.belief(BANK, given, False)
    leader = place_of(found.named)
    other = rival(known, leader)
    rows = [BANK.by_code[packed.encode_cards(hand.cards)] for hand in again.next.hands]
    assert any(row.answer(known.classes[leader][0])[0] != row.answer(known.classes[other][0])[0]
               for row in rows)
