"""The statistics page: the exact figures over all hands, and beside them, on request, a
seeded sample ("what a class of N random hands looks like") with 95 % intervals.

The exact figures are counted once per process, on the first request, and cost nothing
after. A sample is dealt per request, so its size is capped; it is dealt in a process of
its own, so that it never holds the interpreter lock the pages and the API need; and
each worker deals one sample at a time: a request for another meanwhile is turned away
at once (503, Retry-After) rather than left holding one of the worker's threads.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import lru_cache

from flask import render_template, request

from ...comparison import CONFIDENCE, Comparison
from ...dealing import MAX_STATS_HANDS, Statistics, statistics
from ...exact import exact_statistics
from .params import MAX_SEED, ParamError, optional_number, whole_number

# A sample of 50,000 hands takes about 0.2 s here, 0.3-0.5 s while the two cores are
# busy with other work: well under a second (bench/bench_stats_load.py).
MAX_SAMPLE = 50_000
SAMPLES_AT_ONCE = 1  # per worker process
PARENT_CHECK_SECONDS = 1.0  # how often the sampling process checks that its worker lives
SAMPLING = threading.BoundedSemaphore(SAMPLES_AT_ONCE)
BUSY = ("this server is dealing another sample right now: try again in a moment (the "
        "exact figures need no sample)")


def read_sample_size(args) -> int | None:
    """The number of hands to sample, or None for the exact figures alone.

    :raises ParamError: for a malformed number, or more hands than the page deals.
    """
    try:
        return optional_number(args, "hands", None, 1, MAX_SAMPLE)
    except ParamError:
        beyond = beyond_the_page(args.get("hands", ""))
        if beyond is None:
            raise
    raise ParamError(f"hands {beyond:,} is more than this page deals: use a whole number "
                     f"from 1 to {MAX_SAMPLE:,}, which it deals in well under a second; "
                     f"the command line deals up to {MAX_STATS_HANDS:,} "
                     f"(bidder stats --hands {beyond})", "hands")


def beyond_the_page(text: str) -> int | None:
    """*text* as a number of hands the command line deals but this page does not."""
    try:
        return whole_number(text, "hands", MAX_SAMPLE + 1, MAX_STATS_HANDS)
    except ParamError:
        return None


@lru_cache(maxsize=1)
def sampler() -> ProcessPoolExecutor:
    """This worker's process for dealing samples: a fresh interpreter, so that dealing
    never holds the interpreter lock the worker's other threads (the pages and the API)
    need; it ends when the worker does, even one killed outright (SIGKILL)."""
    return ProcessPoolExecutor(1, multiprocessing.get_context("spawn"),
                               initializer=watch_parent, initargs=(os.getpid(),))


def watch_parent(parent: int, every: float = PARENT_CHECK_SECONDS,
                 end=os._exit) -> threading.Thread:
    """In the sampling process: *end* it as soon as *parent* (the worker) is gone, which
    a parent killed outright cannot do itself (the process is then the child of
    another, and getppid changes)."""
    def watch():
        while os.getppid() == parent:
            time.sleep(every)
        end(0)

    watcher = threading.Thread(target=watch, name="watch-parent", daemon=True)
    watcher.start()
    return watcher


def deal_sample(hands: int, seed: int) -> Statistics | None:
    """The sample, or None when this process is already dealing one."""
    if not SAMPLING.acquire(blocking=False):
        return None
    try:
        return in_sampler(statistics, hands, seed)
    finally:
        SAMPLING.release()


def in_sampler(function, *args):
    """*function(*args)* in the sampling process; if that process died, a new one
    serves the next call."""
    try:
        return sampler().submit(function, *args).result()
    except BrokenProcessPool:
        sampler.cache_clear()
        raise


def page_limits() -> dict:
    """What the form says about its fields."""
    return {"max_hands": MAX_SAMPLE, "max_seed": MAX_SEED,
            "confidence": round(100 * CONFIDENCE)}


def stats_page():
    """The exact figures over all hands; with hands=N, a sample of N beside them."""
    try:
        hands = read_sample_size(request.args)
        seed = optional_number(request.args, "seed", 1, 0, MAX_SEED)
    except ParamError as error:
        return render_template("stats.html", error=error, form=request.args,
                               **page_limits()), 400
    sample = None if hands is None else deal_sample(hands, seed)
    if hands is not None and sample is None:
        return (render_template("stats.html", error=ParamError(BUSY, ""),
                                form=request.args, **page_limits()),
                503, {"Retry-After": "1"})
    form = {"hands": "" if hands is None else str(hands), "seed": str(seed)}
    return render_template("stats.html", comparison=Comparison(exact_statistics(), sample),
                           sampled=sample is not None, form=form, **page_limits())
