"""explain(): the trace, the notes on overlaps, near misses and the JSON form."""

import json

import pytest
from hypothesis import given, strategies as st

from bidder import Advice, InvalidHandError, RULES, explain, parse_hand
from bidder.cards import DECK, Hand
from bidder.facts import Facts
from bidder.misreadings import variant_by_id
from bidder.variants import CATALOGUE
from bidder.advice import NEVER_DECIDES, decided_rule_ids, is_reachable, possible_tallies

EXAMPLE = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"
FOUR_FOUR_MINORS_19 = "AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C"


def statuses(advice: Advice) -> list[str]:
    return [step.status for step in advice.trace]


def test_the_trace_covers_every_rule_in_order():
    advice = explain(EXAMPLE)
    assert [step.rule for step in advice.trace] == [rule.id for rule in RULES]
    assert statuses(advice) == ["failed", "failed", "fired", "failed", "failed", "failed",
                                "failed", "failed", "not reached"]


def test_failed_rules_state_every_failing_condition_with_the_hands_numbers():
    trace = explain(EXAMPLE).trace
    assert trace[0].reasons == (
        "needs a balanced hand; not balanced: spades has 1 card; every suit needs 2 to 4 "
        "(or 5-3-3-2 with a 5-card minor)", "needs 16-18 HCP, has 12")
    assert trace[1].reasons == ("needs 5+ cards in hearts or spades; hearts has 4 cards",)
    assert trace[2].reasons == ("13-21 points: has 13",)
    assert trace[8].reasons == ("applies only when no rule above does; R3 did",)


def test_ruling_4_the_shadowed_rule_and_its_different_bid_are_noted():
    advice = explain(FOUR_FOUR_MINORS_19)
    assert statuses(advice)[3] == "shadowed"
    assert advice.trace[3].would_bid == "1D"
    assert advice.trace[3].reasons == ("also applies, but R3 comes first",)
    assert advice.notes == (
        "R4 also applies and would bid 1D; the assignment says the first rule that "
        "applies wins.",)


def test_ruling_4_r5_is_shadowed_by_r3_at_21_hcp():
    advice = explain("AS KS 4S AH QH 5H KD QD 6D KC 9C 8C 7C")
    assert (advice.bid, advice.rule) == ("1C", "R3")
    assert ("R5 also applies and would bid 2NT; the assignment says the first rule that "
            "applies wins.") in advice.notes


def test_r3_under_1nt_or_a_major_is_said_in_the_trace_only():
    for hand in ("AKQ2.K32.A32.432", "AH KH 7H 6H 5H KS QS 4S AD 8D 7D 3C 2C"):
        advice = explain(hand)
        assert advice.trace[2].status == "shadowed"
        assert advice.trace[2].would_bid in ("1C", "1D")
        assert advice.notes == () and advice.ruled_overlaps == ()


def test_ruling_2_the_printed_range_is_noted_when_r8_fires():
    notes = explain("KS QS JS 9S 8S 7S 6S 5S QH 2H 3D 2D 4C").notes
    assert notes[-1].startswith("R8: the assignment prints the range as '6-108'")


R2_RULING = "R2: 'two five-card suits' is read as 'equal length': 6-6 also bids 1S."
R4_NOTE = ("R4 also applies and would bid 1D; the assignment says the first rule that "
           "applies wins.")
R5_NOTE = ("R5 also applies and would bid 2NT; the assignment says the first rule that "
           "applies wins.")
R6_RULING = ("R6: the two-suit clause belongs to this rule: a weak two-suiter does not open "
             "at the 2 level.")
R7_RULING = ("R7: 'a 7-card suit' is read as exactly that many cards: 5-9 HCP and exactly 7 "
             "cards in some suit.")
R8_NOTE = ("R8 also applies and would bid 4D; the assignment says the first rule that "
           "applies wins.")
R8_RULING = ("R8: the assignment prints the range as '6-108'; it is read as 6-10 HCP and "
             "exactly 8 cards in some suit (any upper bound from 8 up gives the same bids, "
             "since stronger hands open at the 1 level).")
R9_RULING = "R9: a hand that no rule above fits opens nothing, however strong it is."


@pytest.mark.parametrize("hand, rule, notes, overlaps", [
    # R3 also applies to every 1NT and 1-of-a-major hand: the trace says so, no note
    ("AKQ2.K32.A32.432", "R1", (), ()),
    ("AH KH 7H 6H 5H KS QS 4S AD 8D 7D 3C 2C", "R2", (), ()),
    # ruling 5 is about two majors of equal length only
    ("AS KS 7S 6S 5S KH QH 7H 6H 5H 2D 3D 2C", "R2", (R2_RULING,), ()),
    ("AK5432.AQ5432.2.", "R2", (R2_RULING,), ()),
    ("AKJ32.Q65432.2.2", "R2", (), ()),
    # ruling 4: R4 and R5 under R3
    (FOUR_FOUR_MINORS_19, "R3", (R4_NOTE,), ("R4",)),
    ("AKQ2.K32.A32.K32", "R3", ("R4 also applies and would bid the same 1C.",), ("R4",)),
    ("AS KS 4S AH QH 5H KD QD 6D KC 9C 8C 7C", "R3", (R5_NOTE,), ("R5",)),
    # R6 under R5: a strong balanced hand with a five-card minor could open 2 of it
    ("AS KS 4S AH QH KD 7D 6D KC QC 9C 8C 7C", "R5",
     ("R6 also applies and would bid 2C; the assignment says the first rule that applies "
      "wins.",), ("R6",)),
    # ruling 1 is about hands with two long suits that open at the 2 level or not at all
    ("AKQJ2.AK2.AK2.32", "R6", (), ()),
    ("AS KS 5S 4S 3S AH KH 6H 5H 2H AD QD KC", "R6", (R6_RULING,), ()),
    ("QS JS 7S 6S 5S KH 9H 8H 4H 3H 2D 3C 2C", "R9", (R6_RULING,), ()),
    # ruling 3 is about a suit longer than 7 cards with R7's HCP
    ("KQ76543.32.32.32", "R7", (), ()),
    ("KS QS JS 9S 8S 7S 6S 5S QH 2H 3D 2D 4C", "R8", (R7_RULING, R8_RULING), ()),
    ("KS QS JS 8S 7S 6S 5S 4S 3S 2H 2D 2C 3C", "R9", (R7_RULING,), ()),
    ("AKQJ765432.2.2.2", "R2", (), ()),
    # ruling 2 is about R8, whether it decides or R2 or R3 comes first
    ("32.32.KQJ65432.A", "R3", (R8_NOTE, R8_RULING), ("R8",)),
    # ruling 6 is about strong hands that open nothing, not weak ones
    ("AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C", "R9", (R9_RULING,), ()),
    ("AKQJ.AKQ.AKQ.AKQ", "R9", (R9_RULING,), ()),
    ("5432.5432.432.32", "R9", (), ()),
])
def test_a_note_is_shown_only_on_the_hands_it_is_about(hand, rule, notes, overlaps):
    advice = explain(hand)
    assert advice.rule == rule
    assert advice.notes == notes
    assert advice.ruled_overlaps == overlaps


def test_which_hands_a_ruling_is_about_is_worked_out_from_the_table_it_is_in():
    from bidder.variants import VARIANT_BY_ID

    first = VARIANT_BY_ID["balanced-first"]
    advice = explain(FOUR_FOUR_MINORS_19, first.rules, first.counting)
    assert advice.rule == "R4" and advice.notes[0].startswith("R4: R3 always applies first")
    assert advice.ruled_overlaps == ()  # R3 under R4 is no ruling's subject
    weak = VARIANT_BY_ID["two-suiter-any-strength"]
    advice = explain("QS JS 7S 6S 5S KH 9H 8H 4H 3H 2D 3C 2C", weak.rules, weak.counting)
    assert advice.rule == "R6b" and advice.notes == ()


@pytest.mark.parametrize("hand, near_misses", [
    ("AKQ2.K32.432.432", ("1 point short of 1 of a minor (R3)",)),
    ("AKJ32.K32.32.432", ("1 point short of 1 of a major (R2)",)),
    ("AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C", (
        "1 point too many for 1 of a minor (R3)", "only the shape keeps it from 2NT (R5)",
        "1 card in spades short of 2 of a suit (R6)")),
    ("QS JS 7S 6S 5S KH 9H 8H 4H 3H 2D 3C 2C", ("2 cards in spades short of 3 of a suit (R7)",)),
    ("KQ765432.32.32.2", ("1 card in spades too many for 3 of a suit (R7)",
                          "1 HCP short of 4 of a suit (R8)")),
    ("5432.5432.432.32", ()),
])
def test_near_misses_for_a_hand_that_opens_nothing(hand, near_misses):
    advice = explain(hand)
    assert advice.bid is None
    assert advice.near_misses == near_misses


def test_no_near_misses_when_a_rule_fires():
    assert explain(EXAMPLE).near_misses == ()


def test_the_explanation_of_a_bid():
    assert explain(EXAMPLE).explanation == (
        "Open 1C: 13 points (13-21 needed), no five-card major, and clubs (5) are longer "
        "than diamonds (3).")
    assert explain("AKQ2.K32.A32.432").explanation == (
        "Open 1NT: a balanced hand (4-3-3-3) and 16 HCP (16-18 needed).")


def test_the_explanation_of_no_bid_names_the_closest_rules():
    assert explain("AKQ2.K32.432.432").explanation == (
        "No bid: 12 points, fewer than the 13 that R2 and R3 need, and no suit of exactly "
        "7 or exactly 8 cards, which R7 and R8 need. "
        "Closest: 1 point short of 1 of a minor (R3).")
    assert explain("5432.5432.432.32").explanation == (
        "No bid: 0 points, fewer than the 13 that R2 and R3 need, and no suit of exactly "
        "7 or exactly 8 cards, which R7 and R8 need.")


def test_to_dict_is_plain_json_with_the_documented_keys():
    data = explain(EXAMPLE).to_dict()
    assert json.loads(json.dumps(data)) == data
    assert {"hand", "bid", "rule", "hcp", "distribution", "points", "shape", "balanced",
            "explanation", "trace", "notes", "near_misses", "rule_sentence"} <= set(data)
    assert data["trace"][2] == {"rule": "R3", "name": "1 of a minor", "status": "fired",
                                "reasons": ["13-21 points: has 13"], "would_bid": None}
    assert explain("5432.5432.432.32").to_dict()["bid"] is None


@given(st.lists(st.sampled_from(DECK), min_size=13, max_size=13, unique=True),
       st.sampled_from(CATALOGUE + (variant_by_id("hcp.J=0+hcp.T=1"),)))
def test_to_json_is_to_dict_written_as_json(cards, variant):
    advice = explain(Hand(tuple(cards)), variant.rules, variant.counting)
    text = advice.to_json()
    assert json.loads(text) == advice.to_dict()
    assert list(json.loads(text)) == list(advice.to_dict())  # the keys in the same order
    assert "\n" not in text and text.isascii()  # one line, in ASCII as Flask writes JSON


def test_a_hand_counted_on_another_scale_shows_its_honours_on_it():
    counting = variant_by_id("hcp.J=0+hcp.T=1").counting
    data = explain("AJ1032.K432.543.2", counting=counting).to_dict()
    assert data["hcp_by_card"] == [{"card": "AS", "hcp": 4}, {"card": "10S", "hcp": 1},
                                   {"card": "KH", "hcp": 3}]
    assert data["hcp"] == 8 and [suit["hcp"] for suit in data["suits"]] == [5, 3, 0, 0]


def test_explain_takes_a_hand_or_text_and_refuses_bad_text():
    assert explain(parse_hand(EXAMPLE)) == explain(EXAMPLE)
    with pytest.raises(InvalidHandError):
        explain(EXAMPLE + " AS")


def test_advice_is_frozen():
    with pytest.raises(AttributeError):
        explain(EXAMPLE).bid = "7NT"


def test_r4_is_the_only_rule_no_hand_reaches():
    assert decided_rule_ids() == frozenset(rule.id for rule in RULES) - NEVER_DECIDES
    assert NEVER_DECIDES == {"R4"}
    assert not is_reachable(RULES[3]) and is_reachable(RULES[0])


def test_possible_tallies_respect_honour_limits():
    tallies = list(possible_tallies())
    assert all(sum(tally.lengths) == 13 for tally in tallies)
    assert min(tally.hcp for tally in tallies) == 0
    assert max(tally.hcp for tally in tallies) == 37
    assert all(tally.hcp >= 10 for tally in tallies if 13 in tally.lengths)


def test_the_explanation_alone_leaves_out_only_the_closest_rules():
    weak = explain("AKQ2.K32.432.432")
    assert weak.near_misses and weak.explanation == (
        weak.explanation_alone[:-1] + ". Closest: " + "; ".join(weak.near_misses) + ".")
    opening = explain("AKQ2.K32.A32.432")
    assert not opening.near_misses and opening.explanation_alone == opening.explanation


@given(st.lists(st.sampled_from(DECK), min_size=13, max_size=13, unique=True),
       st.sampled_from(CATALOGUE))
def test_an_advice_knows_its_tally_without_its_facts(cards, variant):
    advice = explain(Hand(tuple(cards)), variant.rules, variant.counting)
    assert advice.tally == Facts(Hand(tuple(cards)), variant.counting).tally
    assert "facts" not in vars(advice)  # the tally came from the decision



@pytest.mark.parametrize("variant_id", [variant.id for variant in CATALOGUE[:3]])
def test_a_misreadings_decisions_are_kept_apart_from_the_assignments(variant_id):
    """A server is asked for misreadings without end: their decisions go to a memo of
    their own, bounded small, and never grow the assignment's."""
    from bidder import advice as module
    variant = variant_by_id(variant_id)
    module._by_other_tally.cache_clear()
    kept = module._by_tally.cache_info().currsize
    theirs = explain("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", variant.rules,
                     variant.counting)
    assert module._by_tally.cache_info().currsize == kept
    assert module._by_other_tally.cache_info().currsize == 1
    assert module._by_other_tally.cache_info().maxsize < module._by_tally.cache_info().maxsize
    assert theirs.rules == variant.rules


def test_tallies_that_go_the_same_way_at_a_rule_share_its_step():
    """The memo of decisions holds thousands of tallies: a step said the same of many
    (and what to_dict() says of it, and of a suit) is one object, not one per tally."""
    from bidder.dealing import random_hand
    decisions = [explain(random_hand(seed)) for seed in range(200)]
    steps, summaries, suits = {}, {}, {}
    for advice in decisions:
        _, suit_parts, trace_parts = advice.decision.summary
        for step, part in zip(advice.trace, trace_parts):
            assert steps.setdefault(step, step) is step
            assert summaries.setdefault(part, part) is part
        for part in suit_parts:
            assert suits.setdefault(part, part) is part
    assert len(steps) < 200 * len(RULES) / 2  # shared, not one per hand
