"""Rule variants: each misreading changes exactly what it says, and nothing else."""

import pytest

from bidder import RULES, explain, packed
from bidder.facts import STANDARD
from bidder.variants import CATALOGUE, VARIANT_BY_ID

# (variant, hand, the assignment's bid, the variant's bid)
CHANGES = [
    ("balanced-first", "AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C", "1C", "1D"),
    ("balanced-first", "AS KS 4S AH QH 5H KD QD 6D KC 9C 8C 7C", "1C", "2NT"),
    ("r3-unbalanced-only", "AKQ2.K32.K32.432", "1C", None),
    ("r3-unbalanced-only", "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C", "1C", "1C"),
    ("two-suiter-any-strength", "QS JS 7S 6S 5S KH 9H 8H 4H 3H 2D 3C 2C", None, "2H"),
    ("two-suiter-any-strength", "AS KS 5S 4S 3S AH KH 6H 5H 2H AD QD KC", "2H", "2H"),
    ("seven-or-more", "KS QS JS 9S 8S 7S 6S 5S QH 2H 3D 2D 4C", "4S", "3S"),
    ("eight-or-more", "KS QS JS 8S 7S 6S 5S 4S 3S 2H 2D 2C 3C", None, "4S"),
    ("r8-6-8", "KS QS JS 9S 8S 7S 6S 5S QH 2H 3D 2D 4C", "4S", "4S"),
    ("equal-minors-diamonds", "AKQ2.K32.Q32.432", "1C", "1D"),
    ("equal-majors-hearts", "AS KS 7S 6S 5S KH QH 7H 6H 5H 2D 3D 2C", "1S", "1H"),
    ("strong-by-hcp", "AKQJ432.AKQ2.2.2", "2S", None),
    ("shortness-points", "AKQ2.K432.5432.2", None, "1D"),
    ("five-card-major-balanced", "AH KH 7H 6H 5H KS QS 4S AD 8D 7D 3C 2C", "1H", "1NT"),
    ("no-2nt", "AS KS 4S AH QH KD 7D 6D KC QC 9C 8C 7C", "2NT", "2C"),
    ("1nt-15-17", "AKQ2.K32.K32.432", "1C", "1NT"),
    ("1nt-15-17", "AKQ2.K32.A32.Q32", "1NT", "1C"),
]


@pytest.mark.parametrize("variant_id, hand, assignments, variants", CHANGES,
                         ids=[f"{row[0]}-{number}" for number, row in enumerate(CHANGES)])
def test_a_variant_changes_the_bids_it_says(variant_id, hand, assignments, variants):
    variant = VARIANT_BY_ID[variant_id]
    assert explain(hand).bid == assignments
    assert explain(hand, variant.rules, variant.counting).bid == variants
    code = packed.encode_cards(explain(hand).facts.hand)
    assert packed.decide(code, variant.rules, variant.counting)[1] == variants


@pytest.mark.parametrize("variant_id, written", [
    ("none-as-string", ("None", "1C")), ("pass-as-string", ("Pass", "1C")),
    ("lower-case-bids", (None, "1c")), ("no-trump-as-n", (None, "1C")),
])
def test_output_misreadings_change_only_how_a_bid_is_written(variant_id, written):
    variant = VARIANT_BY_ID[variant_id]
    assert variant.changes_output
    assert variant.rules is RULES and variant.counting is STANDARD
    assert (variant.written(None), variant.written("1C")) == written
    assert VARIANT_BY_ID["no-trump-as-n"].written("2NT") == "2N"


def test_counting_variants_count_another_way():
    shortness = VARIANT_BY_ID["shortness-points"].counting
    advice = explain("AKQ2.K432.5432.2", counting=shortness)  # a singleton club
    assert advice.facts.distribution_explanation == (
        "2 distribution points: clubs 1 card: 2 (void 3, singleton 2, doubleton 1)")
    flat = explain("AKQ2.K32.K32.432", counting=shortness)
    assert flat.facts.distribution_explanation == (
        "0 distribution points: no void, singleton or doubleton (void 3, singleton 2, "
        "doubleton 1)")
    major_five = explain("AH KH 7H 6H 5H KS QS 4S AD 8D 7D 3C 2C",
                         counting=VARIANT_BY_ID["five-card-major-balanced"].counting)
    assert major_five.facts.tally.balanced
    assert major_five.facts.tally.balanced_reason == (
        "balanced: 5-3-3-2 with the 5 cards in a major (hearts)")
    spread = explain("AKQ2.K432.A432.2",
                     counting=VARIANT_BY_ID["five-card-major-balanced"].counting)
    assert spread.facts.tally.balanced_reason.endswith("(or 5-3-3-2 with a 5-card suit)")


def test_variants_compose():
    both = VARIANT_BY_ID["r3-unbalanced-only"].and_then(VARIANT_BY_ID["none-as-string"])
    assert both.id == "r3-unbalanced-only+none-as-string"
    code = packed.encode_cards(explain("AKQ2.K32.K32.432").facts.hand)
    assert both.written(packed.decide(code, both.rules, both.counting)[1]) == "None"
    assert both.departs == ("R3 has no balance condition; no bid is the value None, not "
                            "the string 'None'")


def test_the_catalogue_has_unique_ids_and_says_each_in_a_sentence():
    assert len(VARIANT_BY_ID) == len(CATALOGUE)
    for variant in CATALOGUE:
        assert variant.sentence.endswith(".") and variant.departs
        assert variant.id == variant.id.lower() and " " not in variant.id


def test_the_weak_two_suiter_rule_says_what_it_needs():
    rule = next(rule for rule in VARIANT_BY_ID["two-suiter-any-strength"].rules
                if rule.id == "R6b")
    assert rule.thresholds == "5+ cards in two suits"


def test_an_unbalanced_condition_says_so():
    rule = next(rule for rule in VARIANT_BY_ID["r3-unbalanced-only"].rules if rule.id == "R3")
    assert rule.thresholds == "13-21 points and an unbalanced hand"


@pytest.mark.parametrize("first, then, written", [
    ("r3-unbalanced-only", "no-2nt", "bid"), ("r3-unbalanced-only", "none-as-string",
                                              "'None' if bid is None else bid"),
    ("lower-case-bids", "no-2nt", "bid.lower() if isinstance(bid, str) else bid"),
])
def test_a_composed_reading_writes_a_bid_as_its_parts_do(first, then, written):
    assert VARIANT_BY_ID[first].and_then(VARIANT_BY_ID[then]).writes == written


def test_two_ways_of_writing_compose_in_turn():
    both = VARIANT_BY_ID["no-trump-as-n"].and_then(VARIANT_BY_ID["lower-case-bids"])
    assert both.written("1NT") == "1n" and both.written(None) is None
