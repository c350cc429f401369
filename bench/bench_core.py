"""Benchmark the graded functions and explain() against a plain baseline, in one run.

The baseline is written here the plain way (split, count, walk the list). Both are first
checked to agree on every hand; then each is timed on the same 100,000 seeded random
hands in the assignment's form, best of several rounds. Figures are ratios, so a busy
machine slows both sides alike.

    python bench/bench_core.py [--hands N] [--rounds R]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from bidder import distributionPoints, explain, highCardPoints, openingBid

RANKS = "2 3 4 5 6 7 8 9 10 J Q K A".split()
DECK = [rank + suit for suit in "CDHS" for rank in RANKS]
GOALS = {"highCardPoints": 0.5, "distributionPoints": 0.5, "openingBid": 0.3,
         "explain": 3.0}


def plain_hcp(hand: str) -> int:
    points = 0
    for card in hand.split():
        points += {"A": 4, "K": 3, "Q": 2, "J": 1}.get(card[:-1], 0)
    return points


def plain_lengths(hand: str) -> dict[str, int]:
    cards = hand.split()
    return {suit: len([card for card in cards if card[-1] == suit]) for suit in "CDHS"}


def plain_distribution(hand: str) -> int:
    return sum(max(0, length - 4) for length in plain_lengths(hand).values())


def plain_suit_hcp(hand: str, suit: str) -> int:
    return plain_hcp(" ".join(card for card in hand.split() if card[-1] == suit))


def plain_opening_bid(hand: str) -> str | None:
    hcp, lengths = plain_hcp(hand), plain_lengths(hand)
    points = hcp + plain_distribution(hand)
    shape = sorted(lengths.values())
    balanced = all(2 <= n <= 4 for n in lengths.values()) or (
        shape == [2, 3, 3, 5] and max(lengths["C"], lengths["D"]) == 5)
    if balanced and 16 <= hcp <= 18:
        return "1NT"
    if 13 <= points <= 21 and (lengths["H"] >= 5 or lengths["S"] >= 5):
        return "1S" if lengths["S"] >= lengths["H"] else "1H"
    if 13 <= points <= 21:
        return "1C" if lengths["C"] >= lengths["D"] else "1D"
    if balanced and 19 <= hcp <= 20:
        return "1C" if lengths["C"] > lengths["D"] or lengths["C"] == 3 else "1D"
    if balanced and 21 <= hcp <= 23:
        return "2NT"
    long_suits = [suit for suit in "CDHS" if lengths[suit] >= 5]
    if points >= 22 and long_suits:
        return "2" + plain_two_level_suit(hand, lengths, long_suits)
    for level, length, low, high in ((3, 7, 5, 9), (4, 8, 6, 10)):
        for suit in "CDHS":
            if low <= hcp <= high and lengths[suit] == length:
                return f"{level}{suit}"
    return None


def plain_two_level_suit(hand: str, lengths: dict, long_suits: list[str]) -> str:
    if len(long_suits) == 1:
        return long_suits[0]
    low, high = long_suits
    if (low in "HS") != (high in "HS"):
        return high
    if plain_suit_hcp(hand, low) != plain_suit_hcp(hand, high):
        return max(long_suits, key=lambda suit: plain_suit_hcp(hand, suit))
    return high if lengths[high] > lengths[low] else low


def seeded_hands(count: int, seed: int = 2026) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.sample(DECK, 13)) for _ in range(count)]


def run_time(function, hands: list[str]) -> float:
    start = time.perf_counter()
    for hand in hands:
        function(hand)
    return time.perf_counter() - start


def best_times(baseline, ours, hands: list[str], rounds: int) -> tuple[float, float]:
    """Best times of the two, taken in alternating rounds so noise hits both alike."""
    times = [(run_time(baseline, hands), run_time(ours, hands)) for _ in range(rounds)]
    return min(base for base, _ in times), min(mine for _, mine in times)


def check_agreement(hands: list[str]) -> None:
    for hand in hands:
        expected = (plain_hcp(hand), plain_distribution(hand), plain_opening_bid(hand))
        actual = (highCardPoints(hand), distributionPoints(hand), openingBid(hand))
        if expected != actual or explain(hand).bid != expected[2]:
            sys.exit(f"disagreement on {hand!r}: baseline {expected}, bidder {actual}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    hands = seeded_hands(args.hands)
    check_agreement(hands)
    print(f"{args.hands:,} hands agree. Best of {args.rounds} rounds, per hand:")
    pairs = {"highCardPoints": (plain_hcp, highCardPoints),
             "distributionPoints": (plain_distribution, distributionPoints),
             "openingBid": (plain_opening_bid, openingBid),
             "explain": (plain_opening_bid, explain)}
    failures = 0
    for name, (baseline, ours) in pairs.items():
        base, mine = best_times(baseline, ours, hands, args.rounds)
        ratio = mine / base
        verdict = "ok" if ratio <= GOALS[name] else "OVER GOAL"
        failures += ratio > GOALS[name]
        print(f"  {name:<19} baseline {base / len(hands) * 1e6:6.2f} us   "
              f"bidder {mine / len(hands) * 1e6:6.2f} us   ratio {ratio:5.2f} "
              f"(goal <= {GOALS[name]})  {verdict}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
