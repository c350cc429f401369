"""explain(hand): the bid, the rule that fired, and why every other rule did or did not."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from collections.abc import Sequence
from functools import cached_property, lru_cache

from . import packed
from .cards import DECK, HAND_SIZE, SUITS_HIGH_FIRST, Hand, Rank, Suit, parse_hand
from .facts import HCP_SCALE, SHAPES, STANDARD, Counting, Facts, Tally, card_hcp
from .rules import (RULES, Condition, Holding, NeedsSuitHcp, Rule, TallyOnly, applying,
                    first_rule)
from .wording import explanation

_HOLE = "\0"  # where to_json() puts a hand's own part: no text of a decision holds it
NEAR_MISS_GAP = 2
NEAR_MISS_COUNT = 3


class Status(enum.StrEnum):
    """How a rule went for a hand: it fired, a condition failed, it also applied but an
    earlier rule came first, or (the catch-all) it was not reached."""

    FIRED = "fired"
    FAILED = "failed"
    SHADOWED = "shadowed"
    NOT_REACHED = "not reached"


FIRED, FAILED, SHADOWED, NOT_REACHED = Status


@dataclass(frozen=True)
class Step:
    """One rule of the decision list, as it went for this hand."""

    rule: str
    status: Status
    reasons: tuple[str, ...]
    would_bid: str | None = None


@dataclass(frozen=True, eq=False)
class Decision:
    """All that a hand's tally (its suit lengths and HCP) decides: the bid, the rule
    behind it, the trace, the notes and the near misses. Hands with the same tally share
    one Decision, worked out once; only where the HCP within the suits settle something
    (R6's choice between two long suits of a kind) is it the hand's own."""

    bid: str | None
    rule: str
    trace: tuple[Step, ...]
    notes: tuple[str, ...]
    near_misses: tuple[str, ...]
    rules: tuple[Rule, ...] = field(repr=False)
    holding: Holding = field(repr=False, compare=False)  # what the decision read

    @cached_property
    def fired(self) -> Rule:
        """The rule that decided the bid."""
        return next(rule for rule in self.rules if rule.id == self.rule)

    @cached_property
    def ruled_overlaps(self) -> tuple[str, ...]:
        """The rules that also apply where a ruling speaks of that overlap (R4 under R3):
        the ones the notes name. The others are said quietly, in the trace alone."""
        return tuple(step.rule for rule, step in zip(self.rules, self.trace)
                     if _ruled_overlap(rule, step, self.fired))

    @cached_property
    def explanation(self) -> str:
        """The decision in a sentence, as a teacher says it, with this hand's numbers:
        "Open 1D: 13 points (13-21 needed), ..." or "No bid: ..."."""
        return explanation(self.fired, self.bid, self.holding,
                           tuple(rule for rule in self.rules if is_reachable(rule)),
                           self.near_misses)

    @cached_property
    def explanation_alone(self) -> str:
        """The explanation without the rules that came closest (for a page that lists
        them beside it, or a line with no room for them)."""
        return replace(self, near_misses=()).explanation

    def filled(self, hand, hcp_by_card, holdings) -> dict:
        """to_dict() of a hand of this decision, from the hand's own parts: its cards in a
        line, its honours, and each suit's (cards, HCP) spades first."""
        template, suits, trace = self.summary
        advice = template.copy()
        advice["hand"], advice["hcp_by_card"] = hand, hcp_by_card
        advice["suits"] = [{"suit": word, "symbol": symbol, "cards": cards, "length": length,
                            "hcp": hcp, "distribution": distribution}
                           for (word, symbol, length, distribution), (cards, hcp)
                           in zip(suits, holdings)]
        advice["trace"] = [{"rule": rule, "name": name, "status": status,
                            "reasons": list(reasons), "would_bid": would_bid}
                           for rule, name, status, reasons, would_bid in trace]
        advice["notes"] = list(self.notes)
        advice["near_misses"] = list(self.near_misses)
        return advice

    @cached_property
    def json_parts(self) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
        """The JSON of filled() for any hand of this decision, cut where the hand's own
        parts go: the whole around the hand, its honours and its suits; each suit around
        its cards and their HCP."""
        import json

        whole = self.filled(_HOLE, _HOLE, [(_HOLE, _HOLE)] * len(SUITS_HIGH_FIRST))
        suits, whole["suits"] = whole["suits"], _HOLE
        cut = json.dumps(_HOLE)
        return (tuple(_json(whole).split(cut)),
                tuple(tuple(_json(suit).split(cut)) for suit in suits))

    @cached_property
    def summary(self) -> tuple[dict, tuple, tuple]:
        """What to_dict() says of any hand this decision is for: every key in order with
        the values that do not hold lists, each suit but its cards and HCP, each step of
        the trace."""
        tally, fired = self.holding.tally, self.fired
        template = {"hand": None, "hcp": tally.hcp, "distribution": tally.distribution,
                    "points": tally.points, "shape": tally.shape,
                    "balanced": tally.balanced, "balanced_reason": tally.balanced_reason,
                    "hcp_by_card": None, "suits": None, "bid": self.bid, "rule": self.rule,
                    "rule_name": fired.name, "rule_sentence": fired.sentence,
                    "explanation": self.explanation, "trace": None, "notes": None,
                    "near_misses": None}
        suits = tuple(_suit_summary(suit, tally.length(suit), tally.length_points(suit))
                      for suit in SUITS_HIGH_FIRST)
        trace = tuple(_step_summary(step, rule.name)
                      for rule, step in zip(self.rules, self.trace))
        return template, suits, trace


def _json(value: object) -> str:
    """*value* as compact JSON in ASCII, as Flask writes JSON (a suit symbol as \\u2660):
    a response all in ASCII is encoded by a copy."""
    import json

    return json.dumps(value, separators=(",", ":"))


@dataclass(frozen=True)
class Advice:
    """The opening bid for a hand with everything needed to explain it: the hand (in the
    packed engine's form), what its tally decides, and its facts when asked for."""

    code: int = field(repr=False)
    decision: Decision
    counting: Counting = field(default=STANDARD, repr=False)

    @cached_property
    def facts(self) -> Facts:
        """The hand and its numbers, worked out on first use (to_dict() needs none)."""
        return Facts(Hand.in_order(packed.cards(self.code)), self.counting)

    bid = property(lambda self: self.decision.bid, doc="The bid, or None for no bid.")
    rule = property(lambda self: self.decision.rule, doc="The id of the rule that fired.")
    trace = property(lambda self: self.decision.trace, doc="Every rule, as it went.")
    notes = property(lambda self: self.decision.notes, doc="Overlaps and rulings.")
    near_misses = property(lambda self: self.decision.near_misses,
                           doc="Rules a small change would make open the hand.")
    rules = property(lambda self: self.decision.rules, doc="The rule table used.")
    tally = property(lambda self: self.decision.holding.tally,
                     doc="The lengths and HCP the rules read (as facts.tally).")
    fired = property(lambda self: self.decision.fired, doc="The rule that fired.")
    ruled_overlaps = property(lambda self: self.decision.ruled_overlaps,
                              doc="The later rules that also apply and get a note.")
    explanation_alone = property(lambda self: self.decision.explanation_alone,
                                 doc="The explanation without the closest rules.")
    explanation = property(lambda self: self.decision.explanation,
                           doc="The decision in one or two sentences.")

    def to_dict(self) -> dict:
        """The advice as plain JSON types (every list and dict new)."""
        holdings = packed.holdings(self.code, self.counting.scale)
        return self.decision.filled(
            " ".join([line for _, _, _, line in holdings if line]),
            [{"card": card, "hcp": points}
             for _, honours, _, _ in holdings for card, points in honours],
            [(list(cards), hcp) for cards, _, hcp, _ in holdings])

    def to_json(self) -> str:
        """to_dict() as JSON text (in ASCII): the decision's part written once for
        each Decision, each suit's cards once for each holding, joined here."""
        (head, after_hand, after_honours, tail), suit_parts = self.decision.json_parts
        holdings = [_holding_json(suit, bits, self.counting.scale)
                    for suit, bits in packed.suit_fields(self.code)]
        hand = " ".join([line for line, _, _, _ in holdings if line])
        honours = ",".join([honours for _, honours, _, _ in holdings if honours])
        suits = ",".join([f"{before}{cards}{between}{hcp}{after}"
                          for (before, between, after), (_, _, cards, hcp)
                          in zip(suit_parts, holdings)])
        return f'{head}"{hand}"{after_hand}[{honours}]{after_honours}[{suits}]{tail}'


@lru_cache(maxsize=1 << 8)
def _suit_summary(suit: Suit, length: int, points: int) -> tuple[str, str, int, int]:
    """What to_dict() says of a suit but its cards, one tuple for every tally with it."""
    return suit.word, suit.symbol, length, points


@lru_cache(maxsize=1 << 14)
def _step_summary(step: Step, name: str) -> tuple:
    """What to_dict() says of a step of the trace, one tuple for every tally with it."""
    return step.rule, name, step.status, step.reasons, step.would_bid


@lru_cache(maxsize=len(SUITS_HIGH_FIRST) << len(Rank))
def _holding_json(suit: int, bits: int, scale=HCP_SCALE) -> tuple[str, str, str, int]:
    """One suit of to_json() for a holding (see packed.suit_fields): its cards in a
    line, its honours as JSON objects, its cards as a JSON list, and its HCP. Cards are
    letters and digits: nothing in them needs escaping."""
    cards, honours, hcp, line = packed.suit_texts(suit, bits, scale)
    return (line, ",".join([f'{{"card":"{card}","hcp":{points}}}' for card, points in honours]),
            '["' + '","'.join(cards) + '"]' if cards else "[]", hcp)


def explain(hand: str | Hand, rules: tuple[Rule, ...] = RULES,
            counting: Counting = STANDARD) -> Advice:
    """The opening bid for *hand* (text or Hand) by the rule table *rules*, with hands
    counted by *counting*: the rule behind it and the full trace.

    :raises InvalidHandError: if text is not a hand of 13 different cards.
    """
    code = packed.encode_cards(hand) if isinstance(hand, Hand) else packed.read(hand)
    if code is None:
        code = packed.encode_cards(parse_hand(hand))
    rules, counted = tuple(rules), packed.rescaled(code, counting)
    by_tally = _by_tally if packed.is_the_assignments(rules, counting) else _by_other_tally
    try:
        decision = by_tally(packed.key(counted), rules, counting)
    except NeedsSuitHcp:
        decision = _by_profile(packed.profile(counted), rules, counting)
    return Advice(code, decision, counting)


def _tally_decision(key: int, rules: tuple[Rule, ...], counting: Counting) -> Decision:
    """The decision for every hand with the tally *key*.

    :raises NeedsSuitHcp: where the HCP within the suits settle something.
    """
    return _decision(TallyOnly(packed.tally(packed.from_key(key), counting)), rules)


# Worked out once per tally: for the assignment's table, every tally there is (15,376
# at most, about 2.8 KB each); for the misreadings' tables, which a server is asked for
# without end, the most recent few (about 3 MB).
_by_tally = lru_cache(maxsize=1 << 15)(_tally_decision)
_by_other_tally = lru_cache(maxsize=1 << 10)(_tally_decision)


@lru_cache(maxsize=1 << 10)
def _by_profile(profile: int, rules: tuple[Rule, ...], counting: Counting) -> Decision:
    """The decision for the hands with this profile, which the suits' HCP settle."""
    return _decision(packed.Holding(packed.from_profile(profile), counting), rules)


def _decision(holding: Holding, rules: tuple[Rule, ...]) -> Decision:
    """What *holding* decides by *rules*, with everything to_dict() says worked out now
    (so that a tally alone raises NeedsSuitHcp here, not later)."""
    fired, trace, near_misses, rulings = _judge(holding.tally, rules)
    bid = fired.bid(holding)
    trace = tuple(step if step.status != SHADOWED else
                  _shared_step(step.rule, SHADOWED, step.reasons, rule.bid(holding))
                  for rule, step in zip(rules, trace))
    notes = tuple(_shadow_note(step, bid) for rule, step in zip(rules, trace)
                  if _ruled_overlap(rule, step, fired)) + rulings
    decision = Decision(bid, fired.id, trace, notes, near_misses, rules, holding)
    decision.summary
    return decision


@lru_cache(maxsize=1 << 10)  # asked only when a decision is worked out (above)
def _judge(tally: Tally, rules: Sequence[Rule]
           ) -> tuple[Rule, tuple[Step, ...], tuple[str, ...], tuple[str, ...]]:
    """The rule that fires, the trace, the near misses and the rulings about the hand:
    all a tally decides."""
    fired, *shadowed = applying(tally, rules)
    trace = tuple(_step(rule, fired, shadowed, tally) for rule in rules)
    near_misses = _near_misses(tally, rules) if fired.level is None else ()
    rulings = tuple(f"{rule.id}: {rule.ruling_text}" for rule in rules
                    if rule.ruling_about(tally, rules))
    return fired, trace, near_misses, rulings


def _ruled_overlap(rule: Rule, step: Step, fired: Rule) -> bool:
    """Whether *rule* also applies under *fired* where a ruling speaks of that overlap
    (R4 or R5 under R3): worth a note. R3 under R1 or R2 holds on every such hand and is
    said only in the trace."""
    return step.status == SHADOWED and fired.id in rule.noted_under


def _step(rule: Rule, fired: Rule, shadowed: list[Rule], tally: Tally) -> Step:
    if rule is fired:
        return _shared_step(rule.id, FIRED,
                            tuple(condition.success(tally) for condition in rule.conditions))
    if rule in shadowed and rule.level is not None:
        return _shared_step(rule.id, SHADOWED, (f"also applies, but {fired.id} comes first",))
    if rule in shadowed:
        return _shared_step(rule.id, NOT_REACHED, (f"applies only when no rule above does; "
                                                   f"{fired.id} did",))
    return _shared_step(rule.id, FAILED, tuple(condition.failure(tally)
                                               for condition in rule.failures(tally)))


@lru_cache(maxsize=1 << 14)
def _shared_step(rule: str, status: Status, reasons: tuple[str, ...],
                 would_bid: str | None = None) -> Step:
    """One Step for every tally that goes the same way at a rule ('needs 16-18 HCP, has
    12' is said of thousands of tallies): each memo of decisions then holds a trace of
    shared steps, not nine new ones and their sentences."""
    return Step(rule, status, reasons, would_bid)


def _shadow_note(step: Step, bid: str | None) -> str:
    if step.would_bid == bid:
        return f"{step.rule} also applies and would bid the same {bid}."
    return (f"{step.rule} also applies and would bid {step.would_bid}; "
            f"the assignment says the first rule that applies wins.")


def _near_misses(tally: Tally, rules: Sequence[Rule]) -> tuple[str, ...]:
    """Rules that one failed condition, by a small gap, keeps from opening this hand, and
    that meeting it would make the first to apply."""
    misses = []
    for rule in rules:
        failures = rule.failures(tally)
        if len(failures) != 1:
            continue
        condition = failures[0]
        if (condition.gap(tally) <= NEAR_MISS_GAP
                and remedy(rule, condition, tally, rules) is not None):
            misses.append((condition.gap(tally),
                           f"{condition.shortfall(tally)} {rule.name} ({rule.id})"))
    return tuple(text for _, text in sorted(misses, key=lambda miss: miss[0])
                 [:NEAR_MISS_COUNT])


def remedy(rule: Rule, condition: Condition, tally: Tally,
           rules: Sequence[Rule] = RULES) -> Tally | None:
    """A tally some hand has that differs from *tally* only in what *condition* reads
    (and what follows from it: distribution points follow length, cards added to a suit
    come from the others), on which *rule* is the first rule to apply; None if none."""
    return next((changed for changed in condition.met(tally)
                 if is_possible(changed) and first_rule(changed, rules) is rule), None)


# The fewest and most high card points a suit of each length can hold.
_SUIT_RANK_HCP = sorted(card_hcp(card) for card in DECK if card.suit == Suit.CLUBS)
_LEAST_SUIT_HCP = tuple(sum(_SUIT_RANK_HCP[:length]) for length in range(HAND_SIZE + 1))
_MOST_SUIT_HCP = tuple(sum(_SUIT_RANK_HCP[len(_SUIT_RANK_HCP) - length:])
                       for length in range(HAND_SIZE + 1))


def is_possible(tally: Tally) -> bool:
    """Whether some 13-card hand has these suit lengths and this many HCP."""
    return (sum(_LEAST_SUIT_HCP[length] for length in tally.lengths) <= tally.hcp
            <= sum(_MOST_SUIT_HCP[length] for length in tally.lengths))


def possible_tallies():
    """Every (lengths, HCP) that some 13-card hand has."""
    for lengths in SHAPES:
        low = sum(_LEAST_SUIT_HCP[length] for length in lengths)
        high = sum(_MOST_SUIT_HCP[length] for length in lengths)
        for hcp in range(low, high + 1):
            yield Tally(lengths, hcp)


# R3 takes every hand R4 would: a balanced hand with 19-20 HCP has 19-21 points. Working
# this out over every possible hand takes a fifth of a second, too slow for each start of
# the command line, so it is written down here and a test works it out to check.
NEVER_DECIDES = frozenset({"R4"})


def decided_rule_ids() -> frozenset[str]:
    """The rules that decide the bid of at least one hand, worked out over every tally."""
    return frozenset(first_rule(tally).id for tally in possible_tallies())


def is_reachable(rule: Rule) -> bool:
    """Whether any hand is decided by *rule* (R4 never is: R3 always comes first)."""
    return rule.id not in NEVER_DECIDES
