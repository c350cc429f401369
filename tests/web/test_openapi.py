"""The OpenAPI 3.1 document, and real responses checked against it with jsonschema."""

import json

import pytest
from jsonschema import Draft202012Validator

from bidder.dealing import deal_set
from bidder.web.openapi import openapi_document

from bidder.cards import EXAMPLE_HAND as HAND
from helpers import NESTED_JSON as NESTED, STRONG_NO_BID as NO_BID

IMPLIED = {"HEAD", "OPTIONS"}


@pytest.fixture
def document(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    return response.get_json()


def test_the_document_is_openapi_3_1_and_served_as_built(document):
    assert document["openapi"] == "3.1.0"
    assert document == json.loads(json.dumps(openapi_document()))
    assert document["info"]["title"] and document["info"]["version"]


def test_every_api_route_is_documented(app, document):
    routes = {(rule.rule.replace("<code>", "{code}"), method.lower())
              for rule in app.url_map.iter_rules()
              if rule.rule.startswith("/api/") for method in rule.methods - IMPLIED}
    documented = {(path, method) for path, operations in document["paths"].items()
                  for method in operations}
    assert routes == documented


def test_every_schema_is_valid_json_schema(document):
    for schema in document["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)


def validate(document, path, method, response):
    """Check *response* against the operation's documented status and schema."""
    operation = document["paths"][path][method]
    documented = operation["responses"][str(response.status_code)]
    content = documented["content"][response.mimetype]
    schema = {**content["schema"], "components": document["components"]}
    Draft202012Validator(schema).validate(response.get_json())


REQUESTS = [
    ("/api/bid", "get", {"query_string": {"hand": HAND}}, 200),
    ("/api/bid", "get", {"query_string": {"hand": NO_BID}}, 200),
    ("/api/bid", "get", {"query_string": {"hand": "AS"}}, 400),
    ("/api/bid", "get", {}, 400),
    ("/api/bid", "post", {"json": {"hand": HAND}}, 200),
    ("/api/bid", "post", {"data": {"hand": NO_BID}}, 200),
    ("/api/bid", "post", {"data": {"hand": HAND}, "content_type": "multipart/form-data"}, 200),
    ("/api/bid", "post", {"json": {"hand": 7}}, 400),
    ("/api/bid", "post", {"data": NESTED, "content_type": "application/json"}, 400),
    ("/api/bid", "post", {"data": "x", "content_type": "text/plain"}, 415),
    ("/api/bid", "post", {"json": {"hand": "x" * 20_000}}, 413),
    ("/api/bid", "put", {}, 405),
    ("/api/count", "post", {"json": {"hand": HAND}}, 200),
    ("/api/count", "post", {"data": {"hand": "AS"}}, 200),
    ("/api/count", "post", {"json": {"hand": 7}}, 400),
    ("/api/count", "post", {"json": {"hand": "x" * 20_000}}, 413),
    ("/api/count", "post", {"data": "x", "content_type": "text/plain"}, 415),
    ("/api/ping", "get", {}, 200),
    ("/api/openapi.json", "get", {}, 200),
]


@pytest.mark.parametrize("path, method, options, status", REQUESTS,
                         ids=[f"{method}-{path}-{status}"
                              for path, method, _, status in REQUESTS])
def test_real_responses_match_the_document(client, document, path, method, options,
                                           status):
    response = getattr(client, method)(path, **options)
    assert response.status_code == status
    validate(document, path, "get" if method == "put" else method, response)


def test_a_hundred_dealt_hands_match_the_document(client, document):
    for _, hand in deal_set(100, seed=7):
        validate(document, "/api/bid", "get",
                 client.get("/api/bid", query_string={"hand": str(hand)}))


def test_the_documented_example_works(client, document):
    [parameter] = document["paths"]["/api/bid"]["get"]["parameters"]
    response = client.get("/api/bid", query_string={"hand": parameter["example"]})
    assert response.status_code == 200
    validate(document, "/api/bid", "get", response)


@pytest.mark.parametrize("change", [
    lambda body: body.update(hcp="12"),
    lambda body: body.update(bid="1Z"),
    lambda body: body.pop("trace"),
    lambda body: body.update(extra=1),
    lambda body: body["trace"][0].update(status="maybe"),
    lambda body: body["suits"].pop(),
], ids=["hcp-string", "unknown-bid", "no-trace", "extra-key", "bad-status", "three-suits"])
def test_the_schema_catches_a_wrong_answer(client, document, change):
    body = client.get("/api/bid", query_string={"hand": HAND}).get_json()
    change(body)
    schema = {"$ref": "#/components/schemas/Advice", "components": document["components"]}
    assert not Draft202012Validator(schema).is_valid(body)
