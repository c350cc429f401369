"""Practice rounds: the rules a round deals for, and what the student got right and wrong.

A round is every rule that decides bids once (bidder.teaching), or, to practise the ones
missed, just the rules answered wrongly in the round before, each dealt as often as the
others in a round as long (a set by rule or by bid is dealt so too). Both travel in the session
cookie as short text: the round's rules as ids ('R3,R7'; empty for every rule) and its
answers as the deciding rule and a mark each ('R3+R7-': R3 right, R7 wrong).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...bids import Bid, BidError
from ...dealing import reachable_bids
from ...rules import RULE_BY_ID, Rule
from ...teaching import TEACHING_RULES

RIGHT, WRONG = "+", "-"
_ANSWER = re.compile(r"(R[0-9]{1,2})([+-])")
_GIVEN = re.compile(r"([0-9]{1,2}):([0-9A-Za-z]{1,4})")  # '0:1C': where, the bid given
_TEACHING_IDS = frozenset(rule.id for rule in TEACHING_RULES)


def round_rules(focus: str) -> tuple[Rule, ...]:
    """The rules a round deals for, one a hand: those named in *focus*, each as often as
    the others, filling a round as long as a round of every deciding rule; else every
    deciding rule once."""
    if not focus:
        return TEACHING_RULES
    return filled(tuple(RULE_BY_ID[rule_id] for rule_id in focus.split(",")))


def round_bids(bids: str) -> tuple[Bid, ...]:
    """The bids a round of *bids* ('1NT,2NT') deals for, one a hand: each as often as the
    others, filling a round as long as a round of every deciding rule."""
    return filled(tuple(Bid.parse(text) for text in bids.split(",")))


def filled(chosen: tuple) -> tuple:
    """*chosen* repeated as many times as fill a round of every deciding rule (at least
    once): a round of one rule or one bid is as long as any other."""
    return chosen * -(-len(TEACHING_RULES) // len(chosen))


def is_bids(value: object) -> bool:
    """Whether *value* names a round's bids as this module writes them: '' or distinct
    bids some hand opens, comma-separated, in bidding order."""
    if not isinstance(value, str):
        return False
    texts = value.split(",") if value else []
    ordered = [str(bid) for bid in reachable_bids() if str(bid) in texts]
    return texts == ordered


def is_focus(value: object) -> bool:
    """Whether *value* names a round as this module writes it: '' or distinct ids of
    deciding rules, comma-separated, in table order."""
    if not isinstance(value, str):
        return False
    ids = value.split(",") if value else []
    ordered = [rule.id for rule in TEACHING_RULES if rule.id in ids]
    return len(ids) == len(set(ids)) and set(ids) <= _TEACHING_IDS and ids == ordered


def answers(record: str) -> list[tuple[str, bool]]:
    """The answers of a round: (deciding rule id, right?) in the order given."""
    return [(rule_id, mark == RIGHT) for rule_id, mark in _ANSWER.findall(record)]


def is_record(value: object) -> bool:
    """Whether *value* is a round's answers as this module writes them."""
    return (isinstance(value, str) and _ANSWER.sub("", value) == ""
            and all(rule_id in _TEACHING_IDS for rule_id, _ in answers(value)))


def recorded(record: str, rule_id: str, right: bool) -> str:
    """*record* with one more answer."""
    return f"{record}{rule_id}{RIGHT if right else WRONG}"


@dataclass(frozen=True)
class RuleScore:
    """How a round went for the hands one rule decides."""

    rule: Rule
    right: int
    wrong: int


def scores(record: str) -> tuple[RuleScore, ...]:
    """Right and wrong answers per deciding rule, in table order; rules not answered left
    out."""
    given = answers(record)
    return tuple(RuleScore(rule, sum(right for rule_id, right in given if rule_id == rule.id),
                           sum(not right for rule_id, right in given if rule_id == rule.id))
                 for rule in TEACHING_RULES if any(rule_id == rule.id for rule_id, _ in given))


def missed(record: str) -> str:
    """The rules answered wrongly at least once, as a round to practise them ('' if none)."""
    return ",".join(score.rule.id for score in scores(record) if score.wrong)


def given_bids(value: str) -> list[tuple[int, str]]:
    """The bids given in a round: (the hand's place in the round, the bid's text)."""
    return [(int(place), bid) for place, bid in _GIVEN.findall(value)]


def is_given(value: object) -> bool:
    """Whether *value* is a round's bids given as this module writes them: '0:1C,2:None',
    places rising, each bid in its own text form."""
    if not isinstance(value, str):
        return False
    parts = value.split(",") if value else []
    given = given_bids(value)
    places = [place for place, _ in given]
    return (len(given) == len(parts) and all(_GIVEN.fullmatch(part) for part in parts)
            and places == sorted(set(places)) and all(_is_bid(bid) for _, bid in given))


def _is_bid(text: str) -> bool:
    try:
        return str(Bid.parse(text)) == text
    except BidError:
        return False


def with_given(value: str, place: int, bid: str) -> str:
    """*value* with one more bid given, for the hand at *place*."""
    return f"{value},{place}:{bid}" if value else f"{place}:{bid}"
