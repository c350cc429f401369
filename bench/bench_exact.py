"""Benchmark the exact statistics against the plain reference, in one run.

The exact count judges every profile of a 13-card hand (suit lengths, HCP, and for R6's
tie-breaks the HCP of the two long suits) once, and weighs it by its number of hands.
The yardstick is the bench's plain reference (bench/reference_bid.py) deciding
as many seeded random hands as the count judges profiles. Both are first checked to
agree: the reference's bid for each of 20,000 random hands must be its profile's bid.
Then, in alternating rounds (best round counting), the count runs with its caches
emptied and the reference decides its hands. Last, the cold start is timed in fresh
processes: the first count after importing bidder.exact, as the first /stats of a
worker does it (the import is timed apart).

    python bench/bench_exact.py [--rounds R] [--starts S] [--reference PATH]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics as stats
import subprocess
import sys
import time
from pathlib import Path

from bidder import exact, facts
from bidder.cards import DECK, parse_hand
from bidder.facts import Facts

GOAL_SECONDS = 0.5
AGREEMENT_HANDS = 20_000
SEED = 2026
REFERENCE = Path(__file__).resolve().with_name("reference_bid.py")  # --reference: another
COLD_START = ("import time; start = time.perf_counter(); "
              "from bidder.exact import exact_statistics; imported = time.perf_counter(); "
              "exact_statistics(); print(imported - start, time.perf_counter() - imported)")


def load_reference(path: Path):
    """The plain reference module, loaded from its file."""
    spec = importlib.util.spec_from_file_location("reference_bid", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_hands(count: int, seed: int) -> list[str]:
    """*count* seeded random hands in the assignment's notation."""
    rng = random.Random(seed)
    cards = [str(card) for card in DECK]
    return [" ".join(rng.sample(cards, 13)) for _ in range(count)]


def profile_bid(table: dict, hand: str) -> str | None:
    """The bid of the profile *hand* belongs to."""
    facts = Facts(parse_hand(hand))
    lengths, hcp = facts.tally.lengths, facts.tally.hcp
    if (lengths, hcp, ()) in table:
        return table[lengths, hcp, ()]
    suits = next(tuple(suit for suit, _ in weighed) for (held, points, weighed) in table
                 if (held, points) == (lengths, hcp) and weighed)
    return table[lengths, hcp, tuple((suit, facts.suit_hcp(suit)) for suit in suits)]


def check_agreement(reference, hands: list[str]) -> int:
    """Every hand's reference bid must be its profile's bid; returns the profiles."""
    table = {(profile.lengths, profile.hcp, profile.weighed): profile.bid
             for profile in exact.profiles()}
    for hand in hands:
        if reference.openingBid(hand) != profile_bid(table, hand):
            sys.exit(f"disagreement on {hand!r}: reference {reference.openingBid(hand)}, "
                     f"exact count {profile_bid(table, hand)}")
    return len(table)


def cold_count() -> float:
    """Seconds for the exact count with every cache it uses emptied first."""
    exact._count.cache_clear()
    exact.hcp_counts.cache_clear()
    facts.shape_facts.cache_clear()
    start = time.perf_counter()
    exact.exact_statistics()
    return time.perf_counter() - start


def timed_reference(reference, hands: list[str]) -> float:
    """Seconds for the reference to decide every hand."""
    start = time.perf_counter()
    for hand in hands:
        reference.openingBid(hand)
    return time.perf_counter() - start


def cold_start() -> tuple[float, float]:
    """Seconds to import bidder.exact, then to count, in a fresh interpreter."""
    result = subprocess.run([sys.executable, "-c", COLD_START], check=True,
                            capture_output=True, text=True)
    imported, counted = map(float, result.stdout.split())
    return imported, counted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--starts", type=int, default=7,
                        help="fresh processes for the cold start (median counts)")
    parser.add_argument("--reference", type=Path, default=REFERENCE)
    args = parser.parse_args()
    reference = load_reference(args.reference)
    profiles = check_agreement(reference, random_hands(AGREEMENT_HANDS, SEED))
    hands = random_hands(profiles, SEED + 1)
    print(f"{AGREEMENT_HANDS:,} hands agree with the reference. The count judges "
          f"{profiles:,} profiles for {exact.ALL_HANDS:,} hands; best of {args.rounds} "
          f"rounds:")
    rounds = [(timed_reference(reference, hands), cold_count()) for _ in range(args.rounds)]
    base, mine = min(plain for plain, _ in rounds), min(count for _, count in rounds)
    start = time.perf_counter()
    exact.exact_statistics()
    warm = time.perf_counter() - start
    starts = [cold_start() for _ in range(args.starts)]
    counts = [counted for _, counted in starts]
    imports = [imported for imported, _ in starts]
    per_hand = base / profiles
    print(f"  reference deciding {profiles:,} hands   {base:6.3f} s "
          f"({per_hand * 1e6:.2f} us a hand)")
    print(f"  exact count, caches empty     {mine:6.3f} s   ratio {mine / base:.2f}")
    print(f"  exact count, cached           {warm * 1e6:6.1f} us")
    print(f"  cold start, fresh process (median of {args.starts}): count "
          f"{stats.median(counts):.3f} s (goal <= {GOAL_SECONDS} s), after importing "
          f"bidder.exact in {stats.median(imports):.3f} s")
    print(f"  the reference would take {per_hand * 1_000_000:.1f} s for a sample of "
          f"1,000,000 hands and {per_hand * exact.ALL_HANDS / 86_400:,.0f} days for all "
          f"{exact.ALL_HANDS:,}")
    return 0 if stats.median(counts) <= GOAL_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
