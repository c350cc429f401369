"""How sure the diagnostic round is, in the teacher's words: "almost certainly", "probably",
"not told apart yet: X or Y", or "none of the readings we know"; and, beside a misreading
named, that a second one is not ruled out yet."""

from __future__ import annotations

from collections.abc import Sequence

from ...diagnosis import Candidate
from ...diagnosis.outcome import NONE, RULES, second_left
from ...diagnosis.rounds import CONFIDENT as ALMOST_CERTAINLY  # the round names at this
from ...misreadings import variant_by_id

PROBABLY = 0.6  # below this the two most likely readings are not told apart yet


def reading_words(candidate: Candidate) -> str:
    """The reading a candidate stands for, short: the misreading's sentence, the rules as
    written, or none of the readings we know."""
    if candidate.misreading == RULES:
        return "you read the rules as the assignment writes them."
    if candidate.misreading == NONE:
        return "none of the readings we know."
    return variant_by_id(candidate.misreading).sentence


def in_words(candidates: Sequence[Candidate], second: float | None = None,
             unnamed: bool = False) -> str:
    """How sure the round is of the most likely reading, in the teacher's words; with
    *second*, the chance a second misreading is held beside the one named. A round over
    (*unnamed*) without naming its likeliest reading says it is probable only, and why."""
    top = candidates[0]
    if top.misreading == NONE and top.probability >= PROBABLY:
        return "None of the readings we know fits your answers: you may read the rules " \
               "some other way, or have slipped often."
    if top.probability >= ALMOST_CERTAINLY and unnamed:
        return (f"Probably: {reading_words(top)} Some of your answers do not fit it, so "
                f"it is not named: you may read the rules a little otherwise.")
    if top.probability >= ALMOST_CERTAINLY:
        return f"Almost certainly: {reading_words(top)}" + second_words(second)
    if top.probability >= PROBABLY or len(candidates) == 1:
        return f"Probably: {reading_words(top)}"
    return (f"Not told apart yet: {reading_words(top).rstrip('.')}, or "
            f"{reading_words(candidates[1])}")


def second_words(second: float | None) -> str:
    """What is said of a second misreading beside the one named: nothing once it is ruled
    out (diagnosis.outcome.second_left), else how likely it still is."""
    if not second_left(second):
        return ""
    return (f" A second misreading beside it is not ruled out yet (about "
            f"{round(100 * second)} % likely): the hands that would show it were not all "
            f"asked.")
