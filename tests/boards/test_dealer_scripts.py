"""Dealer scripts built from the rule table, checked against the engine on hands that
Debian's `dealer` program deals with them, and on a hand on each side of every threshold."""

import subprocess

import pytest

from bidder import RULES, explain, parse_hand
from bidder.advice import is_reachable
from bidder.cards import SUITS_HIGH_FIRST
from bidder.checker.check import WORKED_EXAMPLES
from bidder.dealing import DealError, threshold_hands
from bidder.boards.model import Seat
from bidder.facts import Tally
from bidder.boards.files import read_boards
from bidder.boards.dealer import (applies_lines, applies_name, balanced_shapes, decides,
                                  definitions, script)
from bidder.rules import RULE_BY_ID

from helpers import dealer_program
from needs import missing

REACHABLE = [rule for rule in RULES if is_reachable(rule)]
RUN_TIMEOUT = 120  # seconds; a run takes well under one


@pytest.fixture(scope="module")
def dealer():
    """The path of Debian's dealer program, or a skip (a failure in CI) saying why."""
    program = dealer_program()
    if program is None:
        missing("Debian's dealer is not installed (apt-get install dealer)",
                "checking the Dealer scripts against the rules")
    return program


def run_dealer(program: str, text: str, seed: int = 1) -> str:
    # -v turns the statistics after the hands off.
    result = subprocess.run([program, "-v", "-s", str(seed)], input=text,
                            capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


# The script, as text ----------------------------------------------------------------------

def test_the_balanced_shapes_are_the_countings():
    shapes = balanced_shapes()
    assert len(shapes) == 22 and "4333" in shapes and "3352" in shapes
    assert "5332" not in shapes and "4441" not in shapes
    for shape in shapes:
        lengths = dict(zip(SUITS_HIGH_FIRST, map(int, shape)))
        assert Tally(tuple(lengths[suit] for suit in sorted(lengths)), 0).balanced


def test_every_rule_with_conditions_is_named():
    lines = applies_lines(Seat.EAST)
    assert [line.split(" = ")[0] for line in lines] == [
        applies_name(rule) for rule in RULES if rule.conditions]
    assert lines[0] == "r1 = balanced and hcp(east) >= 16 and hcp(east) <= 18"
    assert lines[-1].endswith("(spades(east) == 8 or hearts(east) == 8 or diamonds(east) "
                              "== 8 or clubs(east) == 8)")
    assert definitions(Seat.EAST)[1] == "points = hcp(east) + length_points"


@pytest.mark.parametrize("rule_id, condition", [
    ("R1", "r1"), ("R3", "r3 and not r1 and not r2"),
    ("R9", " and ".join(f"not r{number}" for number in range(1, 9))),
], ids=["the first rule", "a later rule", "the catch-all"])
def test_a_rule_decides_when_no_rule_before_it_applies(rule_id, condition):
    assert decides(RULE_BY_ID[rule_id]) == condition


def test_no_script_for_a_rule_that_decides_nothing():
    with pytest.raises(DealError, match="no hand fires R4"):
        script(RULE_BY_ID["R4"])


# Hands dealt by the script, checked by the engine ----------------------------------------

@pytest.mark.parametrize("rule", REACHABLE, ids=[rule.id for rule in REACHABLE])
def test_every_hand_the_script_deals_is_decided_by_its_rule(dealer, rule):
    seat = Seat((RULES.index(rule)) % len(Seat))
    reading = read_boards(run_dealer(dealer, script(rule, seat, produce=40)))
    assert reading.problems == ()
    assert len(reading.boards) == 40
    for board in reading.boards:
        assert board.dealer == seat
        assert explain(board.hand(seat)).rule == rule.id, board.hand(seat)


def predealt(hand_text: str) -> str:
    """A Dealer script that deals *hand_text* to North and prints, for each rule,
    whether it decides that hand (1 or 0)."""
    hand = parse_hand(hand_text)
    holdings = ", ".join(suit.letter + "".join(
        "T" if card.rank.label == "10" else card.rank.label for card in hand.in_suit(suit))
        for suit in SUITS_HIGH_FIRST if hand.in_suit(suit))
    averages = ", ".join(f'average "{rule.id}" {decides(rule)}' for rule in RULES)
    return "\n".join(["generate 1", "produce 1", f"predeal north {holdings}",
                      *definitions(Seat.NORTH), *applies_lines(Seat.NORTH),
                      "condition 1", f"action {averages}"])


THRESHOLD_HANDS = threshold_hands(1) + tuple(
    (f"worked example {number}", hand) for number, hand in enumerate(WORKED_EXAMPLES, 1))


@pytest.mark.parametrize("label, hand", THRESHOLD_HANDS,
                         ids=[label for label, _ in THRESHOLD_HANDS])
def test_the_condition_and_the_rules_agree_on_each_side_of_every_threshold(dealer, label,
                                                                           hand):
    output = run_dealer(dealer, predealt(hand))
    decided = {line.split(":")[0]: float(line.split(":")[1])
               for line in output.splitlines() if line.startswith("R")}
    assert decided == {rule.id: float(rule.id == explain(hand).rule) for rule in RULES}
