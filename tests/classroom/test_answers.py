"""A class file of answers (the `bidder grade` format): each student's answers judged and
diagnosed, with no code to run."""

import pytest

from bidder import packed
from bidder.classroom import SourceError, check_class, read_submissions, summarise
from bidder.classroom.sources import opened
from itertools import islice

from bidder.dealing import changed_hand, dealt_text, hand_stream
from bidder.misreadings import variant_by_id


def bid_of(hand, variant=None):
    code = packed.encode(hand)
    if variant is None:
        return packed.decide(code)[1] or "Pass"
    return variant.written(packed.decide(code, variant.rules, variant.counting)[1]) or "Pass"


def write_answers(path):
    r3 = variant_by_id("r3-unbalanced-only")
    hands = [dealt_text(indexes) for indexes in islice(hand_stream(3), 40)]
    changed = [text for text in (changed_hand(r3, seed) for seed in range(1, 8)) if text]
    lines = ["hand,answer,id"]
    for hand in hands + changed:
        lines.append(f'"{hand}",{bid_of(hand)},right')
        lines.append(f'"{hand}",{bid_of(hand, r3)},misread')
        lines.append(f'"{hand}",7NT,lost')
    lines += ['"AS KS",1C,broken', '"AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",,blank']
    path.write_text("\n".join(lines) + "\n")
    return path


def test_each_students_answers_are_judged_and_diagnosed(tmp_path):
    with opened(str(write_answers(tmp_path / "class.csv"))) as source:
        outcomes = {outcome.student: outcome
                    for outcome in check_class(read_submissions(source), jobs=2)}
    assert outcomes["right"].score == 100 and outcomes["right"].misreadings == ()
    assert outcomes["misread"].misreadings == ("r3-unbalanced-only",)
    assert outcomes["misread"].score < 100 and outcomes["misread"].source == "answers"
    assert outcomes["lost"].stuck and outcomes["lost"].score == 0
    assert not outcomes["broken"].checked and "line " in outcomes["broken"].problem
    assert outcomes["blank"].problem == "no line holds an answer"
    parts = dict(outcomes["misread"].parts)
    assert parts["openingBid: hands R3 (1 of a minor) decides"] is False
    assert summarise(outcomes.values()).held[0].id == "r3-unbalanced-only"


def test_a_file_that_cannot_be_read_says_so(tmp_path):
    with pytest.raises(SourceError, match="cannot be read"):
        read_submissions(str(tmp_path / "missing.csv"))


def test_copied_wrong_answers_no_misreading_explains_make_a_pair_to_look_at(tmp_path):
    hands = [dealt_text(indexes) for indexes in islice(hand_stream(5), 30)]
    lines = []
    for number, hand in enumerate(hands):
        odd = "7NT" if number % 3 else bid_of(hand)
        lines += [f'"{hand}",{odd},copy1', f'"{hand}",{odd},copy2',
                  f'"{hand}",{bid_of(hand)},honest']
    (tmp_path / "class.csv").write_text("\n".join(lines) + "\n")
    report = summarise(check_class(read_submissions(str(tmp_path / "class.csv"))),
                       similar=True)
    assert [(pair.first, pair.second) for pair in report.similar] == [("copy1", "copy2")]
    assert report.similar[0].shared == 20 and len(report.similar[0].evidence) == 3
