"""The JSON API: the advice for a hand, the advisor page's verdict on a text (its live
count), the diagnostic round's next step, its OpenAPI description, and a ping."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request
from werkzeug.exceptions import BadRequest

from .. import InvalidHandError, explain
from ..bids import Bid, BidError
from ..cards import EXAMPLE_HAND, parse_hand
from ..diagnosis.answers import MOST_COUNTED
from ..diagnosis.rounds import MAX_ANSWERS, diagnosis_of_rows
from . import heavy
from .advisor import count_verdict
from .app import NestedTooDeeply
from .errors import Problem, error_json
from .openapi import DIAGNOSIS_EXAMPLE, openapi_document
from .rate_limits import diagnosis_limit, limiter

blueprint = Blueprint("api", __name__, url_prefix="/api")
# The diagnostic round's door is limited per client: a blueprint of its own, so the
# limiter's hooks stay off /api/bid (see rate_limits.init_app).
diagnosis_blueprint = Blueprint("diagnosis_api", __name__, url_prefix="/api")
ANSWER_FIELDS = ("hand", "bid", "hcp", "distribution")
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
JSON_EXAMPLE = f'{{"hand": "{EXAMPLE_HAND}"}}'


class ApiError(Exception):
    """A request the API refuses, with the problem to send back."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.problem = Problem(status, code, code.replace("_", " "), message)


@blueprint.errorhandler(ApiError)
@diagnosis_blueprint.errorhandler(ApiError)
def refuse(error: ApiError) -> Response:
    """Send the problem as the API's JSON error."""
    return error_json(error.problem)


@blueprint.get("/bid")
def bid_for_query() -> Response:
    """The advice for the hand in the query string: /api/bid?hand=..."""
    hand = request.arg("hand")
    if hand is None:
        raise ApiError(400, "missing_hand", "add the hand to the address, e.g. "
                       "/api/bid?hand=" + EXAMPLE_HAND.replace(" ", "+"))
    return advise(hand)


@blueprint.post("/bid")
def bid_for_body() -> Response:
    """The advice for the hand in a JSON body or a form field `hand`."""
    return advise(hand_from_body())


@blueprint.post("/count")
def count_for_body() -> dict:
    """The advisor page's verdict on the text in a JSON body or a form field `hand`, in
    its own words: what the live count under the hand field shows as it is typed."""
    return count_verdict(hand_from_body())


@diagnosis_blueprint.post("/diagnosis")
@limiter.limit(diagnosis_limit)
def diagnosis() -> Response:
    """The diagnostic round after the answers sent: the candidates, the reading named and
    the next item (stateless: the client sends every answer so far each time)."""
    rows = answers_from_body()
    return jsonify(heavy.run("a diagnosis", diagnosis_of_rows, rows))


def answers_from_body() -> tuple[tuple[str, str | None, int | None, int | None], ...]:
    """The answers of the JSON body as plain rows, each field checked.

    :raises ApiError: 400 naming the field and the answer that is wrong, 415 for a body
        that is not JSON."""
    if not request.is_json:
        raise ApiError(415, "unsupported_media_type",
                       f"send Content-Type: application/json with a body such as "
                       f"{DIAGNOSIS_EXAMPLE}; got {request.mimetype or 'no Content-Type'!r}")
    body = read_json(DIAGNOSIS_EXAMPLE)
    if not isinstance(body, dict) or set(body) != {"answers"}:
        found = (f"an object with {', '.join(map(repr, sorted(body)[:5])) or 'no fields'}"
                 if isinstance(body, dict) else json_type(body))
        raise ApiError(400, "not_answers", f"the body must be an object with 'answers' "
                       f"alone, such as {DIAGNOSIS_EXAMPLE}, not {found}")
    answers = body["answers"]
    if not isinstance(answers, list):
        raise ApiError(400, "answers_not_a_list", f"'answers' must be a list ([] to start), "
                       f"not {json_type(answers)}")
    if len(answers) > MAX_ANSWERS:
        raise ApiError(400, "too_many_answers", f"'answers' holds {len(answers)} answers; a "
                       f"round takes at most {MAX_ANSWERS}: start a new round")
    return tuple(answer_row(answer, f"answers[{place}]")
                 for place, answer in enumerate(answers))


def answer_row(answer: object, where: str) -> tuple[str, str | None, int | None, int | None]:
    """One answer as (hand, bid, HCP, distribution), the hand and the bid as the engine
    writes them.

    :raises ApiError: 400 naming *where* and the field that is wrong."""
    if not isinstance(answer, dict):
        raise ApiError(400, "answer_not_an_object", f"{where} must be an object such as "
                       f'{{"hand": "{EXAMPLE_HAND}", "bid": "1NT"}}, not {json_type(answer)}')
    unknown = sorted(set(answer) - set(ANSWER_FIELDS))
    if unknown:
        raise ApiError(400, "unknown_field", f"{where} has {unknown[0][:20]!r}, which is not "
                       f"a field of an answer: write {', '.join(ANSWER_FIELDS)}")
    for field in ("hand", "bid"):
        if field not in answer:
            raise ApiError(400, f"missing_{field}", f"{where} has no {field!r}: every answer "
                           f"gives the hand and the bid (null for no opening)")
    hand = answer["hand"]
    if not isinstance(hand, str):
        raise ApiError(400, "hand_not_a_string", f"{where}.hand must be a string such as "
                       f"{EXAMPLE_HAND!r}, not {json_type(hand)}")
    try:
        text = str(parse_hand(hand))
    except InvalidHandError as error:
        raise ApiError(400, error.code, f"{where}.hand: {error.message}") from None
    return text, answer_bid(answer["bid"], where), *(
        answer_count(answer.get(field), f"{where}.{field}") for field in ANSWER_FIELDS[2:])


def answer_bid(value: object, where: str) -> str | None:
    """The bid of an answer as the engine writes it ('1NT'), None for no opening."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ApiError(400, "bid_not_a_string", f"{where}.bid must be a bid such as '1NT', "
                       f"or null for no opening, not {json_type(value)}")
    try:
        return Bid.parse(value).text
    except BidError as error:
        raise ApiError(400, "bad_bid", f"{where}.bid: {error.message}") from None


def answer_count(value: object, where: str) -> int | None:
    """An HCP or distribution count, None when not given."""
    if value is None:
        return None
    if type(value) is not int or not 0 <= value <= MOST_COUNTED:
        raise ApiError(400, "bad_count", f"{where} must be a whole number from 0 to "
                       f"{MOST_COUNTED} (or left out), not {str(value)[:20]!r}")
    return value


@blueprint.get("/ping")
def ping() -> dict:
    """A tiny fixed answer: the baseline the load benchmark compares against."""
    return {"status": "ok"}


@blueprint.get("/openapi.json")
def openapi() -> Response:
    """The OpenAPI 3.1 description of this API."""
    return jsonify(openapi_document())


def advise(text: str) -> Response:
    """The advice for *text* as JSON, or a 400 naming what is wrong with the hand."""
    try:
        advice = explain(text)
    except InvalidHandError as error:
        raise ApiError(400, error.code, error.message) from None
    return Response(advice.to_json() + "\n", content_type="application/json")


def hand_from_body() -> str:
    """The text of the `hand` field of a JSON object or a form."""
    if request.is_json:
        body = read_json()
    elif request.mimetype in FORM_TYPES:
        body = request.form
    else:
        raise ApiError(415, "unsupported_media_type",
                       f"send Content-Type: application/json with a body such as "
                       f"{JSON_EXAMPLE}, or a form with a field 'hand'; got "
                       f"{request.mimetype or 'no Content-Type'!r}")
    if not isinstance(body, dict):
        raise ApiError(400, "not_an_object",
                       f"the body must be a JSON object such as {JSON_EXAMPLE}, "
                       f"not {json_type(body)}")
    if "hand" not in body:
        raise ApiError(400, "missing_hand",
                       f"the body has no 'hand': send {JSON_EXAMPLE}")
    hand = body["hand"]
    if not isinstance(hand, str):
        raise ApiError(400, "hand_not_a_string",
                       f"'hand' must be a string such as {EXAMPLE_HAND!r}, "
                       f"not {json_type(hand)}")
    return hand


def read_json(example: str = JSON_EXAMPLE) -> object:
    """The JSON body, or an ApiError if it is not JSON this API can read."""
    try:
        return request.get_json()
    except NestedTooDeeply:
        problem = "is nested too deeply"
    except BadRequest:
        problem = "is not valid JSON in UTF-8"
    raise ApiError(400, "bad_json", f"the body {problem}: send {example}")


_JSON_TYPES = {bool: "true or false", int: "a number", float: "a number",
               list: "a list", str: "a string", type(None): "null"}


def json_type(value: object) -> str:
    """How a JSON value's type reads in a message, e.g. 'a list'."""
    return _JSON_TYPES.get(type(value), "an object")
