"""The diagnostic round, stateless: from the answers so far, the candidates, the reading
named once it is sure and confirmed, and the next item to ask."""

from __future__ import annotations

from collections.abc import Sequence

from .. import packed
from ..bids import Bid
from ..cards import SUITS_HIGH_FIRST, Hand, parse_hand
from ..misreadings import variant_by_id
from .answers import Answer, Item
from .bank import FIELDS, Bank, shipped
from .choosing import Option, best, options
from .hypotheses import answers as reading_answers
from .learner import Belief, Hypothesis, belief, fields_of, given_value
from .outcome import NONE, RULES, Candidate, Diagnosis

CONFIDENT = 0.95  # the posterior at which a reading is named, once confirmed
CONFIRM = 3  # items asked, and answered as the reading does, after it is first that sure
ITEM_BUDGET = 30  # items in a round at most
MAX_ANSWERS = 150  # answers one diagnosis reads, at most (a ladder's hands each count)
SHOWN = 5  # candidates shown


def items_answered(answers: Sequence[Answer]) -> int:
    """How many items the answers answer: a run of hands of one shape at successive HCP
    is one ladder."""
    return len(_item_ends(answers)) if answers else 0


def _rung_key(hand: Hand) -> tuple[tuple[int, ...], int]:
    """The hand's suit lengths, spades first, and its HCP."""
    return (tuple(len(hand.in_suit(suit)) for suit in SUITS_HIGH_FIRST),
            packed.hcp(packed.encode_cards(hand.cards)))


def mode_fields(counting: bool) -> tuple[str, ...]:
    """What the classes are told apart by: bids, or bids and counts."""
    return FIELDS if counting else ("bid",)


def describe(hypothesis: Hypothesis) -> str:
    """The hypothesis in the teacher's words."""
    if hypothesis.id == RULES:
        return "Reads the rules as the assignment writes them."
    if hypothesis.id == NONE:
        return ("None of the known misreadings fits these answers: the student may read "
                "the rules some other way, or slip often.")
    if len(hypothesis.members) == 2 and "+" in hypothesis.id and hypothesis.id not in (
            hypothesis.members):
        first, second = map(variant_by_id, hypothesis.members)
        return f"Two misreadings at once. {first.sentence} {second.sentence}"
    variant = variant_by_id(hypothesis.id)
    text = f"{variant.sentence} The assignment says otherwise: {variant.departs}."
    if len(hypothesis.members) > 1:
        text += f" Answers alike on every hand: {', '.join(hypothesis.members[1:])}."
    return text


def diagnose(answers: Sequence[Answer], *, ladders: bool = True,
             counting: bool = True) -> Diagnosis:
    """The round after *answers*: the candidates, the reading named (once sure and
    confirmed), and the next item, None when the round is over. Deterministic."""
    bank = shipped()
    found = belief(bank, answers, counting)
    ranked = found.ranked(bank.ids)
    top = ranked[0]
    done = items_answered(answers)
    sure_for = confirmed_items(bank, answers, counting, top)
    named = top.id if top.probability >= CONFIDENT and sure_for >= CONFIRM else None
    over = named is not None or done >= ITEM_BUDGET
    item = None if over else next_item(bank, found, answers, counting, ladders,
                                       top if top.probability >= CONFIDENT else None)
    shown = tuple(Candidate(hypothesis.id, hypothesis.probability, describe(hypothesis))
                  for hypothesis in ranked[:SHOWN])
    return Diagnosis(item, shown, named, top.probability)


def confirmed_items(bank: Bank, answers: Sequence[Answer], counting: bool,
                    top: Hypothesis) -> int:
    """How many of the last items (CONFIRM at most) were asked once *top* was already sure
    and answered exactly as it answers."""
    ends = _item_ends(answers)
    count = 0
    for start, end in reversed(list(zip(ends[-CONFIRM - 2:-1], ends[-CONFIRM - 1:]))):
        before = belief(bank, answers[:start], counting).ranked(bank.ids)[0]
        if before.id != top.id or before.probability < CONFIDENT or not all(
                agrees(top, answer, counting) for answer in answers[start:end]):
            break
        count += 1
    return count


def agrees(hypothesis: Hypothesis, answer: Answer, counting: bool) -> bool:
    """Whether the answer is exactly what *hypothesis* answers (any answer agrees with
    none of these)."""
    if hypothesis.id == NONE:
        return True
    reading = None if hypothesis.id == RULES else variant_by_id(hypothesis.id)
    predicted = reading_answers(reading, packed.encode_cards(answer.hand.cards))
    return all(given_value(answer, field) == predicted[FIELDS.index(field)]
               for field in fields_of(answer, counting))


def _item_ends(answers: Sequence[Answer]) -> list[int]:
    """The number of answers at the end of each item (a ladder's rungs are one item)."""
    ends, last = [], None
    for place, answer in enumerate(answers):
        shape, hcp = _rung_key(answer.hand)
        if place and (shape, hcp) != (last[0], last[1] + 1):
            ends.append(place)
        last = shape, hcp
    return ends + [len(answers)]


def next_item(bank: Bank, found: Belief, answers: Sequence[Answer], counting: bool,
              ladders: bool, sure: Hypothesis | None) -> Item | None:
    """The item that tells most about the class; once a reading is sure, one that tests
    it against everything else."""
    asked = frozenset(packed.encode_cards(answer.hand.cards) for answer in answers)
    found_options = options(bank, mode_fields(counting), counting, ladders)
    weights = list(found.weights)
    place = _class_place(bank, found, sure)
    if place is not None:  # weigh the sure class as much as all its rivals together
        weights[place] = min(weights[place], sum(weights) - weights[place])
    elif sure is not None:  # none of these, or a pair: test against every class
        uniform = sum(weights) / len(weights)
        weights = [0.5 * weight + 0.5 * uniform for weight in weights]
    chosen = best(found_options, weights, found.slip, asked)
    return None if chosen is None else _item(chosen)


def _class_place(bank: Bank, found: Belief, sure: Hypothesis | None) -> int | None:
    """The place of the sure hypothesis among the classes, None for none of these, a pair
    or nothing sure."""
    if sure is None:
        return None
    return next((place for place, members in enumerate(found.classes)
                 if bank.ids[members[0]] == sure.id), None)


def _item(option: Option) -> Item:
    return Item(tuple(Hand.in_order(packed.cards(found.code)) for found in option.rows),
                option.ask)



Plain = tuple[str, str | None, int | None, int | None]  # (hand, bid, HCP, distribution)


def diagnosis_of_rows(rows: tuple[Plain, ...]) -> dict:
    """diagnose() over answers given as plain (hand, bid, HCP, distribution) rows, as JSON:
    what a pool process computes for ``POST /api/diagnosis``."""
    answers = [Answer(parse_hand(hand), None if bid is None else Bid.from_value(bid), hcp,
                      distribution) for hand, bid, hcp, distribution in rows]
    return diagnose(answers).to_dict()
