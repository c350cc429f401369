"""What a student got wrong: the misreading (or pair of them) that explains their answers.

Every variant in the catalogue, and every pair of them, predicts an answer for each hand
the check called the student's functions on. The variant whose predictions the student's
answers follow best, when it explains every wrong answer or all but a few, is the
diagnosis: one sentence an instructor can read out.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from .. import packed
from ..variants import CATALOGUE, Variant
from .report import FUNCTIONS, Answer, Case, Report, Verdict

FEW = 0.05  # 'all but a few': at most this share of the wrong answers left unexplained
PAIRED = 6  # how many of the best single variants are tried in pairs


@dataclass(frozen=True)
class Diagnosis:
    """The misreading that explains a student's answers, and how well."""

    variant: Variant
    explained: int  # wrong answers that the misreading predicts
    wrong: int  # wrong answers in all
    unexplained: int  # answers, right or wrong, that the misreading does not predict
    example: Verdict  # a wrong answer it explains, as simple a hand as there is

    @property
    def ids(self) -> tuple[str, ...]:
        """The ids of the variants behind it."""
        return tuple(self.variant.id.split("+"))

    def sentence(self, report: Report) -> str:
        """The diagnosis in plain words, with its example."""
        share = ("All" if self.explained == self.wrong
                 else f"{self.explained:,} of the")
        case = report.cases[self.example.case]
        return (f"{share} {self.wrong:,} wrong answers fit one misreading "
                f"({self.variant.id}): {self.variant.sentence} The assignment says "
                f"otherwise: {self.variant.departs}. For example "
                f"{self.example.function}({case.hand!r}) returned "
                f"{self.example.answer.shown(report.module)}.")


def predictions(variant: Variant, cases: tuple[Case, ...]) -> dict[str, tuple]:
    """What a student reading the rules as *variant* does answers for each hand."""
    rules, counting = variant.rules, variant.counting
    codes = [packed.encode(case.hand) for case in cases]
    return {
        "highCardPoints": tuple(map(packed.hcp, codes)),
        "distributionPoints": tuple(packed.tally(code, counting).distribution
                                    for code in codes),
        "openingBid": tuple(variant.written(packed.decide(code, rules, counting)[1])
                            for code in codes),
    }


def matches(answer: Answer, predicted) -> bool:
    """Whether *answer* is exactly *predicted*, type and all."""
    if predicted is None:
        return answer.kind == "none"
    kind = "int" if type(predicted) is int else "str"
    return answer.kind == kind and answer.value == predicted


def _misses(variant: Variant, report: Report) -> list[Verdict]:
    """The answers *variant* does not predict."""
    predicted = predictions(variant, report.cases)
    return [verdict for verdict in report.verdicts
            if not matches(verdict.answer, predicted[verdict.function][verdict.case])]


def diagnose(report: Report) -> Diagnosis | None:
    """The misreading that explains the student's wrong answers, or None when none
    explains them all but a few (or there are none).

    Every variant is tried; pairs only of the few that explain some wrong answers on
    their own, since a pair explains no answer that neither of its parts does.
    """
    wrong = [verdict for verdict in report.verdicts if not verdict.right]
    if not wrong:
        return None
    tried = [(variant, _misses(variant, report)) for variant in CATALOGUE]
    helpful = sorted((entry for entry in tried if len(entry[1]) < len(report.verdicts)
                      and _explains(entry[1], wrong)),
                     key=lambda entry: len(entry[1]))[:PAIRED]
    helpful.sort(key=lambda entry: CATALOGUE.index(entry[0]))  # pairs in catalogue order
    pairs = [first.and_then(second) for (first, _), (second, _) in combinations(helpful, 2)]
    tried += [(pair, _misses(pair, report)) for pair in pairs]
    variant, misses = min(tried, key=lambda entry: len(entry[1]))
    missed = set(map(id, misses))
    explained = [verdict for verdict in wrong if id(verdict) not in missed]
    if not explained or len(misses) > len(wrong) * FEW:
        return None
    example = min(explained, key=lambda verdict: (
        report.cases[verdict.case].kind != "worked", len(report.cases[verdict.case].hand),
        FUNCTIONS.index(verdict.function), verdict.case))
    return Diagnosis(variant, len(explained), len(wrong), len(misses), example)


def _explains(misses: list[Verdict], wrong: list[Verdict]) -> bool:
    """Whether some wrong answer is not among *misses*."""
    missed = set(map(id, misses))
    return any(id(verdict) not in missed for verdict in wrong)
