"""The decision list: every rule, both sides of every threshold, every ruling.

Hands are written in dot notation, spades.hearts.diamonds.clubs, T for ten.
"""

import dataclasses

import pytest

from bidder import RULE_BY_ID, RULES, explain, openingBid, packed, parse_hand
from bidder.cards import Suit
from bidder.facts import SHAPES, STANDARD, Tally
from bidder.rules import (Balanced, Between, LongSuit, longer_minor_for_strong_balanced,
                          plural, shapes_by_balance, two_level_suit)

# (hand, HCP, distribution points, bid, rule, what it shows)
BOUNDARIES = [
    # R1 1NT: balanced, 16-18 HCP
    ("AKQ2.K32.K32.432", 15, 0, "1C", "R3", "R1: 15 HCP is one short"),
    ("AKQ2.K32.A32.432", 16, 0, "1NT", "R1", "R1: 16 HCP balanced"),
    ("AKQ2.K32.A32.Q32", 18, 0, "1NT", "R1", "R1: 18 HCP balanced"),
    ("AKQ2.K32.A32.K32", 19, 0, "1C", "R3", "R1: 19 HCP is one too many"),
    ("A2.K32.K32.AQ432", 16, 1, "1NT", "R1", "R1: 5-3-3-2 with a five-card minor"),
    ("AQ432.K32.K32.A2", 16, 1, "1S", "R2", "R1: 5-3-3-2 with a five-card major is not"),
    ("AKQ2.K432.A432.2", 16, 0, "1D", "R3", "R1: 4-4-4-1 is not balanced"),
    ("AKQ2.K32.A432.32", 16, 0, "1NT", "R1", "R1: 4-3-4-2 is balanced"),
    ("AKQ2.K.A432.5432", 16, 0, "1C", "R3", "R1: a singleton is not balanced"),
    # R2 1H/1S: 13-21 points and a five-card major
    ("AKJ32.K32.32.432", 11, 1, None, "R9", "R2: 12 points is one short"),
    ("AKQ32.K32.32.432", 12, 1, "1S", "R2", "R2: 13 points counting length"),
    ("AKQ2.K32.J32.432", 13, 0, "1C", "R3", "R2: four spades is not enough"),
    ("A2.AKQ32.AK2.432", 20, 1, "1H", "R2", "R2: 21 points"),
    ("K2.AKQ32.AK2.Q32", 21, 1, "2H", "R6", "R2: 22 points is too many"),
    ("AK432.K5432.2.32", 10, 2, None, "R9", "R2: 12 points with two majors"),
    ("AK432.AQ432.2.32", 13, 2, "1S", "R2", "R2: five-five majors bid spades"),
    ("AK432.AQ5432.2.2", 13, 3, "1H", "R2", "R2: the longer major, hearts"),
    ("AK5432.AQ432.2.2", 13, 3, "1S", "R2", "R2: the longer major, spades"),
    ("AK5432.AQ5432.2.", 13, 4, "1S", "R2", "ruling 5: six-six majors bid spades"),
    # R3 1C/1D: 13-21 points
    ("AKQ2.K32.432.432", 12, 0, None, "R9", "R3: 12 points is one short"),
    ("AKQ2.K32.J32.432", 13, 0, "1C", "R3", "R3: 13 points, 3-3 minors bid clubs"),
    ("AKQ2.K32.J432.32", 13, 0, "1D", "R3", "R3: the longer minor, diamonds"),
    ("AKQ.K32.J432.432", 13, 0, "1D", "R3", "R3: 4-3 minors bid diamonds"),
    ("AK2.K32.J432.Q32", 13, 0, "1D", "R3", "R3: four diamonds, three clubs"),
    ("AKQ.K3.J432.5432", 13, 0, "1C", "R3", "R3: 4-4 minors bid clubs"),
    ("AKQ.K32.2.J65432", 13, 2, "1C", "R3", "R3: six clubs"),
    ("AK32.AKQ2.AK32.2", 23, 0, None, "R9", "R3: 23 points, no five-card suit"),
    ("AQ.AKQ2.AK32.432", 22, 0, "2NT", "R5", "R5 takes 22 HCP balanced"),
    # R4 is shadowed by R3 (ruling 4)
    ("AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C", 19, 0, "1C", "R3", "ruling 4: R4 would bid 1D"),
    ("AKQ2.K32.A32.K32", 19, 0, "1C", "R3", "ruling 4: R4 would bid 1C too"),
    ("AKQ2.K32.A32.KJ2", 20, 0, "1C", "R3", "ruling 4: 20 HCP balanced"),
    # R5 2NT: balanced, 21-23 HCP
    ("AS KS 4S AH QH 5H KD QD 6D KC 9C 8C 7C", 21, 0, "1C", "R3", "ruling 4: R5 shadowed"),
    ("AS KS 4S AH QH KD 7D 6D KC QC 9C 8C 7C", 21, 1, "2NT", "R5", "R5: 21 HCP + a five-card minor"),
    ("AKQ2.AK32.KQ2.J2", 22, 0, "2NT", "R5", "R5: 22 HCP"),
    ("AKQ2.AK32.KQJ.J2", 23, 0, "2NT", "R5", "R5: 23 HCP"),
    ("AKQ2.AK32.KQJ.Q2", 24, 0, None, "R9", "R5: 24 HCP is one too many"),
    ("AKQ2.AKJ.KQ2.K32", 25, 0, None, "R9", "ruling 6: strong balanced opens nothing"),
    ("AK2.KQ2.K2.AKJ32", 23, 1, "2NT", "R5", "R5: 23 HCP, a five-card minor"),
    ("AK2.KQ2.A2.AKJ32", 24, 1, "2C", "R6", "R5: 24 HCP goes to R6"),
    # R6 2 of a suit: 22+ points and a five-card suit
    ("AKQJ2.AK2.AK2.32", 24, 1, "2S", "R6", "R6: one long suit"),
    ("AKQ32.2.AKQ32.K2", 21, 2, "2S", "R6", "R6 (a): the major beats the minor"),
    ("A2.K.AKQ32.KQ432", 21, 2, "2D", "R6", "R6 (b): more HCP in diamonds"),
    ("Q5432.AKQJ2.A2.A", 20, 2, "2H", "R6", "R6 (b): more HCP in hearts"),
    ("AK5432.AK432.A.A", 22, 3, "2S", "R6", "R6 (c): equal HCP, spades longer"),
    ("AK432.AK5432.A.A", 22, 3, "2H", "R6", "R6 (c): equal HCP, hearts longer"),
    ("AS KS 5S 4S 3S AH KH 6H 5H 2H AD QD KC", 23, 2, "2H", "R6", "R6 (d): the lower suit"),
    ("A2.A.AKQ32.AKQ32", 26, 2, "2C", "R6", "R6 (d): equal minors, the lower"),
    ("AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C", 22, 0, None, "R9", "ruling 6: 4-4-4-1"),
    ("QS JS 7S 6S 5S KH 9H 8H 4H 3H 2D 3C 2C", 6, 2, None, "R9", "ruling 1: weak two-suiter"),
    # R7 3 of a suit: 5-9 HCP and exactly seven cards
    ("32.KJ65432.32.32", 4, 3, None, "R9", "R7: 4 HCP is one short"),
    ("32.KQ65432.32.32", 5, 3, "3H", "R7", "R7: 5 HCP"),
    ("A2.KQ65432.32.32", 9, 3, "3H", "R7", "R7: 9 HCP"),
    ("A2.KQJ5432.32.32", 10, 3, "1H", "R2", "R7: 10 HCP is one too many"),
    ("32.32.A2.KQJ5432", 10, 3, "1C", "R3", "R7: 10 HCP, seven clubs"),
    ("A32.KQ5432.32.32", 9, 2, None, "R9", "ruling 3: six cards are not seven"),
    ("KQJ6543.32.32.32", 6, 3, "3S", "R7", "R7: seven spades"),
    ("32.32.KQJ6543.32", 6, 3, "3D", "R7", "R7: seven diamonds"),
    # R8 4 of a suit: 6-10 HCP and exactly eight cards
    ("KQ765432.32.32.2", 5, 4, None, "R9", "R8: 5 HCP is one short"),
    ("KQJ65432.32.32.2", 6, 4, "4S", "R8", "R8: 6 HCP"),
    ("KS QS JS 9S 8S 7S 6S 5S QH 2H 3D 2D 4C", 8, 4, "4S", "R8", "R8: 8 HCP"),
    ("KQJ65432.Q2.32.2", 8, 4, "4S", "R8", "R8: 12 points"),
    ("KQJ65432.K2.32.2", 9, 4, "1S", "R2", "ruling 2: 13 points go to R2"),
    ("32.32.KQJ65432.A", 10, 4, "1D", "R3", "ruling 2: 10 HCP go to R3"),
    ("2.32.32.KQJ65432", 6, 4, "4C", "R8", "R8: eight clubs"),
    ("KS QS JS 8S 7S 6S 5S 4S 3S 2H 2D 2C 3C", 6, 5, None, "R9", "ruling 3: nine cards"),
]


@pytest.mark.parametrize("hand, hcp, distribution, bid, rule, shows", BOUNDARIES,
                         ids=[row[-1] for row in BOUNDARIES])
def test_boundary_hands(hand, hcp, distribution, bid, rule, shows):
    advice = explain(hand)
    assert (advice.facts.tally.hcp, advice.facts.tally.distribution) == (hcp, distribution)
    assert (advice.bid, advice.rule) == (bid, rule)
    assert openingBid(str(parse_hand(hand))) == bid


WORKED_EXAMPLES = [
    ("5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C", 12, 1, "1-4-3-5", False, "1C", "R3"),
    ("AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C", 19, 0, "2-3-4-4", True, "1C", "R3"),
    ("AS KS 4S AH QH 5H KD QD 6D KC 9C 8C 7C", 21, 0, "3-3-3-4", True, "1C", "R3"),
    ("AS KS 4S AH QH KD 7D 6D KC QC 9C 8C 7C", 21, 1, "3-2-3-5", True, "2NT", "R5"),
    ("AC KC 7C 6C 5C KS QS 4S AD 8D 7D 3H 2H", 16, 1, "3-2-3-5", True, "1NT", "R1"),
    ("AH KH 7H 6H 5H KS QS 4S AD 8D 7D 3C 2C", 16, 1, "3-5-3-2", False, "1H", "R2"),
    ("AS KS 7S 6S 5S KH QH 7H 6H 5H 2D 3D 2C", 12, 2, "5-5-2-1", False, "1S", "R2"),
    ("AS KS 5S 4S 3S AH KH 6H 5H 2H AD QD KC", 23, 2, "5-5-2-1", False, "2H", "R6"),
    ("AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C", 22, 0, "4-4-4-1", False, None, "R9"),
    ("QS JS 7S 6S 5S KH 9H 8H 4H 3H 2D 3C 2C", 6, 2, "5-5-1-2", False, None, "R9"),
    ("KS QS JS 9S 8S 7S 6S 5S QH 2H 3D 2D 4C", 8, 4, "8-2-2-1", False, "4S", "R8"),
    ("KS QS JS 8S 7S 6S 5S 4S 3S 2H 2D 2C 3C", 6, 5, "9-1-1-2", False, None, "R9"),
]


@pytest.mark.parametrize("hand, hcp, distribution, shape, balanced, bid, rule",
                         WORKED_EXAMPLES)
def test_the_specs_worked_examples(hand, hcp, distribution, shape, balanced, bid, rule):
    advice = explain(hand)
    facts = advice.facts
    assert (facts.tally.hcp, facts.tally.distribution, facts.tally.shape, facts.tally.balanced) == (
        hcp, distribution, shape, balanced)
    assert (advice.bid, advice.rule, openingBid(hand)) == (bid, rule, bid)


def test_every_reachable_rule_and_every_bid_is_in_the_boundary_table():
    rules = {row[4] for row in BOUNDARIES}
    bids = {row[3] for row in BOUNDARIES}
    assert rules == {rule.id for rule in RULES} - {"R4"}
    assert {"1NT", "1C", "1D", "1H", "1S", "2NT", "2C", "2D", "2H", "2S",
            "3S", "3H", "3D", "4S", "4C", None} <= bids


def test_the_rule_ids_are_r1_to_r9_in_order():
    assert [rule.id for rule in RULES] == [f"R{number}" for number in range(1, 10)]
    assert RULE_BY_ID["R5"] is RULES[4]


@pytest.mark.parametrize("rule_id, thresholds, bids", [
    ("R1", "a balanced hand and 16-18 HCP", ("1NT",)),
    ("R2", "13-21 points and 5+ cards in hearts or spades", ("1H", "1S")),
    ("R3", "13-21 points", ("1C", "1D")),
    ("R4", "a balanced hand and 19-20 HCP", ("1C", "1D")),
    ("R5", "a balanced hand and 21-23 HCP", ("2NT",)),
    ("R6", "22+ points and 5+ cards in some suit", ("2C", "2D", "2H", "2S")),
    ("R7", "5-9 HCP and exactly 7 cards in some suit", ("3C", "3D", "3H", "3S")),
    ("R8", "6-10 HCP and exactly 8 cards in some suit", ("4C", "4D", "4H", "4S")),
    ("R9", "", (None,)),
])
def test_the_table_states_each_rule(rule_id, thresholds, bids):
    rule = RULE_BY_ID[rule_id]
    assert (rule.thresholds, rule.bids) == (thresholds, bids)
    assert rule.sentence


def test_the_r8_ruling_quotes_the_printed_range_and_the_table():
    ruling = RULE_BY_ID["R8"].ruling_text
    assert "'6-108'" in ruling and "6-10 HCP" in ruling


def test_another_rule_table_is_a_value_passed_in():
    hand = "AKQ2.K32.K32.432"  # balanced, 15 HCP
    assert "needs 16-18 HCP, has 15" in explain(hand).trace[0].reasons
    one_nt = dataclasses.replace(RULES[0], conditions=(Balanced(), Between("hcp", 15, 17)))
    rules = (one_nt,) + RULES[1:]
    advice = explain(hand, rules)
    assert (advice.bid, advice.rule, advice.fired) == ("1NT", "R1", one_nt)
    assert advice.trace[0].reasons == ("balanced: every suit has 2 to 4 cards",
                                       "15-17 HCP: has 15")
    assert one_nt.thresholds == "a balanced hand and 15-17 HCP"
    assert explain(hand).rule == "R3"  # the assignment's table is untouched
    code = packed.encode_cards(parse_hand(hand))
    assert packed.decide(code, rules) == (one_nt, "1NT")
    assert packed.decide(code) == (RULE_BY_ID["R3"], "1C")


TALLY = Tally((3, 4, 1, 5), 12)  # clubs, diamonds, hearts, spades


@pytest.mark.parametrize("condition, text, holds, failure, success", [
    (Between("hcp", 16, 18), "16-18 HCP", False, "needs 16-18 HCP, has 12", "16-18 HCP: has 12"),
    (Between("hcp", 10, 12), "10-12 HCP", True, "needs 10-12 HCP, has 12", "10-12 HCP: has 12"),
    (Between("points", 22), "22+ points", False, "needs 22+ points, has 13",
     "22+ points: has 13"),
    (LongSuit((Suit.HEARTS, Suit.SPADES), 5), "5+ cards in hearts or spades", True,
     "needs 5+ cards in hearts or spades; spades has 5 cards",
     "5+ cards in hearts or spades: spades has 5 cards"),
    (LongSuit(tuple(Suit), 7, 7), "exactly 7 cards in some suit", False,
     "needs exactly 7 cards in some suit; spades has 5 cards",
     "exactly 7 cards in some suit: spades has 5 cards"),
    (LongSuit((Suit.CLUBS,), 2, 3), "2-3 cards in clubs", True,
     "needs 2-3 cards in clubs; clubs has 3 cards", "2-3 cards in clubs: clubs has 3 cards"),
    (Balanced(), "a balanced hand", False,
     "needs a balanced hand; not balanced: spades has 5 cards; every suit needs 2 to 4 "
     "(or 5-3-3-2 with a 5-card minor)",
     "not balanced: spades has 5 cards; every suit needs 2 to 4 (or 5-3-3-2 with a 5-card "
     "minor)"),
])
def test_conditions_state_themselves_with_the_hands_numbers(condition, text, holds,
                                                            failure, success):
    assert (condition.text, condition.holds(TALLY)) == (text, holds)
    assert condition.failure(TALLY) == failure
    assert condition.success(TALLY) == success


@pytest.mark.parametrize("condition, gap, shortfall", [
    (Between("hcp", 13, 21), 1, "1 HCP short of"),
    (Between("hcp", 5, 9), 3, "3 HCP too many for"),
    (Between("points", 15), 2, "2 points short of"),
    (Between("points", 10, 14), 0, "0 points too many for"),
    (LongSuit(tuple(Suit), 7, 7), 2, "2 cards in spades short of"),
    (LongSuit((Suit.SPADES,), 3, 4), 1, "1 card in spades too many for"),
    (Balanced(), 1, "only the shape keeps it from"),
])
def test_conditions_measure_how_far_the_hand_is(condition, gap, shortfall):
    assert condition.gap(TALLY) == gap
    assert condition.shortfall(TALLY) == shortfall


def test_balanced_condition_has_no_gap_on_a_balanced_hand():
    assert Balanced().gap(Tally((3, 3, 3, 4), 10)) == 0


@pytest.mark.parametrize("count, unit, text", [
    (1, "HCP", "1 HCP"), (2, "HCP", "2 HCP"), (1, "points", "1 point"),
    (3, "points", "3 points"), (1, "cards", "1 card"), (0, "cards", "0 cards"),
])
def test_plural(count, unit, text):
    assert plural(count, unit) == text


@pytest.mark.parametrize("lengths, bid", [
    ((3, 3, 4, 3), Suit.CLUBS), ((4, 4, 3, 2), Suit.DIAMONDS), ((4, 3, 3, 3), Suit.CLUBS),
    ((3, 4, 3, 3), Suit.DIAMONDS), ((5, 5, 2, 1), Suit.DIAMONDS),
])
def test_r4_picks_the_longer_minor_and_diamonds_with_four_four(lengths, bid):
    tally = Tally(lengths, 19)
    assert longer_minor_for_strong_balanced([Suit.CLUBS, Suit.DIAMONDS],
                                            Held(tally, {})) == bid


@dataclasses.dataclass(frozen=True)
class Held:
    """A tally and the HCP within some suits, as a rule's bid reads a hand."""

    tally: Tally
    hcp_in: dict

    def suit_hcp(self, suit):
        return self.hcp_in[suit]


@pytest.mark.parametrize("suits, hcp_in, lengths, chosen", [
    ([Suit.HEARTS], {}, (0, 1, 7, 5), Suit.HEARTS),
    ([Suit.DIAMONDS, Suit.SPADES], {}, (1, 5, 2, 5), Suit.SPADES),
    ([Suit.HEARTS, Suit.SPADES], {Suit.HEARTS: 3, Suit.SPADES: 9}, (0, 1, 6, 6), Suit.SPADES),
    ([Suit.HEARTS, Suit.SPADES], {Suit.HEARTS: 9, Suit.SPADES: 3}, (0, 1, 6, 6), Suit.HEARTS),
    ([Suit.HEARTS, Suit.SPADES], {Suit.HEARTS: 5, Suit.SPADES: 5}, (0, 1, 7, 5), Suit.HEARTS),
    ([Suit.HEARTS, Suit.SPADES], {Suit.HEARTS: 5, Suit.SPADES: 5}, (0, 1, 6, 6), Suit.HEARTS),
], ids=["one-suit", "major-over-minor", "more-hcp-spades", "more-hcp-hearts", "longer",
        "lower-ranking"])
def test_r6_reads_the_suit_hcp_only_for_two_suits_of_a_kind(suits, hcp_in, lengths, chosen):
    assert two_level_suit(suits, Held(Tally(lengths, 22), hcp_in)) == chosen


@pytest.mark.parametrize("rule_id", [rule.id for rule in RULES])
def test_a_rule_of_the_table_is_read_back_from_a_pickle_as_the_tables_own(rule_id):
    import pickle
    rule = RULE_BY_ID[rule_id]
    assert pickle.loads(pickle.dumps(rule)) is rule
    changed = dataclasses.replace(rule, name="read otherwise", choose=None)
    copied = pickle.loads(pickle.dumps(changed))
    assert copied is not rule and copied.name == "read otherwise" and copied.id == rule.id


def every_condition() -> list:
    """Each condition of the table and of every misreading's table, once."""
    from bidder.misreadings import space
    found = {}
    for rules in [RULES] + [variant.rules for variant in space()]:
        for rule in rules:
            for condition in rule.conditions:
                found.setdefault(repr(condition), condition)
    return list(found.values())


CONDITIONS = every_condition()


@pytest.mark.parametrize("condition", CONDITIONS, ids=[repr(c) for c in CONDITIONS])
def test_a_condition_holds_exactly_where_it_has_no_gap(condition):
    """holds() is written for speed apart from gap(): the two agree on every shape, at every
    HCP next to the condition's thresholds (points read as HCP plus distribution)."""
    from bidder.facts import SHAPES
    values = sorted({value + step for value in condition.edges() if isinstance(value, int)
                     for step in (-1, 0, 1)} | {0, 37}) if isinstance(condition, Between) else [12]
    for lengths in SHAPES:
        for hcp in values:
            tally = Tally(lengths, max(0, min(hcp, 37)))
            assert condition.holds(tally) is (condition.gap(tally) == 0), (lengths, hcp)


@pytest.mark.parametrize("condition", [c for c in CONDITIONS if isinstance(c, LongSuit)],
                         ids=[repr(c) for c in CONDITIONS if isinstance(c, LongSuit)])
def test_the_suits_matching_are_those_with_no_gap(condition):
    """matching() reads the lengths directly: the suits with no suit_gap(), or none where
    a suit alone falls short of what a suit alone needs, on every shape."""
    from bidder.facts import SHAPES
    for lengths in SHAPES:
        tally = Tally(lengths, 12)
        found = [suit for suit in condition.suits if not condition.suit_gap(tally, suit)]
        short = (condition.alone is not None and len(found) == 1
                 and tally.length(found[0]) < condition.alone)
        assert condition.matching(tally) == ([] if short else found), lengths


def test_the_shapes_fall_into_balanced_and_not_as_counted_afresh():
    found = shapes_by_balance.__wrapped__(STANDARD)  # the cache is filled while collecting
    assert found == shapes_by_balance(STANDARD)
    assert sorted(found[True] + found[False]) == sorted(SHAPES)
    assert {tuple(sorted(lengths)) for lengths in found[True]} == {
        (3, 3, 3, 4), (2, 3, 4, 4), (2, 3, 3, 5)}
