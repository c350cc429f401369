"""The space of misreadings: generated from the rule table, named by ids that say what
they are, composed with '+', each read back from its id."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import random

from bidder import explain, packed
from bidder.cards import Suit
from bidder.exact import dealt_from
from bidder.facts import STANDARD
from bidder.misreadings import (APART_FILE, COUNTS_FILE, MOST_APART, MisreadingError, about,
                                apart_of, changes_of, counts, distinguishable, equivalent,
                                fingerprint, generated_ids, kept_apart, parts, signature,
                                space, variant_by_id)
from bidder.rules import RULES, LongSuit
from bidder.variants import CATALOGUE, Variant

# (id, hand, the assignment's bid, the misreading's bid)
BIDS = [
    ("R1.hcp=15-18", "2S 8D 6C 9D JS AD 10C AS 7H 7C QH AC 6D", "1C", "1NT"),
    ("R1.hcp=16-17", "JC KH AS 2D KC 3D QD 6H JH 9D 10S AD 8S", "1NT", "1D"),
    ("R1.hcp=16", "JC KH AS 2D KC 3D QD 6H JH 9D 10S AD 8S", "1NT", "1D"),
    ("R1.points=16-18", "JC KH AS 2D KC 3D QD 6H JH 9D 10S AD 8S", "1NT", "1D"),
    ("R2.hcp=13-21", "JS AS 5H 8S 3C 7D QS 6C 6S 9S QH KH 2C", "1S", "1C"),
    ("R2.len=4+", "7C 9H 6C 5H 10D KH AS AH 8C QS 8S 7S 4D", "1C", "1S"),
    ("R2.len=5", "10C 4S 5D AH 6S 4D QD KS 3S 2H AS AC QS", "1S", "1D"),
    ("R2.choose=longer-lower", "AH 6C 8H 5S KS 3S 4H 3H JS 7C KD 6H 8S", "1S", "1H"),
    ("R2.choose=shorter-higher", "7H KH QH 8S QS 2S QD 5H JS 6S AH 8H 10H", "1H", "1S"),
    ("R3.shape=unbalanced", "7C 9H 6C 5H 10D KH AS AH 8C QS 8S 7S 4D", "1C", None),
    ("R1.shape=any", "KC QS 6S 2S 9C JH 8C 10H 10S QC AC 3D AD", "1C", "1NT"),
    ("R6.len=6+", "AC KS 8S AH 4D 6C 5D AD KD JS 2H AS 8D", "2D", None),
    ("R6.choose=higher-last", "6D 2C KD 3D AC 4C KC AD 5C KS AH 4D 4H", "2C", "2D"),
    ("R6.choose=no-major-step", "KD AD 8D QC 10D KS 8S 3D AS AC 10S 6D 5S", "2S", "2D"),
    ("R6.choose=no-hcp-step", "10C KC QD JD AH JC AD 10S 8D QC 4C KD 6H", "2D", "2C"),
    ("R6.choose=no-length-step", "KH 10H JS KD KS 10C AS 6S 2H JH 2S 8S AH", "2S", "2H"),
    ("R6.choose=higher-last", "AKQJ2.A5432.AK.2", "2S", "2S"),  # more HCP still first
    ("R6.choose=no-length-step", "A5432.AKQJ2.AK.2", "2H", "2H"),
    ("R7.len=7+", "2C 4C 10C JC 3C 3H 6H 3S 7H AC 6C 10D 7C", None, "3C"),
    ("swap=R2/R3", "QD 10S AD AC 3S 5H 2S JS QH 4C 8C JD 5S", "1S", "1C"),
    ("omit=R1", "AH 6D QD JH KS 4C 9C KC 5D QH 10S 8H JS", "1NT", "1C"),
    ("last-wins", "QD 10S AD AC 3S 5H 2S JS QH 4C 8C JD 5S", "1S", "1C"),
    ("balanced=no-minor-five", "JC KH AS 2D KC 3D QD 6H JH 9D 10S AD 8S", "1NT", "1D"),
    ("balanced=with-4441", "4C 8H AD KC KS KD JS 2C 7S 9D QS 3C 2D", "1C", "1NT"),
    ("balanced=with-5422", "KC QS 6S 2S 9C JH 8C 10H 10S QC AC 3D AD", "1C", "1NT"),
    ("R6.points=21+", "AKQJ2.AKQ2.J2.32", "1S", "1S"),  # R2 and R3 take every 21
    ("hcp.J=0", "5D 7D AS 2S 4C 3S QH 9H JD QD AC KS 3C", "1NT", "1D"),  # 16 HCP read 15
    ("hcp.A=3", "5D 7D AS 2S 4C 3S QH 9H JD QD AC KS 3C", "1NT", "1D"),  # read 14
    ("hcp.T=1", "AC 10S 2C 10D JH 4H 5D 7S QS 7C KC 2D AD", "1C", "1NT"),  # 14 read 16
    ("hcp.J=0", "AKQJ2.A5432.AK.2", "2S", "2S"),  # J=0 still leaves spades with more HCP
    ("hcp.J=0", "AKJ32.AK432.AK.2", "2S", "2H"),  # spades 8 HCP read 7, as hearts: lower
    # R6's chain read in another order, or with a step turned
    ("R6.choose=major,longer,hcp,lower", "AKQ86.AKT753.A.4", "2S", "2H"),  # longer first
    ("R6.choose=major,longer,hcp,lower", "AKQ86.AKT75.AK.4", "2S", "2S"),  # as long: HCP
    ("R6.choose=longer,major,lower", "AKQ86.4.K.AKT753", "2S", "2C"),
    ("R6.choose=longer,major,lower", "AKQ862.4.K.AKT75", "2S", "2S"),
    ("R6.choose=minor,hcp,longer,lower", "AKQ86.4.A3.AKT75", "2S", "2C"),
    ("R6.choose=minor,hcp,longer,lower", "AKQ86.AKT75.AK.4", "2S", "2S"),  # both majors
    ("R6.choose=major,fewer-hcp,longer,lower", "AKQ86.AKT75.AK.4", "2S", "2H"),
    ("R6.choose=major,hcp,shorter,lower", "AK862.AKT753.A.A", "2H", "2S"),
    ("R6.choose=lower", "AKQ86.AKT75.AK.4", "2S", "2H"),
    # a suit alone needs six cards for R6; two suits still five each
    ("R6.len.one=6+", "AKQ86.AKQ7.AK3.4", "2S", None),
    ("R6.len.one=6+", "AKQ865.AKQ7.AK.4", "2S", "2S"),
    ("R6.len.one=6+", "AKQ86.AKT75.AK.4", "2S", "2S"),
    ("R6.len.one=7+", "AKQ865.AKQ7.AK.4", "2S", None),
    # R2 and R3 choosing by rank before length
    ("R2.choose=higher-longer", "AKQ86.AKT753.3.4", "1H", "1S"),
    ("R2.choose=lower-longer", "AKT75.AQ864.32.4", "1S", "1H"),
    ("R3.choose=lower-longer", "AKT.AQ8.Q9864.43", "1D", "1C"),
    ("R3.choose=higher-longer", "AKT.AQ8.43.Q9864", "1C", "1D"),
    ("R3.choose=higher-longer", "AKT.AQ8.Q9864.43", "1D", "1D"),
    ("dist=longest-only", "A8432.AQ952.J3.8", "1S", None),  # 11 HCP and 1 point, not 2
]


@pytest.mark.parametrize("variant_id, hand, assignments, theirs", BIDS,
                         ids=[f"{row[0]}-{number}" for number, row in enumerate(BIDS)])
def test_a_misreading_bids_as_its_id_says(variant_id, hand, assignments, theirs):
    variant = variant_by_id(variant_id)
    assert variant.id == variant_id
    assert explain(hand).bid == assignments
    assert explain(hand, variant.rules, variant.counting).bid == theirs


@pytest.mark.parametrize("variant_id, points", [
    ("dist=beyond-3", 3), ("dist=beyond-5", 0), ("dist=short", 2), ("dist=long-and-short", 3),
    ("R1.hcp=15-18", 1), ("dist=longest-only", 1),
])
def test_distribution_misreadings_count_another_way(variant_id, points):
    facts = explain("AKQ32.K432.543.2", counting=variant_by_id(variant_id).counting).facts
    assert facts.tally.distribution == points


@pytest.mark.parametrize("variant_id, hcp, scale", [
    ("hcp.J=0", 7, "A 4, K 3, Q 2, J 0"), ("hcp.A=3", 7, "A 3, K 3, Q 2, J 1"),
    ("hcp.T=1", 9, "A 4, K 3, Q 2, J 1, 10 1"), ("hcp.10=1", 9, "A 4, K 3, Q 2, J 1, 10 1"),
    ("hcp.J=0+hcp.A=3", 6, "A 3, K 3, Q 2, J 0"), ("hcp.K=3", 8, "A 4, K 3, Q 2, J 1"),
    ("R1.hcp=15-18", 8, "A 4, K 3, Q 2, J 1"),
])
def test_honour_misreadings_count_hcp_on_their_scale(variant_id, hcp, scale):
    counting = variant_by_id(variant_id).counting
    facts = explain("AJ1032.K432.543.2", counting=counting).facts
    assert (facts.tally.hcp, counting.scale_text) == (hcp, scale)
    assert facts.hcp_explanation.endswith(f"({scale})")
    assert packed.tally(packed.read("AJ1032.K432.543.2"), counting).hcp == hcp


@pytest.mark.parametrize("variant_id, sentence, departs", [
    ("hcp.J=0", "The jack is counted as 0 HCP; the assignment counts it 1.",
     "HCP are A 4, K 3, Q 2, J 1, nothing else"),
    ("hcp.T=1", "The ten is counted as 1 HCP; the assignment counts it 0.",
     "HCP are A 4, K 3, Q 2, J 1, nothing else"),
    ("R1.hcp=15-18", "1NT (R1) is read as needing 15-18 HCP.", "R1 says 16-18 HCP"),
    ("R1.hcp=16", "1NT (R1) is read as needing 16 HCP.", "R1 says 16-18 HCP"),
    ("R2.hcp=13-21", "1 of a major (R2) is read as needing 13-21 HCP.",
     "R2 says 13-21 points"),
    ("R7.len=7+", "3 of a suit (R7) is read as needing 7+ cards in some suit.",
     "R7 says exactly 7 cards in some suit"),
    ("R3.shape=any", "1 of a minor (R3) is read as applying to any shape.",
     "R3 says no balance condition"),
    ("R5.shape=balanced", "2NT (R5) is read as applying to a balanced hand.",
     "R5 says a balanced hand"),
    ("R3.choose=longer-higher", "1 of a minor (R3) is read as bidding the longer suit; "
     "with equal length, the higher.", "R3 bids the longer minor; with equal length, clubs"),
    ("swap=R1/R2", "1NT (R1) and 1 of a major (R2) are tried in each other's place.",
     "the assignment's order, first rule that applies wins"),
    ("omit=R1", "The 1NT rule (R1) is left out.", "R1 is part of the list"),
    ("balanced=with-4441", "4-4-4-1 is read as balanced.",
     "balanced means every suit 2 to 4 cards, or 5-3-3-2 with a 5-card minor"),
    ("dist=beyond-5", "Distribution points are counted for each card beyond the fifth.",
     "distribution points are 1 per card beyond 4"),
])
def test_each_misreading_says_what_it_is_from_the_rule_table(variant_id, sentence, departs):
    variant = variant_by_id(variant_id)
    assert (variant.sentence, variant.departs) == (sentence, departs)


@pytest.mark.parametrize("text, message", [
    ("", "an empty id names no misreading"),
    ("R0.hcp=15-18", "R0.hcp=15-18: 'R0' is not a rule; the rules are R1, R2"),
    ("R1.hcp=18-15", "R1.hcp=18-15: '18-15' is not a range: write LOW-HIGH"),
    ("R1.hcp=lots", "'lots' is not a range"),
    ("R1.len=5+", "R1.len=5+: R1 (1NT) has no such condition; it reads a balanced hand "
                  "and 16-18 HCP"),
    ("R9.hcp=1-2", "R9 (no bid) has no such condition; it reads nothing"),
    ("R1.color=red", "R1.color=red: 'color' is not a part of a rule"),
    ("R1.shape=round", "R1.shape=round: 'round' is not one of any, balanced, unbalanced"),
    ("R1.choose=shorter-higher", "R1 (1NT) chooses no suit; the rules that do are R2, R3"),
    ("R2.choose=random", "'random' is not one of longer-higher"),
    ("R6.len=4+", "R6 weighs at most two long suits, and with 4 cards three suits could "
                  "qualify; give it at least 5 cards"),
    ("omit=R9", "omit=R9: R9 is the catch-all; leave out one of R1, R2"),
    ("swap=R1/R12", "swap=R1/R12: 'R12' is not a rule"),
    ("balanced=sometimes", "'sometimes' is not one of no-minor-five"),
    ("dist=double", "'double' is not one of beyond-3"),
    ("nope", "'nope' is not a misreading: write a catalogue name (balanced-first"),
    ("no-2nt+nope", "'nope' is not a misreading"),
    ("hcp.9=1", "hcp.9=1: '9' is not an honour; write hcp.A=, hcp.K="),
    ("hcp.X=1", "'X' is not an honour"),
    ("hcp.J=x", "hcp.J=x: 'x' is not a value an honour is read as; write a whole number "
                "from 0 to 4"),
    ("hcp.J=5", "'5' is not a value an honour is read as"),
    ("hcp.T=4+hcp.J=4", "hcp.J=4: a suit's honours would be worth 17 HCP, more than the 15"),
    ("R6.len.one=5+", "R6.len.one=5+: a suit alone is read as needing more cards than two "
                      "suits each; write R6.len.one=6+"),
    ("R6.len.one=6-7", "a suit alone is read as needing more cards"),
    ("R2.len.one=6+", "R2.len.one=6+: a suit alone is read as needing more cards"),
    ("R1.len.one=6+", "R1 (1NT) has no such condition"),
    ("R6.choose=major,hcp", "'major,hcp' is not a chain of steps: name each step once, the "
                            "last lower or higher"),
    ("R6.choose=major,lower,lower", "is not a chain of steps"),
    ("R6.choose=sideways,lower", "R6.choose=sideways,lower: 'sideways' is not one of major"),
    ("R2.choose=major,lower", "'major,lower' is not one of longer-higher"),
])
def test_a_bad_id_names_the_bad_part_and_what_is_valid(text, message):
    with pytest.raises(MisreadingError) as raised:
        variant_by_id(text)
    assert message in str(raised.value)


def test_catalogue_names_are_ids_too():
    for variant in CATALOGUE:
        assert variant_by_id(variant.id) is variant


@pytest.mark.parametrize("text, split", [
    ("R1.hcp=15-18+none-as-string", ["R1.hcp=15-18", "none-as-string"]),
    ("R6.points=21++R1.hcp=15-18", ["R6.points=21+", "R1.hcp=15-18"]),
    ("R7.len=7+", ["R7.len=7+"]),
    ("R1.hcp=15-18+1nt-15-17", ["R1.hcp=15-18", "1nt-15-17"]),
    ("R7.len=7++R8.len=8++omit=R5", ["R7.len=7+", "R8.len=8+", "omit=R5"]),
])
def test_composed_ids_split_into_their_parts(text, split):
    assert parts(text) == split
    assert variant_by_id(text).id == text


def test_the_space_holds_the_catalogue_first_and_no_misreading_twice():
    found = space.__wrapped__()  # worked out afresh: collecting filled the cache
    assert [variant.id for variant in found] == [variant.id for variant in space()]
    assert found[:len(CATALOGUE)] == CATALOGUE
    assert len({signature(variant) for variant in found}) == len(found)
    assert len(found) > 100
    ids = generated_ids()
    assert "R7.len=7+" in ids and "R7.len=7+" not in [variant.id for variant in found]
    assert "R2.hcp=13-21+R3.hcp=13-21" in ids  # the same phrase read the same way


def test_the_shipped_counts_cover_the_space_and_mark_the_equivalent():
    known = counts()
    assert [variant.id for variant in space()] == list(known)
    assert equivalent(variant_by_id("r8-6-8")) and not equivalent(variant_by_id("no-2nt"))
    # R2 and R3 take every hand of 21 points: R6 read as 21+ changes nothing
    assert equivalent(variant_by_id("R6.points=21+"))
    assert known["R6.points=23+"].hands > 0
    assert "r8-6-8" not in [variant.id for variant in distinguishable()]
    assert COUNTS_FILE.name == "misreadings.json"


SAMPLE = ["R1.hcp=15-18", "R8.hcp=6-9", "balanced=with-4441", "hcp.J=0",
          "R6.choose=major,longer,hcp,lower", "R6.len.one=6+", "dist=longest-only"]


@pytest.mark.slow
@pytest.mark.no_cover  # a check of the shipped data: the counting's own tests cover it
@pytest.mark.parametrize("variant_id", SAMPLE)
def test_the_shipped_counts_are_the_engines(variant_id):
    from bidder.exact import changes

    variant = variant_by_id(variant_id)
    assert changes(variant) == counts()[variant_id] == changes_of(variant)


HANDS = st.permutations(range(52)).map(lambda order: packed.encode_deal(order[:13]))
SINGLES = st.sampled_from([variant.id for variant in space()])


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(SINGLES, min_size=2, max_size=3), HANDS)
def test_a_composed_id_behaves_as_its_parts_applied_in_turn(ids, code):
    composed = variant_by_id("+".join(ids))
    rules, counting, bid = RULES, STANDARD, None
    for part in map(variant_by_id, ids):
        rules, counting = part.change_rules(rules), part.change_counting(counting)
    bid = packed.decide(code, rules, counting)[1]
    for part in map(variant_by_id, ids):
        bid = part.written(bid)
    assert composed.written(packed.decide(code, composed.rules, composed.counting)[1]) == bid
    assert packed.tally(code, composed.counting).distribution == packed.tally(
        code, counting).distribution
    assert packed.tally(code, composed.counting).hcp == packed.tally(code, counting).hcp


def test_a_misreadings_suit_choice_is_explained_as_it_reads_the_rule():
    variant = variant_by_id("R2.choose=shorter-higher")
    advice = explain("7H KH QH 8S QS 2S QD 5H JS 6S AH 8H 10H", variant.rules, variant.counting)
    assert "spades, as the shorter suit; with equal length, the higher" in advice.explanation


@pytest.mark.slow
def test_a_misreading_outside_the_space_is_counted_when_asked():
    assert changes_of(variant_by_id("R6.points=21++R1.hcp=16")).hands > 0


@pytest.mark.parametrize("variant_id, rule_id, is_about", [
    ("R1.hcp=15-18", "R1", True), ("R1.hcp=15-18", "R2", False), ("swap=R2/R3", "R3", True),
    ("r3-unbalanced-only", "R3", True), ("none-as-string", "R3", False),
    ("R1.hcp=15-18", "R", False),
])
def test_a_misreading_is_about_the_rules_it_names(variant_id, rule_id, is_about):
    assert about(variant_by_id(variant_id), rule_id) is is_about


@pytest.mark.slow
def test_build_writes_the_counts_the_engine_gives(tmp_path, monkeypatch):
    import bidder.misreadings as misreadings

    shipped = {variant.id: counts()[variant.id] for variant in CATALOGUE[11:13]}
    monkeypatch.setattr(misreadings, "space", lambda: CATALOGUE[11:13])
    misreadings.build(tmp_path / "counts.json")
    monkeypatch.setattr(misreadings, "COUNTS_FILE", tmp_path / "counts.json")
    monkeypatch.setattr(misreadings, "APART_FILE", tmp_path / "misreadings_apart.json")
    misreadings.counts.cache_clear()
    misreadings.kept_apart.cache_clear()
    try:
        assert misreadings.counts() == shipped
        kept_fingerprint, kept = misreadings.kept_apart()
        assert kept_fingerprint == fingerprint(CATALOGUE[11:13]) and list(kept) == ["no-2nt", "1nt-15-17"]
        assert kept["no-2nt"] == apart_of(CATALOGUE[11])
    finally:
        misreadings.counts.cache_clear()
        misreadings.kept_apart.cache_clear()


def test_the_kept_hands_are_for_this_space_and_its_fingerprint():
    """A stale file of kept hands (rebuild it with build()) is caught here."""
    kept_fingerprint, kept = kept_apart()
    assert kept_fingerprint == fingerprint(), "rebuild: python -c 'from bidder.misreadings " \
                                              "import build; build()'"
    assert list(kept) == [variant.id for variant in distinguishable()]
    assert all(1 <= len(profiles) <= MOST_APART for profiles in kept.values())
    assert APART_FILE.name == "misreadings_apart.json"


def test_the_fingerprint_changes_with_what_a_misreading_reads():
    found = space()
    other = variant_by_id("R1.hcp=15-17")
    renamed = (Variant(found[-1].id, other.sentence, other.departs, other.change_rules),)
    assert fingerprint(found) != fingerprint(found[:-1] + renamed) != fingerprint(found[:-1])
    assert fingerprint(found) == fingerprint()


def test_every_kept_profile_deals_hands_its_misreading_opens_otherwise():
    rng = random.Random(7)
    for variant in distinguishable():
        scales = (STANDARD.scale, variant.counting.scale)
        for profile in apart_of(variant):
            code = packed.encode_cards(dealt_from(profile, scales, rng))
            assert packed.tally(code).lengths == profile.lengths
            assert (packed.tally(code).hcp, packed.tally(code, variant.counting).hcp) == \
                profile.hcp
            assert (packed.decide(code)[1], variant.written(packed.decide(
                code, variant.rules, variant.counting)[1])) == profile.answers, variant.id


def test_hands_dealt_from_a_profile_are_its_many_hands_not_one():
    profile = apart_of(variant_by_id("hcp.J=0"))[0]
    rng = random.Random(3)
    scales = (STANDARD.scale, variant_by_id("hcp.J=0").counting.scale)
    dealt = {dealt_from(profile, scales, rng) for _ in range(50)}
    assert len(dealt) > 40 and profile.hands > 1_000_000


@pytest.mark.slow
def test_a_misreading_outside_the_space_has_its_hands_found_when_asked():
    profiles = apart_of(variant_by_id("R6.points=21++R1.hcp=16"))
    assert profiles and all(old != new for old, new in (p.answers for p in profiles))


@pytest.mark.parametrize("hand, gap, text", [
    ("AKQ86.AKQ7.AK3.4", 1, "one five-card suit alone: a card short"),
    ("AKQ865.AKQ7.AK.4", 0, "six cards alone"),
    ("AKQ86.AKT75.AK.4", 0, "two five-card suits"),
    ("AKQ8.AKQ7.AK3.42", 1, "no five-card suit: the longest a card short"),
])
def test_a_length_read_per_case_holds_as_it_says(hand, gap, text):
    condition = LongSuit(tuple(Suit), 5, alone=6)
    tally = explain(hand).facts.tally
    assert condition.gap(tally) == gap and condition.holds(tally) is (gap == 0)
    assert condition.text == "6+ cards in one suit, or 5+ in two"


def test_distribution_points_of_the_longest_suit_only_are_explained_so():
    counting = variant_by_id("dist=longest-only").counting
    facts = explain("A8432.AQ9532.J.8", counting=counting).facts
    assert facts.distribution_explanation == (
        "2 distribution points: hearts 6 cards: 2 (1 per card beyond 4, in the longest "
        "suit only)")


@pytest.mark.parametrize("step, hand, chosen", [
    ("minor_over_major", "AKQ86.4.A3.AKT75", "C"),
    ("minor_over_major", "AKQ86.AKT75.AK.4", None),  # both majors: no choice
    ("fewer_hcp", "AKQ86.AKT75.AK.4", "H"),
    ("fewer_hcp", "AK862.AKT75.A4.A", None),  # as many HCP
    ("shorter", "AK862.AKT753.A.A", "S"),
    ("shorter", "AKQ86.AKT75.AK.4", None),  # as long
])
def test_a_turned_step_of_a_chain_picks_the_other_suit_or_leaves_it_to_the_next(
        step, hand, chosen):
    import bidder.rules as rules

    facts = explain(hand).facts
    lower, higher = [suit for suit in Suit if facts.tally.length(suit) >= 5]
    picked = getattr(rules, step)(lower, higher, facts)
    assert (None if picked is None else picked.letter) == chosen


def test_a_misreading_placed_after_a_rule_another_left_out_goes_first():
    variant = variant_by_id("omit=R1+balanced-first")
    assert [rule.id for rule in variant.rules] == ["R4", "R5", "R2", "R3", "R6", "R7", "R8",
                                                    "R9"]
