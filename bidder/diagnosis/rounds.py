"""The diagnostic round, stateless: from the answers so far, the candidates, the reading
named once it is sure, its probes are answered (none missed on most of its hands) and two
answers tell it from its rival (and, for a misreading named alone, how likely a second one
beside it still is), and the next item to ask: the item telling a sure reading from its
rival, else a probe of the leading misreading once it leads, else the item that tells
most."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .. import packed
from ..bids import Bid
from ..cards import SUITS_HIGH_FIRST, Hand, parse_hand
from ..misreadings import variant_by_id
from .answers import Answer, Item
from .bank import FIELDS, Bank, shipped
from .choosing import Option, best, gains, options
from .learner import Belief, Hypothesis, belief, evidence, pair_bid
from .outcome import NONE, RULES, Candidate, Diagnosis
from .probes import (Given, Probe, alike_hands, every_probe, given_bids, grid, missed,
                     probe_ladder, refuted, signature, unsettled, waits)
from .rivals import confirming
from .seconds import alone, departing, second_odds

CONFIDENT = 0.95  # the posterior at which a reading is named, once its probes are asked
ALONE = 0.9  # a misreading is named alone once a second one beside it is under 1 in 10
LEAD = 0.8  # the posterior (with the readers near it and its pairs) at which its probes begin
RETRY = 0.02  # readers near the leader this likely: its missed probes are asked again
ITEM_BUDGET = 30  # items in a round at most
MAX_ANSWERS = 150  # answers one diagnosis reads, at most (a ladder's hands each count)
SHOWN = 5  # candidates shown
GUARD_LIKELY = 48  # the likeliest classes weighed choosing whether a second is held


def items_answered(answers: Sequence[Answer], ladders: bool = True) -> int:
    """How many items the answers answer: with *ladders*, a run of hands of one shape at
    successive HCP is one ladder; without, each hand is an item."""
    if not ladders:
        return len(answers)
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
    """The round after *answers*: the candidates, the reading named (once sure, with its
    probes answered and told from its rival), how likely a second misreading beside it
    is, and the next item, None when the round is over. Deterministic."""
    named, item, shown, confidence, second = _diagnosed(tuple(answers), ladders, counting)
    over = named is not None or items_answered(answers, ladders) >= ITEM_BUDGET
    return Diagnosis(None if over else item, shown, named, confidence, second)


@lru_cache(maxsize=256)  # a key holds up to MAX_ANSWERS answers: bounded for strangers
def _diagnosed(answers: tuple[Answer, ...], ladders: bool, counting: bool
               ) -> tuple[str | None, Item | None, tuple[Candidate, ...], float, float | None]:
    """diagnose() but for the item budget: the reading named, the next item, the
    candidates, the confidence and the chance of a second misreading beside the one named.
    Kept, since most rounds begin alike (their first steps stay among the kept ones)."""
    bank = shipped()
    found = belief(bank, answers, counting)
    ranked = found.ranked(bank.ids)
    top = ranked[0]
    given = given_bids(answers)
    sure = top.probability >= CONFIDENT and not any(
        waits(probe, given) or refuted(probe, given)
        for _, probe in its_probes(bank, found, top, given))
    lead = leading(bank, found, top, answers, counting)
    single = lead is not None and _reader(bank, top.id) != 0
    held_alone = alone(lead.odds) if single else 1.0
    check = confirm(bank, found, top, answers, counting, ladders) if sure else None
    named = top.id if naming(sure, check, held_alone) else None
    if named is not None:
        item = None
    elif check is not None:
        item = _item(check)
    else:
        item = next_item(bank, found, answers, counting, ladders, lead, top)
    shown = tuple(Candidate(hypothesis.id, hypothesis.probability, describe(hypothesis))
                  for hypothesis in ranked[:SHOWN])
    second = 1.0 - held_alone if named is not None and single else None
    return named, item, shown, top.probability, second


def naming(sure: bool, check: Option | None, held_alone: float) -> bool:
    """Whether the likeliest reading is named: sure (its probes answered), told from its
    rival (no *check* left to ask) and, a misreading, held alone at least ALONE."""
    return sure and check is None and held_alone >= ALONE


def confirm(bank: Bank, found: Belief, top: Hypothesis, answers: Sequence[Answer],
            counting: bool, ladders: bool) -> Option | None:
    """The item telling the *top* class from its rival, while too few answers do
    (bidder.diagnosis.rivals); None for none of these and pairs, once told apart, or
    when no hand left can tell them apart (the posterior then decides alone)."""
    places = class_places(bank, found)
    if top.id not in places:
        return None
    rows = evidence(answers, found.classes, counting).rows
    choices = options(bank, mode_fields(counting), counting, ladders)
    for barred in barring(bank, answers, ladders):
        check = confirming(found, places[top.id], answers, rows, counting, choices, barred)
        if check is not None:
            return check
    return None


def class_places(bank: Bank, found: Belief) -> dict[str, int]:
    """Each class's place, by the id of its first reading."""
    return {bank.ids[members[0]]: place for place, members in enumerate(found.classes)}


@dataclass(frozen=True)
class Lead:
    """A misreading that, alone or with a second one, is sure: its place in the bank, the
    odds of it with each other class (by place) against it alone, and the weights telling
    it alone (at the rules' place, where it answers as the rules) from those pairs."""

    reader: int
    odds: dict[int, float]
    weights: tuple[float, ...]


def leading(bank: Bank, found: Belief, top: Hypothesis, answers: Sequence[Answer],
            counting: bool) -> Lead | None:
    """The lead when the top hypothesis is a misreading or a pair (read by its part more
    likely alone) and it holds CONFIDENT with the pairs containing it; else None."""
    place_of = class_places(bank, found)
    if top.id in place_of:
        parts = [place_of[top.id]]
    elif top.members in dict(found.pairs):
        parts = [place_of[part] for part in top.members]
    else:  # none of these
        return None
    if 0 in parts:
        return None
    part = max(parts, key=lambda place: found.weights[place])
    name = bank.ids[found.classes[part][0]]
    pairs = {place_of[other]: weight for pair, weight in found.pairs if name in pair
             for other in pair if other != name}
    if found.weights[part] + sum(pairs.values()) < CONFIDENT:
        return None
    known = evidence(answers, found.classes, counting)
    odds = second_odds(found.classes, part, known.classes[part], answers, known.rows,
                       counting)
    weights = [max(found.weights[part] * odds.get(place, 0.0), pairs.get(place, 0.0))
               for place in range(len(found.classes))]
    weights[0] = found.weights[part]
    return Lead(found.classes[part][0], odds, tuple(weights))


def asked_codes(answers: Sequence[Answer]) -> frozenset[int]:
    """The hands answered, by code."""
    return frozenset(given_bids(answers))


def barring(bank: Bank, answers: Sequence[Answer], ladders: bool
            ) -> tuple[frozenset[int], ...]:
    """The hands to leave out of the next item, most first: unaskable(); then, when that
    leaves nothing to ask, only the hands answered."""
    return unaskable(bank, answers, ladders), asked_codes(answers)


def unaskable(bank: Bank, answers: Sequence[Answer], ladders: bool) -> frozenset[int]:
    """The bank's hands the next item leaves out, by code: those answered and, with
    *ladders*, those that would read as the next rung of the last hand answered (the two
    items would count as one ladder)."""
    asked = asked_codes(answers)
    if not (ladders and answers):
        return asked
    last = packed.encode_cards(answers[-1].hand.cards)
    key = (packed.hcp(last) + 1, packed.tally(last).lengths)
    return asked | {found.code for found in grid(bank).alike.get(key, ())}


def probed(bank: Bank, found: Belief, hypothesis: Hypothesis) -> tuple[int, ...]:
    """The readings (by place in the bank) whose probes are asked before *hypothesis* is
    named: a misreading's own, or each part's of a pair; none for the rules or none."""
    if hypothesis.members in dict(found.pairs):
        return tuple(bank.ids.index(part) for part in hypothesis.members)
    reader = _reader(bank, hypothesis.id)
    return (reader,) if reader else ()


def open_probes(bank: Bank, found: Belief, hypothesis: Hypothesis, given: Given
                ) -> tuple[tuple[int, Probe], ...]:
    """The probes of *hypothesis* not settled yet (its_probes()), each with the reading it
    probes."""
    return tuple((reader, probe) for reader, probe in its_probes(bank, found, hypothesis,
                                                                 given)
                 if waits(probe, given))


def its_probes(bank: Bank, found: Belief, hypothesis: Hypothesis, given: Given
               ) -> tuple[tuple[int, Probe], ...]:
    """The probes of *hypothesis* (probed()), each with the reading it probes; of a pair,
    each part's with only the hands on which the pair bids as that part does (elsewhere
    the other part moves the bid, and the posterior weighs the answers)."""
    pair = hypothesis.members if hypothesis.members in dict(found.pairs) else None
    found_probes = ((reader, probe) for reader in probed(bank, found, hypothesis)
                    for probe in every_probe(bank, reader, given))
    if pair is None:
        return tuple(found_probes)
    kept = ((reader, Probe(tuple(code for code in probe.codes
                                 if pair_bid(pair, code) == probe.bid), probe.bid))
            for reader, probe in found_probes)
    return tuple((reader, probe) for reader, probe in kept if probe.codes)


def leading_pair(found: Belief, top: Hypothesis | None) -> tuple[str, str] | None:
    """The *top* hypothesis when it is a pair leading at LEAD at least: its parts' probes
    are asked."""
    if top is not None and top.probability >= LEAD and top.members in dict(found.pairs):
        return top.members
    return None


def _reader(bank: Bank, hypothesis: str) -> int:
    """The place of a hypothesis's reading in the bank (0, the rules', for none of these
    and pairs, which have no probes)."""
    return bank.ids.index(hypothesis) if hypothesis in bank.ids else 0


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
              ladders: bool, lead: Lead | None = None, top: Hypothesis | None = None
              ) -> Item | None:
    """The item that tells most about the class; once a misreading leads, its probes
    first; once it is sure (*lead*), the item that tells most whether a second misreading
    is held beside it, on the hands where it answers as the rules do."""
    probe = next_probe(bank, found, answers, asked_codes(answers), ladders, top, counting)
    if probe:
        return Item(tuple(map(_hand, probe)), ("bid",))
    found_options = options(bank, mode_fields(counting), counting, ladders)
    for barred in barring(bank, answers, ladders):
        chosen = None
        if lead is not None:
            chosen = best(found_options, lead.weights, found.slip,
                          barred | departing(bank, lead.reader), GUARD_LIKELY)
        if chosen is None:
            chosen = best(found_options, class_weights(bank, found), found.slip, barred)
        if chosen is not None:
            return _item(chosen)
    return None


def class_weights(bank: Bank, found: Belief) -> list[float]:
    """Each class's probability with the readers near it, and each pair's given to the
    part less likely alone (the hands telling the pair from the other part are its)."""
    weights = [found.mass(place) for place in range(len(found.weights))]
    place_of = {bank.ids[member]: place for place, members in enumerate(found.classes)
                for member in members}
    for pair, weight in found.pairs:
        places = [place_of[part] for part in pair]
        weakest = min(places, key=lambda place: (weights[place], place))
        weights[weakest] += weight
    return weights


def next_probe(bank: Bank, found: Belief, answers: Sequence[Answer], asked: frozenset[int],
               ladders: bool = False, top: Hypothesis | None = None,
               counting: bool = False) -> tuple[int, ...]:
    """The next probe hands (waiting()): with *ladders*, the waiting probes of the first
    one's shape within a ladder's span of HCP as one ladder
    (bidder.diagnosis.probes.probe_ladder); else one hand for the first probe with a hand
    left, the hand alike to it telling most about the class (telling())."""
    after = _rung_key(answers[-1].hand) if answers else None
    fresh = []  # (reader, probe, its first hand not asked) of each probe with one left
    for reader, probe in waiting(bank, found, answers, top):
        codes = [code for code in probe.codes if code not in asked
                 and not _next_rung(after, code)]
        if codes:
            fresh.append((reader, probe, codes[0]))
    if not fresh:
        return ()
    ladder = probe_ladder(tuple(code for _, _, code in fresh), asked) if ladders else ()
    reader, probe, first = fresh[0]
    return ladder or (telling(bank, found, reader, first, asked, after, counting, ladders,
                              leading_pair(found, top)),)


def waiting(bank: Bank, found: Belief, answers: Sequence[Answer],
            top: Hypothesis | None = None) -> tuple[tuple[int, Probe], ...]:
    """The probes waiting, each with the reading it probes (by place): those of either
    part of the *top* pair, once it leads (open_probes(): on the hands where the pair bids
    as the part does); else the leading misreading's, once it leads
    with the readers near it and its pairs with a second misreading (and its probes
    missed, while the readers near it stay RETRY likely)."""
    families = [family(bank, found, place) for place in range(len(found.weights))]
    lead = max(range(len(families)), key=families.__getitem__)
    reader = found.classes[lead][0]
    given = given_bids(answers)
    if leading_pair(found, top):
        return open_probes(bank, found, top, given)
    if families[lead] < LEAD or not reader:
        return ()
    probes = unsettled(bank, reader, given)
    if found.near[lead] >= RETRY:  # readers near it still likely: a missed probe again
        probes += tuple(probe for probe in missed(bank, reader, given) if probe not in probes)
    return tuple((reader, probe) for probe in probes)


def telling(bank: Bank, found: Belief, reader: int, first: int, asked: frozenset[int],
            after: tuple[tuple[int, ...], int] | None, counting: bool,
            ladders: bool = False, pair: tuple[str, str] | None = None) -> int:
    """Of the probe hand *first* of the reading at place *reader* and the bank's hands
    alike to it (its signature), not *asked* and not the next rung of a hand of *after*,
    the one whose bid tells most about the class (*first* among equals); for the parts of
    a leading *pair*, only hands on which the pair bids as the part does. A probe is asked
    anyway: asked so, it also splits the classes still in play."""
    mark = signature(reader, first)
    alike = [first] + [code for code in alike_hands(bank, reader, mark) if code != first
                       and code not in asked and not _next_rung(after, code)
                       and (pair is None or pair_bid(pair, code) == mark[2])]
    choices = options(bank, mode_fields(counting), counting, ladders)  # the round's own
    valued = gains(choices, class_weights(bank, found), found.slip, asked)

    def worth(code: int) -> float:
        """What the hand's bid tells (0 for a split asked already)."""
        return max((valued.get(place, 0.0) for place in choices.splitting.get(code, ())
                    if choices.items[place].ask == ("bid",)
                    and len(choices.items[place].rows) == 1), default=0.0)

    return max(alike, key=worth)


def family(bank: Bank, found: Belief, place: int) -> float:
    """The class's probability with the readers near it and the pairs it is part of."""
    reader = bank.ids[found.classes[place][0]]
    return found.mass(place) + sum(weight for pair, weight in found.pairs if reader in pair)


def _hand(code: int) -> Hand:
    """The hand of *code*, suits in order."""
    return Hand.in_order(packed.cards(code))


def _next_rung(last: tuple[tuple[int, ...], int] | None, code: int) -> bool:
    """Whether the hand *code* would read as the next rung of a ladder ending in a hand of
    *last*'s shape and HCP."""
    return last is not None and _rung_key(_hand(code)) == (last[0], last[1] + 1)


def _item(option: Option) -> Item:
    return Item(tuple(_hand(found.code) for found in option.rows), option.ask)



Plain = tuple[str, str | None, int | None, int | None]  # (hand, bid, HCP, distribution)


def diagnosis_of_rows(rows: tuple[Plain, ...]) -> dict:
    """diagnose() over answers given as plain (hand, bid, HCP, distribution) rows, as JSON:
    what a pool process computes for ``POST /api/diagnosis``."""
    answers = [Answer(parse_hand(hand), None if bid is None else Bid.from_value(bid), hcp,
                      distribution) for hand, bid, hcp, distribution in rows]
    return diagnose(answers).to_dict()
