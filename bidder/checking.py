"""Checking a student's solution: its three functions against the reference, using ==.

The student's module runs in a separate process with a time limit, so a module that fails
to import, raises, prints, loops forever or ends the process is reported, never trusted.
The hands: the spec's worked examples, a hand on each side of every threshold in the rule
table, and seeded random hands, each in the assignment's own notation.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import traceback
from contextlib import redirect_stdout
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import Callable, Sequence, TextIO

from .cards import DECK, parse_hand
from .dealing import hand_stream
from .facts import Facts
from .graded import (CARD_CODES, distributionPoints, highCardPoints, key_tally,
                     openingBid, tally_key)
from .rules import RULES, Balanced, LongSuit, Rule, first_rule, plural

FUNCTIONS = ("highCardPoints", "distributionPoints", "openingBid")
REFERENCE: tuple[Callable, ...] = (highCardPoints, distributionPoints, openingBid)
WORKED_EXAMPLES = (
    "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C",
    "AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C",
    "AS KS 4S AH QH 5H KD QD 6D KC 9C 8C 7C",
    "AS KS 4S AH QH KD 7D 6D KC QC 9C 8C 7C",
    "AC KC 7C 6C 5C KS QS 4S AD 8D 7D 3H 2H",
    "AH KH 7H 6H 5H KS QS 4S AD 8D 7D 3C 2C",
    "AS KS 7S 6S 5S KH QH 7H 6H 5H 2D 3D 2C",
    "AS KS 5S 4S 3S AH KH 6H 5H 2H AD QD KC",
    "AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C",
    "QS JS 7S 6S 5S KH 9H 8H 4H 3H 2D 3C 2C",
    "KS QS JS 9S 8S 7S 6S 5S QH 2H 3D 2D 4C",
    "KS QS JS 8S 7S 6S 5S 4S 3S 2H 2D 2C 3C",
)
DEFAULT_HANDS = 1000
DEFAULT_TIMEOUT = 10.0
THRESHOLD_SEED = 2026
THRESHOLD_SEARCH = 500_000
VALUE_LIMIT = 60
OUTPUT_LIMIT = 4096
CHILD_CODE = ("import sys; from bidder.checking import child_main; "
              "child_main(sys.argv[1:])")


@dataclass(frozen=True)
class Case:
    """One hand to check, where it comes from, the rule deciding it and the right answers."""

    hand: str
    kind: str
    source: str
    rule: str
    expected: tuple


@dataclass(frozen=True)
class Call:
    """One of the student's functions called on one hand, and what came back."""

    function: str
    case: int
    agreed: bool
    value: str = ""
    type: str = ""
    error: str = ""
    printed: str = ""


@dataclass(frozen=True)
class Report:
    """The outcome of a check: every call, plus what kept calls from being made."""

    module: str
    cases: tuple[Case, ...]
    calls: tuple[Call, ...]
    problems: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    def agreement(self, function: str, rule: str | None = None) -> tuple[int, int]:
        """(agreeing calls, hands) for *function*, over the hands *rule* decides (or all)."""
        wanted = {index for index, case in enumerate(self.cases)
                  if rule is None or case.rule == rule}
        agreed = sum(1 for call in self.calls
                     if call.function == function and call.agreed and call.case in wanted)
        return agreed, len(wanted)

    def count(self, kind: str) -> int:
        """How many hands of a kind were checked: worked, threshold or random."""
        return sum(1 for case in self.cases if case.kind == kind)

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules deciding the checked hands, in table order."""
        present = {case.rule for case in self.cases}
        return tuple(rule.id for rule in RULES if rule.id in present)

    @property
    def mismatches(self) -> tuple[Call, ...]:
        """Calls whose answer differs from the reference, in call order."""
        return tuple(call for call in self.calls if not call.agreed)

    @property
    def passed(self) -> bool:
        """Every function answered every hand as the reference does."""
        complete = len(self.calls) == len(FUNCTIONS) * len(self.cases)
        return complete and not self.problems and not self.mismatches


# The hands -------------------------------------------------------------------

def build_cases(hands: int = DEFAULT_HANDS, seed: int = 1) -> tuple[Case, ...]:
    """Worked examples, threshold hands, then *hands* random hands for *seed*."""
    sources = [(hand, "worked", f"worked example {number}")
               for number, hand in enumerate(WORKED_EXAMPLES, 1)]
    sources += [(hand, "threshold", f"threshold: {label}")
                for label, hand in threshold_hands()]
    sources += [(hand, "random", f"random hand {number} (seed {seed})")
                for number, hand in enumerate(random_hands(hands, seed), 1)]
    cases, seen = [], set()
    for hand, kind, source in sources:
        if hand not in seen:
            seen.add(hand)
            cases.append(Case(hand, kind, source, first_rule(Facts(parse_hand(hand)).tally).id,
                              tuple(function(hand) for function in REFERENCE)))
    return tuple(cases)


def _dealt(indexes: Sequence[int]) -> str:
    """A dealt hand in the assignment's notation, in the order the cards were dealt."""
    return " ".join(str(DECK[index]) for index in indexes)


def random_hands(count: int, seed: int) -> list[str]:
    """*count* hands dealt for *seed*, in the assignment's notation."""
    return [_dealt(indexes) for indexes in islice(hand_stream(seed), count)]


def _edges(condition) -> set:
    """The values on each side of a condition's thresholds."""
    if isinstance(condition, Balanced):
        return {True, False}
    edges = {condition.low - 1, condition.low}
    if condition.high is not None:
        edges |= {condition.high, condition.high + 1}
    return edges


def _measure(condition, tally):
    """What a condition reads: balance, the longest suit it names, or HCP or points."""
    if isinstance(condition, Balanced):
        return tally.balanced
    if isinstance(condition, LongSuit):
        return max(map(tally.length, condition.suits))
    return condition.value(tally)


def _label(rule: Rule, condition, measure) -> str:
    if isinstance(condition, Balanced):
        return f"{rule.id} '{condition.text}', {'' if measure else 'not '}balanced"
    unit = "cards" if isinstance(condition, LongSuit) else condition.unit
    return f"{rule.id} '{condition.text}' with {plural(measure, unit)}"


def threshold_labels() -> tuple[str, ...]:
    """A label for each side of every threshold in the rule table."""
    return tuple(_label(rule, condition, measure)
                 for rule in RULES for condition in rule.conditions
                 for measure in sorted(_edges(condition)))


@lru_cache(maxsize=1 << 15)
def _labels_for(key: int) -> tuple[str, ...]:
    """The thresholds a hand with this tally key sits on: every other condition of the
    rule holds, and this one reads a value next to its threshold."""
    tally = key_tally(key)
    return tuple(
        _label(rule, condition, _measure(condition, tally))
        for rule in RULES for condition in rule.conditions
        if _measure(condition, tally) in _edges(condition)
        and all(other.holds(tally) for other in rule.conditions if other is not condition))


@lru_cache(maxsize=4)
def threshold_hands(seed: int = THRESHOLD_SEED,
                    search: int = THRESHOLD_SEARCH) -> tuple[tuple[str, str], ...]:
    """(label, hand) for each threshold side: the first such hand among *search* hands
    dealt for *seed* (a fixed seed, so that every check uses the same hands)."""
    wanted, found = set(threshold_labels()), {}
    for indexes in islice(hand_stream(seed), search):
        for label in _labels_for(tally_key(sum(map(CARD_CODES.__getitem__, indexes)))):
            found.setdefault(label, _dealt(indexes))
        if len(found) == len(wanted):
            break
    return tuple((label, found[label]) for label in threshold_labels() if label in found)


# The child process: import the module and call it ------------------------------

def child_main(argv: list[str]) -> None:
    """Entry point of the child process: MODULE CASES RESULTS."""
    module_path, cases_path, results_path = argv
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.dirname(os.path.abspath(module_path)))
    with open(cases_path, encoding="utf-8") as stream:
        cases = json.load(stream)
    with open(results_path, "w", encoding="utf-8") as results:
        run_checks(module_path, cases["hands"], cases["expected"], results)


def run_checks(module_path: str, hands: list[str], expected: dict[str, list],
               results: TextIO) -> None:
    """Import the module and call each function on each hand, one JSON line per event."""
    def emit(**event) -> None:
        results.write(json.dumps(event) + "\n")
        results.flush()

    module, printed, error = import_module(module_path)
    if printed:
        emit(event="printed", during="import", text=printed)
    if module is None:
        emit(event="import_error", error=error)
        return
    emit(event="imported")
    functions = {name: getattr(module, name, None) for name in FUNCTIONS}
    for name, function in functions.items():
        if not callable(function):
            emit(event="missing", function=name,
                 found="no such name" if function is None else
                 f"a {type(function).__name__}, not a function")
    for name in filter(lambda name: callable(functions[name]), FUNCTIONS):
        for index, (hand, want) in enumerate(zip(hands, expected[name])):
            emit(event="call", function=name, case=index,
                 **call_function(functions[name], hand, want, module_path))


def import_module(path: str):
    """(module or None, what importing it printed, the error if it failed); the file is
    read as Python source whatever its name ends with."""
    import importlib.machinery
    import importlib.util

    stem = os.path.splitext(os.path.basename(path))[0]
    name = stem if stem.isidentifier() and stem not in sys.modules else "student_solution"
    spec = importlib.util.spec_from_file_location(
        name, path, loader=importlib.machinery.SourceFileLoader(name, path))
    module = importlib.util.module_from_spec(spec)
    buffer = io.StringIO()
    try:
        with redirect_stdout(buffer):
            sys.modules[name] = module
            spec.loader.exec_module(module)
    except BaseException as error:
        sys.modules.pop(name, None)
        return None, buffer.getvalue()[:OUTPUT_LIMIT], describe_error(error, path)
    return module, buffer.getvalue()[:OUTPUT_LIMIT], ""


def call_function(function: Callable, hand: str, want, path: str) -> dict:
    """Call *function* on *hand* and compare the answer with *want* using ==."""
    buffer = io.StringIO()
    try:
        with redirect_stdout(buffer):
            value = function(hand)
    except BaseException as error:
        return {"agreed": False, "error": describe_error(error, path),
                "printed": buffer.getvalue()[:OUTPUT_LIMIT]}
    outcome = {"value": safe_repr(value), "type": type(value).__name__,
               "printed": buffer.getvalue()[:OUTPUT_LIMIT]}
    try:
        outcome["agreed"] = bool(value == want)
    except Exception as error:
        outcome.update(agreed=False,
                       error=f"comparing the answer with == raised {describe_error(error, path)}")
    return outcome


def safe_repr(value) -> str:
    """repr() of a value cut to a readable length, even if its repr() raises."""
    try:
        text = repr(value)
    except Exception:
        text = f"<a {type(value).__name__} whose repr() fails>"
    return text if len(text) <= VALUE_LIMIT else text[:VALUE_LIMIT - 1] + "…"


def describe_error(error: BaseException, path: str) -> str:
    """'ValueError: message (solution.py, line 12, in openingBid)': where in the module."""
    text = f"{type(error).__name__}: {error}".rstrip(": ")
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if os.path.abspath(frame.filename) == os.path.abspath(path)]
    if frames:
        frame = frames[-1]
        text += f" ({os.path.basename(path)}, line {frame.lineno}, in {frame.name})"
    return text


# The parent: run the child, read what it wrote ----------------------------------

def check_module(path: str, hands: int = DEFAULT_HANDS, seed: int = 1,
                 timeout: float = DEFAULT_TIMEOUT) -> Report:
    """Run the student's module at *path* on the check's hands, in a child process."""
    cases = build_cases(hands, seed)
    with tempfile.TemporaryDirectory(prefix="bidder-check-") as work:
        cases_path = os.path.join(work, "cases.json")
        with open(cases_path, "w", encoding="utf-8") as stream:
            json.dump({"hands": [case.hand for case in cases],
                       "expected": {name: [case.expected[index] for case in cases]
                                    for index, name in enumerate(FUNCTIONS)}}, stream)
        results_path = os.path.join(work, "results.jsonl")
        status, output, errors = _run_child(path, cases_path, results_path, work, timeout)
        with open(results_path, encoding="utf-8") as stream:
            events = [json.loads(line) for line in stream if line.endswith("\n")]
    return build_report(path, cases, events, status, output, errors, timeout)


def _run_child(path: str, cases_path: str, results_path: str, work: str,
               timeout: float) -> tuple[int | None, str, str]:
    """(exit status or None on timeout, its standard output, its standard error)."""
    open(results_path, "w").close()
    output_path, errors_path = os.path.join(work, "stdout"), os.path.join(work, "stderr")
    with open(output_path, "wb") as output, open(errors_path, "wb") as errors:
        child = subprocess.Popen(
            [sys.executable, "-P", "-c", CHILD_CODE, os.path.abspath(path), cases_path,
             results_path], stdin=subprocess.DEVNULL, stdout=output, stderr=errors,
            cwd=os.path.dirname(os.path.abspath(path)), start_new_session=True)
        try:
            status = child.wait(timeout)
        except subprocess.TimeoutExpired:
            status = None
        finally:
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
    return status, _head(output_path), _head(errors_path)


def _head(path: str) -> str:
    with open(path, "rb") as stream:
        return stream.read(OUTPUT_LIMIT).decode("utf-8", "replace")


def build_report(path: str, cases: tuple[Case, ...], events: list[dict],
                 status: int | None, output: str, errors: str,
                 timeout: float) -> Report:
    """Turn the child's events and how it ended into a report."""
    name = os.path.basename(path)
    problems, warnings, calls, missing, imported = [], [], [], set(), None
    for event in events:
        kind, details = event["event"], {key: value for key, value in event.items()
                                         if key != "event"}
        if kind == "imported":
            imported = True
        elif kind == "import_error":
            imported = False
            problems.append(f"{name} could not be imported: {details['error']}")
        elif kind == "missing":
            missing.add(details["function"])
            problems.append(f"{name} has no function {details['function']} "
                            f"({details['found']}): define it with exactly that name")
        elif kind == "printed":
            warnings.append(_printed_warning("while being imported", details["text"]))
        else:
            calls.append(Call(**details))
    expected_calls = [(function, index) for function in FUNCTIONS if imported
                      and function not in missing for index in range(len(cases))]
    if imported is None:
        problems.append(_stopped(f"importing {name}", status, errors, timeout))
    elif len(calls) < len(expected_calls):
        function, index = expected_calls[len(calls)]
        problems.append(_stopped(f"computing {function}({cases[index].hand!r})", status,
                                 errors, timeout)
                        + f"; {len(calls)} of {len(expected_calls)} calls were checked")
    printing = next((call for call in calls if call.printed), None)
    if printing:
        warnings.append(_printed_warning(
            f"while computing {printing.function}({cases[printing.case].hand!r})",
            printing.printed))
    if output.strip():
        warnings.append(_printed_warning("directly to the terminal", output))
    return Report(name, cases, tuple(calls), tuple(problems), tuple(warnings))


def _stopped(doing: str, status: int | None, errors: str, timeout: float) -> str:
    if status is None:
        return f"no answer within {timeout:g} s: stopped while {doing} (an endless loop?)"
    return f"the process ended (exit status {status}) while {doing}{_last_line(errors)}"


def _printed_warning(when: str, text: str) -> str:
    return (f"the module prints to standard output {when}: {safe_repr(text.strip())}; "
            f"graded functions should return their answer and print nothing")


def _last_line(errors: str) -> str:
    lines = [line.strip() for line in errors.splitlines() if line.strip()]
    return f": {safe_repr(lines[-1])}" if lines else ""
