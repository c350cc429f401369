"""What a student got wrong: the misreading (or pair of them) that explains their answers.

The space of misreadings (``bidder.misreadings``: the catalogue and every single edit of
the rule table and the counting that changes some hand) is searched. Each misreading is
first tried on a sample of the wrong answers; those that explain some are tried on every
answer, and ranked by the wrong answers they leave unexplained and the right answers they
would have made wrong. When no single one explains every wrong answer, pairs are tried: the
best singles, each with the misreadings that explain the wrong answers it leaves. The best,
when it explains all but a few, is the diagnosis; others that fit exactly as well are
named beside it ("either ... or ...").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .. import packed
from ..misreadings import distinguishable, parts
from ..variants import Variant
from .report import FUNCTIONS, Answer, Case, Report, Verdict

FEW = 0.05  # 'all but a few': at most this share of the wrong answers left unexplained
SAMPLE = 48  # wrong answers each misreading is first tried on
TRIED = 12  # misreadings tried on every answer, the best on the sample first
PAIRED = 3  # best singles each tried with the misreadings that explain what they leave
PARTNERS = 5  # misreadings tried with each of those, the best on what it leaves first
ALTERNATIVES = 3  # misreadings that fit as well as the best, named beside it


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


def predictions(variant: Variant, cases: tuple[Case, ...]) -> dict[str, tuple]:
    """What a student reading the rules as *variant* does answers for each hand."""
    predictor = Predictor(cases)
    return {function: tuple(predictor.predicted(variant, function, number)
                            for number in range(len(cases)))
            for function in FUNCTIONS}


class Predictor:
    """The answers misreadings predict for the checked hands, each worked out once."""

    def __init__(self, cases: tuple[Case, ...]):
        self.codes = [packed.encode(case.hand) for case in cases]
        self.known: dict[tuple, object] = {}

    def predicted(self, variant: Variant, function: str, number: int):
        """What *variant* answers *function* for hand *number*."""
        code = self.codes[number]
        if function == "highCardPoints":
            return packed.hcp(code)
        counting = variant.counting
        if function == "distributionPoints":
            return packed.tally(code, counting).distribution
        key = (variant, number)
        if key not in self.known:
            self.known[key] = variant.written(packed.decide(code, variant.rules, counting)[1])
        return self.known[key]

    def explains(self, variant: Variant, verdict: Verdict) -> bool:
        """Whether *variant* predicts the answer given."""
        return matches(verdict.answer, self.predicted(variant, verdict.function, verdict.case))


def matches(answer: Answer, predicted) -> bool:
    """Whether *answer* is exactly *predicted*, type and all."""
    if predicted is None:
        return answer.kind == "none"
    kind = "int" if type(predicted) is int else "str"
    return answer.kind == kind and answer.value == predicted


@dataclass(frozen=True)
class Fit:
    """How one misreading fits every answer: the answers it does not predict."""

    variant: Variant
    misses: tuple[Verdict, ...]
    wrong: int  # wrong answers in all

    @cached_property
    def broken(self) -> int:
        """Right answers the misreading would have made wrong."""
        return sum(verdict.right for verdict in self.misses)

    @property
    def explained(self) -> int:
        """Wrong answers the misreading predicts."""
        return self.wrong - (len(self.misses) - self.broken)

    @property
    def rank(self) -> tuple[int, int]:
        """Fewer answers unexplained first, then fewer right answers broken."""
        return len(self.misses), self.broken


class _Search:
    """The search through the space for one report."""

    def __init__(self, report: Report, wrong: list[Verdict]):
        self.report, self.wrong = report, wrong
        self.predictor = Predictor(report.cases)
        self.space = distinguishable()
        self.place = {variant: place for place, variant in enumerate(self.space)}
        self.by_function = {function: [verdict for verdict in report.verdicts
                                       if verdict.function == function]
                            for function in FUNCTIONS}
        self.counted: dict[tuple, tuple[Verdict, ...]] = {}  # misses of the counts, by counting

    def count_misses(self, variant: Variant) -> tuple[Verdict, ...]:
        """The HCP and distribution answers *variant* does not predict: the same for every
        misreading that counts the same way."""
        counting = variant.counting
        key = (counting.beyond, counting.short, counting.balanced_fives, counting.also_balanced)
        if key not in self.counted:
            explains = self.predictor.explains
            self.counted[key] = tuple(
                verdict for function in FUNCTIONS[:2] for verdict in self.by_function[function]
                if not explains(variant, verdict))
        return self.counted[key]

    def fit(self, variant: Variant) -> Fit:
        """The misreading tried on every answer."""
        explains = self.predictor.explains
        return Fit(variant, self.count_misses(variant) + tuple(
            verdict for verdict in self.by_function["openingBid"]
            if not explains(variant, verdict)), len(self.wrong))

    def promising(self, wrong: list[Verdict], variants, most: int = TRIED) -> list[Variant]:
        """Of *variants*, those that explain the most of a sample of *wrong*, best first."""
        sample = wrong[:SAMPLE]
        explains = self.predictor.explains
        scored = [(sum(explains(variant, verdict) for verdict in sample), place, variant)
                  for place, variant in enumerate(variants)]
        return [variant for score, _, variant in sorted(
            scored, key=lambda entry: (-entry[0], entry[1])) if score][:most]

    def singles(self) -> list[Fit]:
        """The promising single misreadings, best first."""
        return sorted(map(self.fit, self.promising(self.wrong, self.space)),
                      key=lambda fit: fit.rank)

    def pair(self, one: Variant, other: Variant) -> Variant:
        """Both misreadings, in the space's order."""
        first, second = sorted((one, other), key=self.place.__getitem__)
        return first.and_then(second)

    def pairs(self, singles: list[Fit]) -> list[Fit]:
        """Each of the best singles with the misreadings that explain what it leaves."""
        found = []
        for single in singles[:PAIRED]:
            missed = set(map(id, single.misses))
            left = [verdict for verdict in self.wrong if id(verdict) in missed]
            pairs = [self.pair(single.variant, other) for other in self.space
                     if other is not single.variant]  # together: a part may read the other's
            found += map(self.fit, self.promising(left, pairs, PARTNERS))
        return sorted(found, key=lambda fit: fit.rank)


def diagnose(report: Report) -> Diagnosis | None:
    """The misreading that explains the student's wrong answers, or None when none
    explains them all but a few (or there are none)."""
    wrong = [verdict for verdict in report.verdicts if not verdict.right]
    if not wrong:
        return None
    search = _Search(report, wrong)
    fits = search.singles()
    if not fits:
        return None
    if fits[0].misses:
        pairs = search.pairs(fits)
        if pairs and pairs[0].rank < fits[0].rank:
            fits = pairs
    best = fits[0]
    if len(best.misses) > len(wrong) * FEW:
        return None
    missed = set(map(id, best.misses))
    explained = [verdict for verdict in wrong if id(verdict) not in missed]
    example = min(explained, key=lambda verdict: (
        report.cases[verdict.case].kind != "worked", len(report.cases[verdict.case].hand),
        FUNCTIONS.index(verdict.function), verdict.case))
    alternatives = tuple(fit.variant for fit in fits[1:] if fit.rank == best.rank)
    return Diagnosis(best.variant, best.explained, len(wrong), len(best.misses), example,
                     alternatives[:ALTERNATIVES])
