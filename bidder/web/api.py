"""The JSON API: the advice for a hand, the advisor page's verdict on a text (its live
count), its OpenAPI description, and a ping."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request
from werkzeug.exceptions import BadRequest

from .. import InvalidHandError, explain
from ..cards import EXAMPLE_HAND
from .advisor import count_verdict
from .app import NestedTooDeeply
from .errors import Problem, error_json
from .openapi import openapi_document

blueprint = Blueprint("api", __name__, url_prefix="/api")
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
JSON_EXAMPLE = f'{{"hand": "{EXAMPLE_HAND}"}}'


class ApiError(Exception):
    """A request the API refuses, with the problem to send back."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.problem = Problem(status, code, code.replace("_", " "), message)


@blueprint.errorhandler(ApiError)
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


def read_json() -> object:
    """The JSON body, or an ApiError if it is not JSON this API can read."""
    try:
        return request.get_json()
    except NestedTooDeeply:
        problem = "is nested too deeply"
    except BadRequest:
        problem = "is not valid JSON in UTF-8"
    raise ApiError(400, "bad_json", f"the body {problem}: send {JSON_EXAMPLE}")


_JSON_TYPES = {bool: "true or false", int: "a number", float: "a number",
               list: "a list", str: "a string", type(None): "null"}


def json_type(value: object) -> str:
    """How a JSON value's type reads in a message, e.g. 'a list'."""
    return _JSON_TYPES.get(type(value), "an object")
