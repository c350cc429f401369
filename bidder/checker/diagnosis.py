"""What a student got wrong: the misreading (or pair of them) that explains their answers.

The search is the core's (``bidder.explaining``, which practice uses too): each verdict of
the report is handed to it as plain data, and what it finds is told in a sentence with an
example from the report ("either ... or ..." when others fit exactly as well).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import explaining, packed
from ..explaining import ALTERNATIVES, Given
from ..misreadings import parts
from ..variants import Variant
from .report import FUNCTIONS, Answer, Case, Report, Verdict

__all__ = ["ALTERNATIVES", "Diagnosis", "Predictor", "diagnose", "matches", "predictions"]


@dataclass(frozen=True)
class Diagnosis:
    """The misreading that explains a student's answers, how well, and any others that fit
    exactly as well."""

    variant: Variant
    explained: int  # wrong answers that the misreading predicts
    wrong: int  # wrong answers in all
    unexplained: int  # answers, right or wrong, that the misreading does not predict
    example: Verdict  # a wrong answer it explains, as simple a hand as there is
    alternatives: tuple[Variant, ...] = ()  # misreadings that fit exactly as well

    @property
    def ids(self) -> tuple[str, ...]:
        """The ids of the variants behind it."""
        return tuple(parts(self.variant.id))

    def sentence(self, report: Report) -> str:
        """The diagnosis in plain words, with its example, and what fits as well."""
        share = ("All" if self.explained == self.wrong
                 else f"{self.explained:,} of the")
        case = report.cases[self.example.case]
        text = (f"{share} {self.wrong:,} wrong answers fit one misreading "
                f"({self.variant.id}): {self.variant.sentence} The assignment says "
                f"otherwise: {self.variant.departs}. For example "
                f"{self.example.function}({case.hand!r}) returned "
                f"{self.example.answer.shown(report.module)}.")
        if self.alternatives:
            text += (" Just as well, the answers fit either this or " + " or ".join(
                f"({other.id}): {other.sentence}" for other in self.alternatives))
        return text


def given_of(verdict: Verdict, code: int) -> Given:
    """The verdict's answer as plain data the search reads."""
    answer = verdict.answer
    return Given(verdict.function, code,
                 answer.value if answer.kind in ("int", "str") else None, verdict.right,
                 answer.kind in ("int", "str", "none"))


def matches(answer: Answer, predicted) -> bool:
    """Whether *answer* is exactly *predicted*, type and all."""
    return explaining.matches(given_of(Verdict("", 0, answer, ""), 0), predicted)


class Predictor:
    """The answers misreadings predict for the checked hands: the core's, by case."""

    def __init__(self, cases: tuple[Case, ...]):
        self.codes = [packed.encode(case.hand) for case in cases]
        self.core = explaining.Predictor()

    def predicted(self, variant: Variant, function: str, number: int):
        """What *variant* answers *function* for hand *number*."""
        return self.core.predicted(variant, function, self.codes[number])

    def explains(self, variant: Variant, verdict: Verdict) -> bool:
        """Whether *variant* predicts the answer given."""
        return self.core.explains(variant, given_of(verdict, self.codes[verdict.case]))


def predictions(variant: Variant, cases: tuple[Case, ...]) -> dict[str, tuple]:
    """What a student reading the rules as *variant* does answers for each hand."""
    predictor = Predictor(cases)
    return {function: tuple(predictor.predicted(variant, function, number)
                            for number in range(len(cases)))
            for function in FUNCTIONS}


def diagnose(report: Report) -> Diagnosis | None:
    """The misreading that explains the student's wrong answers, or None when none
    explains them all but a few (or there are none)."""
    codes = Predictor(report.cases).codes
    answers = [given_of(verdict, codes[verdict.case]) for verdict in report.verdicts]
    found = explaining.explain_answers(answers)
    if found is None:
        return None
    fit = found.fit
    explained = [report.verdicts[place] for place in found.explained(answers)]
    example = min(explained, key=lambda verdict: (
        report.cases[verdict.case].kind != "worked", len(report.cases[verdict.case].hand),
        FUNCTIONS.index(verdict.function), verdict.case))
    return Diagnosis(fit.variant, fit.explained, fit.wrong, len(fit.misses), example,
                     found.alternatives)
