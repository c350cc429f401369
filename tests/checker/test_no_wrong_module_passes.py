"""No wrong module passes: every check holds, for each misreading that changes some hand, a
hand it opens otherwise than the rules (dealt for the check's seed from profiles of such
hands found exactly and kept with the package), so a module reading the rules as any of
them loses marks and is not told that every answer agrees."""

import random
from pathlib import Path

import pytest

from bidder import packed
from bidder.checker.bundle import Bundle
from bidder.checker.check import (WORKED_EXAMPLES, build_cases, check_module, further_cases,
                                  misreading_hands, misreading_seed, threshold_seed)
from bidder.checker.diagnosis import diagnose
from bidder.checker.points import parts, total_points
from bidder.checker.standalone import module_source
from bidder.checker.text import text_report
from bidder.dealing import telling_hand
from bidder.explaining import Predictor
from bidder.misreadings import distinguishable, variant_by_id
from bidder.variants import ASSIGNMENT
from test_misreading_roundtrip import functions_of, judged

DISTINGUISHABLE = distinguishable()
SEEDS = [1, 2, Bundle(secret="a course's own secret").own_seed("4210001")]
CORRECT = (Path(__file__).parent / "students" / "correct.py").read_text()
HCP_FIRST = """\
    if suit_points(hand, high) != suit_points(hand, low):
        return max(long_suits, key=lambda suit: suit_points(hand, suit))
    if counts[high] != counts[low]:
        return max(long_suits, key=lambda suit: counts[suit])
"""
LENGTH_FIRST = """\
    if counts[high] != counts[low]:
        return max(long_suits, key=lambda suit: counts[suit])
    if suit_points(hand, high) != suit_points(hand, low):
        return max(long_suits, key=lambda suit: suit_points(hand, suit))
"""
LENGTHS_BEFORE_HCP = "R6.choose=major,longer,hcp,lower"


def fails(report) -> bool:
    """The check does not pass the module: some answer is wrong, it has less than every
    point, and the report does not say that every answer agrees."""
    points, possible = total_points(parts(report))
    return (bool(report.mismatches) and points < possible
            and "every answer agrees" not in text_report(report))


@pytest.mark.parametrize("seed", SEEDS, ids=["default", "seed 2", "a course's secret"])
def test_every_check_holds_a_hand_each_distinguishable_misreading_opens_otherwise(seed):
    hands = misreading_hands(seed)
    predictor = Predictor()
    assert [variant_id for variant_id, _ in hands] == [v.id for v in DISTINGUISHABLE]
    for variant, (_, hand) in zip(DISTINGUISHABLE, hands):
        code = packed.encode(hand)
        assert predictor.predicted(variant, "openingBid", code) != packed.decide(code)[1], \
            (variant.id, hand)
    cases = build_cases(10, seed)
    assert {case.hand for case in cases if case.kind == "misreading"} <= {
        hand for _, hand in hands}
    assert len(cases) == len({case.hand for case in cases})


def test_each_seed_deals_the_misreadings_their_own_hands():
    one, other = (dict(misreading_hands(seed)) for seed in SEEDS[:2])
    assert one == dict(misreading_hands(SEEDS[0]))  # the same on a regrade
    assert sum(one[key] != other[key] for key in one) > 0.9 * len(one)
    assert misreading_seed(1) not in (1, threshold_seed(1))


def test_a_misreading_that_changes_no_hand_has_no_hand_to_tell_it():
    assert telling_hand(variant_by_id("r8-6-8"), random.Random(1)) is None
    assert telling_hand(ASSIGNMENT, random.Random(1)) is None


@pytest.mark.slow
@pytest.mark.no_cover  # a sweep of the whole space (see test_misreading_roundtrip.py)
@pytest.mark.parametrize("variant", DISTINGUISHABLE, ids=[v.id for v in DISTINGUISHABLE])
def test_a_module_reading_the_rules_as_any_distinguishable_misreading_fails_the_check(
        variant):
    assert fails(judged(functions_of(variant), build_cases()))


def test_the_correct_module_still_passes_every_hand():
    names: dict = {}
    exec(compile(CORRECT, "correct.py", "exec"), names)
    cases = build_cases(10, SEEDS[2])
    report = judged(names, cases)
    assert not report.mismatches and not fails(report)


def lengths_before_hcp() -> dict:
    """A student's module that, of two long suits of a kind worth a 2-level opening,
    compares their lengths before their HCP (the rules say HCP first)."""
    source = CORRECT.replace(HCP_FIRST, LENGTH_FIRST)
    assert source != CORRECT
    names: dict = {}
    exec(compile(source, "solution.py", "exec"), names)
    return names


@pytest.mark.parametrize("seed", SEEDS, ids=["default", "seed 2", "a course's secret"])
def test_comparing_lengths_before_hcp_fails_and_is_named(seed):
    names = lengths_before_hcp()
    report = judged(names, build_cases(1000, seed))
    assert fails(report)
    assert {case.rule for case in (report.cases[v.case] for v in report.mismatches)} == {"R6"}
    found = diagnose(report, lambda hands: judged(names, further_cases(hands)))
    assert found.variant.id == LENGTHS_BEFORE_HCP
    assert found.explained == found.wrong and not found.unexplained
    assert "the longer, then more HCP in the suit" in found.sentence(report)


@pytest.mark.slow
def test_bidder_check_fails_and_names_a_module_comparing_lengths_before_hcp(tmp_path):
    path = tmp_path / "solution.py"
    path.write_text(CORRECT.replace(HCP_FIRST, LENGTH_FIRST))
    report = check_module(str(path))
    assert fails(report) and report.diagnosis.variant.id == LENGTHS_BEFORE_HCP
    assert f"one misreading ({LENGTHS_BEFORE_HCP})" in text_report(report)


def test_the_worked_examples_are_the_assignments_whatever_the_seed():
    for seed in SEEDS:
        assert [case.hand for case in build_cases(10, seed)][:12] == list(WORKED_EXAMPLES)


def test_a_standalone_module_reads_a_chain_and_a_length_read_per_case():
    for variant_id, hand, bid in [
            (LENGTHS_BEFORE_HCP, "AS KS QS 8S 6S AH KH 10H 7H 5H 3H KD 4C", "2H"),
            ("R6.len.one=6+", "AS KS 5S 3S 2S KH 8H AD KD 9D 7D AC 4C", None),
            ("R6.len.one=6+", "AS KS 6S 5S 3S 2S KH AD KD 9D 7D AC 4C", "2S"),
            ("dist=longest-only", "AS 8S 4S 3S 2S AH QH 9H 5H 2H JD 3D 8C", None)]:
        names = functions_of(variant_by_id(variant_id))
        assert names["openingBid"](hand) == bid
    assert functions_of(variant_by_id("dist=longest-only"))["distributionPoints"](
        "AS 8S 4S 3S 2S AH QH 9H 5H 2H JD 3D 8C") == 1


def test_a_standalone_module_reads_the_ten_either_way_on_a_scale_that_counts_it():
    names = functions_of(variant_by_id("hcp.T=1"))
    assert names["highCardPoints"]("AS KS QS JS 10S 2H 3H 4H 5H 2D 3D 4D 2C") == 11
    assert names["highCardPoints"]("AS KS QS JS TS 2H 3H 4H 5H 2D 3D 4D 2C") == 11
