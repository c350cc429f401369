"""What a check found: each hand checked, each answer read and judged with exact types,
and the report every format reads."""

from __future__ import annotations

from dataclasses import dataclass

from ..bids import NO_BID, Bid, BidError
from ..errors import quote
from ..rules import RULES
from .sandbox import Isolation

FUNCTIONS = ("highCardPoints", "distributionPoints", "openingBid")


@dataclass(frozen=True)
class Case:
    """One hand to check, where it comes from, the rule deciding it and the right answers."""

    hand: str
    kind: str
    source: str
    rule: str
    expected: tuple


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


CHECKED, PARTLY, NOT_CHECKED, MISSING = "checked", "partly checked", "not checked", "missing"


KIND_ORDER = ("worked", "threshold", "misreading", "random")


@dataclass(frozen=True)
class Crash:
    """An exception by kind and place: its type, the line of the student's module it came
    from and the function that line is in (None for both when none of its lines was)."""

    type_name: str
    line: int | None
    where: str | None

    @classmethod
    def of(cls, answer: Answer) -> "Crash":
        """Where a raised answer came from."""
        return cls(answer.type_name, answer.line, answer.where)

    def text(self, module: str = "") -> str:
        """'ValueError (solution.py, line 4, in parse)', escaped."""
        name = quote(self.type_name, 60)
        if self.line is None:
            return f"{name} (outside the module's own lines)"
        return (f"{name} ({quote(module, 40) + ', ' if module else ''}line {self.line}, "
                f"in {quote(self.where or '?', 40)})")


@dataclass(frozen=True)
class Group:
    """Mismatches of one function with one cause: on hands one rule decides, or, for a
    wrong type or an exception, on hands of all kinds (an exception by kind and line)."""

    function: str
    rule: str | None  # None: a wrong type or an exception, whatever the rule
    cause: str
    verdicts: tuple[Verdict, ...]
    example: Verdict
    crash: Crash | None = None  # the exception's kind and line, for the cause RAISED


def _crash_order(crash: Crash | None) -> tuple:
    if crash is None:
        return ()
    return crash.type_name, crash.line or 0, crash.where or ""


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
    searched: int = 0  # how many misreadings the diagnosis tried (0: it was not asked)
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
        """How many hands of a kind were checked: worked, threshold, misreading or
        random."""
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
        """The mismatches grouped by function, rule and cause (a wrong type whatever the
        rule, an exception by its kind and line whatever the rule), the biggest group
        first, each with its simplest example (a worked example before a random hand)."""
        grouped: dict[tuple, list[Verdict]] = {}
        for verdict in self.mismatches:
            crash = Crash.of(verdict.answer) if verdict.cause == RAISED else None
            rule = (None if verdict.cause in (WRONG_TYPE, RAISED)
                    else self.cases[verdict.case].rule)
            grouped.setdefault((verdict.function, rule, verdict.cause, crash),
                               []).append(verdict)
        rule_order = [None] + [rule.id for rule in RULES]
        ordered = sorted(grouped.items(), key=lambda item: (
            -len(item[1]), FUNCTIONS.index(item[0][0]), rule_order.index(item[0][1]),
            CAUSES.index(item[0][2]), _crash_order(item[0][3])))
        return tuple(Group(*key[:3], tuple(verdicts), min(verdicts, key=self._simplicity),
                           key[3]) for key, verdicts in ordered)

    def crashes(self) -> tuple[Group, ...]:
        """The groups of exceptions, by kind and line, the biggest first."""
        return tuple(group for group in self.groups() if group.crash is not None)

    def _simplicity(self, verdict: Verdict) -> tuple:
        case = self.cases[verdict.case]
        return KIND_ORDER.index(case.kind), len(case.hand), verdict.case

    @property
    def passed(self) -> bool:
        """Every function answered every hand as the reference does, with its type."""
        complete = len(self.verdicts) == len(FUNCTIONS) * len(self.cases)
        return complete and not self.problems and not self.mismatches
