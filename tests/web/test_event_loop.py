"""No request holds the event loop: every route, sent the heaviest parameters it
accepts, to the app served by gevent as `bidder serve` serves it (loop_probe.py), a
heartbeat beating beside it. A request whose work can exceed the CPU budget must send it
to the worker's pool, and finish only because the heartbeat went on beating while it was
in flight (its jobs wait at a gate the heartbeat opens every BEATS beats); the others
send none. Counts of beats, never the clock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bidder.web import create_app
from helpers import TEST_SECRET_KEY

HERE = Path(__file__).parent
BEATS = 20  # loop_probe.BEATS: not imported, since importing it monkey-patches
HAND = "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"
HAND_IN_URL = HAND.replace(" ", "+")
JSON = {"Content-Type": "application/json"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
LONG_ID = "+".join(["R1.hcp=15-18", "omit=R3", "dist=short", "R7.len=5-7", "swap=R2/R5",
                    "hcp.J=0", "balanced=with-4441", "R6.choose=no-hcp-step"])
BOARD = ('[Board "{n}"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
         '[Deal "N:AKQ2.KQ2.AJ2.K32 J543.J43.K43.J54 T976.T65.T65.T76 8.A987.Q987.AQ98"]\n')
WRONG_ROUND = {"practice": {
    "base": 7, "turn": 8, "hand": "", "count_first": False, "natural": False,
    "right": 0, "answered": 8, "counts_right": 0, "counts_checked": 0, "hcp": None,
    "distribution": None, "answer": None, "token": "", "round_start": 0, "focus": "",
    "record": "R1-R2-R3-R5-R6-R7-R8-R9-",
    "given": ",".join(f"{place}:1C" for place in range(8)), "reading": "", "bids": ""}}

# (name, method, path, body, headers, session, whether its work goes to the pool)
HEAVY = [
    ("a poll on a hand telling any misreadings apart", "POST", "/api/polls",
     json.dumps({"apart": []}), JSON, None),
    ("a poll on a hand telling eight misreadings apart", "POST", "/api/polls",
     json.dumps({"apart": LONG_ID.split("+")}), JSON, None),
    ("the start form telling any misreadings apart", "POST", "/live",
     "source=apart&misreadings=", FORM, None),
    ("a new combination of misreadings", "GET", f"/variants?variant={LONG_ID.replace('+', '%2B')}", None,
     {}, None),
    ("the largest printable set", "GET", "/deal?count=100&print=1&seed=4242", None, {},
     None),
    ("the largest set as dealt", "GET", "/deal?count=100&seed=4343&mix=natural", None,
     {}, None),
    ("a board file as large as a body may be", "POST", "/boards",
     "text=" + "".join(BOARD.format(n=n) for n in range(1, 111)), FORM, None),
    ("a round summary whose wrong answers are read", "GET", "/practice", None, {},
     WRONG_ROUND),
    ("a diagnosis of as many answers as it reads", "POST", "/api/diagnosis",
     json.dumps({"answers": [{"hand": HAND, "bid": "1C", "hcp": 30, "distribution": 9}]
                 * 150}), JSON, None),
    ("the diagnostic round's step", "GET", "/practice/diagnosis", None, {}, None),
]


def cases(code: str, admin: str, host: str) -> list[tuple]:
    """Every route with the heaviest parameters it takes; *code* and *admin* are a poll
    the probe opened first through the API, *host* one it started from the form (whose
    instructor's cookie, and the device cookie of its join, the probe sends back)."""
    bearer = {"Authorization": f"Bearer {admin}", **JSON}
    light = [
        ("the advisor", "GET", f"/?hand={HAND_IN_URL}", None, {}, None),
        ("the advisor's form", "POST", "/", f"hand={HAND_IN_URL}", FORM, None),
        ("the rules", "GET", "/rules", None, {}, None),
        ("the API's advice", "GET", f"/api/bid?hand={HAND_IN_URL}", None, {}, None),
        ("the API's advice for a body", "POST", "/api/bid", json.dumps({"hand": HAND}),
         JSON, None),
        ("the ping", "GET", "/api/ping", None, {}, None),
        ("the API's description", "GET", "/api/openapi.json", None, {}, None),
        ("a hand dealt to order", "GET", "/deal?seed=99&rule=R9", None, {}, None),
        ("the largest statistics sample (dealt in a process of its own)", "GET",
         "/stats?hands=50000&seed=77", None, {}, None),
        ("the boards form", "GET", "/boards", None, {}, None),
        ("the variants", "GET", "/variants", None, {}, None),
        ("practice", "GET", "/practice?set=5&bid=1NT,2NT", None, {}, None),
        ("practice's count", "POST", "/practice/count", "hand=x&hcp=99&distribution=99",
         FORM, None),
        ("practice's answer", "POST", "/practice/answer", "hand=x&bid=7NT", FORM, None),
        ("practice's next hand", "POST", "/practice/next", "hand=x", FORM, None),
        ("practice's next round", "POST", "/practice/round", "missed=1", FORM, None),
        ("practice's settings", "POST", "/practice/settings", "natural=1", FORM, None),
        ("practice's new start", "POST", "/practice/reset", "", FORM, None),
        ("practice's set, asked for", "POST", "/practice/set", "set=5&bid=1NT,2NT", FORM,
         None),
        ("the live start page", "GET", "/live", None, {}, None),
        ("a poll on a pasted hand", "POST", "/api/polls", json.dumps({"hand": HAND}),
         JSON, None),
        ("joining a poll", "GET", f"/live/join?code={code}", None, {}, None),
        ("a phone's page", "GET", f"/live/{code}", None, {}, None),
        ("a phone's count", "POST", f"/live/{code}/count", "hcp=99&distribution=99",
         FORM, None),
        ("a phone's vote", "POST", f"/live/{code}/vote", "bid=7NT", FORM, None),
        ("joining through the API", "POST", f"/api/polls/{code}/join", "", JSON, None),
        ("a count through the API", "POST", f"/api/polls/{code}/count",
         json.dumps({"hcp": 99, "distribution": 99}), JSON, None),
        ("the live count of a paste", "POST", "/api/count",
         json.dumps({"hand": "x" * 12_000}), JSON, None),
        ("a vote through the API", "POST", f"/api/polls/{code}/votes",
         json.dumps({"bid": "1C"}), JSON, None),
        ("a poll through the API", "GET", f"/api/polls/{code}", None, bearer, None),
        ("the live updates", "GET", f"/live/{code}/events", None, {}, None),
        ("closing the vote", "POST", f"/api/polls/{code}/close", "", bearer, None),
        ("revealing it", "POST", f"/api/polls/{code}/reveal", "", bearer, None),
        ("the projector", "GET", f"/live/{host}/host", None, {}, None),
        ("the teacher view", "GET", f"/live/{host}/teacher", None, {}, None),
        ("the instructor's step", "POST", f"/live/{host}/host", "action=again", FORM, None),
        ("a one-time link for a phone", "POST", f"/live/{host}/remote", "", FORM, None),
        ("a one-time link opened", "GET", f"/live/{host}/remote/{'x' * 400}", None, {},
         None),
        ("the next round", "POST", f"/api/polls/{code}/rounds", json.dumps({"hand": HAND}),
         bearer, None),
        ("the summary through the API", "GET", f"/api/polls/{code}/summary", None, bearer,
         None),
        ("the summary page", "GET", f"/live/{host}/summary.html", None, {}, None),
        ("a static file", "GET", "/static/style.css", None, {}, None),
        ("the LTI key set (the key made first)", "GET", "/lti/jwks", None, {}, None),
        ("an LTI login from an unknown LMS", "GET",
         "/lti/login?iss=https://lms.example&login_hint=u&target_link_uri=x", None, {},
         None),
        ("an LTI launch as long as a launch may be", "POST", "/lti/launch",
         "state=s&id_token=" + "a" * 32_000, FORM, None),
        ("an LTI choice without a dialog", "POST", "/lti/pick", "activity=poll", FORM,
         None),
        ("the LTI scores view without a launch", "GET", "/lti/scores", None, {}, None),
        ("who answered what", "GET", f"/live/{host}/names", None, {}, None),
        ("the diagnostic round's answer, out of step", "POST", "/practice/diagnosis/answer",
         "item=x&bid-0=1C", FORM, None),
        ("the diagnostic round's check again, out of step", "POST",
         "/practice/diagnosis/check", "", FORM, None),
        ("the diagnostic round's check answered, out of step", "POST",
         "/practice/diagnosis/checked", "item=x&bid-0=1C", FORM, None),
        ("the diagnostic round begun again", "POST", "/practice/diagnosis/again", "", FORM,
         None),
    ]
    return [(*case, True) for case in HEAVY] + [(*case, False) for case in light]


ROUTES_SENT = {  # each route of the app, by its rule, to a name above that sends it
    "/": "the advisor", "/rules": "the rules", "/api/bid": "the API's advice",
    "/api/ping": "the ping", "/api/openapi.json": "the API's description",
    "/deal": "the largest printable set",
    "/stats": "the largest statistics sample (dealt in a process of its own)",
    "/boards": "a board file as large as a body may be", "/variants":
    "a new combination of misreadings", "/practice": "practice",
    "/practice/count": "practice's count", "/practice/answer": "practice's answer",
    "/practice/next": "practice's next hand", "/practice/round": "practice's next round",
    "/practice/settings": "practice's settings", "/practice/reset": "practice's new start",
    "/practice/set": "practice's set, asked for",
    "/live": "the start form telling any misreadings apart",
    "/live/join": "joining a poll", "/live/<code>": "a phone's page",
    "/live/<code>/count": "a phone's count", "/live/<code>/vote": "a phone's vote",
    "/live/<code>/host": "the projector", "/live/<code>/teacher": "the teacher view",
    "/live/<code>/summary.<kind>": "the summary page",
    "/live/<code>/remote": "a one-time link for a phone",
    "/live/<code>/remote/<ticket>": "a one-time link opened",
    "/api/polls/<code>/join": "joining through the API",
    "/api/polls/<code>/count": "a count through the API",
    "/api/count": "the live count of a paste",
    "/live/<code>/events": "the live updates",
    "/api/polls": "a poll on a hand telling any misreadings apart",
    "/api/polls/<code>/votes": "a vote through the API",
    "/api/polls/<code>": "a poll through the API",
    "/api/polls/<code>/close": "closing the vote", "/api/polls/<code>/reveal": "revealing it",
    "/api/polls/<code>/rounds": "the next round",
    "/lti/jwks": "the LTI key set (the key made first)",
    "/lti/login": "an LTI login from an unknown LMS",
    "/lti/launch": "an LTI launch as long as a launch may be",
    "/lti/pick": "an LTI choice without a dialog",
    "/lti/scores": "the LTI scores view without a launch",
    "/live/<code>/names": "who answered what",
    "/api/polls/<code>/summary": "the summary through the API",
    "/api/diagnosis": "a diagnosis of as many answers as it reads",
    "/practice/diagnosis": "the diagnostic round's step",
    "/practice/diagnosis/answer": "the diagnostic round's answer, out of step",
    "/practice/diagnosis/check": "the diagnostic round's check again, out of step",
    "/practice/diagnosis/checked": "the diagnostic round's check answered, out of step",
    "/practice/diagnosis/again": "the diagnostic round begun again",
    "/static/<path:filename>": "a static file",
}


def test_every_route_of_the_app_is_in_the_table():
    app = create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY})
    names = {case[0] for case in cases("CODE", "admin", "HOST")}
    assert {rule.rule for rule in app.url_map.iter_rules()} == set(ROUTES_SENT)
    assert set(ROUTES_SENT.values()) <= names


def probe(tmp_path: Path, lines: list[dict]) -> list[dict]:
    """The probe's report on each request of *lines*, sent in order."""
    done = subprocess.run(
        [sys.executable, str(HERE / "loop_probe.py"), str(tmp_path)],
        input="".join(json.dumps(line) + "\n" for line in lines), capture_output=True,
        text=True, timeout=600, cwd=HERE, env=probe_environment())
    assert done.returncode == 0, done.stderr[-3000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


def probe_environment() -> dict:
    """The environment for the probe: this one, with the tests' helpers on the path."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(HERE), str(HERE.parent), os.environ.get("PYTHONPATH", "")])}


def as_line(case: tuple) -> dict:
    name, method, path, body, headers, session, _ = case
    line = {"name": name, "method": method, "path": path, "body": body, "headers": headers}
    return line if session is None else {**line, "session": session}


OPEN_A_POLL = {"name": "open a poll", "method": "POST", "path": "/api/polls",
               "body": json.dumps({"hand": HAND}), "headers": JSON, "remember": "body"}
START_A_POLL = {"name": "start a poll", "method": "POST", "path": "/live",
                "body": f"source=pasted&hand={HAND_IN_URL}", "headers": FORM,
                "remember": "location"}


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, dict]:
    """The probe's report on every case, by name: a poll opened first, whose code and
    admin token the cases' @code@ and @admin@ stand for (one probe: the pool starts
    once)."""
    lines = [OPEN_A_POLL, START_A_POLL] + [as_line(case)
                                           for case in cases("@code@", "@admin@", "@host@")]
    return {report["name"]: report for report in probe(tmp_path_factory.mktemp("probe"),
                                                       lines)}


@pytest.mark.parametrize("case", [case for case in cases("-", "-", "-") if case[-1]],
                         ids=lambda case: case[0])
def test_heavy_work_goes_to_the_pool_while_the_loop_beats(reports, case):
    report = reports[case[0]]
    assert report["status"] in (200, 201, 303), report["body"]
    assert report["jobs"], "the work was done on the event loop"
    assert report["beats"] >= BEATS * len(report["jobs"])


@pytest.mark.parametrize("case", [case for case in cases("-", "-", "-") if not case[-1]],
                         ids=lambda case: case[0])
def test_every_other_request_answers_and_any_job_it_sent_let_the_loop_beat(reports, case):
    report = reports[case[0]]
    assert report["status"] < 500, report["body"]
    assert report["beats"] >= BEATS * len(report["jobs"])
