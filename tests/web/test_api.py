"""The JSON API: advice for a hand, errors as JSON with the right status, and a ping."""

import json

import pytest

from bidder import explain
from bidder.cards import EXAMPLE_HAND as HAND
from bidder.web.api import json_type
from helpers import NESTED_JSON as NESTED, STRONG_NO_BID as NO_BID

REQUIRED_KEYS = {"hand", "bid", "rule", "hcp", "distribution", "points", "shape",
                 "balanced", "explanation", "trace"}


def expected(hand):
    """What the API must send for *hand*: the core's own dictionary, through JSON."""
    return json.loads(json.dumps(explain(hand).to_dict()))


@pytest.mark.parametrize("send", [
    lambda client, hand: client.get("/api/bid", query_string={"hand": hand}),
    lambda client, hand: client.post("/api/bid", json={"hand": hand}),
    lambda client, hand: client.post("/api/bid", data={"hand": hand}),
    lambda client, hand: client.post("/api/bid", data={"hand": hand},
                                     content_type="multipart/form-data"),
    lambda client, hand: client.post("/api/bid", data=json.dumps({"hand": hand}),
                                     content_type="application/json; charset=utf-8"),
    lambda client, hand: client.post("/api/bid", data=json.dumps({"hand": hand}),
                                     content_type="application/vnd.bidder+json"),
], ids=["get", "post-json", "post-form", "post-multipart", "json-charset", "json-suffix"])
@pytest.mark.parametrize("hand", [HAND, NO_BID, "a4.kq3.aq76.kj85"])
def test_every_channel_returns_the_advice(client, send, hand):
    response = send(client, hand)
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.get_json() == expected(hand)
    assert REQUIRED_KEYS <= set(response.get_json())


def test_the_answer_keeps_the_core_key_order_and_null_for_no_bid(client):
    body = client.get("/api/bid", query_string={"hand": NO_BID}).get_json()
    assert list(body) == list(explain(NO_BID).to_dict())
    assert body["bid"] is None and body["rule"] == "R9"
    raw = client.get("/api/bid", query_string={"hand": NO_BID}).get_data(as_text=True)
    assert '"bid":null' in raw


def test_the_hand_comes_back_canonical(client):
    body = client.get("/api/bid", query_string={"hand": "a4.kq3.aq76.kj85"}).get_json()
    assert body["hand"] == "AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C"


def error(response):
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert body["error"]["message"]
    return response.status_code, body["error"]["code"], body["error"]["message"]


REFUSED = [
    ("get-no-hand", "get", "/api/bid", {}, 400, "missing_hand", "/api/bid?hand=5C+7H"),
    ("get-bad-hand", "get", "/api/bid?hand=AS", {}, 400, "wrong_count", "this one has 1"),
    ("json-empty-object", "post", "/api/bid", {"json": {}}, 400, "missing_hand",
     "the body has no 'hand'"),
    ("json-other-key", "post", "/api/bid", {"json": {"cards": HAND}}, 400, "missing_hand",
     '{"hand": "5C 7H'),
    ("json-null-hand", "post", "/api/bid", {"json": {"hand": None}}, 400,
     "hand_not_a_string", "not null"),
    ("json-number-hand", "post", "/api/bid", {"json": {"hand": 42}}, 400,
     "hand_not_a_string", "not a number"),
    ("json-float-hand", "post", "/api/bid", {"json": {"hand": 4.5}}, 400,
     "hand_not_a_string", "not a number"),
    ("json-bool-hand", "post", "/api/bid", {"json": {"hand": True}}, 400,
     "hand_not_a_string", "not true or false"),
    ("json-list-hand", "post", "/api/bid", {"json": {"hand": HAND.split()}}, 400,
     "hand_not_a_string", "not a list"),
    ("json-object-hand", "post", "/api/bid", {"json": {"hand": {"AS": 1}}}, 400,
     "hand_not_a_string", "not an object"),
    ("json-list", "post", "/api/bid", {"json": [HAND]}, 400, "not_an_object", "not a list"),
    ("json-string", "post", "/api/bid", {"json": HAND}, 400, "not_an_object",
     "not a string"),
    ("json-null", "post", "/api/bid", {"data": "null", "content_type": "application/json"},
     400, "not_an_object", "not null"),
    ("json-number", "post", "/api/bid", {"data": "13", "content_type": "application/json"},
     400, "not_an_object", "not a number"),
    ("json-malformed", "post", "/api/bid",
     {"data": '{"hand": "AS', "content_type": "application/json"}, 400, "bad_json",
     "not valid JSON"),
    ("json-empty-body", "post", "/api/bid", {"data": "", "content_type": "application/json"},
     400, "bad_json", "not valid JSON"),
    ("json-not-utf8", "post", "/api/bid",
     {"data": b'{"hand": "\xff\xfe AS"}', "content_type": "application/json"}, 400,
     "bad_json", "UTF-8"),
    ("json-nested", "post", "/api/bid", {"data": NESTED, "content_type": "application/json"},
     400, "bad_json", "nested too deeply"),
    ("json-nested-objects", "post", "/api/bid",
     {"data": '{"a":' * 2500 + "1" + "}" * 2500, "content_type": "application/json"},
     400, "bad_json", "nested too deeply"),
    ("json-huge-integer", "post", "/api/bid",
     {"data": '{"hand": ' + "9" * 5000 + "}", "content_type": "application/json"}, 400,
     "bad_json", "not valid JSON"),
    ("json-nan", "post", "/api/bid", {"data": '{"hand": NaN}',
                                      "content_type": "application/json"}, 400,
     "hand_not_a_string", "not a number"),
    ("json-lone-surrogate", "post", "/api/bid",
     {"data": '{"hand": "AS \\udc80"}', "content_type": "application/json"}, 400,
     "bad_character", "U+DC80"),
    ("json-nul", "post", "/api/bid", {"json": {"hand": "AS\x00KS"}}, 400, "bad_character",
     "U+0000"),
    ("form-no-hand", "post", "/api/bid", {"data": {"cards": HAND}}, 400, "missing_hand",
     "the body has no 'hand'"),
    ("text-plain", "post", "/api/bid", {"data": HAND, "content_type": "text/plain"}, 415,
     "unsupported_media_type", "got 'text/plain'"),
    ("no-content-type", "post", "/api/bid", {"data": HAND}, 415, "unsupported_media_type",
     "got 'no Content-Type'"),
    ("xml", "post", "/api/bid", {"data": "<hand/>", "content_type": "application/xml"}, 415,
     "unsupported_media_type", "application/json"),
    ("too-large-json", "post", "/api/bid", {"json": {"hand": "AS " * 6000}}, 413,
     "too_large", "16,384 bytes"),
    ("too-large-form", "post", "/api/bid", {"data": {"hand": "AS " * 6000}}, 413,
     "too_large", "16,384 bytes"),
    ("too-large-text", "post", "/api/bid",
     {"data": "x" * 17_000, "content_type": "text/plain"}, 415, "unsupported_media_type",
     "text/plain"),
    ("put", "put", "/api/bid", {"json": {"hand": HAND}}, 405, "method_not_allowed",
     "use GET or POST"),
    ("delete", "delete", "/api/bid", {}, 405, "method_not_allowed", "DELETE is not allowed"),
    ("patch", "patch", "/api/bid", {}, 405, "method_not_allowed", "'/api/bid'"),
    ("post-ping", "post", "/api/ping", {}, 405, "method_not_allowed", "use GET."),
    ("post-openapi", "post", "/api/openapi.json", {}, 405, "method_not_allowed", "use GET"),
    ("unknown-path", "get", "/api/nothing", {}, 404, "not_found", "'/api/nothing'"),
    ("api-root", "get", "/api", {}, 404, "not_found", "/api/openapi.json"),
    ("api-root-slash", "get", "/api/", {}, 404, "not_found", "'/api/'"),
]


@pytest.mark.parametrize("method, path, options, status, code, words",
                         [case[1:] for case in REFUSED], ids=[case[0] for case in REFUSED])
def test_refusals_are_json_errors_with_the_right_status(client, method, path, options,
                                                        status, code, words):
    response = getattr(client, method)(path, **options)
    assert error(response)[:2] == (status, code)
    assert words in error(response)[2]


def test_405_lists_the_allowed_methods(client):
    response = client.put("/api/bid")
    assert set(response.headers["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS", "POST"}


def test_hand_errors_carry_the_parser_code_and_message(client):
    from bidder import InvalidHandError, parse_hand
    text = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD AD"
    with pytest.raises(InvalidHandError) as raised:
        parse_hand(text)
    response = client.post("/api/bid", json={"hand": text})
    assert error(response) == (400, raised.value.code, raised.value.message)


def test_ping_is_tiny_and_fixed(client):
    response = client.get("/api/ping")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}
    assert len(response.data) < 20


def test_head_and_options_work(client):
    assert client.head("/api/bid", query_string={"hand": HAND}).status_code == 200
    options = client.options("/api/bid")
    assert options.status_code == 200
    assert "POST" in options.headers["Allow"]


@pytest.mark.parametrize("value, words", [
    (True, "true or false"), (False, "true or false"), (3, "a number"), (2.5, "a number"),
    ([], "a list"), ("x", "a string"), (None, "null"), ({}, "an object"),
])
def test_json_types_are_named_for_people(value, words):
    assert json_type(value) == words
