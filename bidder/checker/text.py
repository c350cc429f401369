"""A check's report in words: what an instructor pastes into a student's feedback.

Every piece of text that came from the student's code reaches this module already
escaped by ``Answer.shown`` and ``quote``; the hands and the explanations are ours.
"""

from __future__ import annotations

import textwrap

from ..advice import explain
from ..rules import RULE_BY_ID, plural
from .report import FUNCTIONS, MISSING, NOT_CHECKED, RAISED, Group, Report, Verdict
from .student_tests import describe_tests

WRAP = 88


def wrapped(text: str, indent: str, first: str | None = None) -> str:
    """*text* wrapped to the report's width, continuation lines under *indent*."""
    return textwrap.fill(text, WRAP, initial_indent=indent if first is None else first,
                         subsequent_indent=indent, break_on_hyphens=False,
                         break_long_words=False)


def rate(right: int, called: int) -> str:
    """A pass rate as a percentage; '-' when nothing was called."""
    return f"{100 * right / called:.1f}%" if called else "-"


def cell(report: Report, function: str, rule: str | None = None) -> str:
    """'n/m 97.0%' for a function, or why it has no rate."""
    status = report.status(function)
    if status in (MISSING, NOT_CHECKED):
        return status
    right, called = report.agreement(function, rule)
    return rate(right, called)


def headline(report: Report) -> str:
    """The one sentence to read first."""
    if not report.imported:
        return report.problems[0] if report.problems else "the module could not be run"
    if report.passed:
        return (f"every answer agrees with the reference, with the right types, on all "
                f"{len(report.cases):,} hands")
    if report.diagnosis is not None:
        return report.diagnosis.sentence(report)
    if report.stubs:
        names = " and ".join(report.stubs)
        return (f"{names} {'returns' if len(report.stubs) == 1 else 'return'} None for "
                f"every hand: it looks like the unfinished stub (a body of `pass`), "
                f"not an answer")
    groups = report.groups()
    if not groups:
        return report.problems[0]
    group, total = groups[0], len(report.mismatches)
    share = ("all" if len(group.verdicts) == total
             else f"{len(group.verdicts):,} of the {total:,}")
    unfit = (f"; no misreading of the rules ({report.searched:,} tried, alone and in "
             f"pairs) fits all but a few of them" if report.searched else "")
    if group.crash is not None:
        return (f"{share} wrong answers are {group.function} raising "
                f"{group.crash.text(report.module)}, for example "
                f"{call_text(group.example, report)}{unfit}")
    return (f"{share} wrong answers are {group.function} on hands "
            f"{describe_rule(group.rule)} ({group.cause}), for example "
            f"{call_text(group.example, report)}{unfit}")


def call_text(verdict: Verdict, report: Report) -> str:
    """"openingBid('...') returned '1NT' (str); the rules open 1C"."""
    case = report.cases[verdict.case]
    answer = verdict.answer.shown(report.module)
    text = (f"{verdict.function}({case.hand!r}) "
            f"{answer if verdict.cause == RAISED else 'returned ' + answer}")
    return text + (f"; {verdict.hint}" if verdict.hint else "")


def describe_rule(rule_id: str | None) -> str:
    """'that R3 (1 of a minor) decides', or 'of all kinds' for a group across rules."""
    if rule_id is None:
        return "of all kinds"
    return f"that {rule_id} ({RULE_BY_ID[rule_id].name}) decides"


def text_report(report: Report, shown: int = 5) -> str:
    """The whole report as text, groups of mismatches biggest first."""
    lines = [f"Checking {report.module}: {plural(len(report.cases), 'hand')} "
             f"({plural(report.count('worked'), 'worked example')}, "
             f"{report.count('threshold')} on the thresholds, "
             f"{report.count('misreading')} that misreadings open otherwise, "
             f"{report.count('random'):,} random), answers compared with exact types"]
    if report.isolation is not None:
        lines.append(wrapped(f"Isolation: {report.isolation.describe()}", "  ", ""))
    lines += ["", wrapped(f"In short: {headline(report)}", "  ", ""), ""]
    lines.append(f"{'function':<20}{'right':>16}{'rate':>14}")
    for function in FUNCTIONS:
        right, called = report.agreement(function)
        counted = f"{right:,}/{called:,}" if called else ""
        lines.append(f"{function:<20}{counted:>16}{cell(report, function):>14}")
    widths = [len(function) + 2 for function in FUNCTIONS]
    lines += ["", f"{'by rule of the right answer':<30}{'hands':>6}"
              + "".join(f"{function:>{width}}" for function, width in zip(FUNCTIONS, widths))]
    for rule in report.rules:
        cells = [cell(report, function, rule) for function in FUNCTIONS]
        lines.append(f"{rule + ' ' + RULE_BY_ID[rule].name:<30}{report.hands(rule):>6,}"
                     + "".join(f"{text:>{width}}" for text, width in zip(cells, widths)))
    for title, items in (("Problems", report.problems), ("Warnings", report.warnings)):
        if items:
            lines += ["", title] + [wrapped(item, "  ") for item in items]
    crashes = report.crashes()
    if crashes:
        lines += ["", "Exceptions, by kind and line"] + [
            wrapped(crash_line(group, report), "    ", "  ") for group in crashes]
    groups = report.groups()
    if groups:
        lines += ["", f"Wrong answers, the biggest group first "
                      f"({plural(len(groups), 'group')}, "
                      f"{plural(len(report.mismatches), 'answer')})"]
        for number, group in enumerate(groups[:shown], 1):
            lines += group_lines(number, group, report)
        if len(groups) > shown:
            lines.append(f"  ... and {plural(len(groups) - shown, 'more group')}")
    if report.tests is not None:
        lines += [""] + [wrapped(line.strip(), "    ", line[:len(line) - len(line.lstrip())])
                         for line in describe_tests(report.tests)]
    verdict = ("every answer agrees with the reference" if report.passed
               else "some answers differ from the reference, or were not given")
    lines += ["", f"Result: {verdict}"]
    return "\n".join(lines) + "\n"


def crash_line(group: Group, report: Report) -> str:
    """'openingBid raised ValueError (solution.py, line 4, in parse) on 23 hands'."""
    return (f"{group.function} raised {group.crash.text(report.module)} on "
            f"{plural(len(group.verdicts), 'hand')}")


def group_lines(number: int, group: Group, report: Report) -> list[str]:
    """One group: its size, then its simplest example in full."""
    what = (f"raised {group.crash.text(report.module)}" if group.crash is not None
            else group.cause)
    lines = [wrapped(f"{number}. {group.function} on {plural(len(group.verdicts), 'hand')} "
                     f"{describe_rule(group.rule)}: {what}", "     ", "  ")]
    return lines + example_lines(group.example, report)


def example_lines(verdict: Verdict, report: Report) -> list[str]:
    """The example call, what was expected and what came back, and why."""
    case = report.cases[verdict.case]
    expected = case.expected[FUNCTIONS.index(verdict.function)]
    actual = verdict.answer.shown(report.module)
    lines = [f"     {verdict.function}({case.hand!r})   [{case.source}]",
             f"     expected: {shown_expected(expected)}",
             wrapped(f"actual:   {actual}" + (f"; {verdict.hint}" if verdict.hint else ""),
                     " " * 15, "     ")]
    return lines + [wrapped(reason, " " * 10, "     why: ")
                    for reason in why(verdict.function, case.hand)]


def shown_expected(value) -> str:
    """The reference's answer with its type, so that 'None' and None look different."""
    return "None" if value is None else f"{value!r} ({type(value).__name__})"


def why(function: str, hand: str) -> list[str]:
    """The reference's reasons for the right answer of *function*."""
    advice = explain(hand)
    if function == "highCardPoints":
        return [advice.facts.hcp_explanation]
    if function == "distributionPoints":
        return [advice.facts.distribution_explanation]
    return [advice.explanation, *advice.notes]
