"""Practice names the misreading a student's wrong answers fit, and deals hands it gets
wrong."""

import random

import pytest

from bidder import packed
from bidder.dealing import changes, reachable_bids
from bidder.misreadings import variant_by_id
from bidder.web.teach.practice import SESSION_KEY, Practice, hand_for
from bidder.web.teach.reading import (READING_HANDS, Reading, is_reading, reading_hand,
                                       round_reading)
from bidder.web.teach.rounds import answers

from test_practice import answer, hand_on_table, post, state_of, text_of


def by(variant, hand: str) -> str:
    """The bid a student reading the rules as *variant* gives, as the buttons post it."""
    bid = variant.written(packed.decide(packed.encode(hand), variant.rules,
                                        variant.counting)[1])
    return "None" if bid is None else bid


def play(client, bidding) -> list[str]:
    """Answer every hand of the round on the table with *bidding*(hand); the hands."""
    hands = []
    client.get("/practice")
    while not state_of(client).between_rounds:
        hand = hand_on_table(client)
        hands.append(hand)
        answer(client, bidding(hand), hand)
        post(client, "/practice/next", {"hand": hand})
    return hands


def named(page: str, variant) -> bool:
    return variant.sentence in page


def test_a_student_answering_by_a_misreading_is_told_so_then_dealt_its_hands(client):
    variant = variant_by_id("r3-unbalanced-only")
    client.get("/practice?set=5")  # its R3 hand is balanced: the misreading bids otherwise
    play(client, lambda hand: by(variant, hand))
    page = text_of(client.get("/practice"))
    assert "Your wrong answer fits a misreading: " + variant.sentence in page
    assert "hands this reading gets wrong will tell" in page
    assert f"Practise hands this misreading gets wrong ({READING_HANDS} hands)" in page
    post(client, "/practice/round", {"reading": "1"})
    assert (state_of(client).reading, state_of(client).size) == (variant.id, READING_HANDS)
    hands = play(client, lambda hand: by(variant, hand))
    assert len(hands) == READING_HANDS
    assert all(changes(variant, packed.encode(hand)) for hand in hands)
    page = text_of(client.get("/practice"))
    assert (f"All {READING_HANDS} of your wrong answers fit one misreading: "
            f"{variant.sentence} The assignment says otherwise: {variant.departs}.") in page
    post(client, "/practice/round")
    assert (state_of(client).reading, state_of(client).size) == ("", 8)


@pytest.mark.parametrize("reading", ["swap=R2/R3", "R1.hcp=15-18", "balanced=no-minor-five"])
def test_a_round_of_a_generated_misreading_answered_by_it_names_it(client, reading):
    variant = variant_by_id(reading)
    with client.session_transaction() as session:
        session[SESSION_KEY] = vars(Practice(base=3, reading=reading))
    play(client, lambda hand: by(variant, hand))
    found = round_reading([(hand, by(variant, hand), False) for hand in
                           [reading_hand(reading, 3 + turn) for turn in range(READING_HANDS)]])
    assert reading in [found.variant.id] + [other.id for other in found.alternatives]
    page = text_of(client.get("/practice"))
    assert "of your wrong answers fit one misreading: " + found.variant.sentence in page


def test_random_wrong_answers_are_not_named(client):
    bids = [str(bid) for bid in reachable_bids()]
    chooser = random.Random(7)
    play(client, lambda hand: chooser.choice(bids))
    page = text_of(client.get("/practice"))
    assert sum(not right for _, right in answers(state_of(client).record)) >= 5
    assert "fits a misreading" not in page and "fit one misreading" not in page


def test_right_answers_and_a_round_of_missed_ones_name_none(client):
    play(client, lambda hand: by(variant_by_id("r8-6-8"), hand))
    page = text_of(client.get("/practice"))
    assert "fits a misreading" not in page and "fit one misreading" not in page
    post(client, "/practice/round", {"reading": "1"})
    assert state_of(client).reading == ""


def test_a_misreading_that_no_hand_found_shows_deals_any_hand():
    assert reading_hand("r8-6-8", 1) is None  # it changes no hand at all
    assert hand_for(Practice(base=1, reading="r8-6-8"))


@pytest.mark.parametrize("value, readable", [
    ("", True), ("r3-unbalanced-only", True), ("R1.hcp=15-18", True),
    ("R6.points=21++R1.hcp=15-18", True), ("R1.hcp=18-15", False), ("nonsense", False),
    ("x" * 300, False), (None, False), (3, False),
])
def test_only_a_misreading_id_is_kept_as_a_reading(value, readable):
    assert is_reading(value) is readable


def test_a_cookie_from_before_rounds_of_a_misreading_is_still_read(client):
    stored = vars(Practice(base=4, turn=2))
    del stored["reading"]
    with client.session_transaction() as session:
        session[SESSION_KEY] = stored
    client.get("/practice")
    assert (state_of(client).base, state_of(client).turn) == (4, 2)


@pytest.mark.parametrize("explained, opening", [
    (1, "Your wrong answer fits a misreading: "),
    (2, "Both of your wrong answers fit one misreading: "),
    (3, "All 3 of your wrong answers fit one misreading: "),
])
def test_the_sentence_says_how_many_wrong_answers_the_misreading_fits(explained, opening):
    variant = variant_by_id("R1.hcp=15-18")
    sentence = Reading(variant, explained).sentence
    assert sentence.startswith(opening + variant.sentence)
    assert sentence.count("The assignment says otherwise: R1 says 16-18 HCP.") == 1
    assert ("will tell" in sentence) is (explained == 1)


def test_readings_that_fit_as_well_are_named_beside_it():
    one, other = variant_by_id("omit=R1"), variant_by_id("R1.shape=any")
    assert Reading(one, 2).others == ""
    assert Reading(one, 2, (other,)).others == f"They fit just as well: {other.sentence}"
