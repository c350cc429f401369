"""Teaching rounds: every rule that decides bids once a round, in a shuffled order."""

from collections import Counter

import pytest

from bidder import RULES, explain
from bidder.dealing import deal
from bidder.teaching import TEACHING_RULES, shuffled, teaching_mix, teaching_rounds

DECIDING = ["R1", "R2", "R3", "R5", "R6", "R7", "R8", "R9"]


def test_the_teaching_rules_are_those_that_decide_some_hand():
    assert [rule.id for rule in TEACHING_RULES] == DECIDING  # R4: R3 always comes first


@pytest.mark.parametrize("count, fewest, most", [
    (1, 0, 1), (5, 0, 1), (8, 1, 1), (9, 1, 2), (12, 1, 2), (16, 2, 2), (20, 2, 3),
], ids=lambda value: str(value))
def test_each_rule_comes_up_as_evenly_as_the_count_allows(count, fewest, most):
    rules = teaching_rounds(count, seed=7)
    times = Counter(rule.id for rule in rules)
    assert len(rules) == count
    assert set(times) <= set(DECIDING)
    assert min(times.get(rule, 0) for rule in DECIDING) == fewest
    assert max(times.values()) == most


@pytest.mark.parametrize("seed", [0, 5, 999_999_990])
def test_each_round_of_eight_holds_every_deciding_rule_once(seed):
    rules = teaching_rounds(24, seed)
    for start in range(0, 24, 8):
        assert sorted(rule.id for rule in rules[start:start + 8]) == DECIDING


def test_the_order_depends_on_the_seed_and_the_round_but_not_the_machine():
    assert teaching_rounds(16, 3) == teaching_rounds(16, 3)
    assert len({teaching_rounds(8, seed) for seed in range(6)}) > 1
    assert teaching_rounds(16, 3)[:8] != teaching_rounds(16, 3)[8:]
    assert [rule.id for rule in shuffled(RULES[:3], "a key")] == [
        rule.id for rule in shuffled(RULES[:3], "a key")]


@pytest.mark.parametrize("count, seed", [(12, 5), (3, 40)])
def test_the_mix_deals_each_hand_for_its_rule_on_its_own_seed(count, seed):
    mix = teaching_mix(count, seed)
    assert [hand_seed for hand_seed, _, _ in mix] == list(range(seed, seed + count))
    for hand_seed, rule, hand in mix:
        assert explain(hand).rule == rule.id
        assert deal(hand_seed, rule=rule) == hand
