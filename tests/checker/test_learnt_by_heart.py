"""Marks only for bidding logic: a module that holds every hand the package can print, with
its answers, and nothing else, earns the worked examples' share and no more, once each
submission's hands are dealt for a seed of its own under the course's secret."""

import pytest

from bidder import distributionPoints, highCardPoints, openingBid, packed
from bidder.checker.bundle import Bundle
from bidder.checker.check import (FUNCTIONS, WORKED_EXAMPLES, Answer, Report, build_cases,
                                  judge, misreading_hands, random_hands, threshold_seed)
from bidder.exact import cards_of
from bidder.facts import STANDARD
from bidder.misreadings import apart_of, distinguishable
from bidder.checker.points import parts, total_points
from bidder.dealing import threshold_hands

REFERENCE = {"highCardPoints": highCardPoints, "distributionPoints": distributionPoints,
             "openingBid": openingBid}
GUESSED = (1, 2, 3, 2026)  # seeds a student may guess: the defaults and the year


def printable() -> set[str]:
    """Every hand the package prints for the seeds a student may guess: the worked
    examples, and each seed's threshold, misreading and random hands; and the hand the
    exact machinery writes out for each profile kept for a misreading."""
    hands = set(WORKED_EXAMPLES)
    for seed in GUESSED:
        hands |= {hand for _, hand in threshold_hands(threshold_seed(seed))}
        hands |= {hand for _, hand in misreading_hands(seed)}
        hands |= set(random_hands(1000, seed))
    for variant in distinguishable():
        scales = (STANDARD.scale, variant.counting.scale)
        hands |= {packed.text(packed.encode_cards(cards_of(profile, scales)))
                  for profile in apart_of(variant)}
    return {packed.text(packed.encode(hand)) for hand in hands}


def answer_of(value) -> Answer:
    if value is None:
        return Answer("none", None, "NoneType")
    return Answer("int" if type(value) is int else "str", value, type(value).__name__)


def score(answer, cases) -> float:
    """The points of a module answering *answer(function, hand)* on *cases*."""
    report = Report("table.py", cases, tuple(
        judge(function, number, answer_of(answer(function, case.hand)),
              case.expected[FUNCTIONS.index(function)])
        for function in FUNCTIONS for number, case in enumerate(cases)))
    points, possible = total_points(parts(report))
    return 100 * points / possible


def stub(function, hand):
    """What the table answers for a hand it does not hold: nothing to count, no bid."""
    return None if function == "openingBid" else 0


@pytest.fixture(scope="module")
def table():
    known = printable()
    return lambda function, hand: (REFERENCE[function](hand)
                                   if packed.text(packed.encode(hand)) in known
                                   else stub(function, hand))


@pytest.mark.parametrize("submission", ["4210001", "4210002", "4210003"])
def test_a_table_of_every_printable_hand_earns_only_the_worked_examples(table, submission):
    cases = build_cases(1000, Bundle(secret="a course's own secret").own_seed(submission))
    worked = sum(part.max_points for part in parts(Report("t.py", cases, ()))
                 if part.rule is None)
    assert 0 < worked < 100 / 6  # a share of each function's points, as a rule's
    assert score(table, cases) <= score(stub, cases) + worked + 0.01


def test_a_table_for_the_very_seed_it_is_checked_with_would_earn_everything(table):
    """What the course's secret guards against: the seed being known."""
    assert score(table, build_cases(1000, 2)) == pytest.approx(100)


def test_under_a_secret_the_seed_is_the_submissions_own_and_the_same_on_a_regrade():
    one, other = Bundle(secret="s1"), Bundle(secret="s2")
    assert one.own_seed("7") == one.own_seed("7") != one.own_seed("8")
    assert one.own_seed("7") != other.own_seed("7")
    assert 0 <= one.own_seed("7") < 1 << 48
    assert Bundle().own_seed("7") == 7
