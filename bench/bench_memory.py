"""A worker's memory under many distinct pages, served as `bidder serve` serves it
(gunicorn, gevent workers; bench/served.py), on 127.0.0.1 only, bounded in requests and
time:

one worker is sent --warm-up pages, then --pages more, one at a time, every one new: the
advisor's page for a hand never asked before (/?hand=...), a newly dealt hand
(/deal?seed=N), the rules (/rules), and each misreading in turn (/variants?variant=...).
The worker's resident memory (VmRSS in /proc) is read after the warm-up and at the end.
Goal: it grows less than 5 % (every cache is bounded, by bytes or by a count of small
entries, so once the caches are full, new pages replace old ones). The warm-up is what
fills them: the misreadings' pages fill the core's memo of other countings (32,768
tallies) at about 12,000 pages.

    .venv/bin/python bench/bench_memory.py [--pages 10000] [--warm-up 13000]
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import os
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

from served import HOST, load_average, serving

from bidder.dealing import random_hand
from bidder.misreadings import space

GOAL_GROWTH = 0.05
LIMIT_SECONDS = 1800  # the whole run, whatever is asked
FIRST_SEED = 10_000_000  # far from the seeds other pages use by default


def pages():
    """Paths of new pages, endlessly: a new hand's advice, a new deal, the rules, the
    next misreading."""
    variants = itertools.cycle([variant.id for variant in space()])
    for seed in itertools.count(FIRST_SEED):
        hand = urllib.parse.quote(str(random_hand(seed)))
        yield f"/?hand={hand}"
        yield f"/deal?seed={seed}"
        yield "/rules"
        yield f"/variants?variant={urllib.parse.quote(next(variants))}"


def resident_kb(pid: int) -> int:
    """The resident memory of process *pid*, in KB (its VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise SystemExit(f"no VmRSS for process {pid}")


def serve_pages(port: int, paths, count: int, until: float) -> tuple[int, int]:
    """Ask for *count* of *paths* one at a time (until *until*): (done, errors)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    done = errors = 0
    for path in itertools.islice(paths, count):
        if time.monotonic() >= until:
            break
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            errors += response.status != 200
        except (OSError, http.client.HTTPException):
            errors += 1
            connection.close()
        done += 1
    connection.close()
    return done, errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--warm-up", type=int, default=13_000)
    options = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, load average "
          f"{load_average()}")
    until = time.monotonic() + LIMIT_SECONDS
    with tempfile.TemporaryDirectory() as name, serving(
            1, f"sqlite:///{Path(name) / 'state.sqlite3'}", folder=Path(name)) as server:
        (worker,) = server.workers()
        paths = pages()
        started = resident_kb(worker)
        warmed, warm_errors = serve_pages(server.port, paths, options.warm_up, until)
        before = resident_kb(worker)
        start = time.monotonic()
        done, errors = serve_pages(server.port, paths, options.pages, until)
        seconds = time.monotonic() - start
        after = resident_kb(worker)
    growth = after / before - 1
    print(f"one gevent worker: {started / 1024:.1f} MB at start, {before / 1024:.1f} MB "
          f"after {warmed} pages of warm-up, {after / 1024:.1f} MB after {done} new "
          f"pages more ({done / seconds:.0f} a second): {growth:+.1%} "
          f"(goal: less than {GOAL_GROWTH:.0%}); errors {warm_errors + errors}; load "
          f"average {load_average()}")
    met = growth < GOAL_GROWTH and not (warm_errors or errors) and done == options.pages
    print("goal met" if met else "goal NOT met")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
