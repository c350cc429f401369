"""Polls kept in the state store: made, read, voted on, closed, revealed, moved on.

Keys, each kept POLL_SECONDS: ``live:CODE`` the poll (JSON), ``live:CODE:status`` the
round on the table and its state ('0:open'), ``live:CODE:devices`` the devices that
joined, each to the rounds it may vote in ('*' every one; in a count-first poll the
round it counted, '-' before its first count), ``live:CODE:votes:N`` round N's votes,
device to bid. A vote is written only while the status reads 'N:open', into round N's
votes, and only for a device admitted to round N, in one atomic step that reads the
status too (Store.put_field_by_guard): a close is a close on every server sharing the
store, a device has one vote a round however often it is sent, and a vote is one store
round trip. A join adds the device only while fewer than the class size have joined.
"""

from __future__ import annotations

import secrets
from dataclasses import replace

from ..state import Store
from .model import CLOSED, OPEN, REVEALED, Poll, Round, Status, bid_key, digest

POLL_SECONDS = 12 * 3600.0  # a day's classes
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
CODE_LENGTH = 5
ATTEMPTS = 8
MAX_DEVICES = 1000  # devices a poll takes when no class size is given, and the largest size
EVERY_ROUND, NO_ROUND = "*", "-"  # what a device is admitted to


class PollError(Exception):
    """A poll operation refused: the message says why and what to do."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def new_code() -> str:
    """A random join code."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def create(store: Store, hand: str, count_first: bool = False,
           class_size: int | None = None) -> tuple[Poll, str]:
    """A new poll, open on *hand* (canonical), and its admin token; with *count_first*
    students count the hand before they bid; at most *class_size* devices join."""
    token = secrets.token_urlsafe(18)
    for _ in range(ATTEMPTS):
        poll = Poll(new_code(), digest(token), (Round(hand),), count_first, class_size)
        if store.put_if_absent(f"live:{poll.code}", poll.to_json(), POLL_SECONDS) is None:
            store.put(f"live:{poll.code}:status", str(Status(0, OPEN)), POLL_SECONDS)
            return poll, token
    raise PollError(503, "no_free_code", "no free join code was found; try again")


def load(store: Store, code: str) -> tuple[Poll, Status]:
    """The poll *code* names and its status.

    :raises PollError: 404 when there is no such poll (never made, or ended).
    """
    code = code.upper()
    text = store.get(f"live:{code}") if is_code(code) else None
    status = text and store.get(f"live:{code}:status")
    if not status:
        raise no_such_poll(code)
    return Poll.from_json(text), Status.parse(status)


def no_such_poll(code: str) -> PollError:
    """The 404 for a code that names no poll."""
    return PollError(404, "no_such_poll",
                     f"there is no poll {code[:12]!r}: check the code on the projector "
                     f"(polls end {POLL_SECONDS / 3600:.0f} hours after they start)")


def is_code(text: str) -> bool:
    """Whether *text* has the form of a join code."""
    return len(text) == CODE_LENGTH and all(letter in CODE_LETTERS for letter in text)


def devices_key(code: str) -> str:
    """The key of the devices that joined poll *code*."""
    return f"live:{code}:devices"


def join(store: Store, poll: Poll, device: str) -> int:
    """Let *device* into *poll* (once: a device that joined stays as it was): how many
    devices have joined.

    :raises PollError: 403 when the class size (or MAX_DEVICES) have joined already.
    """
    size = poll.class_size or MAX_DEVICES
    admitted, joined = store.put_field_capped(
        devices_key(poll.code), device, NO_ROUND if poll.count_first else EVERY_ROUND,
        size, POLL_SECONDS)
    if not admitted:
        raise PollError(403, "class_full", f"this poll is full: {joined} devices have "
                        f"joined, the class size the instructor gave ({size}); if you are "
                        f"in the class, ask the instructor (who may start the poll anew "
                        f"with a larger class)")
    return joined


def counted(store: Store, poll: Poll, status: Status, device: str) -> None:
    """Admit *device*, which has counted the hand, to vote in the round on the table of
    a count-first poll (in another, a device that joined votes in every round).

    :raises PollError: 403 for a device that has not joined the poll.
    """
    if not poll.count_first:
        return
    admitted, _ = store.put_field_capped(devices_key(poll.code), device, str(status.round),
                                         0, POLL_SECONDS, replace=True)
    if not admitted:
        raise not_joined(poll.code)


def joined(store: Store, code: str) -> int:
    """How many devices have joined poll *code*."""
    return len(store.fields(devices_key(code)))


def not_joined(code: str) -> PollError:
    """The refusal of a vote or count from a device that has not joined (or, in a
    count-first poll, not counted this hand); it says the same for a poll that does not
    exist, so that votes tell nothing of which codes do."""
    code = code.upper()[:12]
    return PollError(403, "not_joined", f"this phone has not joined poll {code!r} (or, when "
                     f"the poll asks for a count first, has not counted this hand): open "
                     f"the join page, /live/{code}, or scan the QR code on the projector, "
                     f"then vote")


def vote(store: Store, code: str, device: str, bid: str | None) -> tuple[Status, int]:
    """Record *device*'s vote for *bid* in the round on the table of poll *code*,
    replacing its last, in one store round trip: the status and how many have answered.

    :raises PollError: 403 for a device not admitted to the round (or no such poll),
        409 when the round is not open (both checked by the store itself, in the step
        that writes the vote).
    """
    code = code.upper()
    held, answered = (store.put_field_by_guard(
        f"live:{code}:status", f":{OPEN}", f"live:{code}:votes:", device, bid_key(bid),
        POLL_SECONDS, admit=devices_key(code)) if is_code(code) else (None, 0))
    if held is None:
        raise not_joined(code)
    status = Status.parse(held)
    if status.state != OPEN:
        raise PollError(409, "poll_closed", "the vote is closed: your answer was not "
                        "taken; wait for the next vote")
    if not answered:
        raise not_joined(code)
    return status, answered


def ballots(store: Store, code: str, round_: int) -> dict[str, str]:
    """Round *round_*'s votes, device to bid key."""
    return store.fields(f"live:{code}:votes:{round_}")


def close(store: Store, poll: Poll, status: Status) -> Status:
    """Close the vote on the table (a closed or revealed one stays as it is)."""
    if status.state != OPEN:
        return status
    return _put(store, poll, Status(status.round, CLOSED))


def reveal(store: Store, poll: Poll, status: Status) -> Status:
    """Close the vote if open, and show its answers."""
    return _put(store, poll, Status(status.round, REVEALED))


def next_round(store: Store, poll: Poll, status: Status, hand: str | None) -> tuple[Poll, Status]:
    """Open a new vote: on *hand*, or a second vote on the same hand for None.

    :raises PollError: 409 while the vote on the table is open.
    """
    if status.state == OPEN:
        raise PollError(409, "poll_open", "close the vote on the table before starting "
                        "the next one")
    current = poll.rounds[status.round]
    added = Round(current.hand, second=True) if hand is None else Round(hand)
    moved = replace(poll, rounds=poll.rounds + (added,))
    store.put(f"live:{poll.code}", moved.to_json(), POLL_SECONDS)
    return moved, _put(store, moved, Status(len(moved.rounds) - 1, OPEN))


def _put(store: Store, poll: Poll, status: Status) -> Status:
    store.put(f"live:{poll.code}:status", str(status), POLL_SECONDS)
    return status
