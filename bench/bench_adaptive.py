"""Simulated students through the diagnostic round (bidder.diagnosis), against the figures
the round aims for (docs/diagnosis.md).

Each student reads the rules one way (a class of the bank as the truth, a reading outside
the space, or two misreadings at once) and slips at a rate: a slip is a uniformly random
other call, or a call some other reading makes on that hand (a neighbouring call). Rounds
are run bids only and with ladders and counting questions. Reported: the share named
rightly within 3..30 items, the items to name 95 %, the confident wrong rate, a short
round's (8 items) wrong names, how often a second misreading is said to be not ruled out
beside the one named, each choice's time, and what out-of-space and two-misreading students
are told (a student of two misreadings named by one of them, told a second one is not ruled
out, is told no wrong name). Classes are sampled (every --every-th) to keep the run to minutes.

    python bench/bench_adaptive.py [--every N] [--seeds K] [--rates 0,0.05,0.1,0.2]
        [--processes 2]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from itertools import product
from multiprocessing import get_context

from bidder import packed
from bidder.bids import BID_BY_VALUE, RULE_BIDS
from bidder.diagnosis import Answer, diagnose
from bidder.diagnosis.bank import FIELDS, shipped
from bidder.diagnosis.hypotheses import answers as reading_answers
from bidder.diagnosis.hypotheses import readings
from bidder.misreadings import variant_by_id
from bidder.rules import RULES, Between

CALLS = tuple(bid.text for bid in RULE_BIDS)
CHECKPOINTS = (3, 5, 8, 12, 16, 20, 24, 30)
SHORT = 8
CHOICE_GOAL_MS = 50
# Readings outside the space: no reading of it answers alike on every hand of the bank
# (a range moved by one HCP at one end or both, HCP for points, a shape clause turned
# round), and pairs of misreadings.
OUTSIDE = ("R1.hcp=14-17", "R3.hcp=11-20", "R1.shape=unbalanced", "R2.hcp=12-20",
           "R2.hcp=11-20+R3.hcp=11-20", "R1.hcp=15-16", "R1.hcp=13-17", "R1.hcp=15-19",
           "R1.hcp=14-16", "R7.hcp=4-8", "R2.points=12-20", "R3.points=12-20",
           "R2.len=6+R3.points=13-20", "R2.hcp=12-21", "R3.hcp=12-21", "R6.points=25+",
           "R7.len=6-8", "R2.hcp=14-21", "R7.hcp=6-8", "R5.hcp=22-24")
PAIRS = ("1nt-15-17+no-2nt", "seven-or-more+equal-minors-diamonds",
         "R5.hcp=21-24+dist=beyond-3")
MOVES = (-1, 0, 1)  # how far a generated reader moves each end of a rule's range


def moved_ranges():
    """Readers outside the space generated from the rule table: each bounded HCP or points
    range of a rule, in its own measure and in the other, with either end or both moved by
    one, that no reading of the space answers alike on every hand of the bank (and not
    already in OUTSIDE)."""
    bank = shipped()
    codes = sorted(bank.by_code)
    space = {tuple(reading_answers(reading, code)[0] for code in codes)
             for reading in readings()}
    found = []
    for rule in RULES:
        for condition in rule.conditions:
            if not isinstance(condition, Between) or condition.high is None:
                continue
            for measure in ("hcp", "points"):
                for low_by, high_by in product(MOVES, MOVES):
                    low, high = condition.low + low_by, condition.high + high_by
                    if low >= high:
                        continue
                    name = f"{rule.id}.{measure}={low}-{high}"
                    reader = variant_by_id(name)
                    if name not in OUTSIDE and tuple(reading_answers(reader, code)[0]
                                                     for code in codes) not in space:
                        found.append(name)
    return tuple(dict.fromkeys(found))


def student_answer(truth, hand, ask, rate, kind, rng):
    """What a student reading *truth* answers, slipping at *rate* (*kind*: uniform, or
    onto a value some other reading gives)."""
    code = packed.encode_cards(hand.cards)
    true = reading_answers(truth, code)
    row = None
    given = []
    for place, field in enumerate(FIELDS):
        value = true[place]
        if field in ask and rng.random() < rate:
            if kind == "neighbour":
                row = row or [reading_answers(other, code) for other in readings()]
                near = sorted({found[place] for found in row} - {value}, key=str)
                if near:
                    value = rng.choice(near)
                else:
                    value = _uniform(field, value, rng)
            else:
                value = _uniform(field, value, rng)
        given.append(value if field in ask else None)
    bid = given[0]
    return Answer(hand, None if bid is None else BID_BY_VALUE[bid], given[1], given[2])


def _uniform(field, value, rng):
    if field == "bid":
        return rng.choice([call for call in CALLS if call != value])
    return max(0, value + rng.choice((-2, -1, 1, 2)))


def run_student(job):
    """One student's round: (items when named or None, named, named rightly?, choice
    times in ms, named at 8 items)."""
    truth_id, members, rate, kind, rich, seed = job
    truth = None if truth_id == "rules" else variant_by_id(truth_id)
    rng = random.Random(seed)
    given, items, times, at_short = [], 0, [], None
    while True:
        start = time.process_time()
        found = diagnose(given, ladders=rich, counting=rich)
        times.append((time.process_time() - start) * 1000)
        if items == SHORT:
            at_short = found.named
        if found.next is None:
            break
        items += 1
        given += [student_answer(truth, hand, found.next.ask, rate, kind, rng)
                  for hand in found.next.hands]
    if at_short is None and items < SHORT:
        at_short = found.named
    right = found.named is not None and (found.named in members or (
        "+" in truth_id and set(found.named.split("+")) == set(truth_id.split("+"))))
    one_left = (found.second_left and "+" in truth_id
                and found.named in truth_id.split("+"))
    return (truth_id, rate, kind, rich, items if found.named else None, found.named,
            right, times, at_short, found.candidates[0].misreading, found.second_left,
            one_left)


def jobs(every, rates, seeds=1):
    """Each sampled class as the truth, *seeds* students of it (each slipping its own
    way), for each mode, slip rate and kind of slip."""
    bank = shipped()
    classes = bank.classes(FIELDS)
    found = []
    for rich in (False, True):
        for rate in rates:
            for kind in (("uniform",) if rate == 0 else ("uniform", "neighbour")):
                for number, members in enumerate(classes[::every]):
                    ids = tuple(bank.ids[place] for place in members)
                    found += [(ids[0], ids, rate, kind, rich, number + seed * len(classes))
                              for seed in range(seeds)]
    return found


def outside_jobs(rates, seeds=1, students=OUTSIDE + PAIRS):
    """Each of the *students* (readings outside the space, pairs), without slips and at
    10 % (or the rates given) onto neighbouring calls, *seeds* students of each with
    slips."""
    return [(truth, (), rate, "neighbour" if rate else "uniform", rich,
             number + seed * len(students))
            for rich in (False, True) for rate in rates[:3:2]
            for number, truth in enumerate(students)
            for seed in range(seeds if rate else 1)]


def report(results, rates):
    print("\n## In the space")
    for rich in (False, True):
        print(f"\n{'ladders and counting' if rich else 'bids only'}:")
        print("| slips | kind | students | " + " | ".join(f"named at {n}"
                                                         for n in CHECKPOINTS)
              + " | items to 95 % | confident wrong | wrong at 8 items "
              "| a second not ruled out |")
        print("|" + "---|" * (len(CHECKPOINTS) + 7))
        for rate in rates:
            for kind in ("uniform", "neighbour"):
                mine = [r for r in results if r[1] == rate and r[2] == kind and r[3] == rich]
                if not mine:
                    continue
                named_at = sorted(r[4] for r in mine if r[6])
                shares = [sum(1 for n in named_at if n <= point) / len(mine)
                          for point in CHECKPOINTS]
                enough = len(mine) * 95 // 100
                to_95 = named_at[enough - 1] if len(named_at) >= enough else "never"
                wrong = sum(1 for r in mine if r[5] is not None and not r[6]) / len(mine)
                short_wrong = sum(1 for r in mine if r[8] is not None and r[8] not in (
                    r[0],) and not r[6]) / len(mine)
                left = sum(1 for r in mine if r[6] and r[10]) / len(mine)
                print(f"| {rate:.0%} | {kind} | {len(mine)} | "
                      + " | ".join(f"{share:.0%}" for share in shares)
                      + f" | {to_95} | {wrong:.1%} | {short_wrong:.1%} | {left:.0%} |")
    times = [t for r in results for t in r[7]]
    print(f"\nchoice CPU time: median {statistics.median(times):.1f} ms, 95th percentile "
          f"{sorted(times)[len(times) * 95 // 100]:.1f} ms, max {max(times):.1f} ms "
          f"(goal {CHOICE_GOAL_MS} ms)")


def report_outside(results, title="Outside the space, and two misreadings"):
    """A line for each student outside the space (or of two misreadings): how its rounds
    ended, in both modes, without slips and with; then how many rounds gave no wrong name."""
    print(f"\n## {title}")
    print("| student | rounds | never a wrong name | named none | not named | named rightly "
          "(or one part, a second said left) | wrong names |")
    print("|---|---|---|---|---|---|---|")
    fine = 0
    for student in dict.fromkeys(r[0] for r in results):
        mine = [r for r in results if r[0] == student]
        good = [r for r in mine if r[5] is None or r[5] == "none" or r[6] or r[11]]
        fine += len(good)
        wrong = sorted({f"{r[5]} ({'ladders' if r[3] else 'bids'}, {r[1]:.0%})"
                        for r in mine if r not in good})
        print(f"| {student} | {len(mine)} | {len(good)} "
              f"| {sum(1 for r in mine if r[5] == 'none')} "
              f"| {sum(1 for r in mine if r[5] is None)} "
              f"| {sum(1 for r in mine if r[6] or r[11])} | {', '.join(wrong) or '-'} |")
    print(f"\nnever a confident wrong name: {fine} of {len(results)} rounds "
          f"({fine / len(results):.0%}; goal 6 of 7, 86 %)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=4, help="every N-th class is a truth")
    parser.add_argument("--rates", default="0,0.05,0.1,0.2")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seeds", type=int, default=1,
                        help="students of each sampled class, each slipping its own way")
    args = parser.parse_args()
    rates = tuple(map(float, args.rates.split(",")))
    start = time.time()
    generated = moved_ranges()
    with get_context("fork").Pool(args.processes) as pool:
        shipped()
        results = pool.map(run_student, jobs(args.every, rates, args.seeds), chunksize=1)
        outside = pool.map(run_student, outside_jobs(rates, args.seeds), chunksize=1)
        moved = pool.map(run_student, outside_jobs(rates, args.seeds, generated),
                         chunksize=1)
    report(results, rates)
    report_outside(outside)
    report_outside(moved, "Ranges moved, outside the space (generated from the rule table)")
    print(f"\n{len(results) + len(outside) + len(moved)} rounds in "
          f"{time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
