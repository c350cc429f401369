"""Practice's "Find my misreading" round at /practice/diagnosis: the diagnostic round
(``bidder.diagnosis``) asked in the browser, then the reading it names taught with hands
it gets wrong, and checked again.

Each step shows the item the diagnosis chose (one hand, or a ladder of hands answered
together; the HCP and distribution points too when it asks them), and the answers so far
travel in Flask's signed session cookie, at most KEPT_ANSWERS of them, so the round needs
no store. The diagnosis itself runs in the worker's pool (``bidder.web.heavy``), cached,
as the API's does. Every form posts (with its CSRF token) and redirects back: it all
works without JavaScript.

When a round ends (the diagnosis has named a reading or given up, or the check again has
been answered), ``finished`` tells whoever listens (a course's gradebook, through
``finished.tell``) how many answers the rules give and the misreading named.
"""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass, replace

from flask import Blueprint, flash, redirect, render_template, request, session, url_for

from ...advice import explain
from ...bids import NO_BID, Bid, BidError
from ...cards import InvalidHandError, parse_hand
from ...dealing import bids_of, reachable_bids
from ...diagnosis import Candidate, teaching_hands
from ...diagnosis.answers import MOST_COUNTED
from ...diagnosis.outcome import NONE, RULES
from ...diagnosis.rounds import diagnosis_of_rows
from ...misreadings import MisreadingError, variant_by_id
from ... import packed
from .. import heavy
from ..rate_limits import limiter, practice_limit
from .finished import DIAGNOSIS, Finished, tell
from .params import MAX_SEED, ParamError, plain, whole_number
from .sureness import PROBABLY, in_words, reading_words

blueprint = Blueprint("diagnosis_round", __name__, url_prefix="/practice/diagnosis")

SESSION_KEY = "diagnosis"
KEPT_ANSWERS = 150  # answers a round keeps in the cookie, at most (the diagnosis reads as many)
TAUGHT = 3  # hands shown to teach the reading named
CHECKED = 4  # hands asked to check again
ASKING, TOLD, CHECKING, CHECKED_PHASE = "asking", "told", "checking", "checked"
PHASES = (ASKING, TOLD, CHECKING, CHECKED_PHASE)
COUNTS = (("hcp", "HCP"), ("distribution", "Distribution points"))
MOVED_ON = "That answer was for an earlier step of the round; here is the step now."

Plain = tuple  # (hand in dot notation, bid text or None, HCP or None, distribution or None)


def finished(rows, named: str) -> None:
    """Tell whoever listens (a course's gradebook) that a round ended: how many of its
    answers *rows* the rules give, of how many, and the misreading *named* in one
    sentence, as practice says it ('' for the rules, none of these, or nothing told
    apart)."""
    reading = ("" if named in ("", RULES, NONE)
               else f"Your answers fit a misreading: {variant_by_id(named).sentence}")
    tell(Finished(DIAGNOSIS, answered_right(rows), len(rows), reading))


@dataclass(frozen=True)
class Round:
    """One student's diagnostic round, as the session cookie keeps it: its seed, the
    answers so far, the phase, the reading taught (or ''), and the check's answers."""

    seed: int
    answers: tuple[Plain, ...] = ()
    phase: str = ASKING
    taught: str = ""
    checks: tuple[Plain, ...] = ()
    id: str = ""

    @property
    def rows(self) -> tuple[Plain, ...]:
        """The answers as the diagnosis reads them."""
        return tuple(tuple(row) for row in self.answers)


def begun() -> Round:
    """A new round, with a seed and an id of its own."""
    return Round(seed=secrets.randbelow(MAX_SEED + 1), id=secrets.token_urlsafe(9))


def load() -> Round:
    """The round kept in the session; a new one if there is none or it makes no sense."""
    return restore(session.get(SESSION_KEY)) or begun()


def save(state: Round) -> None:
    """Keep *state* in the session cookie."""
    session[SESSION_KEY] = asdict(state)


def restore(stored: object) -> Round | None:
    """*stored* as a Round, if it is one save() could have written; else None."""
    try:
        state = Round(**stored)
        valid = (type(state.seed) is int and 0 <= state.seed <= MAX_SEED
                 and state.phase in PHASES and isinstance(state.id, str)
                 and len(state.answers) <= KEPT_ANSWERS and len(state.checks) <= CHECKED
                 and all(map(is_plain, (*state.answers, *state.checks)))
                 and (not state.taught or is_reading(state.taught)))
    except (TypeError, ValueError, InvalidHandError, BidError):
        return None
    return replace(state, answers=tuple(map(tuple, state.answers)),
                   checks=tuple(map(tuple, state.checks))) if valid else None


def is_plain(row) -> bool:
    """Whether *row* is an answer as save() writes it.

    :raises InvalidHandError, BidError: for a hand or a bid that cannot be read.
    """
    hand, bid, hcp, distribution = row
    parse_hand(hand)
    counts_ok = all(value is None or (type(value) is int and 0 <= value <= MOST_COUNTED)
                    for value in (hcp, distribution))
    return counts_ok and (bid is None or Bid.parse(bid).text == bid)


def is_reading(text: str) -> bool:
    """Whether *text* is a misreading's id."""
    try:
        variant_by_id(text)
    except MisreadingError:
        return False
    return True


def diagnosis_of(state: Round) -> dict:
    """The diagnosis after the round's answers (``POST /api/diagnosis``'s JSON), computed
    in the worker's pool and cached."""
    return heavy.run("a diagnosis", diagnosis_of_rows, state.rows)


def candidates_of(found: dict) -> tuple[Candidate, ...]:
    """The candidates of a diagnosis's JSON, as values."""
    return tuple(Candidate(**candidate) for candidate in found["candidates"])


def hands_for(reading: str, seed: int) -> tuple[str, ...]:
    """The hands that teach *reading* (TAUGHT), then those that check it (CHECKED), in dot
    notation: hands it answers otherwise than the rules, from the diagnosis's bank."""
    found = heavy.run("hands a misreading gets wrong", teaching_hands, reading,
                      TAUGHT + CHECKED, seed)
    return tuple(hand.dotted for hand in found)


def taught_reading(found: dict) -> str:
    """The misreading to teach after the diagnosis *found*: the one it names; '' when that
    is the rules, none, or nothing told apart."""
    reading = named_of(found)
    return "" if reading in (RULES, NONE) else reading


def named_of(found: dict) -> str:
    """What the round names: the reading named, else the most likely one when it is
    probable, else '' (not told apart)."""
    top = candidates_of(found)[0]
    return found["named"] or (top.misreading if top.probability >= PROBABLY else "")


def right_bid(hand: str) -> str | None:
    """The bid the rules open *hand* with, as the engine writes it."""
    return Bid.from_value(explain(hand).bid).text


def answered_right(rows) -> int:
    """How many of *rows* bid the rules' bid."""
    return sum(bid == right_bid(hand) for hand, bid, *_ in rows)


def bid_choices() -> list[Bid]:
    """Every bid some hand opens, then no bid."""
    return [bid for bid in reachable_bids() if bid] + [NO_BID]


def read_answers(form, hands: tuple[str, ...], ask: tuple[str, ...]):
    """The rows the form answers for *hands* (asking *ask*), and a message for each field
    that cannot be read."""
    rows, errors = [], {}
    for place, hand in enumerate(hands):
        field = f"bid-{place}"
        bid = None
        try:
            bid = Bid.parse(plain(form.get(field, ""))).text
        except BidError as error:
            errors[field] = error.message
        counted = {}
        for name, label in COUNTS:
            if name in ask:
                key = f"{name}-{place}"
                try:
                    counted[name] = whole_number(form.get(key, ""), key, 0, MOST_COUNTED,
                                                 f"{label} of hand {place + 1}")
                except ParamError as error:
                    errors[key] = error.message
        rows.append((hand, bid, counted.get("hcp"), counted.get("distribution")))
    return tuple(rows), errors


def render(state: Round, errors: dict | None = None, typed: dict | None = None,
           status: int = 200):
    """The round's page for its phase."""
    found = diagnosis_of(state)
    candidates = candidates_of(found)
    words = in_words(candidates, found.get("second"),
                     unnamed=found.get("next") is None and found.get("named") is None)
    page = dict(state=state, found=found, candidates=candidates, words=words,
                bids=bid_choices(), counts=COUNTS, errors=errors or {}, typed=typed or {},
                item=None, taught=[], checking=[], checked=[], ASKING=ASKING, TOLD=TOLD,
                CHECKING=CHECKING, CHECKED=CHECKED_PHASE)
    if state.phase == ASKING:
        page["item"] = {"hands": [parse_hand(hand) for hand in found["next"]["hands"]],
                        "ask": tuple(found["next"]["ask"]),
                        "key": ",".join(found["next"]["hands"])}
    if state.taught:
        hands = hands_for(state.taught, state.seed)
        variant = variant_by_id(state.taught)
        page["variant"] = variant
        page["taught"] = [shown(hand, variant) for hand in hands[:TAUGHT]]
        page["checking"] = {"hands": [parse_hand(hand) for hand in hands[TAUGHT:]],
                            "key": ",".join(hands[TAUGHT:])}
        page["checked"] = [dict(shown(hand, variant), given=given)
                           for hand, given, *_ in state.checks]
    page["check_words"] = check_words(state)
    return render_template("practice_diagnosis.html", **page), status


def shown(hand: str, variant) -> dict:
    """A hand as the teaching shows it: the rules' bid with its reason, and the reading's."""
    advice = explain(hand)
    by_rules, by_reading = bids_of([variant], packed.encode_cards(parse_hand(hand).cards))
    return {"hand": parse_hand(hand), "advice": advice, "right": by_rules,
            "reading": by_reading}


def check_words(state: Round) -> str:
    """What the check again shows: right by the rules on how many hands, and whether the
    misreading still shows."""
    if state.phase != CHECKED_PHASE:
        return ""
    right = sum(bid == right_bid(hand) for hand, bid, *_ in state.checks)
    total = len(state.checks)
    if right == total:
        return (f"All {total} answered as the assignment says: you no longer read it "
                f"that way.")
    return (f"{right} of {total} answered as the assignment says: the misreading may "
            f"still be there. Look at the hands below again, then start a new round.")


def back():
    """Redirect to the round's page after a post."""
    return redirect(url_for(".show"), 303)


@blueprint.get("")
def show():
    """The round's step: the item to answer, what the round found, the teaching hands
    or the check again."""
    state = load()
    if SESSION_KEY not in session:
        save(state)
    return render(state)


@blueprint.post("/answer")
@limiter.limit(practice_limit)
def answer():
    """Take the answers to the item on the page; when the diagnosis is over, say so."""
    state = load()
    found = diagnosis_of(state)
    if state.phase != ASKING or request.form.get("item", "") != ",".join(
            found["next"]["hands"]):
        flash(MOVED_ON)
        return back()
    rows, errors = read_answers(request.form, tuple(found["next"]["hands"]),
                                tuple(found["next"]["ask"]))
    if errors:
        return render(state, errors, request.form, 400)
    state = replace(state, answers=state.answers + rows)
    found = diagnosis_of(state)
    if found["next"] is None or len(state.answers) + len(found["next"]["hands"]) > KEPT_ANSWERS:
        state = replace(state, phase=TOLD, taught=taught_reading(found))
        finished(state.answers, named_of(found))
    save(state)
    return back()


@blueprint.post("/check")
def start_check():
    """After the teaching hands, ask hands the reading gets wrong, to check again."""
    state = load()
    if state.phase == TOLD and state.taught:
        save(replace(state, phase=CHECKING))
    return back()


@blueprint.post("/checked")
@limiter.limit(practice_limit)
def checked():
    """Take the answers to the check again, and say how they went."""
    state = load()
    hands = hands_for(state.taught, state.seed)[TAUGHT:] if state.taught else ()
    if state.phase != CHECKING or request.form.get("item", "") != ",".join(hands):
        flash(MOVED_ON)
        return back()
    rows, errors = read_answers(request.form, hands, ("bid",))
    if errors:
        return render(state, errors, request.form, 400)
    state = replace(state, phase=CHECKED_PHASE, checks=rows)
    finished(state.answers + rows, state.taught)
    save(state)
    return back()


@blueprint.post("/again")
def again():
    """Start a new round."""
    save(begun())
    return back()
