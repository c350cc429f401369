"""The probes of a leading misreading: the ends of each region where it opens otherwise than
the rules and one HCP beyond them, hands of one shape one HCP apart, and when a probe counts
as answered as the misreading answers."""

import pytest

from bidder import packed
from bidder.diagnosis.bank import shipped
from bidder.diagnosis.hypotheses import answers, readings
from bidder.diagnosis.probes import (Probe, missed, misses, probe_codes, probes, settled,
                                     stepped, unsettled)


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


@pytest.mark.parametrize("reading", ["R1.hcp=14-18", "swap=R2/R5", "dist=beyond-3"])
def test_each_probe_s_hands_share_shape_hcp_and_both_bids(reading):
    place = place_of(reading)
    variant = readings()[place]
    for probe in probes(shipped(), place):
        first = probe.codes[0]
        for code in probe.codes:
            assert packed.hcp(code) == packed.hcp(first)
            assert packed.tally(code).lengths == packed.tally(first).lengths
            assert answers(variant, code)[0] == probe.bid == answers(variant, first)[0]
            assert answers(None, code)[0] == answers(None, first)[0]
        assert len(set(probe.codes)) == len(probe.codes)


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
    ("mmmx", False),
    ("xx", True),
    ("xxxx", True),
], ids=["never asked", "met on the first hand, others not asked",
        "missed on the first hand, others to ask", "met thrice, then missed on the last",
        "missed twice", "missed on every hand"])
def test_a_probe_waits_unless_settled_or_missed_once_with_no_hand_left(pattern, waiting):
    bank = shipped()
    place = place_of("R1.hcp=14-18")
    probe = probes(bank, place)[0]
    assert len(probe.codes) == 4
    given = {code: (number, probe.bid if mark == "m" else "4S")
             for number, (code, mark) in enumerate(zip(probe.codes, pattern))}
    if pattern == "m":
        waiting = False  # met last and never missed: settled
    assert (probe in unsettled(bank, place, given)) is waiting
    assert (probe in missed(bank, place, given)) is ("x" in pattern)
