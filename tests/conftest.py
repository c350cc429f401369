"""Settings shared by the whole suite."""

import gc
import importlib
import os
import pkgutil
import signal
import sys

import pytest
from hypothesis import settings

from compiled_routes import share_compiled_routes
from compiled_templates import share_compiled_templates

# Speed is measured by the benchmarks in bench/, never by a test's clock. Thorough in CI
# (CI=true) and wherever HYPOTHESIS_PROFILE=thorough asks for it; quick on a laptop, so
# that `make check` stays a loop one runs often. A test that sets its own max_examples
# keeps it in both.
settings.register_profile("thorough", deadline=None, max_examples=200)
settings.register_profile("quick", deadline=None, max_examples=40)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE")
                      or ("thorough" if os.environ.get("CI") == "true" else "quick"))

# A worker holds large tables for the whole run (the diagnosis's bank, the exact counts,
# the caches of every test it ran), and Python's collector walks them all at each full
# collection: with its default thresholds that made the sweeps over the misreading space
# a third slower. The suite collects cyclic garbage less often; nothing in it waits on a
# collection.
gc.set_threshold(100_000, 50, 100)

# Each template and each URL rule is compiled once per process, not once per app
# (tests/compiled_templates.py, tests/compiled_routes.py).
share_compiled_templates()
share_compiled_routes()

# A shell without job control (a CI script, `nohup ... &`) starts a background command
# with SIGINT ignored, and every command it starts inherits that: the tests of Ctrl-C,
# here and in the processes they start, need it heard, as a terminal hears it.
signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(config, items):
    """Without coverage (`--no-cov`, as `make check` runs) a test marked no_cover runs as
    any other: pytest-cov would otherwise try to pause a tracer it never started."""
    if config.getoption("no_cov", default=False):
        for item in items:
            item.own_markers[:] = [mark for mark in item.own_markers
                                   if mark.name != "no_cover"]


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session):
    """Every module of bidder imported at the start, while coverage traces: a test that
    runs untraced (no_cover) is then never the first to import one, whichever tests a
    worker happens to run first (its module-level lines would be missed)."""
    import bidder
    for found in pkgutil.walk_packages(bidder.__path__, "bidder."):
        if not found.name.endswith("__main__"):
            importlib.import_module(found.name)


@pytest.hookimpl(hookwrapper=True)
def pytest_collection(session):
    """Collecting runs untraced, three times quicker: every module of bidder was imported
    traced at the session's start, and what collecting computes (the tables tests are
    made from) the units' own tests trace."""
    running = _tracing()
    for collector in running:
        collector.pause()
    yield
    for collector in running:
        collector.resume()


def _tracing() -> list:
    """The coverage run that traces now, if one does."""
    from_coverage = sys.modules.get("coverage.collector")
    return from_coverage.Collector._collectors[-1:] if from_coverage else []


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_call(item):
    """A test marked no_cover runs untraced, in a pytest-xdist worker too. pytest-cov
    (7.1.0, the latest) starts two coverage runs in each worker, one above the other, and
    its no_cover stops only the upper one, whose stop resumes the lower: the sweeps were
    traced after all, three times slower. This runs inside pytest-cov's own pause, and
    pauses whichever run then traces."""
    running = _tracing() if item.get_closest_marker("no_cover") else []
    for collector in running:
        collector.pause()
    yield
    for collector in running:
        collector.resume()


@pytest.fixture(autouse=True)
def _environment_restored():
    """Each test's environment as it found it: `bidder check` drops every variable but a
    few from its own environment before the student's code runs (bidder.checker.hardening),
    and the command's tests run it in this very process."""
    saved = dict(os.environ)
    yield
    if os.environ != saved:
        os.environ.clear()
        os.environ.update(saved)
