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

import json
import os
import signal
from dataclasses import dataclass, replace
from itertools import islice
from typing import Callable

from .bids import NO_BID, Bid, BidError
from .cards import parse_hand
from .dealing import dealt_text, hand_stream, threshold_hands
from .errors import quote
from .facts import Facts
from .graded import distributionPoints, highCardPoints, openingBid
from .rules import RULES, first_rule
from .sandbox import Isolation, Limits, Outcome, run_student

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
THRESHOLD_SEED = 2026  # one seed for every check, so that all get the same hands


@dataclass(frozen=True)
class Case:
    """One hand to check, where it comes from, the rule deciding it and the right answers."""

    hand: str
    kind: str
    source: str
    rule: str
    expected: tuple


# The hands -------------------------------------------------------------------

def build_cases(hands: int = DEFAULT_HANDS, seed: int = 1) -> tuple[Case, ...]:
    """Worked examples, threshold hands, then *hands* random hands for *seed*."""
    sources = [(hand, "worked", f"worked example {number}")
               for number, hand in enumerate(WORKED_EXAMPLES, 1)]
    sources += [(hand, "threshold", f"threshold: {label}")
                for label, hand in threshold_hands(THRESHOLD_SEED)]
    sources += [(hand, "random", f"random hand {number} (seed {seed})")
                for number, hand in enumerate(random_hands(hands, seed), 1)]
    cases, seen = [], set()
    for hand, kind, source in sources:
        if hand not in seen:
            seen.add(hand)
            cases.append(Case(hand, kind, source,
                              first_rule(Facts(parse_hand(hand)).tally).id,
                              tuple(function(hand) for function in REFERENCE)))
    return tuple(cases)


def random_hands(count: int, seed: int) -> list[str]:
    """*count* hands dealt for *seed*, in the assignment's notation, as dealt."""
    return [dealt_text(indexes) for indexes in islice(hand_stream(seed), count)]


# The child's answers, checked line by line ------------------------------------------

class Corrupted(ValueError):
    """A line on the channel that the runner could not have written as it stands."""


_ERROR_KEYS = {"type": str, "message": str, "line": (int, type(None)),
               "where": (str, type(None))}
_VALUE_KEYS = {"int": {"kind": str, "int": int}, "str": {"kind": str, "str": str},
               "none": {"kind": str}, "other": {"kind": str, "type": str, "repr": str}}
_EVENT_KEYS = {
    "imported": {"event": str, "printed": str},
    "import_error": {"event": str, "error": dict, "printed": str},
    "missing": {"event": str, "function": str, "found": str},
    "call": {"event": str, "function": str, "case": int, "value": (dict, type(None)),
             "error": (dict, type(None)), "printed": str},
    "done": {"event": str},
}
TEXT_LIMIT = 200
INT_LIMIT = 10 ** 9


def shaped(item, keys: dict, what: str) -> dict:
    """*item* if it is an object with exactly *keys*, each of its type (no bools for
    ints, no over-long text), else Corrupted."""
    if type(item) is not dict or set(item) != set(keys):
        raise Corrupted(f"{what} has the wrong fields")
    for key, kind in keys.items():
        value = item[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if type(value) not in kinds:
            raise Corrupted(f"{what}: '{key}' has the wrong type")
        if type(value) is str and len(value) > TEXT_LIMIT:
            raise Corrupted(f"{what}: '{key}' is too long")
        if type(value) is int and not -INT_LIMIT <= value <= INT_LIMIT:
            raise Corrupted(f"{what}: '{key}' is out of range")
    return item


def read_event(line: bytes) -> dict:
    """One channel line as an event whose every field has been checked.

    :raises Corrupted: for anything the runner would not have written.
    """
    try:
        event = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise Corrupted("a line is not JSON text") from None
    keys = _EVENT_KEYS.get(event.get("event")) if type(event) is dict else None
    if keys is None:
        raise Corrupted("a line is not an event the checker knows")
    shaped(event, keys, f"a '{event['event']}' event")
    if event.get("error") is not None:
        shaped(event["error"], _ERROR_KEYS, "an error")
    if event.get("value") is not None:
        value_keys = _VALUE_KEYS.get(event["value"].get("kind"))
        if value_keys is None:
            raise Corrupted("a value of no known kind")
        shaped(event["value"], value_keys, "a value")
    if event["event"] == "call" and (event["value"] is None) == (event["error"] is None):
        raise Corrupted("a call with both or neither of a value and an error")
    return event


@dataclass(frozen=True)
class Answer:
    """What one call of a student's function gave back, as the runner reported it."""

    kind: str  # int, str, none, other, or raised
    value: int | str | None = None  # the exact int or str, for those kinds
    type_name: str = ""
    text: str = ""  # a repr for the other kind; for raised, the exception's message
    line: int | None = None
    where: str | None = None
    printed: str = ""

    @classmethod
    def from_event(cls, event: dict) -> "Answer":
        """The answer in a checked call event."""
        printed = event["printed"]
        if event["error"] is not None:
            error = event["error"]
            return cls("raised", None, error["type"], error["message"], error["line"],
                       error["where"], printed)
        value = event["value"]
        kind = value["kind"]
        if kind == "other":
            return cls(kind, None, value["type"], value["repr"], printed=printed)
        plain = value.get(kind)
        return cls(kind, plain, {"int": "int", "str": "str"}.get(kind, "NoneType"),
                   printed=printed)

    def shown(self, module: str = "") -> str:
        """The answer as an instructor reads it, escaped: 12 (int), 'None' (str)."""
        if self.kind == "raised":
            return f"raised {self.error_text(module)}"
        if self.kind == "none":
            return "None"
        if self.kind == "other":
            return f"{quote(self.text)} ({quote(self.type_name, 40)})"
        return f"{quote(repr(self.value))} ({self.type_name})"

    def error_text(self, module: str = "") -> str:
        """'KeyError: message (solution.py, line 4, in openingBid)', escaped."""
        text = quote(f"{self.type_name}: {self.text}".rstrip(": "), 120)
        if self.line is not None:
            text += f" ({quote(module, 40) + ', ' if module else ''}line {self.line}, " \
                    f"in {quote(self.where or '?', 40)})"
        return text


# Verdicts: exact types, and a hint that names the cause --------------------------------

RIGHT = "right"
WRONG = "wrong answer"
WRONG_TYPE = "wrong type"
SPELLING = "wrong spelling"
RAISED = "raised an exception"
CAUSES = (WRONG, WRONG_TYPE, SPELLING, RAISED)


@dataclass(frozen=True)
class Verdict:
    """One call judged: right or why not, and a hint a student can act on."""

    function: str
    case: int
    answer: Answer
    cause: str
    hint: str = ""

    @property
    def right(self) -> bool:
        """The answer is the reference's, with the exact type."""
        return self.cause == RIGHT


def judge(function: str, case: int, answer: Answer, expected) -> Verdict:
    """Compare an answer with the reference's using exact types: an int for the counts,
    a str or None for the bid."""
    judged = _judge_count if function != "openingBid" else _judge_bid
    cause, hint = (RAISED, "") if answer.kind == "raised" else judged(answer, expected)
    return Verdict(function, case, answer, cause, hint)


def _judge_count(answer: Answer, expected: int) -> tuple[str, str]:
    if answer.kind == "int":
        return (RIGHT, "") if answer.value == expected else (WRONG, f"the count is {expected}")
    if answer.kind == "none":
        return WRONG_TYPE, "return the count as an int (is a return statement missing?)"
    if answer.kind == "str":
        return WRONG_TYPE, "return an int, not a string"
    return WRONG_TYPE, "return an int"


def _judge_bid(answer: Answer, expected: str | None) -> tuple[str, str]:
    wanted = "the rules open nothing" if expected is None else f"the rules open {expected}"
    if answer.kind == "none":
        return (RIGHT, "") if expected is None else (WRONG, wanted)
    if answer.kind != "str":
        return WRONG_TYPE, "return a str such as '1C', or the value None for no bid"
    if answer.value == expected:
        return RIGHT, ""
    try:
        meant = Bid.parse(answer.value, lenient=True) if answer.value.strip() else NO_BID
    except BidError:
        return WRONG, wanted
    if meant == NO_BID:
        if expected is None:
            return WRONG_TYPE, "for no bid return the value None, not a string"
        return WRONG, f"{wanted} (and no bid is the value None, not a string)"
    if meant.text == expected:
        return SPELLING, f"write the bid as '{expected}'"
    return WRONG, wanted


# The report ----------------------------------------------------------------------------

CHECKED, PARTLY, NOT_CHECKED, MISSING = "checked", "partly checked", "not checked", "missing"
KIND_ORDER = ("worked", "threshold", "random")


@dataclass(frozen=True)
class Group:
    """Mismatches of one function, on hands one rule decides, with one cause."""

    function: str
    rule: str | None  # None: a wrong type, whatever the rule
    cause: str
    verdicts: tuple[Verdict, ...]
    example: Verdict


@dataclass(frozen=True)
class Report:
    """The outcome of a check: every verdict, what kept calls from being made, and how
    the module was isolated."""

    module: str
    cases: tuple[Case, ...]
    verdicts: tuple[Verdict, ...]
    problems: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    isolation: Isolation | None = None
    imported: bool = True
    missing: tuple[str, ...] = ()
    diagnosis: object = None  # the misreading behind the wrong answers (diagnosis.py)
    tests: object = None  # how good the student's own tests are (student_tests.py)

    def _of(self, function: str, rule: str | None = None) -> list[Verdict]:
        return [verdict for verdict in self.verdicts if verdict.function == function
                and (rule is None or self.cases[verdict.case].rule == rule)]

    def hands(self, rule: str | None = None) -> int:
        """How many hands were to be checked (those *rule* decides, or all)."""
        return sum(1 for case in self.cases if rule is None or case.rule == rule)

    def agreement(self, function: str, rule: str | None = None) -> tuple[int, int]:
        """(right answers, calls made) of *function*, on the hands *rule* decides."""
        verdicts = self._of(function, rule)
        return sum(verdict.right for verdict in verdicts), len(verdicts)

    def status(self, function: str) -> str:
        """checked, partly checked, not checked (never called) or missing."""
        if function in self.missing:
            return MISSING
        called = len(self._of(function))
        if called == 0:
            return NOT_CHECKED
        return CHECKED if called == len(self.cases) else PARTLY

    def count(self, kind: str) -> int:
        """How many hands of a kind were checked: worked, threshold or random."""
        return sum(1 for case in self.cases if case.kind == kind)

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules deciding the checked hands, in table order."""
        present = {case.rule for case in self.cases}
        return tuple(rule.id for rule in RULES if rule.id in present)

    @property
    def mismatches(self) -> tuple[Verdict, ...]:
        """Calls whose answer is not the reference's, in call order."""
        return tuple(verdict for verdict in self.verdicts if not verdict.right)

    @property
    def stubs(self) -> tuple[str, ...]:
        """Functions that answered None for every hand while some answer was not None."""
        return tuple(function for function in FUNCTIONS
                     if (verdicts := self._of(function))
                     and all(verdict.answer.kind == "none" for verdict in verdicts)
                     and not all(verdict.right for verdict in verdicts))

    def groups(self) -> tuple[Group, ...]:
        """The mismatches grouped by function, rule and cause (a wrong type, whatever
        the rule), the biggest group first, each with its simplest example (a worked
        example before a random hand)."""
        grouped: dict[tuple[str, str | None, str], list[Verdict]] = {}
        for verdict in self.mismatches:
            rule = None if verdict.cause == WRONG_TYPE else self.cases[verdict.case].rule
            grouped.setdefault((verdict.function, rule, verdict.cause), []).append(verdict)
        rule_order = [None] + [rule.id for rule in RULES]
        ordered = sorted(grouped.items(), key=lambda item: (
            -len(item[1]), FUNCTIONS.index(item[0][0]), rule_order.index(item[0][1]),
            CAUSES.index(item[0][2])))
        return tuple(Group(*key, tuple(verdicts), min(verdicts, key=self._simplicity))
                     for key, verdicts in ordered)

    def _simplicity(self, verdict: Verdict) -> tuple:
        case = self.cases[verdict.case]
        return KIND_ORDER.index(case.kind), len(case.hand), verdict.case

    @property
    def passed(self) -> bool:
        """Every function answered every hand as the reference does, with its type."""
        complete = len(self.verdicts) == len(FUNCTIONS) * len(self.cases)
        return complete and not self.problems and not self.mismatches


def read_channel(outcome: Outcome, cases: tuple[Case, ...]) -> tuple[list[dict], str]:
    """The checked events on the channel, in the order the runner writes them, and what
    was wrong with the channel ('' when nothing was)."""
    lines = outcome.channel.split(b"\n")
    complete, events = lines[:-1], []
    missing: list[str] = []
    expected: list[tuple[str, int]] | None = None
    try:
        for line in complete:
            event = read_event(line)
            kind = event["event"]
            if not events:
                if kind not in ("imported", "import_error"):
                    raise Corrupted("the first line is not the import")
            elif events[-1]["event"] in ("import_error", "done"):
                raise Corrupted("a line after the last")
            elif kind == "missing":
                if expected is not None or event["function"] not in FUNCTIONS or (
                        missing and FUNCTIONS.index(event["function"])
                        <= FUNCTIONS.index(missing[-1])):
                    raise Corrupted("a missing function out of order")
                missing.append(event["function"])
            elif kind in ("call", "done"):
                if expected is None:
                    expected = [(function, index) for function in FUNCTIONS
                                if function not in missing for index in range(len(cases))]
                position = sum(1 for done in events if done["event"] == "call")
                if kind == "done" and position != len(expected):
                    raise Corrupted("the end before every call")
                if kind == "call" and (position >= len(expected) or (
                        event["function"], event["case"]) != expected[position]):
                    raise Corrupted("a call out of order")
            else:
                raise Corrupted("a second import")
            events.append(event)
    except Corrupted as problem:
        return events, str(problem)
    if outcome.channel_dropped:
        return events, f"{outcome.channel_dropped:,} bytes more than any answers need"
    return events, ""


def build_report(path: str, cases: tuple[Case, ...], outcome: Outcome) -> Report:
    """Judge every answer the runner reported, and say what kept the rest from coming."""
    name = os.path.basename(path)
    events, corruption = read_channel(outcome, cases)
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
    if not done and not corruption:
        problems.append(_stopped(name, cases, events, missing, outcome))
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
             outcome: Outcome) -> str:
    """What the module was doing when it stopped answering, and how it stopped."""
    if not events:
        doing = f"importing {quote(name, 40)}"
    else:
        expected = [(function, index) for function in FUNCTIONS if function not in missing
                    for index in range(len(cases))]
        calls = sum(1 for event in events if event["event"] == "call")
        function, index = expected[min(calls, len(expected) - 1)] if expected else ("", 0)
        doing = (f"computing {function}({cases[index].hand!r}); {calls:,} of "
                 f"{len(expected):,} calls were checked" if calls < len(expected)
                 else "finishing")
    limit = outcome.isolation.measures if outcome.isolation else ()
    if outcome.status is None:
        wall = next((measure for measure in limit if measure.startswith("wall")), "time")
        return f"no answer within the time limit ({wall}): stopped while {doing} " \
               f"(an endless loop?)"
    if outcome.status < 0:
        how = f"was killed by signal {-outcome.status} ({_signal_name(-outcome.status)})"
    else:
        how = f"ended (exit status {outcome.status})"
    return f"the process {how} while {doing}"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return "unknown"


def _printed_warning(when: str, text: str) -> str:
    return (f"the module prints to standard output {when}: {quote(text.strip())}; "
            f"graded functions should return their answer and print nothing")


# Checking a module ---------------------------------------------------------------------

def check_module(path: str, hands: int = DEFAULT_HANDS, seed: int = 1,
                 limits: Limits = Limits(), isolation: str = "auto") -> Report:
    """Run the student's module at *path* sealed on the check's hands and judge it."""
    cases = build_cases(hands, seed)
    work = {"functions": list(FUNCTIONS), "hands": [case.hand for case in cases]}
    outcome = run_student(path, work, limits, isolation)
    report = build_report(path, cases, outcome)
    from .diagnosis import diagnose

    return replace(report, diagnosis=diagnose(report))
