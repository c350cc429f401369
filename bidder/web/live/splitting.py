"""The next hand chosen to split the class: the diagnosis's choice (``next_for_class``) over
the room's votes so far, each device a student with its bid on each hand voted.

Its cost grows with the room (about 12 ms a student), so the votes are read as plain data
here and the choice is made in the worker's pool (``bidder.web.heavy``), over at most
MOST_STUDENTS students (a larger room is sampled in proportion, every distinct way of
answering kept at least once) and the last MOST_ROUNDS votes.
"""

from __future__ import annotations

from collections import Counter

from ...bids import Bid
from ...cards import parse_hand
from ...diagnosis import Answer, next_for_class
from ..state import Store
from . import ledger
from .hands import canonical
from .model import Poll, Status, key_bid

SPLIT_WORK = "the next hand chosen to split the class"  # in the worker's pool (web.heavy)
MOST_STUDENTS = 200  # students the choice reads, at most (a larger room is sampled)
MOST_ROUNDS = 12  # the last votes read, at most

Student = tuple[tuple[str, str | None], ...]  # (hand, bid or None) per hand voted


def class_answers(store: Store, poll: Poll, status: Status) -> tuple[Student, ...]:
    """Each device's last bid on each hand of the last MOST_ROUNDS votes, up to the one on
    the table, as plain (hand, bid) pairs."""
    first = max(0, status.round + 1 - MOST_ROUNDS)
    devices: dict[str, dict[str, str | None]] = {}
    for place in range(first, status.round + 1):
        hand = poll.rounds[place].hand
        for device, key in ledger.ballots(store, poll.code, place).items():
            devices.setdefault(device, {})[hand] = key_bid(key)
    return tuple(tuple(votes.items()) for _, votes in sorted(devices.items()))


def sampled(students: tuple[Student, ...], most: int = MOST_STUDENTS) -> tuple[Student, ...]:
    """*students*, or for more than *most* of them, each distinct way of answering as
    often as its share of *most* (at least once), the commonest first."""
    if len(students) <= most:
        return students
    counted = Counter(students).most_common()
    return tuple(student for student, count in counted
                 for _ in range(max(1, round(count * most / len(students)))))


def split_hand(students: tuple[Student, ...]) -> str:
    """The hand that best splits *students*' readings, in canonical form (run in the
    worker's pool)."""
    answers = [[Answer(parse_hand(hand), None if bid is None else Bid.from_value(bid))
                for hand, bid in student] for student in sampled(students)]
    return canonical(str(next_for_class(answers)))
