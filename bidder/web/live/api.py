"""The live poll's JSON API under /api/polls: make a poll, vote, and (with the admin
token) close, reveal, start the next vote and read the distribution."""

from __future__ import annotations

import secrets

from flask import Blueprint, Response, current_app, jsonify, request

from ...bids import Bid, BidError
from ...cards import InvalidHandError
from .. import heavy
from ..errors import Problem, error_json
from ..rate_limits import limiter, live_limit
from ..state import StoreUnavailable, store_of
from . import ledger
from .device import device_id, remember
from .hands import APART_WORK, SEEDS, NamedError, apart_for, canonical
from .report import summary, view

blueprint = Blueprint("live_api", __name__, url_prefix="/api/polls")
HAND_EXAMPLE = '{"hand": "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"}'
APART_EXAMPLE = '{"apart": ["R2.len=3+", "omit=R3"]} (or [] for any misreadings)'
START_EXAMPLE = f'{HAND_EXAMPLE}, or {APART_EXAMPLE}, with "count_first": true if you wish'
BID_EXAMPLE = '{"bid": "1C"} (or {"bid": null} for no bid)'


@blueprint.errorhandler(ledger.PollError)
def refuse(error: ledger.PollError) -> Response:
    """A refused operation as the API's JSON error."""
    return error_json(Problem(error.status, error.code, error.code.replace("_", " "),
                              error.message))


@blueprint.errorhandler(StoreUnavailable)
def unavailable(error: StoreUnavailable) -> Response:
    """The store failed: 503, and try again shortly."""
    response = error_json(Problem(503, "store_unavailable", "store unavailable",
                                  "the server cannot keep polls just now; try again in "
                                  "a minute"))
    response.headers["Retry-After"] = "60"
    return response


def body_field(name: str, example: str) -> object:
    """Field *name* of the JSON object body (absent: None).

    :raises PollError: 400 or 415 for a body that is not a JSON object.
    """
    if not request.is_json:
        raise ledger.PollError(415, "unsupported_media_type",
                               f"send Content-Type: application/json with {example}")
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise ledger.PollError(400, "not_an_object", f"the body must be a JSON object: "
                               f"send {example}")
    return body.get(name)


def read_hand(value: object) -> str:
    """A hand field read into the canonical hand.

    :raises PollError: 400 naming what is wrong with it.
    """
    if not isinstance(value, str):
        raise ledger.PollError(400, "missing_hand", f"send the hand as a string: {HAND_EXAMPLE}")
    try:
        return canonical(value)
    except InvalidHandError as error:
        raise ledger.PollError(400, error.code, error.message) from None


def read_bid(value: object) -> str | None:
    """A bid field ('1C', 'No bid', null) read into its text (None for no bid).

    :raises PollError: 400 naming what is wrong with it.
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise ledger.PollError(400, "bad_bid", f"send the bid as a string: {BID_EXAMPLE}")
    try:
        return Bid.parse(value).text
    except BidError as error:
        raise ledger.PollError(400, "bad_bid", f"{error}; send {BID_EXAMPLE}") from None


def admin_poll(code: str):
    """The poll *code* names and its status, for its admin only.

    :raises PollError: 401 without the poll's admin token.
    """
    poll, status = ledger.load(store_of_app(), code)
    if not is_admin(poll):
        raise ledger.PollError(401, "not_the_admin", "send the poll's admin token as "
                               "Authorization: Bearer <admin>, as POST /api/polls gave it")
    return poll, status


def store_of_app():
    """The app's state store."""
    return store_of(current_app)


def is_admin(poll) -> bool:
    """Whether the request carries *poll*'s admin token."""
    sent = request.headers.get("Authorization", "")
    return sent.startswith("Bearer ") and poll.admits(sent[len("Bearer "):])


def start_hand() -> str:
    """The hand a new poll is to open on: the one sent, or one dealt to tell the named
    misreadings apart.

    :raises PollError: 400 for both or neither, a list that is not one of ids, or an id
        that names no misreading (naming it).
    """
    apart = body_field("apart", START_EXAMPLE)
    if apart is None:
        return read_hand(body_field("hand", START_EXAMPLE))
    if body_field("hand", START_EXAMPLE) is not None:
        raise ledger.PollError(400, "hand_and_apart", f"send a hand or misreadings to tell "
                               f"apart, not both: {START_EXAMPLE}")
    if not (isinstance(apart, list) and all(isinstance(one, str) for one in apart)):
        raise ledger.PollError(400, "bad_misreading", f"send the misreadings to tell apart "
                               f"as a list of ids: {APART_EXAMPLE}")
    try:
        return heavy.run(APART_WORK, apart_for, tuple(apart), secrets.randbelow(SEEDS) + 1)
    except NamedError as error:
        raise ledger.PollError(400, error.code, error.message) from None


def count_first() -> bool:
    """Whether the new poll has students count the hand before they bid.

    :raises PollError: 400 for a count_first that is not true, false or absent.
    """
    value = body_field("count_first", START_EXAMPLE)
    if value is None or isinstance(value, bool):
        return bool(value)
    raise ledger.PollError(400, "bad_count_first", f"count_first is true or false, not "
                           f"{str(value)[:20]!r}: {START_EXAMPLE}")


@blueprint.post("")
@limiter.limit(live_limit)
def start() -> tuple[Response, int]:
    """Open a poll on the hand sent, or on one that tells the misreadings named apart:
    its code and admin token."""
    poll, token = ledger.create(store_of_app(), start_hand(), count_first=count_first())
    return jsonify(code=poll.code, admin=token), 201


@blueprint.post("/<code>/votes")
@limiter.limit(live_limit)
def vote(code: str) -> Response:
    """This device's vote in the round on the table (replacing its last)."""
    bid = read_bid(body_field("bid", BID_EXAMPLE))
    device, new = device_id()
    status, answered = ledger.vote(store_of_app(), code, device, bid)
    response = jsonify(round=status.round, bid=bid, answered=answered)
    return remember(response, device) if new else response


@blueprint.get("/<code>")
def show(code: str) -> Response:
    """The poll: the distribution only with the admin token, or once revealed."""
    store = store_of_app()
    poll, status = ledger.load(store, code)
    return jsonify(view(store, poll, status, is_admin(poll)))


@blueprint.post("/<code>/close")
def close(code: str) -> Response:
    """Close the vote on the table."""
    poll, status = admin_poll(code)
    store = store_of_app()
    return jsonify(view(store, poll, ledger.close(store, poll, status), True))


@blueprint.post("/<code>/reveal")
def reveal(code: str) -> Response:
    """Close the vote if open, and show its answers to the room."""
    poll, status = admin_poll(code)
    store = store_of_app()
    return jsonify(view(store, poll, ledger.reveal(store, poll, status), True))


@blueprint.post("/<code>/rounds")
def next_round(code: str) -> Response:
    """A second vote on the same hand, or with {"hand": ...} the next hand."""
    poll, status = admin_poll(code)
    hand = None
    if request.content_length:
        value = body_field("hand", HAND_EXAMPLE)
        hand = None if value is None else read_hand(value)
    store = store_of_app()
    poll, status = ledger.next_round(store, poll, status, hand)
    return jsonify(view(store, poll, status, True))


@blueprint.get("/<code>/summary")
def session_summary(code: str) -> Response:
    """The session so far: every vote's counts and the misreadings the room showed."""
    poll, _ = admin_poll(code)
    return jsonify(summary(store_of_app(), poll))
