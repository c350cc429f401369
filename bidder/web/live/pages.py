"""The live poll's pages at /live: start a poll, join it, vote from a phone (plain forms,
no script needed), and the projector view the instructor drives with the admin link."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

from flask import (Blueprint, Response, current_app, flash, redirect, render_template,
                   request, session, url_for)
from markupsafe import Markup

from ...advice import explain
from ...bids import Bid, BidError
from ...cards import InvalidHandError, parse_hand
from ...dealing import DealError
from ...facts import Facts
from ...misreadings import variant_by_id
from ...rules import RULES
from .. import heavy
from ..errors import Problem
from ..rate_limits import limiter, live_limit
from ..state import StoreUnavailable, store_of
from ..teach.miscount import miscounted
from ..teach.practice import COUNT_FIELDS, bid_rows, read_counts
from . import events, ledger
from .device import device_id, remember
from .hands import APART_WORK, SEEDS, NamedError, apart_for, canonical, dealt_for, read_ids
from .model import (BID_KEYS, MOVES, OPEN, REVEALED, Answer, bid_key, key_bid, moves, shift,
                    tally)
from .qr import qr_svg
from .report import summary, summary_csv

blueprint = Blueprint("live", __name__, url_prefix="/live")
SOURCES = (("pasted", "A hand I paste"), ("rule", "A hand dealt for a rule"),
           ("apart", "A hand that tells misreadings apart"))
DEALING_RULES = tuple(rule for rule in RULES if rule.level is not None or rule.bids)
SHOWN_LABELS = 3  # misreadings written out under a wrong bar; the rest counted
COUNTED_KEY = "live_count"  # the session's count for one poll's round


class PageError(Exception):
    """A request a page refuses, with the problem to show."""

    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


@blueprint.errorhandler(ledger.PollError)
def poll_refused(error: ledger.PollError):
    """A refused poll operation, as a page."""
    title = {404: "No such poll", 409: "The vote is closed"}.get(error.status, "Not now")
    return render_template("error.html", problem=Problem(error.status, error.code, title,
                                                         error.message)), error.status


@blueprint.errorhandler(PageError)
def page_refused(error: PageError):
    """A refused request, as a page."""
    return render_template("error.html", problem=error.problem), error.problem.status


@blueprint.errorhandler(StoreUnavailable)
def store_down(error: StoreUnavailable):
    """The store failed: a page saying to try again, 503."""
    problem = Problem(503, "store_unavailable", "Polls cannot be kept just now",
                      "The server cannot keep polls at the moment; try again in a minute.")
    return render_template("error.html", problem=problem), 503, {"Retry-After": "60"}


def store():
    """The app's state store."""
    return store_of(current_app)


def chosen_hand(form) -> str:
    """The hand the start form asks for.

    :raises PageError: 400 for a hand, rule or misreading that cannot be read, saying why.
    """
    source = form.get("source", "pasted")
    seed = secrets.randbelow(SEEDS) + 1
    try:
        if source == "rule":
            return dealt_for(form.get("rule", ""), seed)
        if source == "apart":
            return heavy.run(APART_WORK, apart_for, read_ids(form.get("misreadings", "")),
                             seed)
        return canonical(form.get("hand", ""))
    except NamedError as error:
        raise PageError(Problem(400, error.code, "Check the misreadings",
                                f"{error.message}. Go back and name misreadings by their "
                                f"ids, or leave the field empty for any.")) from None
    except (InvalidHandError, DealError) as error:
        raise PageError(Problem(400, error.code, "Check the hand",
                                f"{error.message}. Go back and paste a hand of 13 cards, "
                                f"or choose a rule to deal one.")) from None


@blueprint.get("")
def start_page():
    """Start a poll, or join one by its code."""
    return render_template("live_start.html", sources=SOURCES, rules=DEALING_RULES)


@blueprint.post("")
@limiter.limit(live_limit)
def start():
    """Open a poll on the chosen hand and go to its projector view."""
    poll, token = ledger.create(store(), chosen_hand(request.form),
                                count_first=request.form.get("count_first") == "1")
    return redirect(url_for(".host", code=poll.code, key=token), 303)


@blueprint.get("/join")
def join():
    """The poll whose code the join form sends."""
    code = request.args.get("code", "").strip().upper()
    ledger.load(store(), code)
    return redirect(url_for(".phone", code=code), 303)


def voted(key: str | None) -> Bid | None:
    """The Bid a vote key stands for (None for no vote)."""
    return None if key is None else Bid.from_value(key_bid(key))


@blueprint.get("/<code>")
def phone(code: str):
    """A student's page: the hand, the bidding box while the vote is open (after the
    count, in a count-first poll), the answer once revealed."""
    poll, status = ledger.load(store(), code)
    return phone_page(poll, status)


def phone_page(poll, status, errors: dict | None = None, typed: dict | None = None,
               code: int = 200):
    """The student's page for the round on the table."""
    current = poll.rounds[status.round]
    device, _ = device_id()
    mine = ledger.ballots(store(), poll.code, status.round).get(device)
    advice = explain(current.hand) if status.state == REVEALED else None
    counted = (session[COUNTED_KEY] if session.get(COUNTED_KEY, {}).get("at")
               == f"{poll.code}:{status.round}" else None)
    hand = parse_hand(current.hand)
    return render_template("live_phone.html", poll=poll, status=status, current=current,
                           hand=hand, mine=voted(mine),
                           advice=advice, bid_rows=bid_rows(), OPEN=OPEN, counted=counted,
                           miscount=miscounted(hand, counted["distribution"]) if counted
                           else "",
                           facts=Facts(hand), count_fields=COUNT_FIELDS,
                           errors=errors or {}, typed=typed or {}), code


@blueprint.post("/<code>/count")
def count(code: str):
    """Check a student's HCP and distribution points, kept in the session for this
    round; then the bidding box."""
    poll, status = ledger.load(store(), code)
    typed, numbers, errors = read_counts(request.form)
    if errors:
        return phone_page(poll, status, errors, typed, 400)
    session[COUNTED_KEY] = {"at": f"{poll.code}:{status.round}", **numbers}
    return redirect(url_for(".phone", code=poll.code), 303)


@blueprint.post("/<code>/vote")
@limiter.limit(live_limit)
def vote(code: str):
    """Take this device's vote (replacing its last) and go back to the poll."""
    try:
        bid = Bid.parse(request.form.get("bid", "")[:10]).text
    except BidError as error:
        raise PageError(Problem(400, "bad_bid", "Not a bid",
                                f"{error}; go back and choose a bid from the box.")) from None
    device, new = device_id()
    try:
        ledger.vote(store(), code, device, bid)
    except ledger.PollError as refused:
        if refused.status != 409:
            raise
        flash(refused.message[:1].upper() + refused.message[1:] + ".")
    response = redirect(url_for(".phone", code=code.upper()), 303)
    return remember(response, device) if new else response


def admin(code: str, key: str):
    """The poll *code* and its status, for the holder of its admin key.

    :raises PageError: 403 for a missing or wrong key.
    """
    poll, status = ledger.load(store(), code)
    if not poll.admits(key):
        raise PageError(Problem(403, "not_the_admin", "This is the instructor's page",
                                "Open the poll's admin link, the address the poll was "
                                "started with; students join at /live/" + poll.code))
    return poll, status


def histogram(answer: Answer, counts: dict[str, int], first: dict[str, int] | None):
    """The bars of the reveal: every bid voted or right, with its count, its share, the
    misreadings behind it (wrong bars) and its shift from the first vote."""
    total = sum(counts.values()) or 1
    keys = [key for key in BID_KEYS
            if key in counts or key in (first or {}) or key == bid_key(answer.right)]
    bars = []
    for key in keys:
        labels = [variant_by_id(name) for name in answer.label(key)]
        bars.append({"bid": Bid.from_value(key_bid(key)), "count": counts.get(key, 0),
                     "share": counts.get(key, 0) / total,
                     "right": key_bid(key) == answer.right,
                     "labels": labels[:SHOWN_LABELS], "more": len(labels[SHOWN_LABELS:]),
                     "shift": None if first is None else
                     shift(first, counts).get(key, 0)})
    return bars


@blueprint.get("/<code>/host")
def host(code: str):
    """The projector view: join code and QR, the count while open, the histogram with
    its misreadings and the answer once revealed; the instructor's buttons."""
    key = request.args.get("key", "")
    poll, status = admin(code, key)
    current = poll.rounds[status.round]
    votes = ledger.ballots(store(), poll.code, status.round)
    counts = tally(votes)
    page = dict(poll=poll, status=status, current=current, key=key,
                hand=parse_hand(current.hand), answered=sum(counts.values()),
                join_url=url_for(".phone", code=poll.code, _external=True),
                sources=SOURCES, rules=DEALING_RULES, OPEN=OPEN, REVEALED=REVEALED)
    page["qr"] = qr_svg(page["join_url"])
    if status.state == REVEALED:
        answer = Answer.of(current.hand)
        before = ledger.ballots(store(), poll.code, status.round - 1) if current.second else None
        page |= dict(advice=explain(current.hand),
                     bars=histogram(answer, counts, None if before is None else tally(before)),
                     moved=None if before is None else moves(before, votes, answer.right),
                     moves=MOVES)
    return render_template("live_host.html", **page)


@blueprint.get("/<code>/teacher")
def teacher(code: str):
    """The instructor's own view, not for the projector: the share right so far and the
    distribution with its misreadings, while the vote is open too."""
    key = request.args.get("key", "")
    poll, status = admin(code, key)
    current = poll.rounds[status.round]
    votes = ledger.ballots(store(), poll.code, status.round)
    counts, answer = tally(votes), Answer.of(current.hand)
    return render_template("live_teacher.html", poll=poll, status=status, current=current,
                           key=key, hand=parse_hand(current.hand), OPEN=OPEN,
                           answered=sum(counts.values()),
                           right=counts.get(bid_key(answer.right), 0),
                           bars=histogram(answer, counts, None), votes_mark=events.mark(votes))


ACTIONS = ("close", "reveal", "again", "next")


@blueprint.post("/<code>/host")
def steer(code: str):
    """Close, reveal, vote again, or move to the next hand; back to the projector."""
    key = request.form.get("key", "")
    poll, status = admin(code, key)
    action = request.form.get("action", "")
    if action == "close":
        ledger.close(store(), poll, status)
    elif action == "reveal":
        ledger.reveal(store(), poll, status)
    elif action in ("again", "next"):
        hand = chosen_hand(request.form) if action == "next" else None
        ledger.next_round(store(), poll, status, hand)
    else:
        raise PageError(Problem(400, "bad_action", "Not a step of a poll",
                                f"choose one of {', '.join(ACTIONS)}"))
    return redirect(url_for(".host", code=poll.code, key=key), 303)


SUMMARY_TYPES = {"json": "application/json", "csv": "text/csv; charset=utf-8",
                 "html": "text/html; charset=utf-8"}


@blueprint.get("/<code>/summary.<kind>")
def download(code: str, kind: str):
    """The session's summary, to keep: every vote's counts and the misreadings the room
    showed, per hand; as a page of its own (html), a table (csv) or data (json).

    :raises PageError: 404 for another kind of file, naming the three.
    """
    poll, _ = admin(code, request.args.get("key", ""))
    if kind not in SUMMARY_TYPES:
        raise PageError(Problem(404, "no_such_summary", "No such summary",
                                f"the summary comes as {', '.join(SUMMARY_TYPES)}: ask for "
                                f"summary.html, summary.csv or summary.json"))
    shown = summary(store(), poll)
    if kind == "json":
        body = json.dumps(shown, indent=2) + "\n"
    elif kind == "csv":
        body = summary_csv(shown)
    else:
        body = render_template("live_summary.html", summary=shown, moves=MOVES,
                               hands=summary_hands(shown), style_sheet=style_sheet())
    return Response(body, content_type=SUMMARY_TYPES[kind], headers={
        "Content-Disposition": f'attachment; filename="poll-{poll.code}.{kind}"'})


def style_sheet() -> Markup:
    """The app's style sheet, to write into a page that is to stand alone."""
    text = Path(current_app.static_folder, "style.css").read_text(encoding="utf-8")
    return Markup(text.replace("</", "<\\/"))


def summary_hands(shown: dict) -> list[dict]:
    """What the summary page shows of each vote: its hand, its answer, its bars (with
    the misreadings behind each wrong one) and the misreadings the room showed."""
    hands = []
    for round_ in shown["rounds"]:
        answer = Answer.of(round_["hand"])
        hands.append({"hand": parse_hand(round_["hand"]), "advice": explain(round_["hand"]),
                      "bars": histogram(answer, round_["votes"], None),
                      "shown": [(variant_by_id(name), count)
                                for name, count in round_["misreadings"].items()]})
    return hands


@blueprint.get("/<code>/events")
def stream(code: str):
    """The poll's server-sent events (round, state, answers), for pages to update."""
    ledger.load(store(), code)
    seconds = current_app.config.get("LIVE_STREAM_SECONDS", events.STREAM_SECONDS)
    return Response(events.stream(store(), code.upper(), seconds), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
