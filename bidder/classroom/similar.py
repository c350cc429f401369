"""Students whose wrong answers coincide far beyond what their misreadings explain: the same
wrong bid on the same hand, one their diagnosed misreadings do not predict, given by these
two students and nobody else, many times over.
A thing to look at, never a verdict: friends who studied together, a shared misreading the
diagnosis did not name, or a copy all look alike here."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .outcome import Outcome

AT_LEAST = 3  # rare wrong bids two students share for the pair to be listed
SHOWN = 3  # of them, shown as evidence


@dataclass(frozen=True)
class Pair:
    """Two students, how many rare wrong bids they alone share, and a few of them."""

    first: str
    second: str
    shared: int
    evidence: tuple[tuple[str, str], ...]  # (hand, the wrong answer both gave)


def similar_pairs(outcomes: tuple[Outcome, ...], at_least: int = AT_LEAST
                  ) -> tuple[Pair, ...]:
    """The pairs sharing at least *at_least* wrong bids that no other student gave, most
    shared first."""
    givers: dict[tuple[str, str], list[str]] = {}
    for outcome in outcomes:
        for answer in set(outcome.wrong_bids):
            givers.setdefault(answer, []).append(outcome.student)
    shared: Counter = Counter()
    evidence: dict[tuple[str, str], list] = {}
    for answer, names in givers.items():
        if len(names) == 2:
            key = tuple(sorted(names))
            shared[key] += 1
            evidence.setdefault(key, []).append(answer)
    return tuple(Pair(*key, count, tuple(sorted(evidence[key])[:SHOWN]))
                 for key, count in sorted(shared.items(), key=lambda item: (-item[1], item[0]))
                 if count >= at_least)
