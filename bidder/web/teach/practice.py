"""Practice: a hand without its answer; the student counts (if asked) and then bids.

Hands come in rounds (see ``rounds``): after each, a summary of the round, right and
wrong per rule, the misreading the wrong answers fit if one does (see ``reading``), and a
round of just the rules missed, or of hands that misreading gets wrong, if the student
wants one.
Progress lives in Flask's signed session cookie. Every form posts (with a CSRF token)
and redirects back, so it all works without JavaScript.

A signed cookie cannot be forged, but an old copy of it can be sent again: answer
wrongly, put back the cookie from before, answer rightly. So each hand is dealt with a
one-time token, made from the practice's random id and the turn, and counting or bidding
records the answer under it in the server's state store (``bidder.web.state``): the
first answer recorded for a hand is the only one that counts, and an old cookie or a
double click is shown that first answer. The same turn dealt again from an older
cookie has the same token, and skipping a hand counts the answer recorded for it, so
neither Next nor Skip can take back an answer. A token starts with the store's
identity, so a store made anew (deleted, flushed) never takes an answer for a hand dealt
before it.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from dataclasses import asdict, dataclass, fields, replace
from flask import (Blueprint, current_app, flash, redirect, render_template, request,
                   session, url_for)

from ...advice import explain
from ...bids import NO_BID, Bid, BidError
from ...cards import Hand, InvalidHandError, parse_hand
from ...dealing import deal, random_hand, reachable_bids
from ...errors import echo
from ...facts import Facts
from ...teaching import shuffled
from ...why_not import why_not
from .. import heavy
from ..errors import RESTARTED
from ..rate_limits import limiter, practice_limit
from ..security import session_lost
from ..state import StoreUnavailable, store_of
from . import finished
from .params import MAX_SEED, ParamError, fresh_seed, plain, whole_number
from .miscount import miscounted
from .reading import (READING_HANDS, Reading, is_reading, reading_from_ids, reading_hand,
                      reading_ids)
from .rounds import (answers, given_bids, is_bids, is_focus, is_given, is_record, missed,
                     recorded, round_bids, round_rules, scores, with_given)

blueprint = Blueprint("practice", __name__, url_prefix="/practice")

SESSION_KEY = "practice"
MAX_COUNTED = 99
MAX_TURN = 1_000_000  # no one practises a million hands: a larger turn is a broken state
COUNT_FIELDS = (("hcp", "HCP"), ("distribution", "Distribution points"))
MOVED_ON = "That was for an earlier hand; here is the hand on the table now."
SWITCHES = (("count_first", "Count first"), ("natural", "Natural frequencies"))
ANSWERED_BEFORE = ("That hand was answered already, so this answer was not counted: "
                   "here is the first answer, counted once.")
STORE_RESET = ("The server's record of answered hands was made anew since this hand was "
               "dealt, so it cannot be scored: here is a new hand (your score is kept).")
CANNOT_KEEP = ("Scores cannot be kept just now: the server cannot record answers at the "
               "moment, so this one was not counted. Try again in a minute; the advisor, "
               "the rules and the deals work as usual.")
CANNOT_SKIP = ("This hand cannot be skipped just now: the server cannot check its record "
               "of answered hands at the moment. Answer it, or try again in a minute.")
RETRY_SECONDS = 60
TOKEN_BYTES = 12  # after the store's identity (IDENTITY_LENGTH characters)
TOKEN = re.compile("[A-Za-z0-9_-]{22}")  # the identity, then secrets.token_urlsafe(TOKEN_BYTES)
TOKEN_LENGTH = 16  # characters after the identity: token_urlsafe(TOKEN_BYTES)'s length
ID_BYTES = 9  # a practice's id: 12 characters
PRACTICE_ID = re.compile("[A-Za-z0-9_-]{12}")
IDENTITY_KEY = "identity"
IDENTITY_LENGTH = 6
UNKNOWN_IDENTITY = "-" * IDENTITY_LENGTH  # no store answered: no answer will count
FOREVER = 100 * 365 * 86400.0


def read_counts(form) -> tuple[dict[str, str], dict[str, int], dict[str, str]]:
    """A student's HCP and distribution points from *form*: what was typed, the whole
    numbers read, and a message for each field that is not one."""
    typed = {field: form.get(field, "") for field, _ in COUNT_FIELDS}
    numbers, errors = {}, {}
    for field, label in COUNT_FIELDS:
        try:
            numbers[field] = whole_number(typed[field], field, 0, MAX_COUNTED, label)
        except ParamError as error:
            errors[field] = error.message
    return typed, numbers, errors


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
    token: str = ""
    round_start: int = 0  # the turn of the round's first hand
    focus: str = ""  # the round's rules ('R3,R7'), or '' for every deciding rule
    record: str = ""  # the round's answers so far ('R3+R7-')
    given: str = ""  # the round's bids given, by place ('0:1C,1:2NT')
    reading: str = ""  # the misreading whose hands the round deals, or ''
    bids: str = ""  # the bids a teacher's set deals ('1NT,2NT'), or ''
    id: str = ""  # this practice's own random id, which each hand's token is made from

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

    @property
    def place(self) -> int:
        """Where this turn is in the round: 0 for its first hand."""
        return self.turn - self.round_start

    @property
    def size(self) -> int:
        """How many hands the round has."""
        if self.reading:
            return READING_HANDS
        return len(round_bids(self.bids)) if self.bids else len(round_rules(self.focus))

    @property
    def between_rounds(self) -> bool:
        """Whether the round is over: no hand on the table, its summary instead."""
        return self.place >= self.size


def load() -> Practice:
    """The practice kept in the session; a new one if there is none, or if the stored
    one is not a practice this code could have saved (it is signed, yet makes no sense)."""
    return restore(session.get(SESSION_KEY)) or begun(base=fresh_seed())


def begun(**settings) -> Practice:
    """A new practice with *settings* and an id of its own."""
    return Practice(**settings, id=secrets.token_urlsafe(ID_BYTES))


def save(state: Practice) -> None:
    """Keep *state* in the session cookie."""
    session[SESSION_KEY] = asdict(state)


def restore(stored: object) -> Practice | None:
    """*stored* as a Practice, if every field has the type and range save() writes and
    the fields agree with each other; else None."""
    if isinstance(stored, dict):
        stored = {"reading": "", "bids": "", "id": "", **stored}  # kept before these: none
    if not isinstance(stored, dict) or set(stored) != FIELD_NAMES:
        return None
    if not all(check(stored[name]) for name, check in FIELD_CHECKS.items()):
        return None
    state = Practice(**stored)
    return state if consistent(state) else None


def whole_up_to(high: int | None):
    """A check for a whole number from 0 to *high* (None: no upper bound)."""
    return lambda value: (type(value) is int and value >= 0
                          and (high is None or value <= high))


def is_flag(value: object) -> bool:
    """Whether *value* is True or False."""
    return type(value) is bool


def is_count(value: object) -> bool:
    """Whether *value* is a counted number of points, or None before counting."""
    return value is None or whole_up_to(MAX_COUNTED)(value)


def is_hand_text(value: object) -> bool:
    """Whether *value* is a hand as save() writes it, or '' before the first deal."""
    if not isinstance(value, str):
        return False
    try:
        return value == "" or str(parse_hand(value)) == value
    except InvalidHandError:
        return False


def is_bid_text(value: object) -> bool:
    """Whether *value* is a bid as save() writes it, or None before bidding."""
    if value is None:
        return True
    try:
        return isinstance(value, str) and str(Bid.parse(value)) == value
    except BidError:
        return False


def is_practice_id(value: object) -> bool:
    """Whether *value* is a practice's id, or '' for one kept before practices had ids."""
    return isinstance(value, str) and (value == "" or bool(PRACTICE_ID.fullmatch(value)))


def is_token(value: object) -> bool:
    """Whether *value* is a hand's one-time token, or '' before the first deal."""
    return isinstance(value, str) and (value == "" or bool(TOKEN.fullmatch(value)))


FIELD_CHECKS = {
    "base": whole_up_to(MAX_SEED), "turn": whole_up_to(MAX_TURN), "hand": is_hand_text,
    "count_first": is_flag, "natural": is_flag, "right": whole_up_to(None),
    "answered": whole_up_to(None), "counts_right": whole_up_to(None),
    "counts_checked": whole_up_to(None), "hcp": is_count, "distribution": is_count,
    "answer": is_bid_text, "token": is_token, "round_start": whole_up_to(MAX_TURN),
    "focus": is_focus, "record": is_record, "given": is_given, "reading": is_reading,
    "bids": is_bids, "id": is_practice_id,
}
FIELD_NAMES = frozenset(field.name for field in fields(Practice))


def consistent(state: Practice) -> bool:
    """Whether the fields of *state* agree: no more right than asked, at most one answer
    and one count per hand so far, both counts or neither, a token with every hand, a
    round that has begun and is not past its end, with no more answers than hands and
    no hand on the table once it is over."""
    hands = state.turn + 1
    return (state.right <= state.answered <= hands
            and state.counts_right <= state.counts_checked <= hands
            and (state.hcp is None) == (state.distribution is None)
            and bool(state.hand) == bool(state.token)
            and (bool(state.hand) or not (state.counted or state.done))
            and state.round_start <= state.turn and state.place <= state.size
            and len(answers(state.record)) <= min(state.place + 1, state.size)
            and len(given_bids(state.given)) == len(answers(state.record))
            and all(place < state.size for place, _ in given_bids(state.given))
            and not (state.between_rounds and state.hand)
            and not (state.bids and (state.focus or state.reading)))


def identity(store) -> str:
    """The store's identity, made (at random) if it has none: a store made anew, or
    flushed, gets a new one. Read first, written only when missing: it is asked for at
    every deal and every answer.

    :raises StoreUnavailable: when the store cannot be used.
    """
    known = store.get(IDENTITY_KEY)  # a read: no write lock, in SQLite
    if known is not None:
        return known
    fresh = secrets.token_urlsafe(IDENTITY_LENGTH)[:IDENTITY_LENGTH]
    return store.put_if_absent(IDENTITY_KEY, fresh, FOREVER) or fresh


def keep_seconds(app) -> float:
    """How long a recorded answer is kept: as long as a cookie holding its token could
    still be read (the session's lifetime: Flask refuses older cookies)."""
    return app.permanent_session_lifetime.total_seconds()


def record(state: Practice, step: str, given: str) -> str:
    """Record *given* as the answer to *step* ('count' or 'bid') of the hand on the
    table: the answer that counts, *given* the first time, else the one recorded first.

    :raises StoreUnavailable: when the store cannot be used.
    :raises LookupError: when the hand was dealt under another store identity.
    """
    store = store_of(current_app)
    if state.token[:IDENTITY_LENGTH] != identity(store):
        raise LookupError(state.token)
    first = store.put_if_absent(f"{step}:{state.token}", given, keep_seconds(current_app))
    return given if first is None else first


def counted_answer(state: Practice, step: str, given: str):
    """(the answer that counts for *step*, None), flashing why when it is not *given*;
    or (None, the response saying why no answer can count just now)."""
    try:
        first = record(state, step, given)
    except StoreUnavailable as trouble:
        current_app.logger.warning("practice answer not recorded: %s", trouble)
        flash(CANNOT_KEEP)
        page, status = render(state, status=503)  # the hand stays; nothing revealed
        return None, (page, status, {"Retry-After": str(RETRY_SECONDS)})
    except LookupError:
        flash(STORE_RESET)
        save(moved_to(state, state.turn + 1))
        return None, back()
    if first != given:
        flash(ANSWERED_BEFORE)
    return first, None


def new_token(state: Practice) -> str:
    """The token for the hand of *state*'s turn, after the store's identity: made from
    the practice's id and the turn, so the turn dealt again (an older cookie sent back,
    then Next) has the same token, and the answer recorded for it counts; random for a
    practice kept before practices had ids."""
    try:
        prefix = identity(store_of(current_app))
    except StoreUnavailable:
        prefix = UNKNOWN_IDENTITY
    if not state.id:
        return prefix + secrets.token_urlsafe(TOKEN_BYTES)
    made = hashlib.sha256(f"{state.id}:{state.turn}".encode()).digest()
    return prefix + base64.urlsafe_b64encode(made).decode()[:TOKEN_LENGTH]


def moved_to(state: Practice, turn: int) -> Practice:
    """*state* at *turn*: its hand on the table, not yet counted or bid, under a fresh
    token; or, past the end of the round, an empty table (the round's summary)."""
    state = replace(state, turn=turn, hcp=None, distribution=None, answer=None, hand="",
                    token="")
    if state.between_rounds:
        return state
    return replace(state, hand=hand_for(state), token=new_token(state))


def hand_for(state: Practice) -> str:
    """The hand for this turn: natural frequencies, or each of the round's rules once, in
    an order shuffled for each round so that the turn does not give the answer away (a
    round of missed rules deals for its rules, natural frequencies or not); a round of a
    misreading deals hands it gets wrong (any hand, if none is found soon)."""
    seed = state.base + state.turn
    if state.reading:
        return (heavy.run("a hand for a misreading", reading_hand, state.reading, seed)
                or str(random_hand(seed)))
    if state.bids:
        order = shuffled(round_bids(state.bids),
                         f"{state.base}/{state.round_start}/{state.bids}")
        return str(deal(seed, bid=order[state.place].text))
    if state.natural and not state.focus:
        return str(random_hand(seed))
    order = shuffled(round_rules(state.focus),
                     f"{state.base}/{state.round_start}/{state.focus}")
    return str(deal(seed, rule=order[state.place]))


@dataclass(frozen=True)
class Reviewed:
    """One hand of a round looked back on: its place, the hand, the bid given, the right
    one, and why (the decision in a sentence)."""

    number: int
    hand: Hand
    given: Bid
    right: Bid
    reason: str

    @property
    def correct(self) -> bool:
        """Whether the bid given was the right one."""
        return self.given == self.right


def review(state: Practice) -> list[Reviewed]:
    """Each hand of the round answered, with the bid given and the right one."""
    rows = []
    for place, bid in given_bids(state.given):
        hand = parse_hand(hand_for(replace(state, turn=state.round_start + place)))
        advice = explain(hand)
        rows.append(Reviewed(place + 1, hand, Bid.parse(bid), Bid.from_value(advice.bid),
                             advice.explanation_alone))
    return rows


def reading_of(rows: list[Reviewed]) -> Reading | None:
    """The misreading the round's wrong answers fit, if one does."""
    return reading_from_ids(heavy.run(
        "the reading of your answers", reading_ids,
        tuple((str(row.hand), row.given.text, row.correct) for row in rows)))


def bid_rows() -> list[list[Bid]]:
    """Every bid some hand opens, one row per level, then no bid on its own row."""
    bids = [bid for bid in reachable_bids() if bid]
    levels = sorted({bid.level for bid in bids})
    return [[bid for bid in bids if bid.level == level] for level in levels] + [[NO_BID]]


def render(state: Practice, errors: dict | None = None, typed: dict | None = None,
           status: int = 200):
    """The practice page; the answer is computed only once the student has bid."""
    hand = parse_hand(state.hand) if state.hand else None
    advice = explain(hand) if state.done else None
    correct = advice is not None and Bid.from_value(advice.bid) == state.chosen
    reviewed = review(state) if state.between_rounds else []
    misses = missed(state.record)
    return render_template(
        "practice.html", state=state, hand=hand, advice=advice, correct=correct,
        facts=Facts(hand) if state.counted else None,
        miscount=miscounted(hand, state.distribution) if state.counted else "",
        why=why_not(advice, state.chosen) if advice and not correct else None,
        scores=scores(state.record), missed=misses, missed_hands=len(round_rules(misses)),
        review=reviewed, reading=reading_of(reviewed) if reviewed else None,
        reading_hands=READING_HANDS,
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
    """The hand on the table, dealing one if there is none; a teacher's link
    (?set=SEED, and rule=R3,R7 for a round of those rules or bid=1NT,2NT for hands that
    open those bids) starts every student on the same hands, asking first when the
    student has a score it would end."""
    if "set" in request.args:
        return ask_for_set()
    state = load()
    if session_lost():
        flash(f"{RESTARTED} Here is a fresh practice.")
    if not state.hand and not state.between_rounds:
        state = moved_to(state, state.turn)
        save(state)
    return render(state)


def read_set(fields) -> tuple[int, str, str]:
    """The seed, the rules ('R3,R7' or '') and the bids ('1NT,2NT' or '') of the set
    that a link's or a form's *fields* name.

    :raises ParamError: saying what cannot be read.
    """
    seed = whole_number(fields["set"], "set", 0, MAX_SEED)
    focus = set_focus(fields.get("rule", ""))
    bids = set_bids(fields.get("bid", ""))
    if focus and bids:
        raise ParamError("it names both rules and bids: a set deals by one or the "
                         "other, so keep rule= or bid=", "bid")
    return seed, focus, bids


def ask_for_set():
    """A set's link: started at once when the student has no score to lose, else a page
    asking first (a GET never changes a score)."""
    try:
        seed, focus, bids = read_set(request.args)
    except ParamError as error:
        flash(f"That practice link cannot be used: {error.message}.")
        return back()
    state = load()
    if not (state.answered or state.counts_checked):
        return start_set(seed, focus, bids)
    return render_template("practice_set.html", seed=seed, focus=focus, bids=bids,
                           state=state)


@blueprint.post("/set")
def start_chosen_set():
    """Start the set the asking page's form names (its score given up)."""
    try:
        seed, focus, bids = read_set(request.form)
    except ParamError as error:
        flash(f"That practice set cannot be started: {error.message}.")
        return back()
    return start_set(seed, focus, bids)


def start_set(seed: int, focus: str, bids: str):
    """Start set *seed* (of the rules *focus*, or of hands opening *bids*), keeping the
    student's count-first switch; hands dealt as for a round (not natural frequencies),
    so every student gets the same."""
    save(begun(base=seed, focus=focus, bids=bids, count_first=load().count_first))
    of = f" of hands that open {bids.replace(',', ', ')}" if bids else ""
    flash(f"Practice set {seed}{of}: everyone with this link gets the same hands.")
    return back()


def set_focus(text: str) -> str:
    """The rules a set's link names ('R3,R7'), as a round writes them ('' for all).

    :raises ParamError: for a rule that decides no hand.
    """
    ids = {part.strip().upper() for part in plain(text).split(",") if part.strip()}
    chosen = [rule.id for rule in round_rules("") if rule.id in ids]
    if len(chosen) != len(ids):
        raise ParamError(f"rule {text.strip()!r} names no rule a round deals for: use "
                         f"ids such as R3 or R3,R7", "rule")
    return ",".join(chosen)


def set_bids(text: str) -> str:
    """The bids a set's link names ('1NT,2nt'), as a round writes them ('' for none).

    :raises ParamError: for anything that is not a bid some hand opens, saying which are.
    """
    opened = reachable_bids()
    chosen = set()
    for part in (part.strip() for part in plain(text).split(",") if part.strip()):
        bid = opened_bid(part, opened)
        if bid is None:
            raise ParamError(f"bid {echo(part)} is not a bid a hand opens: use one or more of "
                             f"{', '.join(map(str, opened))}, joined by commas (such as "
                             f"bid=1NT or bid=1NT,2NT)", "bid")
        chosen.add(bid)
    return ",".join(str(bid) for bid in opened if bid in chosen)


def opened_bid(text: str, opened: tuple[Bid, ...]) -> Bid | None:
    """The bid *text* names, if it is one of the bids *opened*; else None."""
    try:
        bid = Bid.parse(text)
    except BidError:
        return None
    return bid if bid in opened else None


@blueprint.post("/count")
@limiter.limit(practice_limit)
def count():
    """Check the student's HCP and distribution points, each on its own."""
    state = open_step("counted")
    if state is None:
        return back()
    typed, numbers, errors = read_counts(request.form)
    if errors:
        return render(state, errors, typed, 400)
    first, refusal = counted_answer(state, "count",
                                    f"{numbers['hcp']} {numbers['distribution']}")
    if refusal:
        return refusal
    save(with_count(state, first))
    return back()


def with_count(state: Practice, counted: str) -> Practice:
    """*state* with the count *counted* ('HCP DISTRIBUTION') given for its hand."""
    numbers = dict(zip(("hcp", "distribution"), map(int, counted.split())))
    facts = Facts(parse_hand(state.hand))
    right = all(numbers[field] == getattr(facts.tally, field) for field, _ in COUNT_FIELDS)
    return replace(state, **numbers, counts_right=state.counts_right + right,
                   counts_checked=state.counts_checked + 1)


@blueprint.post("/answer")
@limiter.limit(practice_limit)
def answer():
    """Record the student's bid for the hand on the table."""
    state = open_step("done")
    if state is None:
        return back()
    try:
        bid = Bid.parse(plain(request.form.get("bid", "")))
    except BidError as error:
        return render(state, {"bid": error.message}, status=400)
    first, refusal = counted_answer(state, "bid", str(bid))
    if refusal:
        return refusal
    state = with_bid(state, first)
    save(state)
    announce(state)
    return back()


def announce(state: Practice) -> None:
    """Tell whoever listens (``finished``) when *state*'s last answer ended its round;
    the misreading is looked for only when someone does."""
    if state.place != state.size - 1 or not finished.listening():
        return
    found = reading_of(review(state))
    finished.tell(finished.Finished(
        finished.PRACTICE, sum(right for _, right in answers(state.record)), state.size,
        f"Your answers fit a misreading: {found.variant.sentence}" if found else "",
        state.base, state.focus, state.bids))


def with_bid(state: Practice, given: str) -> Practice:
    """*state* with the bid *given* (its text) as the answer to its hand."""
    bid = Bid.parse(given)
    advice = explain(state.hand)
    right = bid == Bid.from_value(advice.bid)
    return replace(state, answer=str(bid), answered=state.answered + 1,
                   right=state.right + right,
                   record=recorded(state.record, advice.rule, right),
                   given=with_given(state.given, state.place, str(bid)))


def with_recorded(state: Practice) -> Practice:
    """*state* with the count and the bid the server recorded for its hand and the
    cookie lacks (an older cookie sent back): a hand answered is never skipped.

    :raises StoreUnavailable: when the store cannot say.
    """
    store = store_of(current_app)
    if state.token[:IDENTITY_LENGTH] != identity(store):
        return state  # dealt under another store: nothing of it was recorded
    if not state.counted:
        counted = store.get(f"count:{state.token}")
        state = state if counted is None else with_count(state, counted)
    given = None if state.done else store.get(f"bid:{state.token}")
    return state if given is None else with_bid(state, given)


@blueprint.post("/next")
def next_hand():
    """Deal the next hand, or end the round after its last (a repeated press for the same
    hand moves on only once). Skipping a hand the server recorded an answer for counts
    that answer: an older cookie cannot turn a wrong answer into a skip."""
    state = load()
    if stale(state):
        return back()
    try:
        state = with_recorded(state)
    except StoreUnavailable as trouble:
        current_app.logger.warning("practice hand not skipped: %s", trouble)
        flash(CANNOT_SKIP)
        page, status = render(state, status=503)
        return page, status, {"Retry-After": str(RETRY_SECONDS)}
    save(moved_to(state, state.turn + 1))
    return back()


@blueprint.post("/round")
def new_round():
    """Once a round is over, start the next: every deciding rule again, (missed=1) the
    rules answered wrongly, or (reading=1) hands the misreading the wrong answers fit gets
    wrong (a repeated press starts only one)."""
    state = load()
    if state.between_rounds:
        focus = missed(state.record) if request.form.get("missed") == "1" else ""
        found = (reading_of(review(state)) if request.form.get("reading") == "1"
                 else None)
        save(moved_to(replace(state, round_start=state.turn, focus="" if found else focus,
                              bids="" if found or focus else state.bids,
                              record="", given="",
                              reading=found.variant.id if found else ""), state.turn))
    return back()


@blueprint.post("/settings")
def settings():
    """Switch count-first mode and natural frequencies on or off."""
    state = replace(load(), count_first=request.form.get("count_first") == "1",
                    natural=request.form.get("natural") == "1")
    save(state)
    flash(settings_saved(state))
    return back()


def settings_saved(state: Practice) -> str:
    """What the settings are now, to say they were saved."""
    return "Settings saved: " + ", ".join(
        f"{label.lower()} {'on' if getattr(state, field) else 'off'}"
        for field, label in SWITCHES) + "."


@blueprint.post("/reset")
def reset():
    """Start again: a new run of hands and a clean score, keeping the settings."""
    state = load()
    save(begun(base=fresh_seed(), count_first=state.count_first,
                  natural=state.natural))
    return back()
