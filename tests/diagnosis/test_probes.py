"""The probes of a leading misreading: the ends of each region where it opens otherwise than
the rules and one HCP beyond them, hands of one shape one HCP apart, and when a probe counts
as answered as the misreading answers."""

import pytest

from bidder import packed
from bidder.bids import BID_BY_VALUE
from bidder.cards import parse_hand
from bidder.diagnosis import Answer
from bidder.diagnosis import probes as probes_module
from bidder.diagnosis.bank import shipped
from bidder.diagnosis.hypotheses import answers, readings
from bidder.diagnosis.probes import (ALTERNATIVES, MOST_PROBES, PROBE_ANSWERS, Probe,
                                     alike_hands, every_probe, given_bids, missed, misses,
                                     probe_codes, probe_ladder, probes, refuted, settled,
                                     signature, stepped, unsettled)


def place_of(reading_id):
    return shipped().ids.index(reading_id)


@pytest.mark.parametrize("reading, levels", [
    ("R1.hcp=14-18", {13, 14, 18, 19}),
    ("1nt-15-17", {14, 15, 17, 18}),
], ids=["1NT on 14-18: both ends of its range and beyond",
        "1NT on 15-17: both ends of its range and beyond"])
def test_a_range_misreading_is_probed_at_both_ends_and_just_beyond(reading, levels):
    found = probes(shipped(), place_of(reading))[:4]
    assert {packed.hcp(probe.codes[0]) for probe in found} == levels
    flat = {packed.tally(probe.codes[0]).lengths for probe in found}
    assert len(flat) == 1
    richer_first = [packed.hcp(probe.codes[0]) for probe in found]
    assert richer_first[0] == richer_first[1] + 1 and richer_first[2] == richer_first[3] + 1


@pytest.mark.parametrize("reading", ["R1.hcp=14-18", "swap=R2/R5", "dist=beyond-3", "no-2nt",
                                     "R5.hcp=22-23", "balanced=no-minor-five"])
def test_each_probe_s_hands_share_hcp_points_and_both_bids_its_shape_first(reading):
    """A probe's hands are alike (signature()): of its first hand's shape while moving
    honours and low spots finds them, else the bank's of any shape (no-2nt, 2NT on 22-23
    and five-card minors read as unbalanced have probes of flat hands with no low spot)."""
    place = place_of(reading)
    variant = readings()[place]
    for probe in probes(shipped(), place):
        first = probe.codes[0]
        shapes = [packed.tally(code).lengths for code in probe.codes]
        for code in probe.codes:
            assert signature(place, code) == signature(place, first)
            assert answers(variant, code)[0] == probe.bid == answers(variant, first)[0]
            assert answers(None, code)[0] == answers(None, first)[0]
        assert len(set(probe.codes)) == len(probe.codes)
        lead = next((place for place, shape in enumerate(shapes) if shape != shapes[0]),
                    len(shapes))  # the hands of its own shape it begins with
        assert lead == len(shapes) or lead < ALTERNATIVES  # others only when too few
    several = [probe for probe in probes(shipped(), place)
               if len({packed.tally(code).lengths for code in probe.codes}) > 1]
    assert bool(several) is (reading in ("no-2nt", "R5.hcp=22-23", "balanced=no-minor-five"))


@pytest.mark.parametrize("reading, ends", [
    ("R5.hcp=22-23", (23, 24)),
    ("1nt-15-17", (11, 12)),
    ("R7.hcp=6-9", (9, 10)),
], ids=["2NT on 22-23: the rules' 2NT stops past 23 too, probed at 23 and 24",
        "1NT on 15-17: below it the rules' 1C, probed where it stops: on a hand of one "
        "distribution point, at 12 and 11 HCP (13 and 12 points)",
        "a 3-bid on 6-9: its 9 and 10 HCP, on a hand of few distribution points"])
def test_the_far_end_of_the_rule_a_region_moves_is_probed_too(reading, ends):
    """Beyond a region's end the misreading makes the rules' bid of the region: that bid's
    other end is probed as well, where a student who moves it differs (a 2NT on 22-24
    answers the 24 HCP hand otherwise than 2NT on 22-23). The region's hand of fewest
    distribution points (above none) is probed: from a 7-5 hand the 3-bid gave way at
    8 HCP to a 1-bid on points, and a 3-bid on 6-8 went unseen."""
    place = place_of(reading)
    found = probes(shipped(), place)
    pairs = {(packed.hcp(poorer.codes[0]), packed.hcp(richer.codes[0]))
             for richer, poorer in zip(found, found[1:])
             if packed.tally(richer.codes[0]).lengths == packed.tally(poorer.codes[0]).lengths
             and richer.bid != poorer.bid}
    assert ends in pairs
    assert len(found) <= MOST_PROBES


def test_the_rules_have_no_probes():
    assert probes(shipped(), 0) == () and probe_codes(shipped(), 0) == frozenset()


FLAT = "AS KS 2S AH 3H 2H KD 3D 2D 5C 4C 3C 2C"  # 14 HCP


@pytest.mark.parametrize("hand, step, expected", [
    (FLAT, 1, "AS KS 2S AH 3H 2H AD 3D 2D 5C 4C 3C 2C"),
    (FLAT, -1, "AS KS 2S KH 3H 2H KD 3D 2D 5C 4C 3C 2C"),
    ("AS KS QS 2S AH KH QH 2H AD KD QD 2D AC", 1, "AS KS QS JS AH KH QH 2H AD KD QD 2D AC"),
    ("JS 2S 3S 4S 5S 6S 7S 8S 9S 2H 3H 4H 5H", -1, "10S 2S 3S 4S 5S 6S 7S 8S 9S 2H 3H 4H 5H"),
    ("AS KS QS JS AH KH QH JH AD KD QD JD AC", 1, None),
    ("2S 3S 4S 5S 6S 7S 8S 9S 2H 3H 4H 5H 6H", -1, None),
], ids=["a king raised to an ace", "an ace lowered to a king", "a spot raised to a jack",
        "a jack lowered to the lowest spot missing", "nothing left to raise",
        "nothing left to lower"])
def test_a_step_moves_one_honour_by_one_hcp_keeping_the_shape(hand, step, expected):
    from bidder.cards import parse_hand
    code = packed.encode_cards(parse_hand(hand).cards)
    found = stepped(code, step)
    if expected is None:
        assert found is None
    else:
        assert found == packed.encode_cards(parse_hand(expected).cards)
        assert packed.hcp(found) == packed.hcp(code) + step
        assert packed.tally(found).lengths == packed.tally(code).lengths


PROBE = Probe((1, 2, 3), "1NT")


@pytest.mark.parametrize("given, is_settled, missed_count", [
    ({}, False, 0),
    ({1: (0, "1NT")}, True, 0),
    ({1: (0, "1C")}, False, 1),
    ({1: (0, "1C"), 2: (5, "1NT")}, True, 1),
    ({1: (5, "1C"), 2: (0, "1NT")}, False, 1),
    ({1: (0, "1C"), 2: (3, "1C"), 3: (5, "1NT")}, False, 2),
    ({9: (0, "1NT")}, False, 0),
], ids=["never asked", "met", "missed", "missed, then met", "met, then missed",
        "missed twice, met once", "only other hands asked"])
def test_a_probe_is_settled_when_met_last_and_at_least_as_often_as_missed(
        given, is_settled, missed_count):
    assert settled(PROBE, given) is is_settled
    assert misses(PROBE, given) == missed_count


@pytest.mark.parametrize("pattern, waiting", [
    ("", True),
    ("m", True),
    ("x", True),
    ("m" * 11 + "x", False),
    ("xx", True),
    ("xxm", True),
    ("x" * 11 + "m", False),
    ("x" * 12, False),
], ids=["never asked", "met on the first hand, others not asked",
        "missed on the first hand, others to ask", "met eleven times, then missed on the last",
        "missed twice", "missed twice, then met: a hand left",
        "missed eleven times, then met: no hand left", "missed on every hand: no hand left"])
def test_a_probe_waits_unless_settled_or_no_hand_of_it_is_left(pattern, waiting):
    """Once every hand of a probe is answered, the posterior weighs its misses: a probe
    missed twice with no hand left kept a round from naming a reading held at 1.00."""
    bank = shipped()
    place = place_of("R1.hcp=14-18")
    probe = probes(bank, place)[0]
    assert len(probe.codes) == ALTERNATIVES == PROBE_ANSWERS == 12
    given = {code: (number, probe.bid if mark == "m" else "4S")
             for number, (code, mark) in enumerate(zip(probe.codes, pattern))}
    if pattern == "m":
        waiting = False  # met last and never missed: settled
    assert (probe in unsettled(bank, place, given)) is waiting
    assert (probe in missed(bank, place, given)) is ("x" in pattern)


@pytest.mark.parametrize("pattern, is_refuted", [
    ("x" * 12, True),
    ("x" * 7 + "m" * 5, True),
    ("x" * 6 + "m" * 6, False),
    ("m" * 11 + "x", False),
    ("x" * 11, False),
    ("", False),
], ids=["missed on every hand", "missed on seven of twelve", "missed on half",
        "met on eleven, missed on the last", "missed on eleven: a hand left",
        "never asked"])
def test_a_probe_missed_on_most_of_its_hands_with_none_left_is_refuted(pattern, is_refuted):
    """A student reading R8 as 5-10 points (outside the space) bid four on every hand of
    the 1 HCP probe of R8.points=6-10, twelve times, and the slip rate learnt from it
    let the reading be named at 1.00. A probe missed on most of its hands, with none
    left, refutes its reading: it is not named."""
    bank = shipped()
    probe = probes(bank, place_of("R1.hcp=14-18"))[0]
    given = {code: (number, probe.bid if mark == "m" else "4S")
             for number, (code, mark) in enumerate(zip(probe.codes, pattern))}
    assert refuted(probe, given) is is_refuted


@pytest.mark.parametrize("marks, is_refuted", [
    ("xx", False), ("xxx", True), ("xxm", False), ("xxxmm", True), ("xxxmmm", False),
], ids=["two hands, both missed: may be slips", "three, all missed",
        "three, two missed", "five, three missed", "six, three missed"])
def test_a_probe_of_few_hands_is_refuted_by_three_misses_at_least(marks, is_refuted):
    """A probe of one or two hands missed by a slip or two is left to the posterior, as
    before: three misses at least, and on most of its hands, refute it."""
    probe = Probe(tuple(range(1, len(marks) + 1)), "1NT")
    given = {code: (number, "1NT" if mark == "m" else "4S")
             for number, (code, mark) in enumerate(zip(probe.codes, marks))}
    assert refuted(probe, given) is is_refuted


def test_a_probe_s_hands_are_found_by_moving_honours_and_spots_again_from_hands_moved():
    """Moving an honour up and another down, or a low spot up, from the first hand and
    then from the hands so found, finds twelve hands of 1NT's 14 HCP probe, of its shape
    and alike to it: a probe missed by a slip is asked again up to PROBE_ANSWERS times."""
    bank = shipped()
    place = place_of("R1.hcp=14-18")
    probe = next(probe for probe in probes(bank, place) if packed.hcp(probe.codes[0]) == 14)
    assert len(probe.codes) == 12 and len(set(probe.codes)) == 12
    mark = signature(place, probe.codes[0])
    assert all(signature(place, code) == mark for code in probe.codes)
    assert len({packed.tally(code).lengths for code in probe.codes}) == 1


@pytest.mark.parametrize("hand, expected", [
    ("AS KS 2S AH 3H 2H KD 3D 2D 5C 4C 3C 2C",
     ("AS KS 3S AH 3H 2H KD 3D 2D 5C 4C 3C 2C", "AS KS 2S AH 4H 2H KD 3D 2D 5C 4C 3C 2C",
      "AS KS 2S AH 3H 2H KD 4D 2D 5C 4C 3C 2C", "AS KS 2S AH 3H 2H KD 3D 2D 6C 4C 3C 2C")),
    ("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", ()),
    ("9S 8S 10S AH KH QH JH AD KD QD JD AC KC", ()),
    ("9S 2S AH KH QH JH AD KD QD JD AC KC QC", ("9S 3S AH KH QH JH AD KD QD JD AC KC QC",)),
], ids=["in each suit, its lowest spot with the next rank free moved up",
        "a suit full of spots: none moves", "the nine and the ten held: the ten stays",
        "a nine does not become a ten"])
def test_a_low_spot_moves_up_to_the_next_rank_free_below_the_ten(hand, expected):
    found = probes_module._spots_moved(packed.encode_cards(parse_hand(hand).cards))
    assert found == [packed.encode_cards(parse_hand(other).cards) for other in expected]


@pytest.mark.parametrize("regions, order", [
    ([("3S", "None"), ("3D", "None"), ("None", "3S")], [0, 2, 1]),
    ([("1S", "1H"), ("1D", "1C"), ("1NT", "1C")], [0, 2, 1]),
    ([("1NT", "1C"), ("2NT", "1C"), ("1C", "1NT")], [0, 1, 2]),
    ([("1S", "1S"), ("1H", "1D")], [0, 1]),
], ids=["a weak three passed in another suit comes after the three bid where it passes",
        "a one-bid in another suit changed alike: after one changing 1NT",
        "levels or notrump differ: the order kept", "a strain kept or changed: both kept"])
def test_regions_departing_alike_in_other_suits_come_after_those_departing_otherwise(
        regions, order):
    """R7 read in points passes a weak three in spades and in diamonds alike: probing both
    left the 3-bid it makes below the rules' range unprobed."""
    found = probes_module._unlike([(bids, [number]) for number, bids in enumerate(regions)])
    assert [members[0] for _, members in found] == order


@pytest.mark.parametrize("reading, level, points", [
    ("R1.hcp=14-18", 14, 1), ("1nt-15-17", 15, 1), ("R7.points=5-9", 7, 3),
], ids=["1NT on 14-18: a five-card minor, where 14-18 HCP and 14-18 points part",
        "1NT on 15-17: likewise", "a weak three in points: its seven-card suit, three points"])
def test_a_region_is_probed_on_its_hand_of_fewest_distribution_points_above_none(
        reading, level, points):
    """On a flat hand a reader of 1NT on 15-19 points answered as 1NT on 15-19 HCP at every
    probe, and was named so: on a hand of one distribution point they part."""
    place = place_of(reading)
    first = probes(shipped(), place)[0].codes[0]
    assert (packed.hcp(first), packed.tally(first).distribution) == (level, points)


FLAT_AT = {14: "AS KS 2S AH 3H 2H KD 3D 2D 5C 4C 3C 2C",
           15: "AS KS 2S AH 3H 2H AD 3D 2D 5C 4C 3C 2C",
           17: "AS KS QS AH 3H 2H AD 3D 2D 5C 4C 3C 2C",
           18: "AS KS QS AH 3H 2H AD 3D 2D JC 4C 3C 2C",
           19: "AS KS QS AH 3H 2H AD 3D 2D QC 4C 3C 2C"}
LONG_14 = "AS KS QS JS 2S AH 3H 2H 3D 2D 4C 3C 2C"  # 5332, 14 HCP


def codes_at(*levels):
    return tuple(packed.encode_cards(parse_hand(FLAT_AT[level]).cards) for level in levels)


@pytest.mark.parametrize("codes, levels", [
    (codes_at(18, 15, 17, 14), (14, 15, 16, 17, 18)),
    (codes_at(14, 15, 19), (14, 15)),
    (codes_at(15, 14) + (packed.encode_cards(parse_hand(LONG_14).cards),), (14, 15)),
    (codes_at(14, 18), (14, 15, 16, 17, 18)),
    (codes_at(14, 19), ()),
    (codes_at(15), ()),
    ((packed.encode_cards(parse_hand(LONG_14).cards),) + codes_at(14, 15), ()),
    (codes_at(19, 14, 15), (15, 16, 17, 18, 19)),
], ids=["four probes within five HCP: one ladder of five, the gap filled",
        "a probe beyond five HCP of the poorest: left out", "another shape: left out",
        "two ends four HCP apart: the three between filled",
        "five HCP apart: no ladder", "one probe: no ladder",
        "the first probe's shape decides: alone in it, no ladder",
        "the span holds the first probe: the poorest beyond it waits"])
def test_the_probes_of_one_shape_within_five_hcp_are_one_ladder_poorest_first(codes, levels):
    ladder = probe_ladder(codes)
    assert not ladder or codes[0] in ladder
    assert tuple(packed.hcp(code) for code in ladder) == levels
    assert len({packed.tally(code).lengths for code in ladder}) <= 1
    given = {code for code in codes if packed.hcp(code) in levels
             and packed.tally(code).lengths == packed.tally(codes[0]).lengths}
    assert given <= set(ladder)


def test_a_probe_ladder_whose_honours_run_out_is_not_asked(monkeypatch):
    monkeypatch.setattr(probes_module, "stepped", lambda code, step: None)
    assert probe_ladder(codes_at(14, 17)) == ()


def test_a_probe_ladder_that_would_ask_a_hand_again_is_not_asked():
    filled = probe_ladder(codes_at(14, 17))
    assert len(filled) == 4
    assert probe_ladder(codes_at(14, 17), frozenset({filled[1]})) == ()
    assert probe_ladder(codes_at(14, 17), frozenset({filled[0]})) == filled  # a probe's own


@pytest.mark.parametrize("hand, mark", [
    ("AS 3S 2S KH 3H 2H QD 2D KC QC 4C 3C 2C", (14, 1, "1NT", "1C")),
    ("AS 2S KH 3H 2H QD 3D 2D KC QC 4C 3C 2C", (14, 1, "1NT", "1C")),
    ("AS KS 9S 3S 2S QH 3H KD 3D 2D QC 3C 2C", (14, 1, "1S", "1S")),
    ("AS 3S 2S KH 3H 2H KD QD 4D 3D 2D QC 2C", (14, 1, "1NT", "1D")),
    ("AS 3S 2S KH 3H 2H QD 2D KC QC JC 3C 2C", (15, 1, "1NT", "1C")),
    ("AS 3S 2S KH 3H 2H JD 2D KC QC 4C 3C 2C", (13, 1, "1C", "1C")),
    ("QS 3S 2S 3H 2H KD QD 3D 2D AC QC JC 2C", (14, 0, "1NT", "1C")),
], ids=["its shape, the honours elsewhere", "another shape, the same HCP, points and bids",
        "the same HCP, another bid (a five-card major)",
        "the same HCP, another bid by the rules (a five-card diamond suit)", "one HCP more",
        "one HCP less", "the same HCP and bids, a distribution point less (flat)"])
def test_a_hand_answered_alike_to_a_probe_answers_it(hand, mark):
    """A hand the round asked for another reason, alike to a probe (its HCP, distribution
    points and both bids, whatever its shape), answers the probe: it is not asked again,
    and its answer settles it. The probe is R1.hcp=14-18's 14 HCP with a five-card club
    suit: 1NT by it, 1C by the rules."""
    bank = shipped()
    place = place_of("R1.hcp=14-18")
    probe = probes(bank, place)[0]
    assert signature(place, probe.codes[0]) == (14, 1, "1NT", "1C")
    other = packed.encode_cards(parse_hand(hand).cards)
    assert other not in probe.codes
    assert signature(place, other) == mark
    alike = mark == signature(place, probe.codes[0])
    met, missed_once = {other: (0, probe.bid)}, {other: (0, "4S")}
    assert (every_probe(bank, place, met)[0].codes == probe.codes + (other,)) is alike
    waiting = [found.codes[0] for found in unsettled(bank, place, met)]
    assert (probe.codes[0] not in waiting) is alike
    assert other in probe_codes(bank, place, met) or not alike
    assert probe.codes[0] in [found.codes[0] for found in unsettled(bank, place, missed_once)]
    assert probe_codes(bank, place) == probe_codes(bank, place, {})


def test_given_bids_keep_each_hand_s_last_answer():
    hand = parse_hand(FLAT_AT[14])
    answers_given = [Answer(hand, None), Answer(hand, BID_BY_VALUE["1NT"])]
    assert given_bids(answers_given) == {packed.encode_cards(hand.cards): (1, "1NT")}


def test_where_a_reading_s_bid_runs_on_its_region_ends_where_the_rules_bid_does():
    """Forgetting R8, a reading passes an eight-card suit at any HCP: its bid never
    stops, so its region's ends are where the rules' four-bid does, at 6 HCP and at 5
    beyond it. There a reader of R8 by points (5-9 points, outside the space) bids four
    and is told from it."""
    bank = shipped()
    place = place_of("omit=R8")
    marks = {(hcp, mine, rules) for hcp, _, mine, rules in (
        signature(place, probe.codes[0]) for probe in probes(bank, place))}
    assert (6, None, "4S") in marks or (6, None, "4D") in marks
    assert (5, None, None) in marks


@pytest.mark.parametrize("answered, waits", [(PROBE_ANSWERS - 1, True), (PROBE_ANSWERS, False)],
                         ids=["missed one time fewer than its most: asked again",
                              "missed its most times: left to the posterior"])
def test_a_probe_missed_its_most_times_is_left_to_the_posterior(answered, waits):
    """A probe may be asked on any hand alike to it, so its own hands do not bound it: after
    PROBE_ANSWERS answers it is asked no more, and the posterior weighs its misses."""
    bank = shipped()
    place = place_of("R1.hcp=14-18")
    probe = probes(bank, place)[0]
    others = [code for code in alike_hands(bank, place, signature(place, probe.codes[0]))
              if code not in probe.codes]
    given = {code: (number, "4S") for number, code in enumerate(others[:answered])}
    assert len(given) == answered
    assert (probe.codes[0] in [found.codes[0] for found in unsettled(bank, place, given)]) is (
        waits)


@pytest.mark.parametrize("reading", ["R1.hcp=14-18", "omit=R8", "R6.choose=higher-last",
                                     "swap=R2/R5", "R7.points=5-9"])
def test_no_two_probes_of_a_reading_are_alike(reading):
    """One answer settles every probe alike to it: two probes alike would take two places
    of the MOST_PROBES for one."""
    bank = shipped()
    place = place_of(reading)
    marks = [signature(place, probe.codes[0]) for probe in probes(bank, place)]
    assert marks and len(marks) == len(set(marks)) <= MOST_PROBES
