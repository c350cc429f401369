"""The diagnostic round's public face: the values, their JSON, and a first round."""

import pytest

from bidder.bids import Bid
from bidder.cards import parse_hand
from bidder.diagnosis import (Answer, Candidate, Diagnosis, Item, diagnose, next_for_class,
                              teaching_hands)

HAND = parse_hand("AS KS QS 2S AH 3H 2H KD 3D 2D 4C 3C 2C")


@pytest.mark.parametrize("answer, written", [
    (Answer(HAND, Bid.from_value("1NT")), {"hand": str(HAND), "bid": "1NT", "hcp": None,
                                            "distribution": None}),
    (Answer(HAND, None, 16, 0), {"hand": str(HAND), "bid": None, "hcp": 16,
                                 "distribution": 0}),
], ids=["a bid and no counts", "no opening with both counts"])
def test_an_answer_writes_itself_as_the_api_reads_it(answer, written):
    assert answer.to_dict() == written


def test_a_diagnosis_writes_itself_as_the_api_answers():
    diagnosis = Diagnosis(Item((HAND,), ("bid", "hcp")),
                          (Candidate("rules", 0.93333, "Reads the rules."),), None, 0.97777)
    assert diagnosis.to_dict() == {
        "next": {"hands": [str(HAND)], "ask": ["bid", "hcp"]},
        "candidates": [{"misreading": "rules", "probability": 0.9333,
                        "text": "Reads the rules."}],
        "named": None, "confidence": 0.9778, "second": None}


@pytest.mark.parametrize("second, written, left", [
    (None, None, False), (0.0499, 0.0499, False), (0.05, 0.05, True), (0.123456, 0.1235, True),
], ids=["no misreading named alone", "a second just under 1 in 20: ruled out",
        "a second at 1 in 20: not ruled out", "written to four places"])
def test_a_second_misreading_beside_the_one_named_is_left_from_one_in_twenty(
        second, written, left):
    diagnosis = Diagnosis(None, (), "1nt-15-17", 0.99, second)
    assert diagnosis.to_dict()["second"] == written
    assert diagnosis.second_left is left


def test_an_ended_round_has_no_next_item():
    assert Diagnosis(None, (), "rules", 0.99).to_dict()["next"] is None


def test_a_round_with_no_answers_asks_a_hand_and_names_nothing():
    diagnosis = diagnose([])
    assert diagnosis.named is None
    assert diagnosis.next is not None and diagnosis.next.hands
    assert set(diagnosis.next.ask) <= {"bid", "hcp", "distribution"}
    assert abs(sum(candidate.probability for candidate in diagnosis.candidates)) <= 1


def test_the_class_poll_gives_a_hand():
    assert len(next_for_class([[], []]).cards) == 13


def test_teaching_hands_are_hands_the_misreading_answers_otherwise():
    hands = teaching_hands("1nt-15-17", 3, seed=1)
    assert len(hands) == 3 and all(len(hand.cards) == 13 for hand in hands)
