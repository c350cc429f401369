"""An activity finished: what the teaching pages tell whoever listens (a course's
gradebook, when the student came from one), without knowing who that is.

A page calls ``tell(Finished(...))`` once its activity's last answer is recorded; the
app keeps the listeners under FINISHED_HOOKS (``bidder.web.lti`` adds one).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

FINISHED_HOOKS = "bidder.teach.finished"
PRACTICE, DIAGNOSIS = "practice", "diagnosis"


@dataclass(frozen=True)
class Finished:
    """An activity just finished: which (practice or diagnosis), for a practice set the
    set it was dealt from (seed, rules, bids), the hands bid right of how many, and the
    misreading the wrong answers fit, in one sentence ('' when none is named)."""

    activity: str
    right: int
    hands: int
    misreading: str = ""
    seed: int = 0
    focus: str = ""
    bids: str = ""


def listening() -> bool:
    """Whether anyone listens (so that a page looks for a misreading only then)."""
    return bool(current_app.extensions.get(FINISHED_HOOKS))


def tell(finished: Finished) -> None:
    """Tell every listener that *finished* happened."""
    for hook in current_app.extensions.get(FINISHED_HOOKS, ()):
        hook(finished)
