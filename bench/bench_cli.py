"""Benchmark the bidder command: grading a big class file, and the start-up of `bidder bid`.

Grading: a seeded class file of 1,000,000 lines (80 % right answers, 1 % bad lines) is
graded by the bench's plain reference (bench/reference_bid.py: one process, a loop
over the lines, its parse, count and walk the list, the csv module), then by `bidder
grade --jobs 1` and by `bidder grade` on every core. Our two outputs are checked to be
the same bytes, and every bid and verdict to agree with the reference's. Figures are
wall times, CPU times and peak memory (the sum over the process and its workers,
sampled), and the ratios against the reference measured in the same run; the three run
in alternating
rounds and the best round of each counts, so that a busy (shared) machine slows all
alike. The memory is measured again on a file a tenth the size, to show it does not
grow with the file.

Start-up: `bidder bid HAND` and `python -m bidder bid HAND` against `python -c pass`,
the median of interleaved runs; and the modules a bid imports (no Flask).

    python bench/bench_cli.py [--lines N] [--rounds R] [--runs R] [--skip-grading] [--bare]

--bare grades a file of bare hands (no answers, no ids: the simplest class file) against a
reference that writes the same columns (the answer and verdict left empty).
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from itertools import islice
from pathlib import Path

import reference_bid as reference  # bench/reference_bid.py, the plain reference

from bidder import openingBid
from bidder.cards import DECK, EXAMPLE_HAND
from bidder.bids import Bid
from bidder.dealing import hand_stream
from bidder.grading import COLUMNS

PYTHON = sys.executable
BIDDER = str(Path(sys.executable).parent / "bidder")
# As installed for a user: compiled modules are cached (the first run writes them).
ENVIRONMENT = {key: value for key, value in os.environ.items()
               if key != "PYTHONDONTWRITEBYTECODE"}
GRADE_GOAL = 0.2  # both cores; one core: 0.4
NO_BID_HAND = "AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C"
WRONG_BIDS = ("1NT", "1C", "1H", "None", "2S", "3D")


def write_class_file(path: Path, lines: int, seed: int = 2026, bare: bool = False) -> None:
    """Dealt hands with a student's answer and an id (or the hands alone, *bare*); 1 % of
    the lines have a typo."""
    rng = random.Random(seed)
    with path.open("w") as stream:
        for number, indexes in enumerate(islice(hand_stream(seed), lines), 1):
            cards = [str(DECK[index]) for index in indexes]
            bad = rng.random() < 0.01
            if bad:
                cards[rng.randrange(13)] = "1" + cards[0][-1]
            hand = " ".join(cards)
            right = "1C" if bad else str(Bid.from_value(openingBid(hand)))
            answer = right if rng.random() < 0.8 else rng.choice(WRONG_BIDS)
            stream.write(f"{hand}\n" if bare else f"{hand},{answer},s{number}\n")


def reference_grade(source: Path, target: Path) -> None:
    """The yardstick: the plain reference grading the file in one process (split
    the line, ``reference_bid``'s parse, count and walk the list, the csv module)."""
    with source.open() as lines, target.open("w", newline="") as sink:
        writer = csv.writer(sink, lineterminator="\n")
        writer.writerow(COLUMNS)
        for number, line in enumerate(lines, 1):
            hand, answer, student = (line.rstrip("\n").split(",") if "," in line
                                     else (line.rstrip("\n"), "", ""))
            try:
                lengths, suit_hcp = reference._by_suit(reference.parseHand(hand))
            except ValueError as error:
                writer.writerow([number, student, hand, "", "", "", "", "", "", "", error])
                continue
            hcp = sum(suit_hcp.values())
            distribution = reference._distribution_points(lengths)
            bid = str(reference.chooseBid(hcp, lengths, suit_hcp))
            verdict = "" if not answer else "yes" if answer == bid else "no"
            writer.writerow([number, student, hand, bid, "", hcp, distribution,
                             hcp + distribution, answer, verdict, ""])


def verdicts(path: Path) -> list[tuple[str, ...]]:
    """The line, bid, HCP, distribution, answer and verdict of every row of an output."""
    with path.open(newline="") as stream:
        return [(row["line"], row["bid"], row["hcp"], row["distribution"], row["answer"],
                 row["correct"]) for row in csv.DictReader(stream)]


def tree_rss(pid: int) -> list[int]:
    """Resident memory of a process and of each of its descendants, in bytes."""
    sizes, pending = [], [pid]
    while pending:
        current = pending.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            sizes.append(int(status.split("VmRSS:")[1].split()[0]) * 1024)
            for task in os.listdir(f"/proc/{current}/task"):
                pending += map(int, Path(f"/proc/{current}/task/{task}/children")
                               .read_text().split())
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
    return sizes


def measured(command: list[str]) -> dict:
    """Run *command*; its wall time, CPU time (with its workers) and peak memory."""
    before = os.times()
    start = time.perf_counter()
    process = subprocess.Popen(command, stderr=subprocess.DEVNULL, env=ENVIRONMENT)
    peak = [0, 0]

    def sample() -> None:
        while process.poll() is None:
            sizes = tree_rss(process.pid) or [0]
            peak[:] = max(peak[0], sum(sizes)), max(peak[1], max(sizes))
            time.sleep(0.02)
    sampler = threading.Thread(target=sample)
    sampler.start()
    status = process.wait()
    wall = time.perf_counter() - start
    sampler.join()
    after = os.times()
    cpu = (after.children_user - before.children_user
           + after.children_system - before.children_system)
    return {"status": status, "wall": wall, "cpu": cpu, "peak_mb": peak[0] / 2**20,
            "process_mb": peak[1] / 2**20}


def timed(function, *args) -> dict:
    """Run *function* here; its wall time and CPU time."""
    before, start = os.times(), time.perf_counter()
    function(*args)
    after = os.times()
    return {"wall": time.perf_counter() - start,
            "cpu": after.user - before.user + after.system - before.system}


def bench_grading(lines: int, rounds: int, folder: Path, bare: bool = False) -> None:
    data = folder / "class.txt"
    small = folder / "small.txt"
    print(f"writing a {lines:,}-line class file{' of bare hands' if bare else ''} ...",
          flush=True)
    write_class_file(data, lines, bare=bare)
    write_class_file(small, max(1, lines // 10), bare=bare)
    outputs = {name: folder / f"{name}.csv" for name in ("plain", "one", "all")}
    runs = {"plain": [], "one": [], "all": []}
    for number in range(1, rounds + 1):
        print(f"round {number} of {rounds}: plain baseline, bidder grade --jobs 1, "
              f"bidder grade ...", flush=True)
        runs["plain"].append(timed(reference_grade, data, outputs["plain"]))
        runs["one"].append(measured([BIDDER, "grade", str(data), "-o", str(outputs["one"]),
                                     "--jobs", "1"]))
        runs["all"].append(measured([BIDDER, "grade", str(data), "-o", str(outputs["all"])]))
    plain, one, every = (min(runs[name], key=lambda run: run["wall"])
                         for name in ("plain", "one", "all"))
    small_run = measured([BIDDER, "grade", str(small), "-o", str(folder / "small.csv")])
    same = (outputs["one"].read_bytes() == outputs["all"].read_bytes()
            and verdicts(outputs["plain"]) == verdicts(outputs["one"]))

    cores = os.cpu_count()
    print(f"\nGrading {lines:,} lines ({data.stat().st_size / 2**20:.0f} MB), {cores} cores, "
          f"best of {rounds} alternating rounds; every bid and verdict agrees with the "
          f"reference's: {'yes' if same else 'NO'}")
    print(f"{'run':<34}{'wall s':>9}{'cpu s':>9}{'peak MB':>9}{'wall ratio':>12}{'cpu ratio':>11}")
    for name, run in (("plain reference, one process", plain),
                      ("bidder grade --jobs 1", one),
                      (f"bidder grade (--jobs {cores})", every)):
        peak = f"{run['peak_mb']:>9.0f}" if "peak_mb" in run else f"{'-':>9}"
        print(f"{name:<34}{run['wall']:>9.2f}{run['cpu']:>9.2f}{peak}"
              f"{run['wall'] / plain['wall']:>11.3f}x{run['cpu'] / plain['cpu']:>10.3f}x")
    ratio = every["wall"] / plain["wall"]
    print(f"goal: bidder grade <= {GRADE_GOAL}x the reference's wall time: "
          f"{'met' if ratio <= GRADE_GOAL else 'NOT met'} ({ratio:.3f}x); "
          f"{lines / every['wall']:,.0f} lines/s; all cores against one: "
          f"{one['wall'] / every['wall']:.2f}x as fast")
    print(f"memory, all processes together (the largest one): "
          f"{small_run['peak_mb']:.0f} MB ({small_run['process_mb']:.0f} MB) for "
          f"{max(1, lines // 10):,} lines, {every['peak_mb']:.0f} MB "
          f"({every['process_mb']:.0f} MB) for {lines:,}; goal < 100 MB, flat")
    print(f"exit statuses (1 = some bad lines, as the file has): {one['status']}, "
          f"{every['status']}; load average now {os.getloadavg()[0]:.2f}")


def median_ms(command: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True, env=ENVIRONMENT)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def bench_startup(runs: int) -> None:
    commands = {
        "python -c pass": [PYTHON, "-c", "pass"],
        "bidder bid HAND": [BIDDER, "bid", EXAMPLE_HAND],
        "bidder bid NO-BID-HAND": [BIDDER, "bid", NO_BID_HAND],
        "python -m bidder bid HAND": [PYTHON, "-m", "bidder", "bid", EXAMPLE_HAND],
        "bidder --help": [BIDDER, "--help"],
    }
    samples = {name: [] for name in commands}
    for command in commands.values():
        median_ms(command, 1)
    for _ in range(runs):
        for name, command in commands.items():
            samples[name].append(median_ms(command, 1))
    base = statistics.median(samples["python -c pass"])
    print(f"\nStart-up, median of {runs} interleaved runs")
    for name in commands:
        value = statistics.median(samples[name])
        print(f"{name:<28}{value:>8.1f} ms{value / base:>8.2f}x   +{value - base:.1f} ms")
    trace = subprocess.run([PYTHON, "-X", "importtime", "-m", "bidder", "bid", EXAMPLE_HAND],
                           capture_output=True, text=True, env=ENVIRONMENT).stderr
    web = sorted({line.split("|")[-1].strip().split(".")[0] for line in trace.splitlines()
                  if any(name in line for name in ("flask", "werkzeug", "jinja2",
                                                   "gunicorn", "multiprocessing"))})
    print(f"web or pool modules imported by a bid: {', '.join(web) or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--skip-grading", action="store_true")
    parser.add_argument("--bare", action="store_true",
                        help="grade a file of bare hands (no answers, no ids)")
    options = parser.parse_args()
    bench_startup(options.runs)
    if not options.skip_grading:
        with tempfile.TemporaryDirectory(prefix="bench-cli-") as folder:
            bench_grading(options.lines, options.rounds, Path(folder), options.bare)


if __name__ == "__main__":
    main()
