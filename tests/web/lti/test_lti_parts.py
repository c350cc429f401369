"""The LTI tool's parts on their own: registrations refused with what to fix, the key
made once, key sets that cannot be used, scores that cannot go, and the command line."""

import json
import os

import pytest
import requests
from click.testing import CliRunner

from bidder.cli.commands import cli
from bidder.web.lti import activities, ags, grades, keys, platform_keys
from bidder.web.lti.platforms import Platform, PlatformError, find, register, registered
from bidder.web.lti.refusals import Refused
from bidder.web.teach.finished import Finished
from bidder.web import create_app
from bidder.web.lti.own_key import key_of
from bidder.web.state import store_of
from helpers import TEST_SECRET_KEY

GOOD = dict(issuer="https://lms.example", client_id="c1",
            login_url="https://lms.example/auth", token_url="https://lms.example/token",
            key_set_url="https://lms.example/jwks", deployments=("d1",))


@pytest.mark.parametrize("change, words", [
    ({"issuer": "lms.example"}, "issuer"),
    ({"client_id": " "}, "client id"),
    ({"deployments": ()}, "deployment id"),
], ids=["issuer without a scheme", "empty client id", "no deployment"])
def test_a_registration_that_cannot_be_used_says_what_to_fix(lti_app, change, words):
    with pytest.raises(PlatformError, match=words):
        register(store_of(lti_app), Platform(**{**GOOD, **change}))


def test_an_issuer_with_two_clients_is_found_only_by_client_id(lti_app):
    store = store_of(lti_app)
    register(store, Platform(**GOOD))
    assert find(store, GOOD["issuer"], None).client_id == "c1"
    register(store, Platform(**{**GOOD, "client_id": "c2"}))
    assert find(store, GOOD["issuer"], None) is None
    assert [p.client_id for p in registered(store)] == ["c1", "c2"]


def test_the_key_is_made_once_and_kept(tmp_path):
    first = keys.tool_key(tmp_path)
    assert keys.tool_key(tmp_path) == first
    assert oct(os.stat(tmp_path / keys.KEY_FILE).st_mode & 0o777) == "0o600"


def test_a_site_makes_its_key_in_its_pool_the_first_time_an_lms_needs_it(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY,
                      "STATE_URL": f"sqlite:///{tmp_path / 'state.sqlite3'}",
                      "LTI_KEY_FOLDER": str(tmp_path / "instance")})
    assert not (tmp_path / "instance" / keys.KEY_FILE).exists()
    made = key_of(app)
    assert keys.ToolKey.from_pem((tmp_path / "instance" / keys.KEY_FILE).read_text()) == made
    assert key_of(app) is made


def test_a_key_written_first_by_another_worker_is_kept(tmp_path):
    (tmp_path / keys.KEY_FILE).write_text(keys.made_pem())
    kept = (tmp_path / keys.KEY_FILE).read_text()
    keys.written(tmp_path / keys.KEY_FILE, keys.made_pem())
    assert (tmp_path / keys.KEY_FILE).read_text() == kept


def test_a_damaged_key_file_is_named(tmp_path):
    (tmp_path / keys.KEY_FILE).write_text("not a key")
    with pytest.raises(RuntimeError, match="lti-key.pem"):
        keys.tool_key(tmp_path)


class Answer:
    def __init__(self, status=200, body=b"{}"):
        self.status_code, self.content = status, body

    def json(self):
        return json.loads(self.content)


@pytest.mark.parametrize("answer, words", [
    (Answer(200, b"x" * (platform_keys.MAX_KEY_SET_BYTES + 1)), "more than"),
    (Answer(200, b"[]"), "not a JSON Web Key Set"),
    (Answer(200, b"not json"), "could not be read"),
], ids=["too large", "not a key set", "not JSON"])
def test_a_key_set_that_cannot_be_used_is_named(answer, words):
    with pytest.raises(Refused, match=words):
        platform_keys.fetched(Platform(**GOOD), lambda url, timeout: answer)


def test_a_key_that_is_not_a_key_is_not_found():
    assert platform_keys.find_key({"keys": [{"kid": "k", "kty": "RSA", "n": 5}]}, "k") is None


def test_a_score_outside_its_range_is_refused(lti_app):
    with pytest.raises(ValueError, match="0 to its maximum"):
        grades.finished(store_of(lti_app), "ref", "u", 5, 4, key=None)


def test_a_score_without_a_known_link_waits_saying_so(lti_app):
    post = grades.finished(store_of(lti_app), "ref", "u", 1, 4,
                           key=key_of(lti_app), now=1000.0)
    assert post.state == grades.PENDING and "launch it from the course" in post.why
    assert post.due == 1000.0 + grades.FIRST_WAIT


def test_a_score_for_a_platform_no_longer_registered_waits_saying_so(lti_app):
    store = store_of(lti_app)
    grades.remember_target(store, "ref", grades.Target("https://gone.example", "c", {},
                                                       "l", "t"))
    post = grades.finished(store, "ref", "u", 1, 4, key=key_of(lti_app))
    assert "no longer registered" in post.why


def test_a_score_fails_for_good_after_its_last_try(lti_app):
    store = store_of(lti_app)
    post = grades.Post("ref", "u", 1.0, 4.0, "", "t", tries=grades.MAX_TRIES - 1)
    after = grades.attempt(store, post, key_of(lti_app), 0.0)
    assert after.state == grades.FAILED


def test_a_link_without_a_column_nor_a_service_says_so(lti_app):
    with pytest.raises(ags.PostFailed, match="neither a grade column"):
        ags.post(Platform(**GOOD), key_of(lti_app), {"scope": []}, "l",
                 {"userId": "u", "scoreGiven": 1, "scoreMaximum": 2, "timestamp": "t",
                  "comment": "", "label": "x"})


def test_a_platform_that_cannot_be_reached_is_named(lti_app):
    class Down(requests.Session):
        def request(self, *args, **kwargs):
            raise requests.ConnectionError("refused")
    service = {"scope": ["https://purl.imsglobal.org/spec/lti-ags/scope/score"],
               "lineitem": "https://lms.example/col"}
    with pytest.raises(ags.PostFailed, match="could not be reached"):
        ags.post(Platform(**GOOD), key_of(lti_app), service, "l",
                 {"userId": "u", "scoreGiven": 1, "scoreMaximum": 2, "timestamp": "t",
                  "comment": "", "label": "x"}, Down())


@pytest.mark.parametrize("custom, expected", [
    ({}, None), ({"activity": "poll"}, activities.Activity("poll")),
    ({"activity": "practice", "seed": "x"}, activities.Activity("practice")),
], ids=["no activity", "a poll", "a seed that is not a number"])
def test_custom_parameters_name_an_activity(custom, expected):
    assert activities.from_custom(custom) == expected


def test_the_titles_say_what_is_placed():
    assert activities.Activity("poll").title.endswith("a live poll for the course")
    assert activities.Activity("practice", 3, bids="1NT").title.endswith("bids 1NT")
    assert activities.Activity("poll").path() == ""


def test_the_command_line_prints_what_to_paste_and_registers(tmp_path, monkeypatch):
    monkeypatch.setenv("BIDDER_STATE_URL", f"sqlite:///{tmp_path / 's.sqlite3'}")
    runner = CliRunner()
    shown = runner.invoke(cli, ["lti", "show", "--site", "https://b.example/"])
    assert "https://b.example/lti/jwks" in shown.output
    args = ["lti", "add", "--issuer", GOOD["issuer"], "--client-id", "c1", "--login-url",
            GOOD["login_url"], "--token-url", GOOD["token_url"], "--jwks-url",
            GOOD["key_set_url"], "--deployment", "d1"]
    assert "Registered" in runner.invoke(cli, args).output
    assert "client c1" in runner.invoke(cli, ["lti", "list"]).output
    refused = runner.invoke(cli, [*args[:2], "--issuer", "nope", *args[4:]])
    assert refused.exit_code == 2 and "issuer" in refused.output


def test_the_command_line_sends_the_scores_waiting(tmp_path, monkeypatch):
    from bidder.web.state import open_store
    url = f"sqlite:///{tmp_path / 's.sqlite3'}"
    monkeypatch.setenv("BIDDER_STATE_URL", url)
    monkeypatch.setenv("BIDDER_LTI_KEY_FOLDER", str(tmp_path))
    store = open_store(url)
    store.prepare()
    grades.finished(store, "ref", "u1", 1, 4, key=keys.tool_key(tmp_path), now=0.0)
    shown = CliRunner().invoke(cli, ["lti", "retry"])
    assert shown.output.startswith("u1 on ref: pending (no launch of this link")


def test_the_instructor_view_needs_an_instructors_launch(tool):
    assert tool.get("/lti/scores").status_code == 403


def test_a_choice_without_a_dialog_is_refused(tool):
    tool.get("/lti/jwks")
    assert tool.post("/lti/pick", data={}).status_code in (400, 403)


def test_a_full_queue_of_scores_is_said(lti_app, monkeypatch):
    monkeypatch.setattr(grades, "MAX_POSTS", 0)
    with pytest.raises(grades.StoreUnavailable, match="holds 0"):
        grades.keep(store_of(lti_app), grades.Post("r", "u", 1, 2, "", "t"))


def test_a_retry_another_worker_took_is_left_to_it(lti_app):
    store = store_of(lti_app)
    key = key_of(lti_app)
    post = grades.finished(store, "ref", "u", 1, 4, key=key, now=0.0)
    store.put_if_absent(f"lti:grade-try:{post.field}:{post.tries}", "1", 60)
    assert grades.retry_due(store, key, now=post.due) == []


def test_registrations_past_the_cap_are_refused(lti_app, monkeypatch):
    from bidder.web.lti import platforms
    monkeypatch.setattr(platforms, "MAX_PLATFORMS", 0)
    with pytest.raises(PlatformError, match="registered already"):
        register(store_of(lti_app), Platform(**GOOD))


def test_a_poll_that_expired_is_no_poll(lti_app):
    from bidder.web.lti import poll
    store = store_of(lti_app)
    store.put(poll.poll_key("ref"), "ZZZZZ", 60)
    assert poll.current(store, "ref") is None


def test_a_poll_started_in_the_room_takes_any_device(lti_app, tool):
    from bidder.web.live import ledger
    poll, _ = ledger.create(store_of(lti_app), "AS KS QS JS 2H 3H 4H 5D 6D 7D 8C 9C TC")
    assert tool.get(f"/live/{poll.code}").status_code == 200
    assert tool.get("/live").status_code == 200


@pytest.mark.parametrize("origin, allowed", [
    ("https://lms.example:8443", True), ("https://lms.example; script-src *", False),
], ids=["an origin", "a policy smuggled in"])
def test_only_a_plain_origin_is_let_into_form_action(lti_app, origin, allowed):
    from flask import request
    from bidder.web.security import FORM_TARGET, allow_form_to
    with lti_app.test_request_context():
        allow_form_to(origin)
        assert (FORM_TARGET in request.environ) == allowed


@pytest.mark.parametrize("kept, finished, posted", [
    (None, Finished("practice", 1, 2), False),
    ({"activity": {"activity": "diagnosis"}, "teaches": True}, Finished("diagnosis", 1, 2),
     False),
    ({"activity": {"activity": "diagnosis"}, "teaches": False},
     Finished("practice", 1, 2), False),
    ({"activity": {"activity": "diagnosis"}, "teaches": False, "ref": "r", "user": "u"},
     Finished("diagnosis", 1, 2), True),
], ids=["no launch", "an instructor", "another activity", "the placed activity"])
def test_a_score_goes_only_for_the_placed_activity_of_a_student(
        lti_app, kept, finished, posted):
    from flask import session
    from bidder.web import lti
    with lti_app.test_request_context():
        if kept:
            session["lti"] = kept
        lti.course_finished(finished)
    assert bool(grades.queued(store_of(lti_app))) == posted


def test_a_score_the_store_cannot_keep_is_logged(lti_app, monkeypatch, caplog):
    from flask import session
    from bidder.web import lti

    def down(*args, **kwargs):
        raise grades.StoreUnavailable("the disk is full")
    monkeypatch.setattr(grades, "finished", down)
    with lti_app.test_request_context():
        session["lti"] = {"activity": {"activity": "diagnosis"}, "teaches": False,
                          "ref": "r", "user": "u"}
        lti.course_finished(Finished("diagnosis", 1, 2))
    assert "the disk is full" in caplog.text


def test_the_queue_is_swept_at_most_once_in_a_while(lti_app):
    store, key = store_of(lti_app), key_of(lti_app)
    grades.finished(store, "ref", "u", 1, 4, key=key, now=0.0)  # waiting since 1970
    assert [post.tries for post in grades.sweep(store, key)] == [2]
    assert grades.sweep(store, key) == []


def test_registrations_and_used_nonces_are_shared_by_every_store(url):
    from bidder.web.lti import nonces
    from bidder.web.state import open_store
    store, elsewhere = open_store(url), open_store(url)  # two workers, or two machines
    store.prepare()
    register(store, Platform(**GOOD))
    assert find(elsewhere, GOOD["issuer"], "c1") == Platform(**GOOD)
    assert nonces.spend(store, GOOD["issuer"], "n1")
    assert not nonces.spend(elsewhere, GOOD["issuer"], "n1")


def test_a_launch_without_the_score_scope_says_to_allow_the_service(lti_app):
    with pytest.raises(ags.PostFailed, match="allow the tool Assignment and Grade"):
        ags.post(Platform(**GOOD), key_of(lti_app),
                 {"scope": [], "lineitem": "https://lms.example/col"}, "l",
                 {"userId": "u", "scoreGiven": 1, "scoreMaximum": 2, "timestamp": "t",
                  "comment": "", "label": "x"})


def test_a_platform_answering_nonsense_is_named(lti_app):
    class Nonsense(requests.Session):
        def request(self, *args, **kwargs):
            answer = requests.Response()
            answer.status_code, answer._content = 200, b"{}"  # no access_token
            return answer
    service = {"scope": ["https://purl.imsglobal.org/spec/lti-ags/scope/score"],
               "lineitem": "https://lms.example/col"}
    with pytest.raises(ags.PostFailed, match="KeyError"):
        ags.post(Platform(**GOOD), key_of(lti_app), service, "l",
                 {"userId": "u", "scoreGiven": 1, "scoreMaximum": 2, "timestamp": "t",
                  "comment": "", "label": "x"}, Nonsense())
