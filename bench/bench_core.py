"""Benchmark every door to the core against the bench's plain reference, in one run.

The yardstick is bench/reference_bid.py (split, count, walk the list), never the
package's own functions. Both are first checked to agree on every hand; then each
door is timed on the same seeded random hands, the reference and the door in
alternating rounds, the best round of each counting, so a busy (shared) machine slows
both alike. The reference reads only the assignment's notation, so a door given the
same hands in another notation is timed against the reference on the assignment's.

    python bench/bench_core.py [--hands N] [--rounds R]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import reference_bid as reference  # bench/reference_bid.py, the plain reference

from bidder import distributionPoints, explain, highCardPoints, openingBid, parse_hand
from bidder.cards import DECK

SYMBOLS = str.maketrans("CDHS", "♣♦♥♠")
# door -> (the reference's function, ours, how the hand is written for ours, goal)
DOORS = {
    "highCardPoints": (reference.highCardPoints, highCardPoints, str, 0.5),
    "distributionPoints": (reference.distributionPoints, distributionPoints, str, 0.5),
    "openingBid": (reference.openingBid, openingBid, str, 0.25),
    "openingBid, T for ten": (reference.openingBid, openingBid,
                              lambda hand: hand.replace("10", "T"), 1.0),
    "openingBid, lower case": (reference.openingBid, openingBid, str.lower, 1.0),
    "openingBid, symbols": (reference.openingBid, openingBid,
                            lambda hand: hand.translate(SYMBOLS), 1.0),
    "openingBid, commas": (reference.openingBid, openingBid,
                           lambda hand: hand.replace(" ", ", "), 1.0),
    "openingBid, dot notation": (reference.openingBid, openingBid,
                                 lambda hand: parse_hand(hand).dotted, 1.0),
    "explain": (reference.openingBid, explain, str, 2.0),
    "explain().to_dict()": (reference.openingBid, lambda hand: explain(hand).to_dict(),
                            str, 3.0),
    "explain().to_json()": (reference.openingBid, lambda hand: explain(hand).to_json(),
                            str, 3.0),
}


def seeded_hands(count: int, seed: int = 2026) -> list[str]:
    """Random hands in the assignment's notation."""
    rng = random.Random(seed)
    tokens = [str(card) for card in DECK]
    return [" ".join(rng.sample(tokens, 13)) for _ in range(count)]


def run_time(function, hands: list[str]) -> float:
    start = time.perf_counter()
    for hand in hands:
        function(hand)
    return time.perf_counter() - start


def best_times(theirs, ours, hands: list[str], written: list[str], rounds: int
               ) -> tuple[float, float]:
    """Best times of the two, taken in alternating rounds so noise hits both alike."""
    times = [(run_time(theirs, hands), run_time(ours, written)) for _ in range(rounds)]
    return min(base for base, _ in times), min(mine for _, mine in times)


def check_agreement(hands: list[str]) -> None:
    for hand in hands:
        expected = (reference.highCardPoints(hand), reference.distributionPoints(hand),
                    reference.openingBid(hand))
        for written in {door[2](hand) for door in DOORS.values()}:
            actual = (highCardPoints(written), distributionPoints(written),
                      openingBid(written))
            if expected != actual or explain(written).bid != expected[2]:
                sys.exit(f"disagreement on {written!r}: the reference {expected}, "
                         f"bidder {actual}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    hands = seeded_hands(args.hands)
    check_agreement(hands)
    print(f"{args.hands:,} hands agree in every notation. Best of {args.rounds} "
          f"alternating rounds, per hand:")
    print(f"  {'door':<27}{'reference':>11}{'bidder':>11}{'ratio':>8}   goal")
    failures = 0
    for name, (theirs, ours, write, goal) in DOORS.items():
        base, mine = best_times(theirs, ours, hands, list(map(write, hands)), args.rounds)
        ratio = mine / base
        failures += ratio > goal
        print(f"  {name:<27}{base / len(hands) * 1e6:>8.2f} us{mine / len(hands) * 1e6:>8.2f} us"
              f"{ratio:>8.2f}   <= {goal} {'' if ratio <= goal else ' NOT MET'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
