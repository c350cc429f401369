"""What a student got wrong: the misreading (or pair of them) that explains their answers.

The search is the core's (``bidder.explaining``, which practice uses too): each verdict of
the report is handed to it as plain data, and what it finds is told in a sentence with an
example from the report ("either ... or ..." when others fit exactly as well). Where others
fit exactly as well, and the check can ask the student's module again (*ask*), further
hands on which the tied misreadings answer differently are dealt and asked (the module
sees hands only, never an answer), and the misreadings that predict the most of those
answers are kept; the report names the further answers that decided.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import islice

from .. import explaining, packed
from ..dealing import hand_stream
from ..diagnosis import teaching_hands
from ..diagnosis.teaching import MOST_HANDS
from ..explaining import ALTERNATIVES, TIED, Given
from ..misreadings import parts, variant_by_id
from ..variants import Variant
from .report import FUNCTIONS, Answer, Case, Report, Verdict

__all__ = ["ALTERNATIVES", "Diagnosis", "Predictor", "diagnose", "matches", "predictions"]

FURTHER_SEED = 2025  # the further hands are picked for this seed, the same for every check
CONFIRMING_SEARCH = 1_000  # hands dealt first to confirm a pair's parts (then hands are made)
Ask = Callable[[tuple[str, ...]], Report]  # the student's module on further hands, judged


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
    ruled_out: tuple[Variant, ...] = ()  # tied on the check's hands, not on further ones
    asked: int = 0  # further hands asked of the module to tell tied misreadings apart
    deciding: tuple[tuple[str, Verdict], ...] = ()  # (hand, answer) that ruled some out
    alike: tuple[tuple[Variant, Variant], ...] = ()  # named ones that answer alike everywhere
    unconfirmed: tuple[Variant, ...] = ()  # parts of a composed fit the module did not bear out
    confirming: int = 0  # further hands asked to confirm each part of a composed fit

    @property
    def ids(self) -> tuple[str, ...]:
        """The ids of the variants behind it."""
        return tuple(parts(self.variant.id))

    def sentence(self, report: Report) -> str:
        """The diagnosis in plain words, with its example, and what fits as well."""
        case = report.cases[self.example.case]
        text = (f"{self.share()} one misreading "
                f"({self.variant.id}): {self.variant.sentence} The assignment says "
                f"otherwise: {self.variant.departs}. For example "
                f"{self.example.function}({case.hand!r}) returned "
                f"{self.example.answer.shown(report.module)}.")
        if self.unconfirmed:
            named = " and ".join(f"({part.id})" for part in self.unconfirmed)
            text += (f" With {named} it fit the checked hands better, but on the "
                     f"{self.confirming} further hands asked to confirm each part the "
                     f"module does not answer as {named} does: only the part that fits is "
                     f"named.")
        if self.unexplained:
            text += f" {self.left_sentence()}"
        if self.ruled_out:
            text += " " + self.further_sentence(report.module)
        if self.alternatives:
            text += (" Just as well, the answers fit either this or " + " or ".join(
                f"({other.id}): {other.sentence}" for other in self.alternatives))
        if self.alike:
            text += " " + " ".join(f"({one.id}) and ({other.id}) answer alike on every hand "
                                   f"(counted exactly): they are one reading in two words."
                                   for one, other in self.alike)
        return text

    def share(self) -> str:
        """Which of the wrong answers fit, with the verb: "All 12 wrong answers fit",
        "The one wrong answer fits", "1 of the 2 wrong answers fits"."""
        if self.explained == self.wrong and not self.unexplained:
            return {1: "The one wrong answer fits", 2: "Both wrong answers fit"}.get(
                self.wrong, f"All {self.wrong:,} wrong answers fit")
        verb = "fits" if self.explained == 1 else "fit"
        return f"{self.explained:,} of the {self.wrong:,} wrong answers {verb}"

    def left_sentence(self) -> str:
        """What the misreading leaves unexplained, in words."""
        missed = self.wrong - self.explained
        broken = self.unexplained - missed
        said = [f"{missed:,} wrong answer{'s' if missed != 1 else ''} it does not predict"
                ] if missed else []
        said += [f"{broken:,} right answer{'s' if broken != 1 else ''} it would have made "
                 f"wrong"] if broken else []
        return f"Left unexplained: {' and '.join(said)}."

    def further_sentence(self, module: str) -> str:
        """Which further hands told the tied misreadings apart, with one of them."""
        hand, verdict = self.deciding[0]
        code = packed.encode(hand)
        predictor = explaining.Predictor()
        other = next(variant for variant in self.ruled_out if not predictor.explains(
            variant, given_of(verdict, code)))
        instead = predictor.predicted(other, verdict.function, code)
        return (f"It fit as well as {' and '.join(f'({out.id})' for out in self.ruled_out)}"
                f" on the checked hands; {self.asked} further hands were asked to tell them "
                f"apart, and {len(self.deciding)} answers decided, for example "
                f"{verdict.function}({hand!r}) returned {verdict.answer.shown(module)}, "
                f"where ({other.id}) answers {instead!r}.")


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


def diagnose(report: Report, ask: Ask | None = None) -> Diagnosis | None:
    """The misreading that explains the student's wrong answers, or None when none
    explains them all but a few (or there are none); with *ask*, misreadings that fit
    exactly as well are told apart on further hands."""
    codes = Predictor(report.cases).codes
    answers = [given_of(verdict, codes[verdict.case]) for verdict in report.verdicts]
    found = explaining.explain_answers(answers, ALTERNATIVES if ask is None else TIED)
    if found is None:
        return None
    asked, deciding, unconfirmed, confirming = 0, (), (), 0
    if ask is not None and found.alternatives:
        found, asked, deciding = told_apart(found, ask)
    if ask is not None and len(parts(found.variant.id)) > 1:
        confirmed, unconfirmed, confirming = confirmed_parts(found.variant, ask)
        if confirmed is None:
            return None
        if unconfirmed:
            found, asked, deciding = explaining.Found(explaining.fit_of(confirmed, answers)), 0, ()
    shown = set(found.tied[:ALTERNATIVES + 1])
    fit = found.fit
    explained = [report.verdicts[place] for place in found.explained(answers)]
    example = min(explained, key=lambda verdict: (
        report.cases[verdict.case].kind != "worked", len(report.cases[verdict.case].hand),
        FUNCTIONS.index(verdict.function), verdict.case))
    return Diagnosis(fit.variant, fit.explained, fit.wrong, len(fit.misses), example,
                     found.alternatives[:ALTERNATIVES], found.ruled_out, asked, deciding,
                     tuple(pair for pair in found.alike if set(pair) <= shown),
                     unconfirmed, confirming)


def confirmed_parts(variant: Variant, ask: Ask
                    ) -> tuple[Variant | None, tuple[Variant, ...], int]:
    """The parts of the composed *variant* that the module bears out on further hands
    telling each part apart from the reading without it (asked of the module), composed
    again (None when none is); the parts it does not; and how many hands were asked."""
    checks = explaining.parts_apart(variant, lambda: (
        packed.encode_deal(indexes)
        for indexes in islice(hand_stream(FURTHER_SEED), CONFIRMING_SEARCH)))
    codes = tuple(dict.fromkeys(code for check in checks for code in check.codes))
    further = []
    if codes:
        verdicts = ask(tuple(map(packed.text, codes))).verdicts
        further = [given_of(verdict, codes[verdict.case]) for verdict in verdicts]
    kept, dropped = [], []
    for check in checks:
        mine = [given for given in further if given.code in check.codes]
        (kept if explaining.confirms(variant, check.rest, mine) else dropped).append(
            check.part)
    if not dropped:
        return variant, (), len(codes)
    joined = "+".join(part.id for part in kept)
    return (variant_by_id(joined) if kept else None), tuple(dropped), len(codes)


def further_codes(ids: Iterable[str]) -> Iterator[int]:
    """The hands further asked from, as codes: for each misreading of *ids*, the hands
    it answers otherwise than the rules from the diagnosis's bank (its teaching hands,
    picked for FURTHER_SEED), the same for every check."""
    for name in ids:
        for hand in teaching_hands(name, MOST_HANDS, FURTHER_SEED):
            yield packed.encode_cards(hand.cards)


def told_apart(found: explaining.Found, ask: Ask
               ) -> tuple[explaining.Found, int, tuple[tuple[str, Verdict], ...]]:
    """*found* re-ranked on further hands that tell its tied misreadings apart, asked of
    the module: the misreadings kept, how many hands were asked, and the (hand, answer)
    that ruled the others out."""
    apart = explaining.telling_apart(found.tied, further_codes(
        variant.id for variant in found.tied))
    if not apart.codes:
        return replace(found, alike=apart.alike), 0, ()
    codes = apart.codes
    hands = tuple(map(packed.text, codes))
    verdicts = ask(hands).verdicts
    further = [given_of(verdict, codes[verdict.case]) for verdict in verdicts]
    told = explaining.retold(found, further, apart.alike, TIED)
    return told, len(hands), tuple((hands[verdict.case], verdict)
                                   for verdict, given in zip(verdicts, further)
                                   if given in told.deciding)
