"""A live poll as data: its hands round by round, the state of the round on the table,
and what the room answered (pure values, no store)."""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass

from ...advice import explain
from ...bids import BIDS
from .. import heavy
from .labels import wrong_bids

OPEN, CLOSED, REVEALED = "open", "closed", "revealed"
STATES = (OPEN, CLOSED, REVEALED)
NO_BID_KEY = "None"  # a vote for no bid, as the votes' keys write it
BID_KEYS = tuple(NO_BID_KEY if bid.text is None else bid.text for bid in BIDS)


def bid_key(bid: str | None) -> str:
    """A bid ('1C' or None) as the key a vote is kept under ('1C' or 'None')."""
    return NO_BID_KEY if bid is None else bid


def key_bid(key: str) -> str | None:
    """The bid a vote's key stands for."""
    return None if key == NO_BID_KEY else key


def digest(token: str) -> str:
    """What the store keeps of an admin token: its SHA-256, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Round:
    """One vote: the hand (canonical) and whether it is a second vote on that hand."""

    hand: str
    second: bool = False


@dataclass(frozen=True)
class Poll:
    """A poll: its join code, the digest of its admin token, its rounds so far, whether
    students count the hand (HCP, distribution points) before they bid, and how many
    devices may join (None: as many as any poll takes)."""

    code: str
    admin_digest: str
    rounds: tuple[Round, ...]
    count_first: bool = False
    class_size: int | None = None

    def admits(self, token: str) -> bool:
        """Whether *token* is this poll's admin token (compared in constant time)."""
        return hmac.compare_digest(digest(token), self.admin_digest)

    def to_json(self) -> str:
        """The poll as the store keeps it."""
        return json.dumps({"code": self.code, "admin": self.admin_digest,
                           "rounds": [[r.hand, r.second] for r in self.rounds],
                           "count_first": self.count_first, "class_size": self.class_size})

    @classmethod
    def from_json(cls, text: str) -> Poll:
        """The poll to_json wrote."""
        data = json.loads(text)
        return cls(data["code"], data["admin"],
                   tuple(Round(hand, second) for hand, second in data["rounds"]),
                   data.get("count_first", False), data.get("class_size"))


@dataclass(frozen=True)
class Status:
    """Which round is on the table and its state (open, closed or revealed)."""

    round: int
    state: str

    def __str__(self) -> str:
        return f"{self.round}:{self.state}"

    @classmethod
    def parse(cls, text: str) -> Status:
        """The status str() wrote."""
        place, state = text.split(":")
        return cls(int(place), state)


def tally(ballots: dict[str, str]) -> dict[str, int]:
    """Votes by device to the count of each bid voted, in bidding-box order."""
    counts = {key: 0 for key in BID_KEYS}
    for key in ballots.values():
        counts[key] += 1
    return {key: count for key, count in counts.items() if count}


@dataclass(frozen=True)
class Answer:
    """The rules' answer on a hand and the misreadings behind each wrong bid."""

    right: str | None
    wrong: dict[str, tuple[str, ...]]

    @classmethod
    def of(cls, hand: str) -> Answer:
        """The answer for *hand*."""
        wrong = heavy.run("the misreadings behind each bid", wrong_bids, hand)
        return cls(explain(hand).bid, {bid_key(bid): ids for bid, ids in wrong.items()})

    def label(self, key: str) -> tuple[str, ...]:
        """The misreadings that give the bid *key* ('1C', 'None'); none for the right
        bid, or a bid no misreading gives."""
        return self.wrong.get(key, ())


def shift(first: dict[str, int], second: dict[str, int]) -> dict[str, int]:
    """How each bid's count moved from the first vote to the second (0s left out)."""
    moved = {key: second.get(key, 0) - first.get(key, 0) for key in BID_KEYS}
    return {key: change for key, change in moved.items() if change}


# How a student's answer went from the first vote to the second, and how a page says it.
MOVES = {"wrong_to_right": "From wrong to right", "right_to_wrong": "From right to wrong",
         "stayed_right": "Right both times", "stayed_wrong": "Wrong both times",
         "first_only": "Voted only the first time", "second_only": "Voted only the second time"}


def moves(first: dict[str, str], second: dict[str, str], right: str | None) -> dict[str, int]:
    """How many students (devices) went from a wrong answer to the right one, from right to
    wrong, stayed right, stayed wrong (whichever wrong bids), or voted only in the first
    or only in the second vote; *first* and *second* are the votes, device to bid key."""
    counted = dict.fromkeys(MOVES, 0)
    right_key = bid_key(right)
    for device in first.keys() | second.keys():
        if device not in second:
            counted["first_only"] += 1
        elif device not in first:
            counted["second_only"] += 1
        else:
            was, now = first[device] == right_key, second[device] == right_key
            counted[("stayed_right" if now else "right_to_wrong") if was else
                    ("wrong_to_right" if now else "stayed_wrong")] += 1
    return counted


def misreadings_shown(answer: Answer, counts: dict[str, int]) -> dict[str, int]:
    """Each misreading behind some wrong vote, to the votes it explains."""
    shown: dict[str, int] = {}
    for key, count in counts.items():
        for name in answer.label(key):
            shown[name] = shown.get(name, 0) + count
    return shown
