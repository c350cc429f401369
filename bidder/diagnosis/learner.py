"""The learner model: a posterior over the classes of readings, a "none of these", and pairs
of misreadings, from answers that may slip; the slip rate is learnt from the answers (a
small grid of rates, each weighed by how well it explains them). "None of these" holds the
readers near a likely misreading but outside the space: they answer as it does except on
its probes (bidder.diagnosis.probes), where they may answer anything a reading gives."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import exp, log

from .. import packed
from ..misreadings import variant_by_id
from .answers import Answer
from .bank import FIELDS, Bank, Row, row
from .hypotheses import answers as reading_answers
from .outcome import NONE
from .probes import given_bids, probe_codes
from .slips import SLIP_RATES, log_likelihoods, none_log_likelihoods

NONE_PRIOR = 0.04  # a student reading the rules some way outside the space, before answers
PAIR_SHARE = 1 / 32  # a pair's prior, as a share of one class's
PAIR_FIRSTS = 3  # the most likely misreadings each tried with a second one (and the second
# explaining most of each one's misses, with its own seconds)
PAIR_SECONDS = 3  # the second parts tried with each: those explaining most of its misses
NEAR_SHARE = 0.2  # of a likely misreading's prior, readers near it outside the space
NEAR_CLASSES = 3  # the likeliest misreadings weighed against the readers near them
NEAR_LEAST = 0.01  # ... when at least this likely
RATE_PRIOR = log(1 / len(SLIP_RATES))
LogLikes = tuple[float, ...]  # one log likelihood at each slip rate


@dataclass(frozen=True)
class Hypothesis:
    """One thing the answers may come from: a class of readings answering alike (its
    first one names it), a pair of misreadings, or none of these; and its posterior."""

    id: str
    members: tuple[str, ...]
    probability: float


@dataclass(frozen=True)
class Belief:
    """The posterior after some answers: each class's probability (in the bank's class
    order), none's (with the readers near each class, *near*, in class order), the
    pairs', and the slip rate the answers suggest."""

    classes: tuple[tuple[int, ...], ...]
    weights: tuple[float, ...]
    none: float
    pairs: tuple[tuple[tuple[str, str], float], ...]
    slip: float
    near: tuple[float, ...] = ()

    def mass(self, place: int) -> float:
        """The class's probability with the readers near it."""
        return self.weights[place] + (self.near[place] if self.near else 0.0)

    def ranked(self, ids: Sequence[str]) -> tuple[Hypothesis, ...]:
        """Every hypothesis, most likely first (ties in the space's order)."""
        found = [Hypothesis(ids[members[0]], tuple(ids[place] for place in members), weight)
                 for members, weight in zip(self.classes, self.weights)]
        found.append(Hypothesis(NONE, (), self.none))
        found += [Hypothesis(pair_id(pair), pair, weight) for pair, weight in self.pairs]
        order = {hypothesis.id: place for place, hypothesis in enumerate(found)}
        return tuple(sorted(found, key=lambda hypothesis: (-hypothesis.probability,
                                                           order[hypothesis.id])))


def pair_id(pair: tuple[str, str]) -> str:
    """The id of both misreadings at once, as bidder.misreadings composes it."""
    return _pair_variant(pair).id


def fields_of(answer: Answer, counting: bool) -> tuple[str, ...]:
    """The parts of an answer the model reads: the bid, and the counts when given and
    counting is on."""
    return ("bid",) + tuple(field for field in FIELDS[1:] if counting and getattr(
        answer, field) is not None)


def given_value(answer: Answer, field: str):
    """What the answer says for *field*."""
    return answer.call if field == "bid" else getattr(answer, field)


@lru_cache(maxsize=1 << 14)
def _field_log_likes(given, predicted, neighbours: frozenset, field: str) -> LogLikes:
    return log_likelihoods(given, predicted, neighbours, field)


@lru_cache(maxsize=1 << 12)
def _none_log_likes(given, neighbours: frozenset, field: str) -> LogLikes:
    return none_log_likelihoods(given, neighbours, field)


@lru_cache(maxsize=1 << 12)
def neighbours(found: Row, field: str) -> frozenset:
    """The values the readings give for *field* on the row's hand."""
    place = FIELDS.index(field)
    return frozenset(value[place] for value in found.values)


def answer_log_likes(answer: Answer, found: Row, predicted: tuple, counting: bool) -> LogLikes:
    """log P(answer | a reading predicting *predicted*, (bid, HCP, distribution)), by rate."""
    total = [0.0] * len(SLIP_RATES)
    for field in fields_of(answer, counting):
        place = FIELDS.index(field)
        for rate, value in enumerate(_field_log_likes(given_value(answer, field),
                                                      predicted[place],
                                                      neighbours(found, field), field)):
            total[rate] += value
    return tuple(total)


def none_log_likes(answer: Answer, found: Row, counting: bool) -> LogLikes:
    """log P(answer | none of these), by rate."""
    total = [0.0] * len(SLIP_RATES)
    for field in fields_of(answer, counting):
        for rate, value in enumerate(_none_log_likes(given_value(answer, field),
                                                     neighbours(found, field), field)):
            total[rate] += value
    return tuple(total)


def plus(left: LogLikes, right: LogLikes) -> LogLikes:
    """Two evidences summed, rate by rate."""
    return tuple(a + b for a, b in zip(left, right))


def marginal(log_likes: LogLikes) -> float:
    """log of the likelihood averaged over the slip rates."""
    top = max(log_likes)
    return top + log(sum(exp(value - top) for value in log_likes)) + RATE_PRIOR


@dataclass(frozen=True)
class Evidence:
    """The answers' log likelihoods summed: for each class, for none, by slip rate; and the
    rows of the hands answered."""

    classes: tuple[LogLikes, ...]
    none: LogLikes
    rows: tuple[Row, ...]


def evidence(answers: Sequence[Answer], classes: tuple[tuple[int, ...], ...],
             counting: bool) -> Evidence:
    """The evidence of *answers* for each class of readings (read by its first reading)."""
    return _evidence(tuple(answers), classes, counting)


@lru_cache(maxsize=256)
def _evidence(answers: tuple[Answer, ...], classes: tuple[tuple[int, ...], ...],
              counting: bool) -> Evidence:
    """evidence(), from that of all answers but the last (kept: a round asks again with
    one item more)."""
    if not answers:
        zero = (0.0,) * len(SLIP_RATES)
        return Evidence((zero,) * len(classes), zero, ())
    before = _evidence(answers[:-1], classes, counting)
    answer = answers[-1]
    found = row(packed.encode_cards(answer.hand.cards))
    by_value = [answer_log_likes(answer, found, value, counting) for value in found.values]
    sums = tuple(plus(sums, by_value[found.of[members[0]]])
                 for sums, members in zip(before.classes, classes))
    return Evidence(sums, plus(before.none, none_log_likes(answer, found, counting)),
                    before.rows + (found,))


def pair_log_likes(pair: tuple[str, str], answers: Sequence[Answer], counting: bool,
                   rows: Sequence[Row]) -> LogLikes:
    """The evidence of *answers* for a pair of misreadings, answered by the engine."""
    total = (0.0,) * len(SLIP_RATES)
    for answer, found in zip(answers, rows):
        total = plus(total, answer_log_likes(answer, found, _pair_answers(pair, found.code),
                                              counting))
    return total


def pair_bid(pair: tuple[str, str], code: int) -> str | None:
    """The bid a student holding both misreadings of *pair* makes on the hand *code*."""
    return _pair_answers(pair, code)[0]


@lru_cache(maxsize=1 << 14)
def _pair_answers(pair: tuple[str, str], code: int):
    """What a student holding both misreadings of *pair* answers for the hand *code*."""
    return reading_answers(_pair_variant(pair), code)


@lru_cache(maxsize=256)
def _pair_variant(pair: tuple[str, str]):
    first, second = pair
    return variant_by_id(first).and_then(variant_by_id(second))


def near_log_likes(bank: Bank, reader: int, answers: Sequence[Answer], rows: Sequence[Row],
                   sums: LogLikes, counting: bool) -> LogLikes:
    """The evidence for readers near the reading at place *reader* (whose own is *sums*):
    on its probes, as none of these; elsewhere, as the reading."""
    codes = probe_codes(bank, reader, given_bids(answers))
    for answer, found in zip(answers, rows):
        if found.code in codes:
            own = answer_log_likes(answer, found, found.answer(reader), counting)
            sums = plus(sums, tuple(none - mine for none, mine in zip(
                none_log_likes(answer, found, counting), own)))
    return sums


def pairs_to_try(weights: Sequence[float], classes: tuple[tuple[int, ...], ...],
                 answers: Sequence[Answer], rows: Sequence[Row], ids: Sequence[str]
                 ) -> tuple[tuple[str, str], ...]:
    """The pairs worth weighing: each of the likeliest misreadings with the misreadings
    that predict most of the bids it misses (and the rules do not); and the second that
    predicts most of each one's misses, with those of its own (a pair's parts may each
    answer worse alone than a third misreading does)."""
    firsts = [place for place in sorted(range(len(classes)), key=lambda k: -weights[k])
              if classes[place][0] != 0][:PAIR_FIRSTS]
    found = []
    for first in firsts:
        seconds = _seconds(first, classes, answers, rows)
        found += [_pair(ids, classes, first, second) for second in seconds]
        if seconds and seconds[0] not in firsts:
            found += [_pair(ids, classes, seconds[0], other)
                      for other in _seconds(seconds[0], classes, answers, rows)]
    return tuple(dict.fromkeys(found))


def _pair(ids: Sequence[str], classes: tuple[tuple[int, ...], ...], first: int,
          second: int) -> tuple[str, str]:
    """The pair of the classes at places *first* and *second*, in the space's order."""
    return tuple(sorted((ids[classes[first][0]], ids[classes[second][0]]), key=ids.index))


def _seconds(first: int, classes: tuple[tuple[int, ...], ...], answers: Sequence[Answer],
             rows: Sequence[Row]) -> list[int]:
    """The classes (by place) that predict most of the bids the class at *first* misses
    where the rules miss them too, PAIR_SECONDS at most."""
    reader = classes[first][0]
    explains: dict[int, int] = {}
    for answer, hand_row in zip(answers, rows):
        given = answer.call
        if hand_row.answer(reader)[0] == given or hand_row.answer(0)[0] == given:
            continue
        for place, members in enumerate(classes):
            if place != first and hand_row.answer(members[0])[0] == given:
                explains[place] = explains.get(place, 0) + 1
    return sorted(explains, key=lambda k: (-explains[k], k))[:PAIR_SECONDS]


def belief(bank: Bank, answers: Sequence[Answer], counting: bool,
           pairs: bool = True) -> Belief:
    """The posterior after *answers* (in order) over the bank's classes (by bids, or by
    every count too when *counting*), none of these and, with *pairs*, the pairs that
    fit best."""
    classes = bank.classes(FIELDS if counting else ("bid",))
    found = evidence(answers, classes, counting)
    class_prior = log((1 - NONE_PRIOR) / len(classes))
    logs = [class_prior + marginal(sums) for sums in found.classes]
    none_log = log(NONE_PRIOR) + marginal(found.none)
    near = _near_logs(bank, classes, logs, none_log, answers, found, counting)
    tried: tuple[tuple[str, str], ...] = ()
    pair_logs: list[float] = []
    if pairs and answers:
        weights = _normalised(logs + [none_log])
        place_of = {bank.ids[members[0]]: place for place, members in enumerate(classes)}
        scored = []
        for pair in pairs_to_try(weights, classes, answers, found.rows, bank.ids):
            fit = marginal(pair_log_likes(pair, answers, counting, found.rows))
            if all(fit > logs[place_of[part]] - class_prior for part in pair):
                scored.append((pair, class_prior + log(PAIR_SHARE) + fit))
        tried = tuple(pair for pair, _ in scored)
        pair_logs = [value for _, value in scored]
    for place in near:
        logs[place] += log(1 - NEAR_SHARE)
    weights = _normalised(logs + [none_log] + pair_logs + list(near.values()))
    all_sums = found.classes + (found.none,)
    slip = _slip(all_sums, weights[:len(all_sums)])
    nears = dict(zip(near, weights[len(weights) - len(near):]))
    return Belief(classes, tuple(weights[:len(classes)]),
                  weights[len(classes)] + sum(nears.values()),
                  tuple(zip(tried, weights[len(classes) + 1:len(weights) - len(near)])), slip,
                  tuple(nears.get(place, 0.0) for place in range(len(classes))))


def _near_logs(bank: Bank, classes: tuple[tuple[int, ...], ...], logs: list[float],
               none_log: float, answers: Sequence[Answer], found: Evidence,
               counting: bool) -> dict[int, float]:
    """The log posterior (unnormalised) of the readers near each of the likeliest
    misreadings, by class place."""
    weights = _normalised(logs + [none_log])
    likeliest = sorted(range(len(classes)), key=lambda place: -weights[place])
    near = {}
    for place in likeliest[:NEAR_CLASSES]:
        reader = classes[place][0]
        if reader and weights[place] >= NEAR_LEAST:
            sums = near_log_likes(bank, reader, answers, found.rows, found.classes[place],
                                  counting)
            near[place] = logs[place] + log(NEAR_SHARE) + marginal(sums) - marginal(
                found.classes[place])
    return near


def _normalised(logs: Sequence[float]) -> list[float]:
    top = max(logs)
    raw = [exp(value - top) for value in logs]
    total = sum(raw)
    return [value / total for value in raw]


def _slip(sums: Sequence[LogLikes], weights: Sequence[float]) -> float:
    """The slip rate the answers suggest: each hypothesis's posterior mean rate, weighed."""
    mean = 0.0
    for log_likes, weight in zip(sums, weights):
        rates = _normalised(log_likes)
        mean += weight * sum(rate * share for rate, share in zip(SLIP_RATES, rates))
    return mean / sum(weights)

