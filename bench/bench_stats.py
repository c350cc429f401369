"""Benchmark bidder.dealing.statistics against a plain baseline, in one run.

The baseline deals the same number of hands the plain way (random.sample of card
strings) and counts the opening bid of each with the bench's plain reference,
bench/reference_bid.py (split, count, walk the list). Both are first checked to agree:
the baseline's count of bids over the first hands of a seed's stream must equal the
statistics for that seed. Then each is timed on 100,000 hands, in alternating rounds,
best round counting; the statistics also count rules, overlaps and HCP, the baseline
only bids. The first round of the statistics starts with every cache of the core empty
(the packed engine's too); the goal is for the best round, with the caches warm.

    python bench/bench_stats.py [--hands N] [--rounds R] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from collections import Counter

from reference_bid import DECK
from reference_bid import openingBid as plain_opening_bid

from bidder import advice, assignment, cards, dealing, facts, packed, rules
from bidder.dealing import hand_stream, statistics

GOAL = 0.3
CORE_MODULES = (cards, facts, rules, packed, advice, assignment, dealing)
AGREEMENT_HANDS = 20_000
SEED = 2026


def plain_statistics(hands: int, seed: int) -> Counter:
    """How often each bid occurs over *hands* hands dealt with random.sample."""
    rng = random.Random(seed)
    return Counter(plain_opening_bid(" ".join(rng.sample(DECK, 13)))
                   for _ in range(hands))


def clear_core_caches() -> None:
    """Empty every function cache of the core modules."""
    for module in CORE_MODULES:
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def core_statistics(hands: int, seed: int):
    """bidder's statistics with every cache of the core emptied first."""
    clear_core_caches()
    return statistics(hands, seed)


def check_agreement(hands: int, seed: int) -> None:
    """The baseline's bids for the core's own hands must equal the core's counts."""
    stream = hand_stream(seed)
    plain = Counter(plain_opening_bid(" ".join(str(dealing.DECK[index])
                                               for index in next(stream)))
                    for _ in range(hands))
    counted = {bid: count for bid, count in core_statistics(hands, seed).by_bid if count}
    if plain != counted:
        sys.exit(f"disagreement over {hands:,} hands of seed {seed}: baseline "
                 f"{dict(plain)}, bidder {counted}")


def timed(function, *args) -> float:
    start = time.perf_counter()
    function(*args)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=dealing.DEFAULT_STATS_HANDS)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", action="store_true",
                        help="also print where the statistics spend their time")
    args = parser.parse_args()
    check_agreement(AGREEMENT_HANDS, SEED)
    print(f"{AGREEMENT_HANDS:,} hands agree. {args.hands:,} hands, "
          f"best of {args.rounds} rounds, per hand:")
    rounds = [(timed(plain_statistics, args.hands, SEED + round_),
               timed(core_statistics if round_ == 0 else statistics.__wrapped__,
                     args.hands, SEED + round_))
              for round_ in range(args.rounds)]
    base = min(plain for plain, _ in rounds)
    cold, warm = rounds[0][1], min(mine for _, mine in rounds)
    for name, mine, goal in (("statistics, warm caches", warm, f"goal <= {GOAL}"),
                             ("statistics, cold caches", cold, "no goal")):
        print(f"  {name:<24} baseline {base / args.hands * 1e6:6.2f} us   "
              f"bidder {mine / args.hands * 1e6:6.2f} us   ratio {mine / base:5.2f} "
              f"({goal})")
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(statistics.__wrapped__, args.hands, SEED)
        pstats.Stats(profile).sort_stats("tottime").print_stats(8)
    return 0 if warm / base <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
