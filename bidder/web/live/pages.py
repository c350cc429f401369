"""The live poll's pages at /live: start a poll, join it, vote from a phone (plain forms,
no script needed), and the projector view the instructor drives from the browser that
started the poll (or a device added by a one-time link)."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

from flask import (Blueprint, Response, current_app, flash, make_response, redirect,
                   render_template, request, session, url_for)
from markupsafe import Markup

from ...advice import explain, is_reachable
from ...bids import Bid, BidError
from ...cards import InvalidHandError, parse_hand
from ...dealing import DealError
from ...facts import Facts
from ...misreadings import variant_by_id
from ...rules import RULES
from .. import heavy
from ..errors import Problem
from ..rate_limits import code_lookups, limiter, live_limit, poll_limit
from ..state import StoreUnavailable, store_of
from ..teach.miscount import miscounted
from ..teach.practice import COUNT_FIELDS, bid_rows, read_counts
from . import events, instructor, ledger, streams
from .device import device_id, joining_device, remember
from .hands import APART_WORK, SEEDS, NamedError, apart_for, canonical, dealt_for, read_ids
from .model import (BID_KEYS, MOVES, OPEN, REVEALED, Answer, bid_key, key_bid, moves, shift,
                    tally)
from .qr import qr_svg
from .report import summary, summary_csv
from .splitting import SPLIT_WORK, class_answers, split_hand

blueprint = Blueprint("live", __name__, url_prefix="/live")
blueprint.after_request(remember)
SOURCES = (("pasted", "A hand I paste"), ("rule", "A hand dealt for a rule"),
           ("apart", "A hand that tells misreadings apart"))
# The next hand may also be the one that best splits the class's votes so far.
NEXT_SOURCES = SOURCES + (("split", "The next hand chosen to split the class"),)
# The rules a hand can be dealt for: those that decide some hand on their own (R4 never
# does: R3 always comes first).
DEALING_RULES = tuple(rule for rule in RULES if is_reachable(rule))
SHOWN_LABELS = 3  # misreadings written out under a wrong bar; the rest counted
COUNTED_KEY = "live_count"  # the session's count for one poll's round


class PageError(Exception):
    """A request a page refuses, with the problem to show."""

    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


POLL_REFUSALS = {"no_such_poll": "No such poll", "poll_closed": "The vote is closed",
                 "not_joined": "Join the poll first", "class_full": "This poll is full"}


@blueprint.errorhandler(ledger.PollError)
def poll_refused(error: ledger.PollError):
    """A refused poll operation, as a page."""
    title = POLL_REFUSALS.get(error.code, "Not now")
    return render_template("error.html", problem=Problem(error.status, error.code, title,
                                                         error.message)), error.status


@blueprint.errorhandler(PageError)
def page_refused(error: PageError):
    """A refused request, as a page (with Retry-After for a 429 or 503)."""
    retry = ({"Retry-After": str(streams.RETRY_SECONDS)} if error.problem.status in (429, 503)
             else {})
    return render_template("error.html", problem=error.problem), error.problem.status, retry


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
                                f"{sentence(error.message)} Name misreadings by their "
                                f"ids, or leave the field empty for any.")) from None
    except (InvalidHandError, DealError) as error:
        raise PageError(Problem(400, error.code, "Check the hand",
                                f"{sentence(error.message)} Paste a hand of 13 cards, "
                                f"or choose a rule to deal one.")) from None


def sentence(text: str) -> str:
    """*text* as a sentence: a capital first and one full stop at the end."""
    text = text.strip().rstrip(".")
    return text[:1].upper() + text[1:] + "."


CLASS_SIZE_HELP = (f"Give the class size as a whole number from 1 to {ledger.MAX_DEVICES:,}, "
                   f"or leave it empty for any.")


def class_size(text: str) -> int | None:
    """The class size the start form gives (empty: none).

    :raises PageError: 400 for anything but a whole number from 1 to MAX_DEVICES.
    """
    text = text.strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= ledger.MAX_DEVICES):
        raise PageError(Problem(400, "bad_class_size", "Check the class size",
                                f"The class size is {text[:12]!r}. {CLASS_SIZE_HELP}"))
    return int(text)


FORM_FIELDS = ("source", "hand", "rule", "misreadings", "count_first", "class_size")


def typed_in(form) -> dict[str, str]:
    """What the instructor typed and chose in a poll's form, to show it again."""
    return {name: form.get(name, "")[:200] for name in FORM_FIELDS}


@blueprint.get("")
def start_page(problem: Problem | None = None, typed: dict | None = None):
    """Start a poll, or join one by its code (again with *typed* and the *problem* with
    it, when a start was refused)."""
    return render_template("live_start.html", sources=SOURCES, rules=DEALING_RULES,
                           problem=problem, typed=typed or {},
                           max_devices=ledger.MAX_DEVICES)


@blueprint.post("")
@limiter.limit(poll_limit)
def start():
    """Open a poll on the chosen hand and go to its projector view, this browser holding
    the instructor's cookie; a refused start shows the form again as it was sent."""
    try:
        poll, _ = ledger.create(store(), chosen_hand(request.form),
                                count_first=request.form.get("count_first") == "1",
                                class_size=class_size(request.form.get("class_size", "")))
    except PageError as refused:
        return start_page(refused.problem, typed_in(request.form)), refused.problem.status
    response = redirect(url_for(".host", code=poll.code), 303)
    return instructor.grant(response, poll)


@blueprint.get("/join")
@code_lookups
def join():
    """The poll whose code the join form sends."""
    code = request.args.get("code", "").strip().upper()
    ledger.load(store(), code)
    return redirect(url_for(".phone", code=code), 303)


def voted(key: str | None) -> Bid | None:
    """The Bid a vote key stands for (None for no vote)."""
    return None if key is None else Bid.from_value(key_bid(key))


@blueprint.get("/<code>")
@code_lookups
def phone(code: str):
    """A student's page, which joins the poll (the device cookie is set first, on any
    answer, so a phone that retries is the same device): the hand, the bidding box while
    the vote is open (after the count, in a count-first poll), the answer once revealed.
    """
    poll, status = ledger.load(store(), code)
    device = joining_device()
    ledger.join(store(), poll, device)
    return phone_page(poll, status, device)


def phone_page(poll, status, device: str, errors: dict | None = None,
               typed: dict | None = None, code: int = 200):
    """The student's page for the round on the table."""
    current = poll.rounds[status.round]
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


def joined_device(code: str) -> str:
    """This request's device.

    :raises PollError: 403, saying to open the join page, without a device cookie.
    """
    device = device_id()
    if device is None:
        raise ledger.not_joined(code)
    return device


@blueprint.post("/<code>/count")
@code_lookups
def count(code: str):
    """Check a student's HCP and distribution points, kept in the session for this
    round, and admit the device to this round's vote; then the bidding box."""
    device = joined_device(code)
    poll, status = ledger.load(store(), code)
    typed, numbers, errors = read_counts(request.form)
    if errors:
        return phone_page(poll, status, device, errors, typed, 400)
    ledger.counted(store(), poll, status, device)
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
    try:
        ledger.vote(store(), code, joined_device(code), bid)
    except ledger.PollError as refused:
        if refused.status != 409:
            raise
        flash(sentence(refused.message))
    return redirect(url_for(".phone", code=code.upper()), 303)


def admin(code: str):
    """The poll *code* and its status, for a browser its instructor holds.

    :raises PageError: 403 for any other.
    """
    poll, status = ledger.load(store(), code)
    if not instructor.holds_grant(poll):
        raise PageError(Problem(
            403, "not_the_admin", "This is the instructor's page",
            f"Only the browser that started poll {poll.code}, or a device its instructor "
            f"added with a one-time link from the instructor's own view, opens this "
            f"page. Students join at /live/{poll.code}."))
    return poll, status


def no_store(page, status: int = 200) -> Response:
    """*page* as a response that no cache keeps (it carries the instructor's controls)."""
    return make_response(page, status, instructor.NO_STORE)


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
@code_lookups
def host(code: str):
    """The projector view: join code and QR, the count while open, the histogram with
    its misreadings and the answer once revealed; the instructor's buttons."""
    poll, status = admin(code)
    return host_page(poll, status)


def join_url(poll) -> str:
    """The address phones join *poll* at, from the public address (BIDDER_PUBLIC_URL),
    never from the Host a request claims; '' when none is set."""
    public = current_app.config.get("PUBLIC_URL", "")
    return f"{public}{url_for('.phone', code=poll.code)}" if public else ""


def host_page(poll, status, problem: Problem | None = None, typed: dict | None = None):
    """The projector view of *poll*, with the next-hand form as *typed* and its *problem*
    when the next hand was refused."""
    current = poll.rounds[status.round]
    votes = ledger.ballots(store(), poll.code, status.round)
    counts = tally(votes)
    page = dict(poll=poll, status=status, current=current, problem=problem,
                typed=typed or {}, hand=parse_hand(current.hand),
                answered=sum(counts.values()), join_url=join_url(poll),
                sources=NEXT_SOURCES, rules=DEALING_RULES, OPEN=OPEN, REVEALED=REVEALED)
    page["qr"] = qr_svg(page["join_url"]) if page["join_url"] else ""
    if status.state == REVEALED:
        answer = Answer.of(current.hand)
        before = ledger.ballots(store(), poll.code, status.round - 1) if current.second else None
        page |= dict(advice=explain(current.hand),
                     bars=histogram(answer, counts, None if before is None else tally(before)),
                     moved=None if before is None else moves(before, votes, answer.right),
                     moves=MOVES)
    return no_store(render_template("live_host.html", **page),
                    problem.status if problem else 200)


@blueprint.get("/<code>/teacher")
@code_lookups
def teacher(code: str):
    """The instructor's own view, not for the projector: the share right so far, the
    devices joined against the votes, and the distribution with its misreadings, while
    the vote is open too."""
    poll, status = admin(code)
    current = poll.rounds[status.round]
    votes = ledger.ballots(store(), poll.code, status.round)
    counts, answer = tally(votes), Answer.of(current.hand)
    return no_store(render_template(
        "live_teacher.html", poll=poll, status=status, current=current,
        hand=parse_hand(current.hand), OPEN=OPEN, answered=sum(counts.values()),
        joined=ledger.joined(store(), poll.code), right=counts.get(bid_key(answer.right), 0),
        bars=histogram(answer, counts, None), votes_mark=events.mark(votes)))


@blueprint.post("/<code>/remote")
@code_lookups
def remote(code: str):
    """A one-time link (and its QR code) that adds a second device, such as a phone to
    steer the poll from, to the instructor's; shown only here, to the instructor."""
    poll, _ = admin(code)
    link = url_for(".redeem", code=poll.code, ticket=instructor.ticket(poll))
    address = f"{current_app.config.get('PUBLIC_URL', '')}{link}"
    return no_store(render_template("live_remote.html", poll=poll, link=address,
                                    qr=qr_svg(address) if address != link else "",
                                    minutes=instructor.TICKET_SECONDS // 60))


@blueprint.get("/<code>/remote/<ticket>")
@code_lookups
def redeem(code: str, ticket: str):
    """Add this device to the instructor's, once, with a ticket from remote().

    :raises PageError: 403 for a ticket used before, expired or of another poll.
    """
    poll, _ = ledger.load(store(), code)
    if not instructor.redeem(store(), poll, ticket):
        raise PageError(Problem(
            403, "ticket_used", "This link has been used or has expired",
            f"A link that adds a device to the instructor's works once, within "
            f"{instructor.TICKET_SECONDS // 60} minutes. Make a new one on the "
            f"instructor's own view of poll {poll.code}."))
    page = render_template("live_added.html", poll=poll)
    return instructor.grant(no_store(page), poll)


ACTIONS = ("close", "reveal", "again", "next")


@blueprint.post("/<code>/host")
@code_lookups
def steer(code: str):
    """Close, reveal, vote again, or move to the next hand; back to the projector (a
    next hand refused shows the projector again with the form as it was sent)."""
    poll, status = admin(code)
    action = request.form.get("action", "")
    if action == "close":
        ledger.close(store(), poll, status)
    elif action == "reveal":
        ledger.reveal(store(), poll, status)
    elif action == "again":
        ledger.next_round(store(), poll, status, None)
    elif action == "next" and request.form.get("source") == "split":
        ledger.next_round(store(), poll, status, heavy.run(
            SPLIT_WORK, split_hand, class_answers(store(), poll, status)))
    elif action == "next":
        try:
            hand = chosen_hand(request.form)
        except PageError as refused:
            return host_page(poll, status, refused.problem, typed_in(request.form))
        ledger.next_round(store(), poll, status, hand)
    else:
        raise PageError(Problem(400, "bad_action", "Not a step of a poll",
                                f"Choose one of {', '.join(ACTIONS)}."))
    return redirect(url_for(".host", code=poll.code), 303)


SUMMARY_TYPES = {"json": "application/json", "csv": "text/csv; charset=utf-8",
                 "html": "text/html; charset=utf-8"}


@blueprint.get("/<code>/summary.<kind>")
@code_lookups
def download(code: str, kind: str):
    """The session's summary, to keep: every vote's counts and the misreadings the room
    showed, per hand; as a page of its own (html), a table (csv) or data (json).

    :raises PageError: 404 for another kind of file, naming the three.
    """
    poll, _ = admin(code)
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
        "Content-Disposition": f'attachment; filename="poll-{poll.code}.{kind}"',
        **instructor.NO_STORE})


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


STREAMS_FULL = {
    "client": Problem(429, "too_many_streams", "Too many live updates",
                      "This device holds as many live updates of polls as the server "
                      "gives one device; close another tab of the poll, or reload the "
                      "page in a minute."),
    "poll": Problem(503, "poll_streams_full", "Too many live updates",
                    "This poll has as many live updates open as the server holds; "
                    "reload the page in a minute (votes are taken meanwhile)."),
}


def stream_client(poll) -> str:
    """Who holds a stream, for its bound: the device, else the poll's instructor, else
    the address."""
    device = device_id()
    if device is not None:
        return f"device:{device}"
    if instructor.holds_grant(poll):
        return f"instructor:{poll.code}"
    return f"address:{request.remote_addr}"


@blueprint.get("/<code>/events")
@code_lookups
def stream(code: str):
    """The poll's server-sent events (round, state, answers), for pages to update; a
    few at a time per device and a bounded number per poll, in each worker.

    :raises PageError: 429 (a device's) or 503 (the poll's) with Retry-After past a bound.
    """
    poll, _ = ledger.load(store(), code)
    client, slots = stream_client(poll), streams.slots()
    full = slots.take(client, poll.code)
    if full:
        raise PageError(STREAMS_FULL[full])
    seconds = current_app.config.get("LIVE_STREAM_SECONDS", events.STREAM_SECONDS)
    held = streams.Held(events.stream(store(), poll.code, seconds),
                        lambda: slots.give_back(client, poll.code))
    return Response(held, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
