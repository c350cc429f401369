"""Practice: a hand without its answer; the student counts (if asked) and then bids.

Progress lives in Flask's signed session cookie, so the server keeps nothing between
requests. Every form posts and redirects back, so it all works without JavaScript.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, replace

from flask import (Blueprint, flash, redirect, render_template, request,
                   session, url_for)

from ..advice import explain, is_reachable
from ..bids import NO_BID, Bid, BidError
from ..cards import parse_hand
from ..dealing import deal, random_hand, reachable_bids
from ..facts import Facts
from ..rules import RULES
from .teach_params import ParamError, fresh_seed, plain, whole_number

blueprint = Blueprint("practice", __name__, url_prefix="/practice")

SESSION_KEY = "practice"
MAX_COUNTED = 99
COUNT_FIELDS = (("hcp", "HCP"), ("distribution", "Distribution points"))
MOVED_ON = "That was for an earlier hand; here is the hand on the table now."


@dataclass(frozen=True)
class Practice:
    """One student's practice, as kept in the signed session cookie."""

    base: int
    turn: int = 0
    hand: str = ""
    count_first: bool = False
    natural: bool = False
    right: int = 0
    answered: int = 0
    counts_right: int = 0
    counts_checked: int = 0
    hcp: int | None = None
    distribution: int | None = None
    answer: str | None = None

    @property
    def counted(self) -> bool:
        """Whether the student has counted this hand."""
        return self.hcp is not None

    @property
    def done(self) -> bool:
        """Whether the student has bid this hand."""
        return self.answer is not None

    @property
    def chosen(self) -> Bid | None:
        """The student's bid for this hand (kept in its text form), or None before it."""
        return None if self.answer is None else Bid.parse(self.answer)


def load() -> Practice:
    """The practice kept in the session, or a new one."""
    try:
        return Practice(**session[SESSION_KEY])
    except (KeyError, TypeError):
        return Practice(base=fresh_seed())


def save(state: Practice) -> None:
    """Keep *state* in the session cookie."""
    session[SESSION_KEY] = asdict(state)


def targets() -> tuple:
    """The rules practice deals for in turn: every rule that decides some hand."""
    return tuple(rule for rule in RULES if is_reachable(rule))


def hand_for(state: Practice) -> str:
    """The hand for this turn: natural frequencies, or each deciding rule once per lap,
    in an order shuffled for each lap so that the turn does not give the answer away."""
    seed = state.base + state.turn
    if state.natural:
        return str(random_hand(seed))
    lap, place = divmod(state.turn, len(targets()))
    order = list(targets())
    random.Random(f"{state.base}/{lap}").shuffle(order)
    return str(deal(seed, rule=order[place]))


def bid_rows() -> list[list[Bid]]:
    """Every bid some hand opens, one row per level, then no bid on its own row."""
    bids = [bid for bid in reachable_bids() if bid]
    levels = sorted({bid.level for bid in bids})
    return [[bid for bid in bids if bid.level == level] for level in levels] + [[NO_BID]]


def render(state: Practice, errors: dict | None = None, typed: dict | None = None,
           status: int = 200):
    """The practice page; the answer is computed only once the student has bid."""
    hand = parse_hand(state.hand)
    advice = explain(hand) if state.done else None
    return render_template(
        "practice.html", state=state, hand=hand, advice=advice,
        facts=Facts(hand) if state.counted else None,
        correct=advice is not None and Bid.from_value(advice.bid) == state.chosen,
        bid_rows=bid_rows(), count_fields=COUNT_FIELDS, max_counted=MAX_COUNTED,
        errors=errors or {}, typed=typed or {}), status


def back():
    """Redirect to the practice page after a post."""
    return redirect(url_for(".show"), 303)


def stale(state: Practice) -> bool:
    """Whether the form was for a hand that is no longer on the table."""
    return request.form.get("hand", "") != state.hand or not state.hand


def open_step(done: str) -> Practice | None:
    """The practice, if the form is for the hand on the table and the step *done* names
    is still open; else None, saying so when the form was for an earlier hand."""
    state = load()
    if stale(state):
        flash(MOVED_ON)
        return None
    return None if getattr(state, done) else state


@blueprint.get("")
def show():
    """The hand on the table, dealing one if there is none."""
    state = load()
    if not state.hand:
        state = replace(state, hand=hand_for(state))
        save(state)
    return render(state)


@blueprint.post("/count")
def count():
    """Check the student's HCP and distribution points, each on its own."""
    state = open_step("counted")
    if state is None:
        return back()
    typed = {field: request.form.get(field, "") for field, _ in COUNT_FIELDS}
    errors, numbers = {}, {}
    for field, label in COUNT_FIELDS:
        try:
            numbers[field] = whole_number(typed[field], field, 0, MAX_COUNTED, label)
        except ParamError as error:
            errors[field] = error.message
    if errors:
        return render(state, errors, typed, 400)
    facts = Facts(parse_hand(state.hand))
    right = (numbers["hcp"] == facts.hcp) + (numbers["distribution"] == facts.distribution)
    save(replace(state, **numbers, counts_right=state.counts_right + right,
                 counts_checked=state.counts_checked + len(COUNT_FIELDS)))
    return back()


@blueprint.post("/answer")
def answer():
    """Record the student's bid for the hand on the table."""
    state = open_step("done")
    if state is None:
        return back()
    try:
        bid = Bid.parse(plain(request.form.get("bid", "")))
    except BidError as error:
        return render(state, {"bid": error.message}, status=400)
    right = bid == Bid.from_value(explain(state.hand).bid)
    save(replace(state, answer=str(bid), answered=state.answered + 1,
                 right=state.right + right))
    return back()


@blueprint.post("/next")
def next_hand():
    """Deal the next hand (a repeated press for the same hand deals only one)."""
    state = load()
    if not stale(state):
        state = replace(state, turn=state.turn + 1, hcp=None, distribution=None,
                        answer=None)
        save(replace(state, hand=hand_for(state)))
    return back()


@blueprint.post("/settings")
def settings():
    """Switch count-first mode and natural frequencies on or off."""
    state = load()
    save(replace(state, count_first=request.form.get("count_first") == "1",
                 natural=request.form.get("natural") == "1"))
    return back()


@blueprint.post("/reset")
def reset():
    """Start again: a new run of hands and a clean score, keeping the settings."""
    state = load()
    save(Practice(base=fresh_seed(), count_first=state.count_first,
                  natural=state.natural))
    return back()
