"""Checking a student's solution: its three functions against the reference.

The student's module runs sealed (``sandbox.py``) and only ever sees hands: the runner
beside it reports each raw answer, and this module, which never runs student code,
checks every line the runner wrote and judges each answer with exact types, as the
assignment asks (an int for the counts; a str, or None for no bid). A module that fails
to import, raises, prints, loops, ends the process or tampers with the channel gets a
report all the same. The hands: the spec's worked examples, a hand on each side of every
threshold in the rule table, and seeded random hands, in the assignment's own notation.
"""

from __future__ import annotations

import hashlib
import os
import random
import signal
from dataclasses import replace
from functools import lru_cache
from itertools import islice
from typing import Callable

from ..assignment import distributionPoints, highCardPoints, openingBid
from ..cards import parse_hand
from ..dealing import dealt_text, hand_stream, telling_hand, threshold_hands
from ..errors import quote
from ..facts import Facts
from ..rules import first_rule
from ..misreadings import distinguishable
from .channel import read_channel, runner_failure
from .diagnosis import diagnose
from .endings import ending, signal_number
from .report import FUNCTIONS, Answer, Case, Report, judge
from .sandbox import Limits, Outcome, run_student

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


def threshold_seed(seed: int) -> int:
    """The seed a check's threshold hands are dealt for: one of their own for each seed,
    so that they are not the check's random hands, and no two checks share them."""
    return _drawn("threshold hands", seed)


def misreading_seed(seed: int) -> int:
    """The seed a check's hands telling misreadings apart are dealt for, drawn from the
    check's seed as the threshold hands' is."""
    return _drawn("misreading hands", seed)


def _drawn(what: str, seed: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{what} {seed}".encode()).digest()[:6], "big")


def misreading_hands(seed: int) -> list[tuple[str, str]]:
    """For every distinguishable misreading, (its id, a hand it opens otherwise than the
    rules), dealt for *seed* from the profiles of such hands kept for it: a module that
    reads the rules as any of them answers some hand wrong, and no table of hands printed
    for other seeds holds these."""
    rng = random.Random(misreading_seed(seed))
    return [(variant.id, telling_hand(variant, rng)) for variant in distinguishable()]


@lru_cache(maxsize=8)
def build_cases(hands: int = DEFAULT_HANDS, seed: int = 1) -> tuple[Case, ...]:
    """Worked examples, then the threshold hands, a hand for each distinguishable
    misreading and *hands* random hands dealt for *seed* (built once per process: a
    class's checks share them). The worked examples are the assignment's own, the same in
    every check; every other hand depends on the seed, so a module that learnt some
    check's hands by heart meets others."""
    sources = [(hand, "worked", f"worked example {number}")
               for number, hand in enumerate(WORKED_EXAMPLES, 1)]
    sources += [(hand, "threshold", f"threshold: {label}")
                for label, hand in threshold_hands(threshold_seed(seed))]
    sources += [(hand, "misreading", f"a hand {variant_id} opens otherwise")
                for variant_id, hand in misreading_hands(seed)]
    sources += [(hand, "random", f"random hand {number} (seed {seed})")
                for number, hand in enumerate(random_hands(hands, seed), 1)]
    cases, seen = [], set()
    for hand, kind, source in sources:
        if hand not in seen:
            seen.add(hand)
            cases.append(case_of(hand, kind, source))
    return tuple(cases)


def case_of(hand: str, kind: str, source: str) -> Case:
    """A hand to check, with the rule deciding it and the reference's answers."""
    return Case(hand, kind, source, first_rule(Facts(parse_hand(hand)).tally).id,
                tuple(function(hand) for function in REFERENCE))


def further_cases(hands: tuple[str, ...]) -> tuple[Case, ...]:
    """The further hands the diagnosis asks, to tell tied misreadings apart."""
    return tuple(case_of(hand, "further", f"further hand {number}")
                 for number, hand in enumerate(hands, 1))


def random_hands(count: int, seed: int) -> list[str]:
    """*count* hands dealt for *seed*, in the assignment's notation, as dealt."""
    return [dealt_text(indexes) for indexes in islice(hand_stream(seed), count)]


def build_report(path: str, cases: tuple[Case, ...], outcome: Outcome,
                 functions: tuple[str, ...] = FUNCTIONS) -> Report:
    """Judge every answer the runner reported for the *functions* it called, and say what
    kept the rest from coming."""
    name = os.path.basename(path)
    channel, failure = runner_failure(outcome.channel)
    events, corruption = read_channel(replace(outcome, channel=channel), cases, functions)
    problems, warnings, verdicts, missing = [], [], [], []
    imported = bool(events) and events[0]["event"] == "imported"
    for event in events:
        kind = event["event"]
        if kind == "import_error":
            answer = Answer.from_event(dict(event, value=None))
            problems.append(f"{quote(name, 40)} could not be imported: "
                            f"{answer.error_text(name)}{_import_hint(answer)}")
        elif kind == "missing":
            missing.append(event["function"])
            problems.append(f"{quote(name, 40)} has no function {event['function']} "
                            f"({quote(event['found'])}): define it with exactly that name")
        elif kind == "call":
            index = FUNCTIONS.index(event["function"])
            verdicts.append(judge(event["function"], event["case"], Answer.from_event(event),
                                  cases[event["case"]].expected[index]))
        if kind in ("imported", "import_error") and event["printed"].strip():
            warnings.append(_printed_warning("while being imported", event["printed"]))
    if corruption:
        problems.append(f"the module wrote on the checker's channel ({corruption}); "
                        f"nothing after that was trusted")
    done = bool(events) and events[-1]["event"] in ("done", "import_error")
    if failure and not corruption:
        problems.append(f"the checker's runner stopped with {quote(failure, 80)} while "
                        f"{_doing(name, cases, events, missing, functions)}; the calls after that were "
                        f"not checked (does the module change json, sys, os or io? leave "
                        f"them as they are)")
    elif not done and not corruption:
        problems.append(_stopped(name, cases, events, missing, outcome, functions))
    printing = next((verdict for verdict in verdicts if verdict.answer.printed.strip()), None)
    if printing:
        warnings.append(_printed_warning(
            f"while computing {printing.function}({cases[printing.case].hand!r})",
            printing.answer.printed))
    if outcome.output.strip() or outcome.output_dropped:
        text = outcome.output.decode("utf-8", "replace")
        dropped = (f" (and {outcome.output_dropped:,} more bytes, dropped)"
                   if outcome.output_dropped else "")
        warnings.append(f"the module wrote directly to its output: {quote(text.strip())}"
                        f"{dropped}; graded functions should return their answer and "
                        f"print nothing")
    return Report(name, cases, tuple(verdicts), tuple(problems), tuple(warnings),
                  outcome.isolation, imported, tuple(missing))


def _import_hint(answer: Answer) -> str:
    """Advice for the import errors students meet most."""
    if answer.type_name == "ModuleNotFoundError" and "'bidder" in answer.text:
        return ("; the reference package is not available to the code being checked: "
                "write the three functions in the module itself")
    return ""


def _stopped(name: str, cases, events: list[dict], missing: list[str],
             outcome: Outcome, functions: tuple[str, ...]) -> str:
    """What the module was doing when it stopped answering, and how it stopped."""
    doing = _doing(name, cases, events, missing, functions)
    limit = outcome.isolation.measures if outcome.isolation else ()
    if outcome.status is None:
        return _out_of_time("time", "wall", limit, doing)
    if signal_number(outcome.status, outcome.isolation) == signal.SIGXCPU:
        return _out_of_time("CPU time", "CPU", limit, doing)
    return f"the process {ending(outcome.status, outcome.isolation)} while {doing}"


def _out_of_time(kind: str, measure: str, limit: tuple[str, ...], doing: str) -> str:
    """'no answer within the CPU time limit (CPU 2 s): stopped while ...', the limit as
    the isolation measured it."""
    said = next((text for text in limit if text.startswith(measure + " ")), kind)
    return f"no answer within the {kind} limit ({said}): stopped while {doing} " \
           f"(an endless loop?)"


def _doing(name: str, cases, events: list[dict], missing: list[str],
           functions: tuple[str, ...]) -> str:
    """What the module was doing when the answers stopped coming."""
    if not events:
        doing = f"importing {quote(name, 40)}"
    else:
        expected = [(function, index) for function in functions if function not in missing
                    for index in range(len(cases))]
        calls = sum(1 for event in events if event["event"] == "call")
        function, index = expected[min(calls, len(expected) - 1)] if expected else ("", 0)
        doing = (f"computing {function}({cases[index].hand!r}); {calls:,} of "
                 f"{len(expected):,} calls were checked" if calls < len(expected)
                 else "finishing")
    return doing


def _printed_warning(when: str, text: str) -> str:
    return (f"the module prints to standard output {when}: {quote(text.strip())}; "
            f"graded functions should return their answer and print nothing")


def combined(reports: list[Report]) -> Report:
    """One report of runs that each called one function: every verdict, each problem and
    warning once, the functions missing from any, and the isolation the runs had (the
    first that differs from the first run's, where one did)."""
    first = reports[0]
    isolation = next((report.isolation for report in reports
                      if report.isolation != first.isolation), first.isolation)
    return replace(first, verdicts=sum((report.verdicts for report in reports), ()),
                   problems=_once(report.problems for report in reports),
                   warnings=_once(report.warnings for report in reports),
                   missing=sum((report.missing for report in reports), ()),
                   isolation=isolation)


def _once(texts) -> tuple[str, ...]:
    return tuple(dict.fromkeys(text for some in texts for text in some))


def check_module(path: str, hands: int = DEFAULT_HANDS, seed: int = 1,
                 limits: Limits = Limits(), isolation: str = "auto") -> Report:
    """Run the student's module at *path* sealed on the check's hands and judge it: each
    function in a run of its own, with its own limits, so that one that loops or ends the
    process leaves the others checked (a module that cannot be imported is run once)."""
    def run(cases: tuple[Case, ...]) -> Report:
        hands = [case.hand for case in cases]
        reports: list[Report] = []
        for function in FUNCTIONS:
            work = {"functions": [function], "hands": hands}
            outcome = run_student(path, work, limits, isolation)
            reports.append(build_report(path, cases, outcome, (function,)))
            if not reports[-1].imported:
                break
        return combined(reports)

    report = run(build_cases(hands, seed))
    found = diagnose(report, lambda further: run(further_cases(further)))
    return replace(report, diagnosis=found, searched=len(distinguishable()))
