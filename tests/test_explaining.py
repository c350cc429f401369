"""The search for the misreading behind a student's answers, over plain (hand, answer) data."""

import pytest

from bidder import packed
from bidder.cards import InvalidHandError
from bidder.dealing import changed_hand, random_hand
from bidder.explaining import Given, bids_given, explain_answers, matches
from bidder.misreadings import variant_by_id

HANDS = [str(random_hand(seed)) for seed in range(60)]


def answered_by(variant, hands=HANDS):
    """The bids a student reading the rules as *variant* gives, marked right or not."""
    pairs = [(hand, variant.written(packed.decide(packed.encode(hand), variant.rules,
                                                  variant.counting)[1])) for hand in hands]
    right = [bid == packed.bid(packed.encode(hand)) for hand, bid in pairs]
    return bids_given(pairs, right)


@pytest.mark.parametrize("reading", ["r3-unbalanced-only", "R1.hcp=15-18", "swap=R2/R3"])
def test_bids_given_by_a_misreading_are_explained_by_it(reading):
    variant = variant_by_id(reading)
    hands = HANDS + [changed_hand(variant, seed) for seed in (1, 2, 3)]
    found = explain_answers(answered_by(variant, hands))
    assert found is not None
    assert reading in [found.variant.id] + [other.id for other in found.alternatives]


def test_right_answers_are_not_explained():
    assert explain_answers(answered_by(variant_by_id("r8-6-8"))) is None


def test_answers_no_reading_gives_are_not_explained():
    pairs = [(hand, "7NT") for hand in HANDS[:10]]
    assert explain_answers(bids_given(pairs, [False] * 10)) is None


@pytest.mark.parametrize("given, predicted, fits", [
    (Given("openingBid", 0, None, True), None, True),
    (Given("openingBid", 0, "None", False), None, False),
    (Given("openingBid", 0, "1C", True), "1C", True),
    (Given("openingBid", 0, None, False, readable=False), None, False),
    (Given("highCardPoints", 0, 12, True), 12, True),
    (Given("highCardPoints", 0, "12", False), 12, False),
])
def test_an_answer_matches_only_exactly(given, predicted, fits):
    assert matches(given, predicted) is fits


def test_pairs_and_marks_must_be_as_many():
    with pytest.raises(ValueError):
        bids_given([(HANDS[0], None)], [])


def test_hands_are_read_in_any_notation_and_an_unreadable_one_says_why():
    dotted, = bids_given([("AKQ2.K32.K32.432", "1NT")], [True])
    assert dotted.code == packed.encode("AS KS QS 2S KH 3H 2H KD 3D 2D 4C 3C 2C")
    with pytest.raises(InvalidHandError, match="appears twice"):
        bids_given([("AS AS", None)], [False])


# Telling tied misreadings apart ---------------------------------------------------------

from bidder.explaining import FUNCTIONS, Found, differing, retold, telling_apart  # noqa: E402


def bids_of(variants, code):
    return [variant.written(packed.decide(code, variant.rules, variant.counting)[1])
            for variant in variants]


@pytest.mark.parametrize("ids, functions", [
    (["swap=R2/R3", "omit=R2"], ("openingBid",)),
    (["hcp.J=0", "omit=R2"], ("highCardPoints", "openingBid")),
    (["dist=short", "R1.hcp=15-18"], ("distributionPoints", "openingBid")),
    (["dist=short", "hcp.A=3"], FUNCTIONS),
])
def test_only_the_functions_tied_misreadings_may_answer_differently_are_compared(ids, functions):
    assert differing([variant_by_id(text) for text in ids]) == functions


def test_hands_dealt_that_tell_misreadings_apart_are_kept_first():
    # the jack read as nothing and the ace read as a king count most hands differently
    variants = [variant_by_id("hcp.J=0"), variant_by_id("hcp.A=3")]
    codes = [packed.encode(hand) for hand in HANDS]
    apart = telling_apart(variants, codes)
    assert len(apart.codes) == 2 and not apart.alike  # two hands tell the two apart
    for code in apart.codes:
        assert code in codes
        one, other = (packed.tally(code, variant.counting).hcp for variant in variants)
        assert one != other
    assert telling_apart(variants, codes, most=1).codes == apart.codes[:1]


@pytest.mark.slow
@pytest.mark.no_cover  # a sweep over the whole space of misreadings, untraced
def test_hands_are_made_where_none_dealt_tells_misreadings_apart_and_alike_ones_are_named():
    variants = [variant_by_id(text) for text in
                ("swap=R4/R6", "R5.hcp=22-23", "swap=R5/R6", "swap=R5/R8")]
    apart = telling_apart(variants, [])
    assert apart.codes  # R5.hcp=22-23 is told from the swaps on hands made for it
    for code in apart.codes:
        assert len(set(bids_of(variants, code))) > 1
    # the swaps bid alike everywhere: of three alike, two pairs say so (one stands for all)
    assert [(one.id, other.id) for one, other in apart.alike] == [
        ("swap=R4/R6", "swap=R5/R6"), ("swap=R4/R6", "swap=R5/R8")]


def test_tied_misreadings_are_ranked_by_the_further_answers_each_predicts():
    reading = variant_by_id("R1.hcp=15-18")
    hands = HANDS + [changed_hand(reading, seed) for seed in (1, 2, 3)]
    other = variant_by_id("R1.hcp=15-17")
    found = explain_answers(answered_by(reading, hands))
    fit = found.fit
    tied = Found(type(fit)(other, fit.misses, fit.broken, fit.wrong), (reading,),
                 fits=(type(fit)(reading, fit.misses, fit.broken, fit.wrong),))
    hand = "AS KS 2S AH 3H 2H KD QD 2D QC 4C 3C 2C"  # 18 HCP, balanced: 15-17 bids 1C
    told = retold(tied, answered_by(reading, [hand]))
    assert told.variant is reading and told.ruled_out == (other,)
    assert [given.value for given in told.deciding] == ["1NT"]
    assert told.alternatives == () and told.alike == ()


@pytest.mark.slow
def test_misreadings_counting_otherwise_are_not_called_alike_for_bidding_alike():
    # the ten read as worth nothing is the assignment's scale written out: both bid alike
    # on every hand, but a scale of their own is not proved to count alike
    variants = [variant_by_id("R1.hcp=15-18"), variant_by_id("R1.hcp=15-18+hcp.T=0")]
    apart = telling_apart(variants, [])
    assert apart.codes == () and apart.alike == ()
