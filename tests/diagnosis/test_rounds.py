"""The diagnostic round: named once sure with its probes answered, a student just outside
the space not named by the misreading nearest, an item budget, a ladder counted as one
item, the teacher's words, the class poll and teaching hands."""

import pytest

from bidder import packed
from bidder.bids import BID_BY_VALUE
from bidder.cards import parse_hand
from bidder.diagnosis import Answer, diagnose, next_for_class, teaching_hands
from bidder.diagnosis import rounds
from bidder.diagnosis.bank import FIELDS, shipped
from bidder.diagnosis.hypotheses import answers as reading_answers
from bidder.diagnosis.learner import Belief, Hypothesis, evidence, pair_bid, pairs_to_try
from bidder.diagnosis.outcome import NONE
from bidder.diagnosis.probes import alike_hands, probes, signature
from bidder.diagnosis.rounds import (ITEM_BUDGET, describe, diagnosis_of_rows,
                                     items_answered)
from bidder.misreadings import MisreadingError, variant_by_id

FLAT = "AS KS 2S AH 3H 2H KD 3D 2D 5C 4C 3C 2C"


def answered(reading, hand, ask=("bid",)):
    """The answer a student reading *reading* gives, without slips."""
    bid, hcp, distribution = reading_answers(reading, packed.encode_cards(hand.cards))
    return Answer(hand, None if bid is None else BID_BY_VALUE[bid],
                  hcp if "hcp" in ask else None,
                  distribution if "distribution" in ask else None)


def play(reading, ladders=True, counting=True, limit=ITEM_BUDGET + 1, slips=()):
    """A round answered by a student of *reading*, slipping (to no opening, or 1C where
    the reading passes) on the answers whose places are in *slips*: the answers and the
    last diagnosis."""
    given = []
    for _ in range(limit):
        found = diagnose(given, ladders=ladders, counting=counting)
        if found.next is None:
            return given, found
        for hand in found.next.hands:
            answer = answered(reading, hand, found.next.ask)
            if len(given) in slips:
                answer = Answer(hand, None if answer.bid else BID_BY_VALUE["1C"],
                                answer.hcp, answer.distribution)
            given.append(answer)
    raise AssertionError("the round did not end within its budget")


@pytest.mark.parametrize("reading, ladders", [
    ("R1.hcp=17-18", True), ("swap=R2/R5", False), ("1nt-15-17", True),
], ids=["a 1NT range, with ladders", "two rules swapped, bids only",
        "the catalogue's 15-17, with ladders"])
def test_a_student_answering_as_a_misreading_without_slips_is_named(reading, ladders):
    given, found = play(variant_by_id(reading), ladders=ladders, counting=ladders)
    bank = shipped()
    members = next(tuple(bank.ids[place] for place in group)
                   for group in bank.classes(FIELDS) if reading in
                   (bank.ids[place] for place in group))
    assert found.named in members
    assert found.confidence >= rounds.CONFIDENT
    assert items_answered(given) <= ITEM_BUDGET
    assert 0 <= found.second < 1 - rounds.ALONE  # a second beside it: under 1 in 10


@pytest.mark.slow
@pytest.mark.parametrize("place", range(0, len(shipped().classes(FIELDS)), 20))
def test_a_class_answered_without_slips_is_named_rightly_or_not_named(place):
    """Every 20th class of the bank as the truth: the round names it, or ends at its
    budget without a name (swap=R2/R6 does, since the space grew), never another."""
    bank = shipped()
    group = bank.classes(FIELDS)[place]
    first = group[0]
    reading = None if first == 0 else variant_by_id(bank.ids[first])
    _, found = play(reading)
    assert found.named in {bank.ids[member] for member in group} | {None}


@pytest.mark.parametrize("pair, ladders", [
    ("1nt-15-17+no-2nt", False), ("1nt-15-17+no-2nt", True),
    ("seven-or-more+equal-minors-diamonds", False),
    ("seven-or-more+equal-minors-diamonds", True), ("R5.hcp=21-24+dist=beyond-3", True),
], ids=["1NT's range and no 2NT, bids only", "1NT's range and no 2NT, with ladders",
        "a long major opened low and equal minors, bids only",
        "a long major opened low and equal minors, with ladders",
        "2C's range and distribution points, with ladders"])
def test_a_student_with_two_misreadings_is_named_by_both_parts_or_told_one_is_left(
        pair, ladders):
    """Named by both parts, or not named, or named by one part with a second misreading
    beside it said to be not ruled out: never by one part alone."""
    _, found = play(variant_by_id(pair), ladders=ladders, counting=ladders,
                    limit=2 * ITEM_BUDGET)  # single hands one HCP apart read as one ladder
    parts = set(pair.split("+"))
    assert (found.named is None or set(found.named.split("+")) == parts
            or (found.named in parts and found.second_left))


@pytest.mark.parametrize("leaders", [
    ("swap=R1/R6", "last-wins", "balanced=no-minor-five"),
    ("balanced=no-minor-five", "swap=R1/R6", "last-wins"),
], ids=["three that forget 2NT alone lead", "in another order"])
def test_a_pair_is_weighed_though_neither_part_is_among_the_likeliest_alone(leaders):
    """1NT read as 15-17 with 2NT forgotten: misreadings that forget 2NT alone led it,
    so neither part was tried first, and 1NT on 15-17 with five-card minors read as
    unbalanced was named at 0.97 against two answers. The likeliest second of each leader
    is tried as a first too."""
    pair = ("1nt-15-17", "no-2nt")
    given, _ = play(variant_by_id("+".join(pair)), ladders=False, counting=False,
                    limit=2 * ITEM_BUDGET)
    bank = shipped()
    classes = bank.classes(("bid",))
    first_of = {bank.ids[members[0]]: place for place, members in enumerate(classes)}
    weights = [0.0] * (len(classes) + 1)
    for rank, leader in enumerate(leaders):
        weights[first_of[leader]] = 0.3 - 0.1 * rank
    rows = evidence(given, classes, False).rows
    in_order = tuple(sorted(pair, key=bank.ids.index))
    assert in_order in pairs_to_try(weights, classes, given, rows, bank.ids)


def test_a_pair_waits_only_on_the_probes_of_a_part_it_bids_as():
    """A probe of 1NT on 15-17 where the rules and it open 2NT: a student holding it with
    2NT forgotten never bids 2NT there, and the probe was asked on twelve hands alike.
    Where the pair bids otherwise than the part, the posterior weighs the answers."""
    bank, found = belief_of(0.0, 0.96)
    top = found.ranked(bank.ids)[0]
    assert top.members == PAIR
    given = {}
    open_now = rounds.open_probes(bank, found, top, given)
    every = [(reader, probe) for reader in rounds.probed(bank, found, top)
             for probe in probes(bank, reader)]
    assert open_now and set(open_now) < set(every)
    assert all(pair_bid(PAIR, probe.codes[0]) == probe.bid for _, probe in open_now)
    assert any(pair_bid(PAIR, probe.codes[0]) != probe.bid for _, probe in every)


def test_a_reader_outside_the_space_who_misses_a_probe_on_every_hand_is_not_named():
    """R8 read as 5-10 points is outside the space: it bids four on a hand of 1 HCP and an
    eight-card suit, where R8.points=6-10 passes. Asked that probe on every hand alike to
    it, it missed every time, and the slip rate learnt from those misses had let
    R8.points=6-10 be named at 1.00."""
    _, found = play(variant_by_id("R8.points=5-10"), ladders=False, counting=False)
    assert found.named in (None, NONE)


def test_a_pair_s_probe_is_judged_only_on_the_hands_the_pair_bids_as_its_part():
    """R5 read as 21-24 with distribution points counted beyond three: a probe of the
    first part (20 HCP, a distribution point, 1D by both) is alike to 47 hands of the
    bank, on 29 of which the pair opens 2D. Answered 2D there, as the pair answers, it is
    no miss of the pair's probe, and the probe is not asked there, though such a hand
    would tell most about the classes."""
    bank = shipped()
    pair = tuple(sorted(("R5.hcp=21-24", "dist=beyond-3"), key=bank.ids.index))
    classes = bank.classes(("bid",))
    weights = [0.0] * len(classes)
    weights[0] = weights[next(place for place, members in enumerate(classes)
                              if bank.ids[members[0]] == "shortness-points")] = 0.02
    found = Belief(classes, tuple(weights), 0.0, ((pair, 0.96),), 0.1,
                   (0.0,) * len(classes))  # a hand the pair opens 2D on tells most
    top = found.ranked(bank.ids)[0]
    reader = bank.ids.index("R5.hcp=21-24")
    probe = next(probe for probe in probes(bank, reader)
                 if signature(reader, probe.codes[0]) == (20, 1, "1D", "1D"))
    moved = [code for code in alike_hands(bank, reader, signature(reader, probe.codes[0]))
             if pair_bid(pair, code) != probe.bid]
    assert moved and all(pair_bid(pair, code) == probe.bid for code in probe.codes)
    given = {moved[0]: (0, pair_bid(pair, moved[0]))}
    judged = [found_probe for part, found_probe in rounds.its_probes(bank, found, top, given)
              if part == reader and found_probe.bid == probe.bid
              and found_probe.codes[0] == probe.codes[0]]
    assert len(judged) == 1 and moved[0] not in judged[0].codes
    anyway = rounds.telling(bank, found, reader, probe.codes[0], frozenset(), None, False)
    chosen = rounds.telling(bank, found, reader, probe.codes[0], frozenset(), None, False,
                            pair=pair)
    assert pair_bid(pair, anyway) != probe.bid == pair_bid(pair, chosen)


def test_the_round_is_deterministic():
    hand = parse_hand(FLAT)
    given = [Answer(hand, BID_BY_VALUE["1C"])]
    assert diagnose(given) == diagnose(given)


@pytest.mark.parametrize("budget, over", [(2, False), (1, True)],
                         ids=["an item under the budget", "at the budget"])
def test_at_the_item_budget_the_round_ends_unnamed(monkeypatch, budget, over):
    monkeypatch.setattr(rounds, "ITEM_BUDGET", budget)
    found = diagnose([Answer(parse_hand(FLAT), BID_BY_VALUE["1C"])])
    assert found.named is None
    assert (found.next is None) is over


def test_answers_no_reading_gives_are_named_none_of_these():
    given, found = [], diagnose([])
    for _ in range(12):
        if found.next is None:
            break
        given += [Answer(hand, BID_BY_VALUE["4C"]) for hand in found.next.hands]
        found = diagnose(given)
    assert found.named == "none" and found.candidates[0].misreading == "none"


def test_a_sure_misreading_is_named_only_once_its_probes_are_answered_as_it_answers():
    reading = variant_by_id("swap=R2/R5")
    given, found = play(reading, ladders=False, counting=False)
    assert found.named == "swap=R2/R5"
    place = shipped().ids.index("swap=R2/R5")
    codes = {code for probe in probes(shipped(), place) for code in probe.codes}
    last = max(number for number, answer in enumerate(given)
               if packed.encode_cards(answer.hand.cards) in codes)
    missed = given[:last] + [Answer(given[last].hand, BID_BY_VALUE["4S"])]
    again = diagnose(missed, ladders=False, counting=False)
    assert again.named is None and again.next is not None


@pytest.mark.parametrize("reading, ladders, named", [
    ("R1.hcp=14-17", False, {None, "none"}),
    ("R1.hcp=14-17", True, {None, "none"}),
], ids=["1NT on 14-17, bids only: not named 14-18",
        "1NT on 14-17, with ladders: not named 14-18"])
def test_a_student_just_outside_the_space_is_not_named_by_the_misreading_nearest(
        reading, ladders, named):
    _, found = play(variant_by_id(reading), ladders=ladders, counting=ladders)
    assert found.named in named


@pytest.mark.parametrize("reading, ladders, slips", [
    ("R1.hcp=14-18", False, (3,)),
    ("swap=R2/R5", False, (2, 9)),
    ("1nt-15-17", True, (1,)),
], ids=["a 1NT range, one slip", "two rules swapped, two slips",
        "the catalogue's 15-17 with ladders, one slip"])
def test_a_student_who_slips_is_still_named(reading, ladders, slips):
    _, found = play(variant_by_id(reading), ladders=ladders, counting=ladders, slips=slips)
    assert found.named == reading


@pytest.mark.parametrize("hands, items", [
    ([], 0),
    ([FLAT], 1),
    (["AS KS 2S AH 3H 2H KD 3D 2D 5C 4C 3C 2C", "AS KS 2S AH 3H 2H KD 3D 2D JC 4C 3C 2C"], 1),
    (["AS KS 2S AH 3H 2H KD 3D 2D 5C 4C 3C 2C", "AS KS 2S AH 3H 2H KD 3D 2D 5C 4C 3C 2C"], 2),
    (["AS KS 2S AH 3H 2H KD 3D 2D 5C 4C 3C 2C", "AS KS 2S 4S AH 3H 2H KD 3D 2D 5C 4C 3C"], 2),
], ids=["nothing", "one hand", "a ladder of two rungs", "one hand twice",
        "another shape"])
def test_a_ladder_s_rungs_count_as_one_item(hands, items):
    assert items_answered([Answer(parse_hand(hand), None) for hand in hands]) == items


@pytest.mark.parametrize("hypothesis, words", [
    (Hypothesis("rules", ("rules",), 1.0), "Reads the rules as the assignment writes them."),
    (Hypothesis("none", (), 1.0), "None of the known misreadings fits"),
    (Hypothesis("no-2nt+1nt-15-17", ("no-2nt", "1nt-15-17"), 1.0),
     "Two misreadings at once. The 2NT rule (R5) is left out. 1NT is read as 15-17"),
    (Hypothesis("R1.hcp=15-18", ("R1.hcp=15-18",), 1.0),
     "1NT (R1) is read as needing 15-18 HCP. The assignment says otherwise: R1 says"),
    (Hypothesis("balanced-first", ("balanced-first", "swap=R3/R5"), 1.0),
     "Answers alike on every hand: swap=R3/R5."),
], ids=["the rules", "none of these", "a pair", "one misreading", "with its twins"])
def test_each_candidate_is_said_in_the_teacher_s_words(hypothesis, words):
    assert words in describe(hypothesis)


def test_a_round_answered_as_plain_rows_is_the_api_s_json():
    rows = ((FLAT, "1C", 10, 0), (FLAT.replace("5C", "JC"), None, None, None))
    assert diagnosis_of_rows(rows) == diagnose([
        Answer(parse_hand(FLAT), BID_BY_VALUE["1C"], 10, 0),
        Answer(parse_hand(FLAT.replace("5C", "JC")), None)]).to_dict()


def test_the_class_poll_asks_a_hand_none_of_them_was_asked():
    hand = next_for_class([])
    students = [[answered(None, hand)], [answered(variant_by_id("1nt-15-17"), hand)]]
    following = next_for_class(students)
    assert following != hand and len(following.cards) == 13


@pytest.mark.parametrize("misreading", ["1nt-15-17", "R1.hcp=15-18+no-2nt"],
                         ids=["one misreading", "a composed one"])
def test_teaching_hands_are_hands_the_misreading_answers_otherwise(misreading):
    variant = variant_by_id(misreading)
    hands = teaching_hands(misreading, 4, seed=3)
    assert len(hands) == 4 and hands == teaching_hands(misreading, 4, seed=3)
    for hand in hands:
        code = packed.encode_cards(hand.cards)
        assert reading_answers(variant, code) != reading_answers(None, code)


@pytest.mark.parametrize("misreading, count, error", [
    ("no-such-thing", 3, MisreadingError), ("1nt-15-17", 0, ValueError),
    ("1nt-15-17", 101, ValueError),
], ids=["not a misreading", "no hands", "too many hands"])
def test_teaching_hands_refuse_what_they_cannot_give(misreading, count, error):
    with pytest.raises(error):
        teaching_hands(misreading, count, seed=1)


def test_a_misreading_the_bank_tells_from_the_rules_in_few_hands_gives_fewer():
    assert len(teaching_hands("none-as-string", 5, seed=1)) == 0


@pytest.mark.parametrize("ladders, together", [(True, True), (False, False)],
                         ids=["with ladders: an end's two probes are one ladder, poorer first",
                              "bids only: each probe is a hand of its own, richer first"])
def test_the_probes_at_an_end_of_a_range_are_asked_as_one_ladder_with_ladders(
        ladders, together):
    bank = shipped()
    reading = "R1.hcp=14-18"
    firsts = {probe.codes[0] for probe in probes(bank, bank.ids.index(reading))}
    given, _ = play(variant_by_id(reading), ladders=ladders, counting=ladders)
    codes = [packed.encode_cards(answer.hand.cards) for answer in given]
    pairs = [(poorer, richer) for poorer, richer in zip(codes, codes[1:])
             if {poorer, richer} <= firsts and packed.hcp(richer) == packed.hcp(poorer) + 1
             and packed.tally(richer).lengths == packed.tally(poorer).lengths]
    assert bool(pairs) == together


@pytest.mark.parametrize("alone, with_pairs, probed", [(0.5, 0.3, True), (0.5, 0.29, False)],
                         ids=["leading at 0.8 with its pairs: its probes asked",
                              "just under 0.8 with its pairs: not yet"])
def test_a_misreading_leading_with_its_pairs_has_its_probes_asked(alone, with_pairs, probed):
    """A misreading whose pairs with a second one hold much of the belief leads with them:
    its probes are asked (else slips read as a second misreading keep them unasked)."""
    bank, found = belief_of(alone, with_pairs)
    hands = rounds.next_probe(bank, found, [], frozenset())
    assert bool(hands) is probed and marks(bank, hands, "1nt-15-17") <= probe_marks(
        bank, "1nt-15-17")


PAIR = ("1nt-15-17", "no-2nt")


def belief_of(alone: float, with_pairs: float):
    """The bank and a belief (bids only) holding 1NT read as 15-17 at *alone*, its pair with
    the 2NT rule forgotten at *with_pairs*, and the rules the rest."""
    bank = shipped()
    classes = bank.classes(("bid",))
    place = next(number for number, members in enumerate(classes)
                 if bank.ids[members[0]] == PAIR[0])
    weights = [0.0] * len(classes)
    weights[place], weights[0] = alone, 1 - alone - with_pairs
    return bank, Belief(classes, tuple(weights), 0.0, ((PAIR, with_pairs),), 0.1,
                        (0.0,) * len(classes))


def marks(bank, codes, reading: str) -> set:
    """The signatures of hands *codes* for a probe of *reading*."""
    return {signature(bank.ids.index(reading), code) for code in codes}


def probe_marks(bank, reading: str) -> set:
    """The signatures of the probes of *reading*: a probe may be asked on any hand alike."""
    return marks(bank, (probe.codes[0] for probe in probes(bank, bank.ids.index(reading))),
                 reading)


@pytest.mark.parametrize("probability, asked", [(0.8, True), (0.79, False)],
                         ids=["a pair leading at 0.8", "a pair just under 0.8"])
def test_a_leading_pair_has_the_probes_of_both_parts_asked(probability, asked):
    bank, found = belief_of(0.0, probability)
    top = Hypothesis("no-2nt+1nt-15-17", PAIR, probability)
    hands = rounds.next_probe(bank, found, [], frozenset(), top=top)
    assert bool(hands) is asked
    assert any(marks(bank, hands, part) <= probe_marks(bank, part) for part in PAIR)
    assert rounds.probed(bank, found, top) == tuple(bank.ids.index(part) for part in PAIR)


def test_a_sure_pair_leads_by_its_part_more_likely_alone():
    bank, found = belief_of(0.02, 0.97)
    top = Hypothesis("no-2nt+1nt-15-17", PAIR, 0.97)
    lead = rounds.leading(bank, found, top, [], False)
    assert lead is not None and bank.ids[lead.reader] == PAIR[0]


@pytest.mark.parametrize("sure, check, held_alone, named", [
    (True, False, 0.9, True), (True, False, 0.8999, False), (False, False, 1.0, False),
    (True, True, 1.0, False),
], ids=["held alone at 0.9: named", "a second just over 1 in 10: not yet",
        "not sure: not named", "a rival left to ask: not named"])
def test_a_sure_reading_told_from_its_rival_is_named_once_held_alone_at_0_9(
        sure, check, held_alone, named):
    option = rounds.options(shipped(), ("bid",), False, False).items[0] if check else None
    assert rounds.naming(sure, option, held_alone) is named


@pytest.mark.parametrize("ladders", [True, False], ids=["with ladders", "bids only"])
def test_the_next_item_leaves_out_the_hands_that_would_read_as_the_last_one_s_next_rung(
        ladders):
    """With ladders, a hand of the last one's shape one HCP richer would make the two items
    read as one ladder (and a round run past its budget): it is left out, as the hands
    answered are; one hand at a time, only the hands answered are."""
    bank = shipped()
    last = parse_hand(FLAT)
    code = packed.encode_cards(last.cards)
    richer = {found.code for found in bank.rows
              if packed.hcp(found.code) == packed.hcp(code) + 1
              and packed.tally(found.code).lengths == packed.tally(code).lengths}
    assert richer
    left_out, answered_only = rounds.barring(bank, [Answer(last, None)], ladders)
    assert answered_only == {code}
    assert left_out == ({code} | richer if ladders else {code})
    assert rounds.unaskable(bank, [], ladders) == frozenset()


def test_when_leaving_out_the_next_rung_leaves_nothing_the_round_still_asks(monkeypatch):
    """The hands left out so as not to read as a ladder never end a round, nor skip the
    check against a reading's rival: with nothing else left, only the hands answered are."""
    bank = shipped()
    everything = frozenset(found.code for found in bank.rows) | frozenset(
        found.code for ladder in bank.ladders for found in ladder)
    reading = variant_by_id("R1.hcp=14-18")
    given = [answered(reading, parse_hand(hand))
             for hand in (FLAT, "AS KS 2S AH 3H 2H AD 3D 2D 5C 4C 3C 2C")]
    found = rounds.belief(bank, given, False)
    top = found.ranked(bank.ids)[0]
    assert top.id == "R1.hcp=14-18"
    monkeypatch.setattr(rounds, "unaskable", lambda *_: everything)
    assert rounds.next_item(bank, found, given, False, True) is not None
    assert rounds.confirm(bank, found, top, given, False, True) is not None


def test_with_every_hand_asked_there_is_no_next_item(monkeypatch):
    """A round whose every hand was answered has nothing left to ask: no item, not a hand
    asked again."""
    bank = shipped()
    everything = frozenset(found.code for found in bank.rows) | frozenset(
        found.code for ladder in bank.ladders for found in ladder)
    found = rounds.belief(bank, [], False)
    monkeypatch.setattr(rounds, "barring", lambda *_: (everything, everything))
    assert rounds.next_item(bank, found, [], False, True) is None
    monkeypatch.setattr(rounds, "barring", lambda *_: (everything, frozenset()))
    assert rounds.next_item(bank, found, [], False, True) is not None


THIRD = "shortness-points"  # a third class, on which the hands alike split unlike


def belief_of_three():
    """1NT read as 15-17 at 0.9, the rules at 0.05, and distribution points counted on
    short suits at 0.05."""
    bank, found = belief_of(0.9, 0.0)
    place = next(number for number, members in enumerate(found.classes)
                 if bank.ids[members[0]] == THIRD)
    weights = list(found.weights)
    weights[place], weights[0] = 0.05, 0.05
    return bank, Belief(found.classes, tuple(weights), 0.0, (), 0.1, found.near)


def worth_in(bank, found, asked):
    """What each hand's bid tells about the class of *found* (0 for a split asked)."""
    choices = rounds.options(bank, ("bid",), False, False)
    valued = rounds.gains(choices, rounds.class_weights(bank, found), found.slip, asked)
    return lambda code: max((valued.get(place, 0.0) for place in choices.splitting.get(code, ())
                             if len(choices.items[place].rows) == 1), default=0.0)


@pytest.mark.parametrize("asked_first", [False, True],
                         ids=["nothing asked", "the likeliest hand asked already"])
def test_a_probe_is_asked_on_the_hand_of_its_kind_that_tells_most(asked_first):
    """A probe asked one hand at a time is asked on a hand alike to it (its HCP,
    distribution points and both bids) that splits the classes most: asked so, it tells
    about the class too (here, the rules from distribution points counted on short
    suits, which some probes' own hands do not). A hand asked already is not asked again."""
    bank, found = belief_of_three()
    waiting = rounds.waiting(bank, found, [])
    assert {reader for reader, _ in waiting} == {bank.ids.index(PAIR[0])}
    worth = worth_in(bank, found, frozenset())

    def alike_to(reader, probe):
        mark = signature(reader, probe.codes[0])
        return (probe.codes[0],) + alike_hands(bank, reader, mark)

    telling_more = [(reader, probe) for reader, probe in waiting
                    if max(map(worth, alike_to(reader, probe))) > worth(probe.codes[0])]
    assert telling_more  # some probe's own hand tells less than a hand alike to it
    for reader, probe in telling_more:
        alike = alike_to(reader, probe)
        assert all(signature(reader, code) == signature(reader, alike[0]) for code in alike)
        best = rounds.telling(bank, found, reader, probe.codes[0], frozenset(), None, False)
        assert worth(best) == max(map(worth, alike)) > worth(probe.codes[0])
    reader, probe = waiting[0]
    alike = alike_to(reader, probe)
    best = rounds.telling(bank, found, reader, probe.codes[0], frozenset(), None, False)
    asked = frozenset({best}) if asked_first else frozenset()
    (hand,) = rounds.next_probe(bank, found, [], asked)
    assert signature(reader, hand) == signature(reader, probe.codes[0]) and hand not in asked
    worth = worth_in(bank, found, asked)
    assert worth(hand) == max(worth(code) for code in alike if code not in asked)


def test_with_no_hand_alike_left_a_probe_is_asked_on_its_own_hand():
    """With every other hand alike to it asked (or none telling more), a probe is asked
    on its own hand."""
    bank, found = belief_of_three()
    reader, probe = rounds.waiting(bank, found, [])[0]
    others = frozenset(alike_hands(bank, reader, signature(reader, probe.codes[0])))
    everything = others - {probe.codes[0]}
    assert rounds.telling(bank, found, reader, probe.codes[0], everything, None, False) == (
        probe.codes[0])
    bank, found = belief_of(0.9, 0.0)  # two classes: every hand alike splits them alike
    assert rounds.telling(bank, found, reader, probe.codes[0], frozenset(), None, False) == (
        probe.codes[0])


def test_a_probe_is_asked_on_the_alike_hand_of_most_worth_not_on_its_own(monkeypatch):
    """Where another hand alike to the probe splits the classes more than its own (here,
    made so), that hand is asked; once it is asked, another hand alike."""
    bank, found = belief_of(0.9, 0.0)
    reader, probe = rounds.waiting(bank, found, [])[0]
    choices = rounds.options(bank, ("bid",), False, False)
    alike = alike_hands(bank, reader, signature(reader, probe.codes[0]))
    target = next(code for code in alike if code not in probe.codes
                  and code in choices.splitting)
    monkeypatch.setattr(rounds, "gains",
                        lambda *_: dict.fromkeys(choices.splitting[target], 1.0))
    assert rounds.telling(bank, found, reader, probe.codes[0], frozenset(), None,
                          False) == target
    assert rounds.next_probe(bank, found, [], frozenset()) == (target,)
    again = rounds.telling(bank, found, reader, probe.codes[0], frozenset({target}), None,
                           False)
    assert again != target and signature(reader, again) == signature(reader, target)
