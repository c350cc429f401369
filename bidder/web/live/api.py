"""The live poll's JSON API under /api/polls: make a poll, join it and vote (with the
device cookie the join sets), and (with the admin token, sent as a bearer token, never
in an address) close, reveal, start the next vote and read the distribution."""

from __future__ import annotations

import secrets

from flask import Blueprint, Response, current_app, jsonify, request

from ...bids import Bid, BidError
from ...cards import InvalidHandError
from .. import heavy
from ..errors import Problem, error_json
from ..rate_limits import code_lookups, limiter, live_limit, poll_limit
from ..state import StoreUnavailable, store_of
from . import ledger
from .device import device_id, joining_device, remember
from .hands import APART_WORK, SEEDS, NamedError, apart_for, canonical
from .report import summary, view
from .splitting import SPLIT_WORK, class_answers, split_hand

blueprint = Blueprint("live_api", __name__, url_prefix="/api/polls")
blueprint.after_request(remember)
HAND_EXAMPLE = '{"hand": "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"}'
APART_EXAMPLE = '{"apart": ["R2.len=3+", "omit=R3"]} (or [] for any misreadings)'
START_EXAMPLE = (f'{HAND_EXAMPLE}, or {APART_EXAMPLE}, with "count_first": true and '
                 f'"class_size": 30 if you wish')
ROUNDS_EXAMPLE = f'{HAND_EXAMPLE}, or {{"split": true}} for the hand that splits the class'
BID_EXAMPLE = '{"bid": "1C"} (or {"bid": null} for no bid)'
COUNT_EXAMPLE = '{"hcp": 12, "distribution": 1}'
MAX_COUNTED = 99  # a count sent, whatever the hand


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


def class_size() -> int | None:
    """How many devices may join the new poll (None: as many as any poll takes).

    :raises PollError: 400 for anything but a whole number from 1 to MAX_DEVICES.
    """
    value = body_field("class_size", START_EXAMPLE)
    if value is None or (type(value) is int and 1 <= value <= ledger.MAX_DEVICES):
        return value
    raise ledger.PollError(400, "bad_class_size", f"class_size is a whole number from 1 to "
                           f"{ledger.MAX_DEVICES}, not {str(value)[:20]!r}: {START_EXAMPLE}")


def whole_count(name: str) -> int:
    """The count *name* of the body, a whole number from 0 to MAX_COUNTED.

    :raises PollError: 400 naming the field.
    """
    value = body_field(name, COUNT_EXAMPLE)
    if type(value) is int and 0 <= value <= MAX_COUNTED:
        return value
    raise ledger.PollError(400, "bad_count", f"{name} is a whole number from 0 to "
                           f"{MAX_COUNTED}, not {str(value)[:20]!r}: send {COUNT_EXAMPLE}")


def joined_device(code: str) -> str:
    """This request's device.

    :raises PollError: 403, saying to join first, without a device cookie.
    """
    device = device_id()
    if device is None:
        raise ledger.PollError(403, "not_joined", f"this client has not joined poll "
                               f"{code.upper()[:12]!r}: POST /api/polls/{code.upper()[:12]}"
                               f"/join first, and send the cookie it sets with each vote")
    return device


@blueprint.post("")
@limiter.limit(poll_limit)
def start() -> tuple[Response, int]:
    """Open a poll on the hand sent, or on one that tells the misreadings named apart:
    its code and admin token."""
    poll, token = ledger.create(store_of_app(), start_hand(), count_first=count_first(),
                                class_size=class_size())
    return jsonify(code=poll.code, admin=token), 201


@blueprint.post("/<code>/join")
@code_lookups
def join(code: str) -> Response:
    """Join the poll as a device (its cookie set first, on any answer, so a client that
    retries is the same device): how many have joined."""
    store = store_of_app()
    poll, _ = ledger.load(store, code)
    joined = ledger.join(store, poll, joining_device())
    return jsonify(code=poll.code, joined=joined, count_first=poll.count_first)


@blueprint.post("/<code>/count")
@code_lookups
def count(code: str) -> Response:
    """This device's count of the hand (HCP and distribution points), which a count-first
    poll asks for before each vote: it admits the device to the round on the table."""
    device = joined_device(code)
    store = store_of_app()
    poll, status = ledger.load(store, code)
    hcp, distribution = whole_count("hcp"), whole_count("distribution")
    ledger.counted(store, poll, status, device)
    return jsonify(round=status.round, hcp=hcp, distribution=distribution)


@blueprint.post("/<code>/votes")
@limiter.limit(live_limit)
def vote(code: str) -> Response:
    """This device's vote in the round on the table (replacing its last)."""
    bid = read_bid(body_field("bid", BID_EXAMPLE))
    status, answered = ledger.vote(store_of_app(), code, joined_device(code), bid)
    return jsonify(round=status.round, bid=bid, answered=answered)


@blueprint.get("/<code>")
@code_lookups
def show(code: str) -> Response:
    """The poll: the distribution only with the admin token, or once revealed."""
    store = store_of_app()
    poll, status = ledger.load(store, code)
    return jsonify(view(store, poll, status, is_admin(poll)))


@blueprint.post("/<code>/close")
@code_lookups
def close(code: str) -> Response:
    """Close the vote on the table."""
    poll, status = admin_poll(code)
    store = store_of_app()
    return jsonify(view(store, poll, ledger.close(store, poll, status), True))


@blueprint.post("/<code>/reveal")
@code_lookups
def reveal(code: str) -> Response:
    """Close the vote if open, and show its answers to the room."""
    poll, status = admin_poll(code)
    store = store_of_app()
    return jsonify(view(store, poll, ledger.reveal(store, poll, status), True))


@blueprint.post("/<code>/rounds")
@code_lookups
def next_round(code: str) -> Response:
    """A second vote on the same hand, with {"hand": ...} the next hand, or with
    {"split": true} the next hand chosen to split the class's votes so far."""
    poll, status = admin_poll(code)
    store = store_of_app()
    hand = next_hand(store, poll, status) if request.content_length else None
    poll, status = ledger.next_round(store, poll, status, hand)
    return jsonify(view(store, poll, status, True))


def next_hand(store, poll, status) -> str | None:
    """The next hand a rounds body asks for: the one sent, the one that splits the class
    (worked out in the worker's pool), or None for the same hand again.

    :raises PollError: 400 for both, a split that is not true or false, or a bad hand.
    """
    split, value = body_field("split", ROUNDS_EXAMPLE), body_field("hand", ROUNDS_EXAMPLE)
    if split is not None and not isinstance(split, bool):
        raise ledger.PollError(400, "bad_split", f"send split as true or false: "
                               f"{ROUNDS_EXAMPLE}")
    if split and value is not None:
        raise ledger.PollError(400, "hand_and_split", f"send a hand or split, not both: "
                               f"{ROUNDS_EXAMPLE}")
    if split:
        return heavy.run(SPLIT_WORK, split_hand, class_answers(store, poll, status))
    return None if value is None else read_hand(value)


@blueprint.get("/<code>/summary")
@code_lookups
def session_summary(code: str) -> Response:
    """The session so far: every vote's counts and the misreadings the room showed."""
    poll, _ = admin_poll(code)
    return jsonify(summary(store_of_app(), poll))
