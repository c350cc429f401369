"""The OpenAPI 3.1 description of the JSON API, built from the core's own tables."""

from __future__ import annotations

from functools import lru_cache

from ..advice import FAILED, FIRED, NOT_REACHED, SHADOWED
from ..bids import RULE_BIDS
from ..cards import EXAMPLE_HAND, SUITS_HIGH_FIRST, Rank, Suit
from ..diagnosis.answers import ASKABLE, MOST_COUNTED
from ..diagnosis.outcome import NONE, SECOND_SAID, RULES as RULES_READING
from ..diagnosis.rounds import MAX_ANSWERS
from ..rules import RULES
from .live.ledger import MAX_DEVICES
from .live.model import MOVES

API_VERSION = "1.0.0"
STRING = {"type": "string"}
STRINGS = {"type": "array", "items": STRING}
COUNT = {"type": "integer", "minimum": 0}
_RANKS = "|".join(rank.label for rank in Rank)
_SUITS = "".join(suit.letter for suit in Suit)
CARD = {"type": "string", "pattern": f"^({_RANKS})[{_SUITS}]$"}
BID = {"type": ["string", "null"], "enum": [bid.text for bid in RULE_BIDS],
       "description": "the bid exactly as openingBid returns it; null for no bid"}
RULE_ID = {"type": "string", "enum": [rule.id for rule in RULES]}


def _object(properties: dict, description: str = "") -> dict:
    """A closed JSON object schema in which every property is required."""
    schema = {"type": "object", "required": list(properties),
              "additionalProperties": False, "properties": properties}
    return {**schema, "description": description} if description else schema


STEP = _object({
    "rule": RULE_ID,
    "name": STRING,
    "status": {"enum": [FIRED, FAILED, SHADOWED, NOT_REACHED]},
    "reasons": STRINGS,
    "would_bid": BID,
}, "one rule of the decision list, as it went for this hand")
SUIT = _object({
    "suit": {"enum": [suit.word for suit in SUITS_HIGH_FIRST]},
    "symbol": {"enum": [suit.symbol for suit in SUITS_HIGH_FIRST]},
    "cards": {"type": "array", "items": CARD},
    "length": COUNT,
    "hcp": COUNT,
    "distribution": COUNT,
})
ADVICE = _object({
    "hand": {**STRING, "description": "the hand in canonical form, spades first"},
    "hcp": COUNT,
    "distribution": COUNT,
    "points": COUNT,
    "shape": {"type": "string", "pattern": "^[0-9]+(-[0-9]+){3}$",
              "description": "suit lengths, spades-hearts-diamonds-clubs"},
    "balanced": {"type": "boolean"},
    "balanced_reason": STRING,
    "hcp_by_card": {"type": "array",
                    "items": _object({"card": CARD, "hcp": COUNT})},
    "suits": {"type": "array", "items": {"$ref": "#/components/schemas/Suit"},
              "minItems": len(SUITS_HIGH_FIRST), "maxItems": len(SUITS_HIGH_FIRST)},
    "bid": BID,
    "rule": RULE_ID,
    "rule_name": STRING,
    "rule_sentence": {**STRING, "description": "the assignment's own words"},
    "explanation": STRING,
    "trace": {"type": "array", "items": {"$ref": "#/components/schemas/Step"},
              "minItems": len(RULES), "maxItems": len(RULES)},
    "notes": STRINGS,
    "near_misses": STRINGS,
}, "the opening bid for a hand, the arithmetic and the rule trace behind it")
ERROR = _object({"error": _object({
    "code": {"type": "string", "pattern": "^[a-z_]+$",
             "description": "stable, for programs: e.g. bad_card, wrong_count"},
    "message": {**STRING, "description": "for people: what is wrong, where, what to do"},
})})
VERDICT = _object({
    "text": {**STRING, "description": "the page's own words: '13 of 13 cards', a whole "
                                      "deal, or the parser's message"},
    "complete": {"type": "boolean",
                 "description": "the page would show the advice, or every seat's opening"},
    "deal": {"type": "boolean", "description": "the text is a whole deal, several hands"},
}, "what the advisor page says of a text")
HAND_BODY = {"type": "object", "required": ["hand"],
             "properties": {"hand": {**STRING, "examples": [EXAMPLE_HAND]}}}
HAND_REQUEST = {"required": True, "content": {  # a hand, as JSON or as a form's field
    media_type: {"schema": HAND_BODY} for media_type in (
        "application/json", "application/x-www-form-urlencoded", "multipart/form-data")}}


def _json(schema_name: str, description: str) -> dict:
    return {"description": description, "content": {
        "application/json": {"schema": {"$ref": f"#/components/schemas/{schema_name}"}}}}


ADVICE_RESPONSES = {
    "200": _json("Advice", "the advice for the hand"),
    "400": _json("Error", "not a hand, or a body the API cannot read"),
    "405": _json("Error", "a method this path does not allow"),
}


BID_KEY = {"type": "string", "description": "a bid as openingBid writes it; 'None' for no bid"}
COUNTS = {"type": "object", "additionalProperties": COUNT,
          "description": "each bid voted (its key) to how many voted it"}
POLL = {"type": "object", "required": ["code", "round", "rounds", "state", "hand", "second",
                                       "answered", "count_first"], "properties": {
    "code": {"type": "string", "pattern": "^[A-Z2-9]{5}$"},
    "round": {**COUNT, "description": "the vote on the table, from 0"},
    "rounds": COUNT,
    "state": {"enum": ["open", "closed", "revealed"]},
    "hand": STRING,
    "second": {"type": "boolean", "description": "a second vote on the last hand"},
    "answered": COUNT,
    "count_first": {"type": "boolean",
                    "description": "students count HCP and distribution points first"},
    "votes": COUNTS,
    "joined": {**COUNT, "description": "how many devices have joined (the admin only)"},
    "right": BID,
    "wrong": {"type": "object", "additionalProperties": STRINGS,
              "description": "each wrong bid to the misreading ids that give it"},
    "first": COUNTS,
    "shift": {"type": "object", "additionalProperties": {"type": "integer"},
              "description": "each bid's count in this vote less the first's"},
    "students": _object({name: COUNT for name in MOVES},
                        "how many students' answers went from wrong to right, right to "
                        "wrong, stayed right or wrong, or came in one vote only"),
}, "description": "a poll; votes, right and wrong only with the admin token or once "
                  "revealed, first, shift and students only on a second vote"}
START_BODY = {"type": "object", "properties": {
    "hand": {**STRING, "description": "the hand, as for /api/bid; or send apart"},
    "apart": {"type": "array", "items": STRING, "maxItems": 8,
              "description": "misreading ids (docs/misreadings.md): a hand is dealt on which "
                             "the first bids otherwise than the rules and they bid as "
                             "differently as can be; [] for any misreadings"},
    "count_first": {"type": "boolean", "default": False,
                    "description": "students count HCP and distribution points first"},
    "class_size": {"type": ["integer", "null"], "minimum": 1, "maximum": MAX_DEVICES,
                   "description": "at most this many devices join (null: any)"}},
    "description": "hand or apart, not both"}
DIAGNOSIS_EXAMPLE = (f'{{"answers": [{{"hand": "{EXAMPLE_HAND}", "bid": "1NT", "hcp": 16, '
                     f'"distribution": 0}}]}}')
COUNTED = {"type": ["integer", "null"], "minimum": 0, "maximum": MOST_COUNTED}
DIAGNOSIS_ANSWER = {"type": "object", "required": ["hand", "bid"],
                    "additionalProperties": False, "properties": {
    "hand": {**STRING, "examples": [EXAMPLE_HAND]},
    "bid": {"type": ["string", "null"], "examples": ["1NT", None],
            "description": "the opening given: a bid the rules make, in any case ('1NT', "
                           "'1nt', '2N'); null (or 'Pass') for no opening"},
    "hcp": {**COUNTED, "description": "the HCP the student counted, when asked"},
    "distribution": {**COUNTED, "description": "the distribution points the student "
                                               "counted, when asked"}}}
DIAGNOSIS_BODY = {"type": "object", "required": ["answers"], "additionalProperties": False,
                  "properties": {"answers": {
                      "type": "array", "items": DIAGNOSIS_ANSWER, "maxItems": MAX_ANSWERS,
                      "description": "every answer of the round so far, in the order "
                                     "given; each hand of a ladder is its own answer"}}}
READING_ID = {**STRING, "description": f"a misreading's id (docs/misreadings.md, two "
                                       f"composed with '+' for a pair), '{RULES_READING}' "
                                       f"or '{NONE}'"}
DIAGNOSIS = _object({
    "next": {"oneOf": [{"type": "null"}, _object({
        "hands": {"type": "array", "items": STRING, "minItems": 1,
                  "description": "one hand, or several of one shape at successive HCP "
                                 "(a ladder): each answered as its own answer"},
        "ask": {"type": "array", "items": {"enum": list(ASKABLE)}, "minItems": 1}})],
        "description": "what to ask next; null when the round is over"},
    "candidates": {"type": "array", "items": _object({
        "misreading": READING_ID,
        "probability": {"type": "number", "minimum": 0, "maximum": 1},
        "text": {**STRING, "description": "what it means, in the teacher's words"}}),
        "description": "the likeliest readings, most likely first"},
    "named": {"oneOf": [{"type": "null"}, READING_ID],
              "description": ("the reading named once sure, its probes answered as it "
                              "answers and two answers telling it from the reading "
                              "likeliest after it; null before")},
    "confidence": {"type": "number", "minimum": 0, "maximum": 1,
                   "description": "the likeliest reading's probability"},
    "second": {"oneOf": [{"type": "null"}, {"type": "number", "minimum": 0, "maximum": 1}],
               "description": ("for a misreading named alone, how likely a second one is "
                               "held beside it (said to be not ruled out from "
                               f"{SECOND_SAID}); null otherwise")},
}, "the diagnostic round after the answers sent")
DIAGNOSIS_PATHS = {"/api/diagnosis": {"post": {
    "operationId": "diagnose",
    "summary": "The diagnostic round, stateless: send every answer so far, get the "
               "readings they fit and the next item to ask",
    "requestBody": {"required": True, "content": {"application/json": {
        "schema": DIAGNOSIS_BODY, "example": {"answers": [
            {"hand": EXAMPLE_HAND, "bid": "1NT", "hcp": 16, "distribution": 0}]}}}},
    "responses": {
        "200": _json("Diagnosis", "the candidates, the reading named, the next item"),
        "400": _json("Error", "an answer that is not one, named by its place and field"),
        "413": _json("Error", "a body over the size limit"),
        "415": _json("Error", "not JSON"),
        "429": _json("Error", "too many requests from this address"),
        "503": _json("Error", "the server is busy with long requests: try again")}}}}
ADMIN = [{"admin": []}]
CODE = [{"name": "code", "in": "path", "required": True, "schema": STRING}]
POLL_RESPONSES = {
    "200": _json("Poll", "the poll, as its admin sees it"),
    "401": _json("Error", "no admin token, or another poll's"),
    "404": _json("Error", "no poll has this code"),
}


def _admin_step(operation: str, summary: str, extra: dict | None = None,
                body: dict | None = None) -> dict:
    step = {"operationId": operation, "summary": summary, "parameters": CODE,
            "security": ADMIN, "responses": {**POLL_RESPONSES, **(extra or {})}}
    return {"post": {**step, "requestBody": body} if body else step}


# the next round's body, which may be left out (the same hand again)
ROUNDS_BODY = {"required": False, "content": {"application/json": {"schema": {
    "type": "object", "properties": {
        "hand": STRING, "split": {"type": "boolean", "description": "the next hand chosen "
                                  "to split the class's votes so far (not with hand)"}}}}}}


POLL_PATHS = {
    "/api/polls": {"post": {
        "operationId": "startPoll",
        "summary": "Open a poll on a hand, or on one dealt to tell misreadings apart",
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": START_BODY}}},
        "responses": {"201": {"description": "the join code and the secret admin token",
                              "content": {"application/json": {"schema": _object({
                                  "code": STRING, "admin": STRING})}}},
                      "400": _json("Error", "not a hand"),
                      "415": _json("Error", "not JSON"),
                      "429": _json("Error", "too many requests from this address")}}},
    "/api/polls/{code}": {"get": {
        "operationId": "showPoll", "parameters": CODE,
        "summary": "The poll: the distribution only with the admin token or once revealed",
        "responses": {"200": _json("Poll", "the poll"),
                      "404": _json("Error", "no poll has this code")}}},
    "/api/polls/{code}/join": {"post": {
        "operationId": "joinPoll", "parameters": CODE,
        "summary": "Join as a device: sets the device cookie (before the join is written, "
                   "so a retry is the same device) that votes and counts must send",
        "responses": {"200": {"description": "joined", "content": {"application/json": {
            "schema": _object({"code": STRING, "joined": COUNT,
                               "count_first": {"type": "boolean"}})}}},
            "403": _json("Error", "the class size have joined already"),
            "404": _json("Error", "no poll has this code"),
            "429": _json("Error", "too many codes that name no poll from this address")}}},
    "/api/polls/{code}/count": {"post": {
        "operationId": "countHand", "parameters": CODE,
        "summary": "This device's count of the hand, which a count-first poll asks for "
                   "before each vote",
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": ["hcp", "distribution"], "properties": {
                "hcp": COUNT, "distribution": COUNT}}}}},
        "responses": {"200": {"description": "the count taken: the device may vote in "
                                             "this round", "content": {
            "application/json": {"schema": _object({"round": COUNT, "hcp": COUNT,
                                                    "distribution": COUNT})}}},
            "400": _json("Error", "not a count"),
            "403": _json("Error", "this device has not joined the poll"),
            "404": _json("Error", "no poll has this code")}}},
    "/api/polls/{code}/votes": {"post": {
        "operationId": "vote", "parameters": CODE,
        "summary": "Vote, with the device cookie the join set (a second vote from it "
                   "replaces the first)",
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": ["bid"], "properties": {"bid": BID}}}}},
        "responses": {"200": {"description": "the vote taken", "content": {
            "application/json": {"schema": _object({"round": COUNT, "bid": BID,
                                                    "answered": COUNT})}}},
            "400": _json("Error", "not a bid"),
            "403": _json("Error", "no device cookie, a device that has not joined this "
                                  "poll (or no poll has this code), or in a count-first "
                                  "poll one that has not counted this hand"),
            "409": _json("Error", "the vote is closed"),
            "415": _json("Error", "not JSON"),
            "429": _json("Error", "too many requests from this address")}}},
    "/api/polls/{code}/close": _admin_step("closePoll", "Close the vote on the table"),
    "/api/polls/{code}/reveal": _admin_step("revealPoll",
                                            "Close the vote and show it to the room"),
    "/api/polls/{code}/rounds": _admin_step(
        "nextRound", "A second vote on the same hand, with {hand} the next hand, or with "
                     "{split: true} the next hand chosen to split the class's votes so far",
        {"409": _json("Error", "the vote on the table is still open"),
         "503": _json("Error", "the worker's pool is full: try again after Retry-After")},
        ROUNDS_BODY),
    "/api/polls/{code}/summary": {"get": {
        "operationId": "pollSummary", "parameters": CODE, "security": ADMIN,
        "summary": "Every vote's counts and the misreadings the room showed",
        "responses": {"200": {"description": "the session", "content": {
            "application/json": {"schema": {"type": "object"}}}},
            "401": _json("Error", "no admin token"),
            "404": _json("Error", "no poll has this code")}}},
}


@lru_cache(maxsize=1)
def openapi_document() -> dict:
    """The whole OpenAPI document."""
    return {
        "openapi": "3.1.0",
        "info": {"title": "bidder", "version": API_VERSION,
                 "summary": "The opening bid for a bridge hand, by the assignment's "
                            "rules, with the arithmetic and the rule trace."},
        "paths": {
            "/api/bid": {
                "get": {
                    "operationId": "bidForQuery",
                    "summary": "Advise on the hand given in the query string",
                    "parameters": [{"name": "hand", "in": "query", "required": True,
                                    "schema": STRING, "example": EXAMPLE_HAND}],
                    "responses": ADVICE_RESPONSES,
                },
                "post": {
                    "operationId": "bidForBody",
                    "summary": "Advise on the hand sent as JSON or as a form field",
                    "requestBody": HAND_REQUEST,
                    "responses": {
                        **ADVICE_RESPONSES,
                        "413": _json("Error", "a body over the size limit"),
                        "415": _json("Error", "a body that is neither JSON nor a form"),
                    },
                },
            },
            "/api/count": {"post": {
                "operationId": "countForBody",
                "summary": "What the advisor page says of a text, as its live count shows "
                           "it: 13 of 13 cards, a whole deal, or what is wrong",
                "requestBody": HAND_REQUEST,
                "responses": {
                    "200": {"description": "the verdict, a hand or not", "content": {
                        "application/json": {"schema": VERDICT}}},
                    "400": _json("Error", "a body the API cannot read"),
                    "413": _json("Error", "a body over the size limit"),
                    "415": _json("Error", "a body that is neither JSON nor a form"),
                },
            }},
            "/api/ping": {"get": {
                "operationId": "ping",
                "summary": "A tiny fixed answer, for health checks and benchmarks",
                "responses": {"200": {"description": "the server is up", "content": {
                    "application/json": {"schema": _object({"status": {"const": "ok"}})}
                }}},
            }},
            "/api/openapi.json": {"get": {
                "operationId": "openapi",
                "summary": "This document",
                "responses": {"200": {"description": "the OpenAPI document", "content": {
                    "application/json": {"schema": {"type": "object"}}}}},
            }},
            **POLL_PATHS,
            **DIAGNOSIS_PATHS,
        },
        "components": {"schemas": {
            "Advice": ADVICE, "Step": STEP, "Suit": SUIT, "Error": ERROR, "Poll": POLL,
            "Diagnosis": DIAGNOSIS},
            "securitySchemes": {"admin": {"type": "http", "scheme": "bearer",
                                          "description": "the admin token POST /api/polls "
                                                         "gave"}}},
    }
