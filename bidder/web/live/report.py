"""What a poll shows: to the room (no distribution before the reveal), to its admin
(everything), and the session's summary to download (as data, and as CSV rows)."""

from __future__ import annotations

import csv
import io

from ..state import Store
from .ledger import ballots, joined
from .model import (REVEALED, Answer, Poll, Status, bid_key, misreadings_shown, moves, shift,
                    tally)


def view(store: Store, poll: Poll, status: Status, admin: bool) -> dict:
    """The poll as the API gives it: the distribution only to its admin, or once
    revealed; how many devices joined only to its admin."""
    current = poll.rounds[status.round]
    votes = ballots(store, poll.code, status.round)
    shown = {"code": poll.code, "round": status.round, "rounds": len(poll.rounds),
             "state": status.state, "hand": current.hand, "second": current.second,
             "answered": len(votes), "count_first": poll.count_first}
    if not (admin or status.state == REVEALED):
        return shown
    answer = Answer.of(current.hand)
    counts = tally(votes)
    shown |= {"votes": counts, "right": answer.right, "wrong": answer.wrong}
    if admin:
        shown["joined"] = joined(store, poll.code)
    if current.second:
        before = ballots(store, poll.code, status.round - 1)
        first = tally(before)
        shown |= {"first": first, "shift": shift(first, counts),
                  "students": moves(before, votes, answer.right)}
    return shown


def summary(store: Store, poll: Poll) -> dict:
    """Every round's votes, the right bid and the misreadings the room showed, and those
    misreadings over the whole session."""
    rounds, session = [], {}
    votes = [ballots(store, poll.code, place) for place in range(len(poll.rounds))]
    for place, round_ in enumerate(poll.rounds):
        answer = Answer.of(round_.hand)
        counts = tally(votes[place])
        shown = misreadings_shown(answer, counts)
        for name, count in shown.items():
            session[name] = session.get(name, 0) + count
        rounds.append({"hand": round_.hand, "second": round_.second, "right": answer.right,
                       "votes": counts, "misreadings": shown})
        if round_.second:
            rounds[-1]["students"] = moves(votes[place - 1], votes[place], answer.right)
    ranked = dict(sorted(session.items(), key=lambda item: (-item[1], item[0])))
    return {"code": poll.code, "rounds": rounds, "misreadings": ranked}


CSV_HEADER = ("vote", "hand", "second_vote", "right_bid", "bid", "votes", "right",
              "misreadings")


def summary_csv(shown: dict) -> str:
    """The summary *shown* (as summary() gives it) as CSV: a row for each bid voted or right
    in each vote, with the misreadings that give it on that hand (ids, space-separated)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for place, round_ in enumerate(shown["rounds"], start=1):
        answer = Answer.of(round_["hand"])
        keys = list(round_["votes"])
        if bid_key(answer.right) not in keys:
            keys.append(bid_key(answer.right))
        for key in keys:
            writer.writerow((place, round_["hand"], "yes" if round_["second"] else "no",
                             bid_key(answer.right), key, round_["votes"].get(key, 0),
                             "yes" if key == bid_key(answer.right) else "no",
                             " ".join(answer.label(key))))
    return out.getvalue()
