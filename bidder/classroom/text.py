"""The class report as text, for the terminal."""

from __future__ import annotations

from ..errors import quote
from .outcome import Outcome
from .summary import BINS, ClassReport

BAR = 30  # characters of the longest bar


def report_text(report: ClassReport) -> str:
    """Every section, in the order an instructor reads them."""
    checked = report.checked
    lines = [f"Class report: {len(report.outcomes)} students, {len(checked)} checked", "",
             "Scores:"]
    most = max(report.distribution) or 1
    for band, students in enumerate(report.distribution):
        top = 100 if band == BINS - 1 else band * BINS + BINS - 1
        lines.append(f"  {band * BINS:3}-{top:<3} {'#' * round(BAR * students / most):<{BAR}}"
                     f" {students}")
    lines += ["", "Misreadings the class holds:"]
    lines += [f"  {held.id}: {held.students} of {len(checked)} students. {held.sentence}"
              + (f" {held.others}" if held.others else "")
              + (f" Shown by {held.hand}" if held.hand else "") for held in report.held]
    lines += [] if report.held else ["  none named"]
    lines += ["", "Share fully right, by function and rule:"]
    lines += [f"  {share.right:4} of {share.of:<4} {quote(share.name, 80)}"
              for share in report.shares]
    lines += ["", "Hands to teach again:"]
    for entry in report.reteach:
        lines.append(f"  for {entry.id}:")
        lines += [f"    {hand}: " + "; ".join(f"{by} {bid}" for by, bid in bids)
                  for hand, bids in entry.hands]
    lines += [] if report.reteach else ["  no misreading is held by two students or more"]
    lines += ["", "Not checkable:"]
    lines += [f"  {quote(outcome.student, 60)}: {outcome.problem}"
              for outcome in report.not_checkable] or ["  none"]
    lines += ["", "Stuck (nothing right on the worked examples):",
              "  " + (", ".join(quote(outcome.student, 60) for outcome in report.stuck)
                      or "none")]
    if report.tests is not None:
        lines += ["", f"The class's own tests ({report.tests.students} students):"]
        lines += [f"  {one}: caught by {count}" for one, count in report.tests.caught]
        if report.tests.never:
            lines.append("  caught by nobody's tests: " + ", ".join(report.tests.never))
    if report.similar:
        lines += ["", "Similar wrong answers, to look at (a signal, not a verdict):"]
        lines += [f"  {quote(pair.first, 60)} and {quote(pair.second, 60)}: {pair.shared} "
                  f"wrong bids nobody else gave, e.g. " + "; ".join(
                      f"{answer} on {hand}" for hand, answer in pair.evidence)
                  for pair in report.similar]
    lines += ["", "Students:"]
    for outcome in report.outcomes:
        lines.append(f"  {quote(outcome.student, 60)}: "
                     + ("not checked" if not outcome.checked else f"{outcome.score:g}")
                     + (f" ({misreadings_text(outcome)})" if outcome.misreadings else ""))
        lines += [f"    {raised.text}" for raised in outcome.raised]
    return "\n".join(lines) + "\n"


def misreadings_text(outcome: Outcome) -> str:
    """'R3.points=15-21, or just as well hcp.J=0': the misreadings named, then those that
    fit exactly as well."""
    text = ", ".join(outcome.misreadings)
    return text + (f", or just as well {' or '.join(outcome.alternatives)}"
                   if outcome.alternatives else "")
