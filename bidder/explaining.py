"""Which misreading explains a student's answers: the space of misreadings searched.

The answers are plain data (``Given``: the function asked, the hand, the exact value
given, and whether it was right), so the checker's report and a practice round are
searched alike. Each misreading of ``bidder.misreadings.distinguishable()`` is first tried
on a sample of the wrong answers; those that explain some are tried on every answer, and
ranked by the answers they leave unexplained (wrong answers they do not predict, right
answers they would have made wrong). When no single one explains every wrong answer, pairs
are tried: the best singles, each with the misreadings that explain what it leaves. The
best, when it leaves at most a few, is the fit; others that fit exactly as well are named
beside it. Where some do, further hands on which they answer differently
(``telling_apart``) may be asked of the student, and ``retold`` keeps those that predict
the most of the further answers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from . import packed
from .cards import parse_hand
from .exact import hands_apart
from .misreadings import distinguishable, parts, variant_by_id
from .variants import Variant

FUNCTIONS = ("highCardPoints", "distributionPoints", "openingBid")
FEW = 0.05  # 'all but a few': at most this share of the wrong answers left unexplained
SAMPLE = 48  # wrong answers each misreading is first tried on
TRIED = 12  # misreadings tried on every answer, the best on the sample first
PAIRED = 3  # best singles each tried with the misreadings that explain what they leave
PARTNERS = 5  # misreadings tried with each of those, the best on what it leaves first
ALTERNATIVES = 3  # misreadings that fit as well as the best, named beside it
TIED = 12  # misreadings that fit as well as the best, kept to be told apart
PER_PAIR = 2  # further hands wanted for each two tied misreadings
FURTHER = 12  # further hands asked at most
CONFIRMING = 4  # further hands asked, at most, to confirm each part of a composed reading


@dataclass(frozen=True)
class Given:
    """One answer a student gave: the function asked, the hand (packed), the exact value
    (an int, a str or None), whether it was right, and whether it was a value at all
    (False for an exception or another type: no reading predicts it)."""

    function: str
    code: int
    value: int | str | None
    right: bool
    readable: bool = True


def bids_given(pairs: Sequence[tuple[str, str | None]], right: Sequence[bool]
               ) -> tuple[Given, ...]:
    """(hand in any notation, bid given as the assignment writes it: '1C' or None) pairs
    as answers of openingBid, each marked right or not.

    :raises InvalidHandError: for a hand that cannot be read, saying what is wrong."""
    return tuple(Given("openingBid", packed.read(hand) or packed.encode_cards(
                           parse_hand(hand).cards), bid, correct)
                 for (hand, bid), correct in zip(pairs, right, strict=True))


def matches(given: Given, predicted) -> bool:
    """Whether the value given is exactly *predicted*, type and all."""
    if not given.readable:
        return False
    if predicted is None:
        return given.value is None
    return type(given.value) is type(predicted) and given.value == predicted


class Predictor:
    """The answers misreadings predict for hands, each worked out once."""

    def __init__(self):
        self.known: dict[tuple, object] = {}

    def predicted(self, variant: Variant, function: str, code: int):
        """What *variant* answers *function* for the hand *code*."""
        counting = variant.counting
        if function == "highCardPoints":
            return packed.tally(code, counting).hcp
        if function == "distributionPoints":
            return packed.tally(code, counting).distribution
        key = (variant, code)
        if key not in self.known:
            self.known[key] = variant.written(packed.decide(code, variant.rules, counting)[1])
        return self.known[key]

    def explains(self, variant: Variant, given: Given) -> bool:
        """Whether *variant* predicts the answer given."""
        return matches(given, self.predicted(variant, given.function, given.code))


@dataclass(frozen=True)
class Fit:
    """How one misreading fits every answer: the places of the answers it does not
    predict."""

    variant: Variant
    misses: tuple[int, ...]
    broken: int  # right answers the misreading would have made wrong
    wrong: int  # wrong answers in all

    @property
    def explained(self) -> int:
        """Wrong answers the misreading predicts."""
        return self.wrong - (len(self.misses) - self.broken)

    @property
    def rank(self) -> tuple[int, int]:
        """Fewer answers unexplained first, then fewer right answers broken."""
        return len(self.misses), self.broken


@dataclass(frozen=True)
class Found:
    """The misreading that explains the answers, how well, and others that fit exactly as
    well; after further hands, the misreadings they ruled out and the further answers
    that did."""

    fit: Fit
    alternatives: tuple[Variant, ...] = ()
    ruled_out: tuple[Variant, ...] = ()
    deciding: tuple[Given, ...] = ()  # further answers some ruled-out misreading misses
    fits: tuple[Fit, ...] = ()  # how each alternative fits, when known
    alike: tuple[tuple[Variant, Variant], ...] = ()  # tied ones that answer alike on every hand

    @property
    def variant(self) -> Variant:
        """The misreading found."""
        return self.fit.variant

    @property
    def tied(self) -> tuple[Variant, ...]:
        """The misreading found and those that fit as well."""
        return (self.variant,) + self.alternatives

    def explained(self, answers: Sequence[Given]) -> list[int]:
        """The places of the wrong answers it predicts."""
        missed = set(self.fit.misses)
        return [place for place, given in enumerate(answers)
                if not given.right and place not in missed]


def differing(variants: Sequence[Variant]) -> tuple[str, ...]:
    """The functions *variants* may answer differently: the bid always, the counts only
    where they count otherwise."""
    scales = {variant.counting.scale for variant in variants}
    points = {variant.counting.distribution_key for variant in variants}
    return tuple(function for function, apart in zip(
        FUNCTIONS, (len(scales) > 1, len(points) > 1, True)) if apart)


@dataclass(frozen=True)
class Apart:
    """Further hands that tell tied misreadings apart, and the pairs of them that answer
    alike on every hand (counted exactly: two words for one reading)."""

    codes: tuple[int, ...]
    alike: tuple[tuple[Variant, Variant], ...] = ()


def telling_apart(variants: Sequence[Variant], codes: Iterable[int],
                  most: int = FURTHER) -> Apart:
    """Hands on which some of *variants* answer differently: among *codes*, each kept
    while it tells apart two that fewer than PER_PAIR hands kept so far do; then, for two
    that none of *codes* tells apart, hands made to (``bidder.exact.hands_apart``), or
    the word that they bid alike on every hand. At most *most* hands, in that order."""
    predictor, kept = Predictor(), []
    apart = {(one, other): 0 for one in range(len(variants))
             for other in range(one + 1, len(variants))}
    functions = differing(variants)
    for code in codes:
        answers = [tuple(predictor.predicted(variant, function, code) for function in functions)
                   for variant in variants]
        told = [pair for pair, seen in apart.items()
                if seen < PER_PAIR and answers[pair[0]] != answers[pair[1]]]
        predictor.known.clear()
        if told:
            kept.append(code)
            for pair in told:
                apart[pair] += 1
        if len(kept) == most or all(seen >= PER_PAIR for seen in apart.values()):
            break
    made, alike = _made_apart(variants, [pair for pair, seen in apart.items() if not seen])
    return Apart(tuple((kept + made)[:most]), alike)


def _made_apart(variants: Sequence[Variant], pairs: list[tuple[int, int]]
                ) -> tuple[list[int], tuple[tuple[Variant, Variant], ...]]:
    """Hands made for each pair of *variants* that no hand dealt told apart, and the pairs
    that bid alike on every hand (of two alike, one stands for both)."""
    group = list(range(len(variants)))
    made, alike = [], []
    for one, other in pairs:
        if group[one] == group[other]:
            continue
        first, second = variants[one], variants[other]
        hands = hands_apart(first, second, PER_PAIR)
        made += [packed.encode_cards(cards) for cards in hands]
        if not hands and differing((first, second)) == FUNCTIONS[2:]:
            alike.append((first, second))
            joined = group[other]
            group = [group[one] if mark == joined else mark for mark in group]
    return made, tuple(alike)


def retold(found: Found, further: Sequence[Given], alike=(), most: int = ALTERNATIVES
           ) -> Found:
    """*found* with its tied misreadings ranked by the further answers each predicts:
    those that predict the most stay (the first of them in the search's order is the
    fit), the others are ruled out by the further answers they miss; of the pairs *alike*
    (answering alike on every hand), those kept are kept."""
    predictor = Predictor()
    missed = {variant: [given for given in further if not predictor.explains(variant, given)]
              for variant in found.tied}
    fewest = min(map(len, missed.values()))
    kept = [variant for variant in found.tied if len(missed[variant]) == fewest]
    out = tuple(variant for variant in found.tied if variant not in kept)
    deciding = [given for given in further
                if any(given in missed[variant] for variant in out)
                and given not in missed[kept[0]]]
    fits = {fit.variant: fit for fit in (found.fit,) + found.fits}
    return Found(fits[kept[0]], tuple(kept[1:most + 1]), out, tuple(deciding),
                 tuple(fits[variant] for variant in kept[1:most + 1]),
                 tuple(pair for pair in alike if set(pair) <= set(kept)))


class _Search:
    """The search through the space for one set of answers."""

    def __init__(self, answers: Sequence[Given], wrong: list[int]):
        self.answers, self.wrong = answers, wrong
        self.predictor = Predictor()
        self.space = distinguishable()
        self.place = {variant: place for place, variant in enumerate(self.space)}
        self.by_function = {function: [place for place, given in enumerate(answers)
                                       if given.function == function]
                            for function in FUNCTIONS}
        self.counted: dict[tuple, tuple[int, ...]] = {}  # misses of the counts, by counting

    def explains(self, variant: Variant, place: int) -> bool:
        """Whether *variant* predicts the answer at *place*."""
        return self.predictor.explains(variant, self.answers[place])

    def count_misses(self, variant: Variant) -> tuple[int, ...]:
        """The HCP and distribution answers *variant* does not predict: the same for every
        misreading that counts the same way."""
        counting = variant.counting
        key = (counting.distribution_key, counting.balanced_fives, counting.also_balanced,
               counting.scale)
        if key not in self.counted:
            self.counted[key] = tuple(
                place for function in FUNCTIONS[:2] for place in self.by_function[function]
                if not self.explains(variant, place))
        return self.counted[key]

    def fit(self, variant: Variant) -> Fit:
        """The misreading tried on every answer."""
        misses = self.count_misses(variant) + tuple(
            place for place in self.by_function["openingBid"]
            if not self.explains(variant, place))
        return Fit(variant, misses, sum(self.answers[place].right for place in misses),
                   len(self.wrong))

    def promising(self, wrong: list[int], variants, most: int = TRIED) -> list[Variant]:
        """Of *variants*, those that explain the most of a sample of *wrong*, best first."""
        sample = wrong[:SAMPLE]
        scored = [(sum(self.explains(variant, place) for place in sample), place, variant)
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
            missed = set(single.misses)
            left = [place for place in self.wrong if place in missed]
            pairs = [self.pair(single.variant, other) for other in self.space
                     if other is not single.variant]  # together: a part may read the other's
            found += map(self.fit, self.promising(left, pairs, PARTNERS))
        return sorted(found, key=lambda fit: fit.rank)


@dataclass(frozen=True)
class PartApart:
    """One part of a composed misreading, the reading without it, and hands on which the
    two answer differently (none when they answer alike on every hand)."""

    part: Variant
    rest: Variant
    codes: tuple[int, ...]


def parts_apart(variant: Variant, deal: Callable[[], Iterable[int]]) -> tuple[PartApart, ...]:
    """For each part of the composed *variant*: hands on which it and the reading without
    that part answer differently, among the hands *deal* gives, else made."""
    ids = parts(variant.id)
    found = []
    for place, part in enumerate(ids):
        rest = variant_by_id("+".join(ids[:place] + ids[place + 1:]))
        apart = telling_apart((variant, rest), deal(), CONFIRMING)
        found.append(PartApart(variant_by_id(part), rest, apart.codes))
    return tuple(found)


def confirms(variant: Variant, rest: Variant, further: Sequence[Given]) -> bool:
    """Whether the *further* answers bear out *variant* against *rest* (the reading
    without one of its parts): of the answers on which the two differ, at least one was
    a value, and *variant* predicts every value given (an exception predicts nothing)."""
    predictor = Predictor()
    telling = [given for given in further if given.readable
               and predictor.predicted(variant, given.function, given.code)
               != predictor.predicted(rest, given.function, given.code)]
    return bool(telling) and all(predictor.explains(variant, given) for given in telling)


def fit_of(variant: Variant, answers: Sequence[Given]) -> Fit:
    """How *variant* fits every one of *answers*."""
    wrong = [place for place, given in enumerate(answers) if not given.right]
    return _Search(answers, wrong).fit(variant)


def just_as_well(alternatives: Sequence[Variant], ids: bool = False) -> str:
    """The misreadings that fit exactly as well, in a sentence ('' when there are none),
    each led by its id when *ids*."""
    if not alternatives:
        return ""
    return "They fit just as well: " + " Or: ".join(
        (f"({other.id}) " if ids else "") + other.sentence for other in alternatives)


def explain_answers(answers: Sequence[Given], most: int = ALTERNATIVES) -> Found | None:
    """The misreading that explains the wrong answers, or None when none explains them
    all but a few (or there are none); at most *most* others that fit as well beside it."""
    wrong = [place for place, given in enumerate(answers) if not given.right]
    if not wrong:
        return None
    search = _Search(answers, wrong)
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
    alternatives = tuple(fit for fit in fits[1:] if fit.rank == best.rank)[:most]
    return Found(best, tuple(fit.variant for fit in alternatives), fits=alternatives)
