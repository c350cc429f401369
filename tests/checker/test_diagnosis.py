"""What a student got wrong: the misreading behind their answers, named in a sentence."""

from dataclasses import replace

import pytest

from bidder import packed
from bidder.checker.check import FUNCTIONS, Answer, Report, build_cases, further_cases, judge
from bidder.checker.diagnosis import (ALTERNATIVES, Diagnosis, confirmed_parts, diagnose,
                                      matches, predictions)
from bidder.checker.text import headline
from bidder.misreadings import distinguishable, variant_by_id
from bidder.variants import CATALOGUE, VARIANT_BY_ID

CASES = build_cases(hands=1500, seed=11)


def first_traced(values: list, ids=None) -> list:
    """*values* as a sweep's parameters: the first traced by coverage, the rest, which
    run the same lines on other misreadings, untraced (three times faster)."""
    return [pytest.param(value, id=None if ids is None else ids(value),
                         marks=() if place == 0 else pytest.mark.no_cover)
            for place, value in enumerate(values)]


def answer_of(value) -> Answer:
    if value is None:
        return Answer("none", None, "NoneType")
    return Answer("int" if type(value) is int else "str", value, type(value).__name__)


def student(variant, cases=CASES, slips=()) -> Report:
    """The report of a student who reads the rules as *variant*, with a few *slips*
    (case numbers where the bid is simply wrong)."""
    predicted = predictions(variant, cases)
    verdicts = []
    for function in FUNCTIONS:
        for number, case in enumerate(cases):
            value = predicted[function][number]
            if function == "openingBid" and number in slips:
                value = "7NT"
            verdicts.append(judge(function, number, answer_of(value),
                                  case.expected[FUNCTIONS.index(function)]))
    return Report("s.py", cases, tuple(verdicts))


CHANGING = [variant for variant in CATALOGUE if variant.id != "r8-6-8"]


@pytest.mark.parametrize("variant", first_traced(CHANGING, lambda variant: variant.id))
def test_a_student_reading_the_rules_as_a_variant_is_diagnosed(variant):
    report = student(variant)
    found = diagnose(report)
    assert found is not None and found.variant.id == variant.id
    assert found.explained == found.wrong == len(report.mismatches)
    assert found.unexplained == 0
    sentence = found.sentence(report)
    assert sentence.startswith(f"{found.share()} one misreading "
                               f"({variant.id}): {variant.sentence}")
    assert found.share() in ("The one wrong answer fits", "Both wrong answers fit",
                             f"All {found.wrong:,} wrong answers fit")
    assert variant.departs in sentence


def test_a_variant_that_changes_no_hand_is_never_named():
    assert not student(VARIANT_BY_ID["r8-6-8"]).mismatches
    assert diagnose(student(VARIANT_BY_ID["r8-6-8"])) is None


def test_a_correct_student_gets_no_diagnosis():
    assert diagnose(student(VARIANT_BY_ID["r8-6-8"].and_then(VARIANT_BY_ID["r8-6-8"]))) is None


def test_two_misreadings_at_once_are_named_as_a_pair():
    pair = VARIANT_BY_ID["r3-unbalanced-only"].and_then(VARIANT_BY_ID["none-as-string"])
    found = diagnose(student(pair))
    assert found.ids == ("r3-unbalanced-only", "none-as-string")


def test_all_but_a_few_is_still_a_diagnosis_but_not_many_more():
    variant = VARIANT_BY_ID["r3-unbalanced-only"]
    wrong = len(student(variant).mismatches)
    few = diagnose(student(variant, slips={0}))
    assert few.variant is variant and few.explained == few.wrong - 1 == wrong
    assert few.sentence(student(variant, slips={0})).startswith(
        f"{wrong:,} of the {wrong + 1:,} wrong answers fit one misreading")
    many = set(range(0, len(CASES), 7))
    assert diagnose(student(variant, slips=many)) is None


@pytest.fixture(scope="module")
def one_misreading() -> Diagnosis:
    """The diagnosis of a student reading the rules as one misreading."""
    return diagnose(student(VARIANT_BY_ID["r3-unbalanced-only"]))


@pytest.mark.parametrize("explained, wrong, unexplained, said", [
    (1, 1, 0, "The one wrong answer fits"),
    (2, 2, 0, "Both wrong answers fit"),
    (3, 3, 0, "All 3 wrong answers fit"),
    (1_200, 1_200, 0, "All 1,200 wrong answers fit"),
    (1, 2, 1, "1 of the 2 wrong answers fits"),
    (2, 3, 1, "2 of the 3 wrong answers fit"),
    (2, 2, 1, "2 of the 2 wrong answers fit"),  # a right answer it does not predict
])
def test_the_share_of_wrong_answers_reads_as_english(one_misreading, explained, wrong,
                                                     unexplained, said):
    assert replace(one_misreading, explained=explained, wrong=wrong,
                   unexplained=unexplained).share() == said


@pytest.mark.parametrize("given, predicted, fits", [
    (answer_of(12), 12, True), (answer_of(12), 13, False),
    (answer_of("1C"), "1C", True), (answer_of(None), None, True),
    (answer_of("None"), None, False), (Answer("other", None, "float", "12.0"), 12, False),
])
def test_an_answer_fits_a_prediction_only_with_its_type(given, predicted, fits):
    assert matches(given, predicted) is fits


def test_predictions_count_and_bid_as_the_variant_reads():
    shortness = predictions(VARIANT_BY_ID["shortness-points"], CASES)
    codes = [packed.encode(case.hand) for case in CASES]
    assert shortness["highCardPoints"] == tuple(map(packed.hcp, codes))
    assert shortness["distributionPoints"] != tuple(case.expected[1] for case in CASES)


DEFAULT = build_cases(hands=1045, seed=1)


@pytest.mark.parametrize("variant_id", first_traced([
    "balanced=no-minor-five", "R1.points=16-18", "R6.choose=higher-last", "R2.len=5",
    "R1.hcp=15-18", "dist=beyond-3", "swap=R2/R3", "last-wins",
]))
def test_misreadings_nobody_listed_are_named(variant_id):
    report = student(variant_by_id(variant_id), DEFAULT)
    found = diagnose(report)
    assert found.variant.id == variant_id and found.unexplained == 0


def test_misreadings_that_fit_as_well_are_named_together():
    report = student(variant_by_id("swap=R5/R8"), DEFAULT)
    found = diagnose(report)
    assert found.unexplained == 0 and len(found.alternatives) == ALTERNATIVES
    sentence = found.sentence(report)
    assert " Just as well, the answers fit either this or (" in sentence
    assert sentence.count(" or (") == ALTERNATIVES


@pytest.mark.parametrize("pair", [
    "none-as-string+R1.hcp=15-18",  # in the order of the space: the catalogue first
    "R1.points=16-18+dist=beyond-3",  # R1 counts points as the other part does
])
def test_a_pair_is_tried_when_no_single_misreading_explains_everything(pair):
    found = diagnose(student(variant_by_id(pair), DEFAULT))
    assert "+".join(found.ids) == pair and found.unexplained == 0


def test_when_nothing_fits_the_report_says_so():
    many = set(range(0, len(DEFAULT), 5))
    report = replace(student(variant_by_id("R1.hcp=15-18"), DEFAULT, slips=many),
                     searched=len(distinguishable()))
    assert diagnose(report) is None
    assert headline(report).endswith(
        f"; no misreading of the rules ({len(distinguishable())} tried, alone and in pairs) "
        f"fits all but a few of them")
    assert "no misreading" not in headline(replace(report, searched=0))


def asking(variant):
    """The module of a student reading the rules as *variant*, asked further hands."""
    return lambda hands: student(variant, further_cases(hands))


# a module reading every '+' as 'more than': 6+ cards for R2 and R6, 23+ points for R6
EVERY_PLUS = "R2.len=6++R6.points=23++R6.len=6+"


def test_a_part_of_a_pair_that_further_hands_do_not_bear_out_is_not_named():
    plus = variant_by_id(EVERY_PLUS)
    report = student(plus, DEFAULT)
    unasked = diagnose(report)
    first, second = unasked.ids  # the checked hands alone fit a pair: R2's part, and R6's
    assert first == "R2.len=6+" and second.startswith("R6.")
    found = diagnose(report, asking(plus))
    assert found.ids == ("R2.len=6+",)
    assert [part.id for part in found.unconfirmed] == [second]
    assert found.confirming > 0 and found.unexplained > 0
    sentence = found.sentence(report)
    assert not sentence.startswith("All")
    assert (f"With ({second}) it fit the checked hands better, but on the "
            f"{found.confirming} further hands asked to confirm each part the module does "
            f"not answer as ({second}) does: only the part that fits is named.") in sentence
    assert sentence.endswith(f"Left unexplained: {found.wrong - found.explained} wrong "
                             f"answers it does not predict.")


def test_a_pair_is_named_when_further_hands_bear_out_each_part():
    pair = variant_by_id("R1.points=16-18+dist=beyond-3")
    found = diagnose(student(pair, DEFAULT), asking(pair))
    assert "+".join(found.ids) == pair.id and found.unconfirmed == ()
    assert found.confirming > 0 and found.unexplained == 0


def test_a_pair_no_part_of_which_further_hands_bear_out_names_nothing():
    pair = variant_by_id("R1.points=16-18+dist=beyond-3")
    assert diagnose(student(pair, DEFAULT), asking(VARIANT_BY_ID["r8-6-8"])) is None


def test_parts_no_hand_tells_apart_are_not_confirmed_and_nothing_is_asked():
    def never(hands):
        raise AssertionError("no hand to ask")
    doubled = variant_by_id("r8-6-8+r8-6-8")
    assert confirmed_parts(doubled, never) == (None, (VARIANT_BY_ID["r8-6-8"],) * 2, 0)


@pytest.mark.parametrize("explained, wrong, unexplained, start, end", [
    (5, 5, 0, "All 5 wrong answers", "returned '1NT' (str)."),
    (5, 5, 1, "5 of the 5 wrong answers",
     "Left unexplained: 1 right answer it would have made wrong."),
    (4, 5, 1, "4 of the 5 wrong answers",
     "Left unexplained: 1 wrong answer it does not predict."),
    (3, 5, 4, "3 of the 5 wrong answers",
     "Left unexplained: 2 wrong answers it does not predict and 2 right answers it would "
     "have made wrong."),
], ids=["all", "all-wrong-but-a-right-one-broken", "one-missed", "missed-and-broken"])
def test_all_is_said_only_when_every_answer_fits(explained, wrong, unexplained, start, end):
    report = student(VARIANT_BY_ID["1nt-15-17"], CASES[:1])
    example = replace(report.verdicts[-1], answer=answer_of("1NT"))
    sentence = Diagnosis(VARIANT_BY_ID["1nt-15-17"], explained, wrong, unexplained,
                         example).sentence(report)
    assert sentence.startswith(start) and sentence.endswith(end)


def test_further_hands_come_from_the_diagnosis_bank_each_a_hand_its_misreading_changes():
    from bidder import packed
    from bidder.checker.diagnosis import further_codes
    from bidder.dealing import bids_of

    variant = variant_by_id("1nt-15-17")
    codes = list(further_codes([variant.id]))
    assert 0 < len(codes) <= 100 and codes == list(further_codes([variant.id]))
    assert all(len(set(bids_of([variant], code))) == 2 for code in codes)
