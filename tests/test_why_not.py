"""Why a chosen bid is not the hand's bid: the first reason, from the rule table."""

import pytest
from hypothesis import given

from bidder import RULES, explain
from bidder.bids import RULE_BIDS, Bid
from bidder.rules import ALL_SUITS, LongSuit, Rule, only_suit
from bidder.why_not import NO_RULE, why_not

from test_properties import hands

# (hand, the bid chosen, the sentence): for every rule whose bid can be chosen wrongly,
# each way it can miss: a condition, the suit, an earlier rule.
WHY_NOT = [
    pytest.param("A.T9.AKT3.KQT853", "1NT", "R1 needs a balanced hand; this hand is not "
                 "balanced: clubs has 6 cards; every suit needs 2 to 4 (or 5-3-3-2 with a "
                 "5-card minor).", id="R1-not-balanced"),
    pytest.param("Q874.AT2.AQ8.K92", "1NT", "R1 needs 16-18 HCP; this hand has 15.",
                 id="R1-too-few-hcp"),
    pytest.param("J2.76532.AQJ96.Q", "1H", "R2 needs 13-21 points; this hand has 12.",
                 id="R2-too-few-points"),
    pytest.param("AK64.2.KQT94.AQ8", "1S", "R2 needs 5+ cards in the suit it bids; this "
                 "hand has 4 spades.", id="R2-short-suit"),
    pytest.param("AKJT963.2.AT86.A", "1H", "R2 needs 5+ cards in the suit it bids; this "
                 "hand has 1 heart.", id="R2-singleton"),
    pytest.param("Q92..J432.AKQT54", "1H", "R2 needs 5+ cards in the suit it bids; this "
                 "hand has no hearts.", id="R2-void"),
    pytest.param("AT752.AQ865.9.A9", "1H", "R2 bids the longer major; with equal length, "
                 "spades: this hand has 5 spades and 5 hearts.", id="R2-the-other-major"),
    pytest.param("AKQ6.KJT4.AKT7.Q", "1C", "R3 needs 13-21 points; this hand has 22.",
                 id="R3-too-many-points"),
    pytest.param("AK64.2.KQT94.AQ8", "1C", "R3 bids the longer minor; with equal length, "
                 "clubs: this hand has 5 diamonds and 3 clubs.", id="R3-the-other-minor"),
    pytest.param("AJ4.KQ64.AJ62.Q2", "1D", "R3 also applies, but R1 comes first: the first "
                 "rule that applies gives the bid.", id="R3-after-R1"),
    pytest.param("KQ863.K5.K6.Q964", "1C", "R3 also applies, but R2 comes first: the first "
                 "rule that applies gives the bid.", id="R3-after-R2"),
    pytest.param("AJ4.KQ64.AJ62.Q2", "2NT", "R5 needs 21-23 HCP; this hand has 17.",
                 id="R5-too-few-hcp"),
    pytest.param("2.AK7.KQ95.AKQJT", "2NT", "R5 needs a balanced hand; this hand is not "
                 "balanced: spades has 1 card; every suit needs 2 to 4 (or 5-3-3-2 with a "
                 "5-card minor).", id="R5-not-balanced"),
    pytest.param("AQ9.AQ75.Q4.AK32", "2NT", "R5 also applies, but R3 comes first: the first "
                 "rule that applies gives the bid.", id="R5-after-R3"),
    pytest.param("KQ863.K5.K6.Q964", "2S", "R6 needs 22+ points; this hand has 14.",
                 id="R6-too-few-points"),
    pytest.param("2.AK7.KQ95.AKQJT", "2H", "R6 needs 5+ cards in the suit it bids; this "
                 "hand has 3 hearts.", id="R6-short-suit"),
    pytest.param("AKQT3.AK954..AT8", "2H", "R6 bids the long suit; of two, the major over a "
                 "minor, then more HCP in the suit, then the longer, then the lower-ranking: "
                 "this hand has 5 spades (9 HCP) and 5 hearts (7 HCP).",
                 id="R6-the-suit-with-more-hcp"),
    pytest.param("AKT52.A9.AKQ74.5", "2D", "R6 bids the long suit; of two, the major over a "
                 "minor, then more HCP in the suit, then the longer, then the lower-ranking: "
                 "this hand has 5 spades and 5 diamonds.", id="R6-the-major"),
    pytest.param("65.9.AQJ.KQT8532", "3C", "R7 needs 5-9 HCP; this hand has 12.",
                 id="R7-too-many-hcp"),
    pytest.param("J985.J.75.KJ9876", "3C", "R7 needs exactly 7 cards in the suit it bids; "
                 "this hand has 6 clubs.", id="R7-six-cards"),
    pytest.param(".QT754.8.AQJ9753", "3C", "R7 also applies, but R2 comes first: the first "
                 "rule that applies gives the bid.", id="R7-after-R2"),
    pytest.param("AKQJT962.9.73.JT", "4S", "R8 needs 6-10 HCP; this hand has 11.",
                 id="R8-too-many-hcp"),
    pytest.param("AQ97653.82.85.T7", "4S", "R8 needs exactly 8 cards in the suit it bids; "
                 "this hand has 7 spades.", id="R8-seven-cards"),
    pytest.param("62.AK.AKT4.JT872", "None", "R9 gives no bid only when no rule above it "
                 "applies; R3 applies to this hand.", id="R9-a-rule-applies"),
]


@pytest.mark.parametrize("hand, chosen, sentence", WHY_NOT)
def test_a_wrong_bid_gets_the_first_reason_with_this_hands_numbers(hand, chosen, sentence):
    advice = explain(hand)
    assert Bid.from_value(advice.bid) != Bid.parse(chosen)
    assert why_not(advice, Bid.parse(chosen)) == sentence


def test_every_rule_that_decides_bids_has_a_case():
    chosen_rules = {sentence.split()[0] for _, _, sentence in (case.values for case in WHY_NOT)}
    assert chosen_rules == {rule.id for rule in RULES} - {"R4"}  # R3 takes R4's bids first


def test_the_right_bid_has_no_reason():
    advice = explain("AJ4.KQ64.AJ62.Q2")
    assert why_not(advice, Bid.parse("1NT")) is None


def test_a_bid_no_rule_makes_says_so():
    assert why_not(explain("AJ4.KQ64.AJ62.Q2"), Bid(3, "NT")) == NO_RULE
    assert NO_RULE == "no rule in the list makes that bid."


# Another rule table: a condition on a suit for a bid that names none, and a range of
# lengths, are said from the condition itself.
LONG_NT = Rule("X1", "1NT with a long suit", 1, (LongSuit(ALL_SUITS, 6),), "1NT: a long suit.")
FIVE_OR_SIX = Rule("X2", "3 of a five- or six-card suit", 3, (LongSuit(ALL_SUITS, 5, 6),),
                   "3 of a suit: five or six cards.", suits=ALL_SUITS, choose=only_suit)
OTHER_TABLE = (LONG_NT, FIVE_OR_SIX, RULES[-1])


@pytest.mark.parametrize("hand, chosen, sentence", [
    ("AJ4.KQ64.AJ62.Q2", "1NT", "X1 needs 6+ cards in some suit; hearts has 4 cards."),
    ("AJ4.KQ64.AJ62.Q2", "3S", "X2 needs 5-6 cards in the suit it bids; this hand has "
                               "3 spades."),
], ids=["a-suit-condition-for-no-trump", "a-range-of-lengths"])
def test_another_table_is_explained_from_its_own_conditions(hand, chosen, sentence):
    advice = explain(hand, rules=OTHER_TABLE)
    assert why_not(advice, Bid.parse(chosen)) == sentence


@pytest.mark.slow
@given(hands)
def test_every_wrong_bid_names_the_rule_that_makes_it(hand):
    advice = explain(hand)
    right = Bid.from_value(advice.bid)
    for bid in RULE_BIDS:
        reason = why_not(advice, bid)
        if bid == right:
            assert reason is None
            continue
        maker = next(rule for rule in RULES if bid.text in rule.bids)
        assert reason.startswith(f"{maker.id} ") and reason.endswith(".")
        if "comes first" in reason:  # only an earlier rule keeps the maker from bidding it
            assert maker.applies(advice.facts.tally) and f"{advice.rule} comes" in reason
