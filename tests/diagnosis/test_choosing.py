"""Choosing the next item: information gain under slips, from both sides of its edges."""

from math import isclose

import pytest

from bidder.diagnosis.bank import FIELDS, shipped
from bidder.diagnosis.choosing import Option, best, entropy, gain, options, split


def option(groups, outcomes, answers=1):
    row = shipped().rows[0]
    return Option((row,) * answers, ("bid",), groups, outcomes)


@pytest.mark.parametrize("masses, total, slip, expected", [
    ([0.5], 1.0, 0.0, 1.0),
    ([0.0], 1.0, 0.0, 0.0),
    ([0.5], 1.0, 0.5, 1 - entropy((0.75, 0.25))),
    ([0.25], 0.5, 0.0, 1.0),
], ids=["an even split without slips is one bit", "a split of nothing tells nothing",
        "slips take away what they scramble", "the weights need not sum to one"])
def test_the_gain_of_a_two_way_split(masses, total, slip, expected):
    assert isclose(gain(option(((1,),), 2), masses, total, slip), expected, abs_tol=1e-9)


def test_an_outcome_no_likely_class_gives_still_receives_slips():
    hidden = gain(option(((1,), (2,)), 3), [0.5], 1.0, 0.3)
    assert 0 < hidden != gain(option(((1,),), 2), [0.5], 1.0, 0.3)


@pytest.mark.parametrize("answers", [2, 5, 15], ids=["a hand and a count", "a ladder",
                                                   "a ladder with both counts"])
def test_an_item_of_several_answers_is_scrambled_as_one_answer_slips(answers):
    """Its groups are told apart where they differ, most often one answer: a slip in
    another costs them nothing, so an item gains by how it splits, not by its length."""
    assert isclose(gain(option(((1,),), 2, answers=answers), [0.5], 1.0, 0.1),
                   gain(option(((1,),), 2, answers=1), [0.5], 1.0, 0.1), abs_tol=1e-12)


def test_the_best_option_splits_the_likely_classes_and_skips_hands_asked():
    bank = shipped()
    found = options(bank, FIELDS, True, True)
    weights = [1.0] * len(bank.classes(FIELDS))
    chosen = best(found, weights, 0.1, frozenset())
    assert chosen is not None
    again = best(found, weights, 0.1, frozenset(row.code for row in chosen.rows))
    assert again is not None and again.rows != chosen.rows


def test_nothing_is_chosen_when_one_class_is_all_that_is_left():
    bank = shipped()
    found = options(bank, ("bid",), False, False)
    weights = [0.0] * len(bank.classes(("bid",)))
    weights[3] = 1.0
    assert best(found, weights, 0.1, frozenset()) is None


def test_a_split_leaves_out_its_largest_group():
    bank = shipped()
    classes = bank.classes(FIELDS)
    groups, outcomes = split(bank.rows[:1], ("bid",), classes)
    assert outcomes == len(groups) + 1
    assert sum(map(len, groups)) < len(classes)


@pytest.mark.parametrize("fields, counting", [(("bid",), False), (FIELDS, True)],
                         ids=["bids only", "bids and counts"])
def test_the_other_hands_of_an_option_s_split_are_its_kin(fields, counting):
    """A hand splitting the classes as an option's own hand, asked alike, is its kin: it
    splits them as the option (Options.splitting), but only the option's own hand bars it
    once asked, as before kin were kept."""
    bank = shipped()
    found = options(bank, fields, counting, False)
    classes = bank.classes(fields)
    with_kin = [place for place, item in enumerate(found.items) if item.kin]
    assert with_kin and all(len(found.items[place].rows) == 1 for place in with_kin)
    for place in with_kin[::97]:
        item = found.items[place]
        for row in item.kin:
            assert split((row,), item.ask, classes) == split(item.rows, item.ask, classes)
            assert place in found.splitting[row.code]
            assert place not in found.by_code.get(row.code, ())
    weights = [1.0] * len(classes)
    first = best(found, weights, 0.1, frozenset())
    assert first is not None and first.kin
    assert best(found, weights, 0.1, frozenset({first.kin[-1].code})) is first
    assert best(found, weights, 0.1, frozenset({first.rows[0].code})) is not first
