"""Launches LTI 1.3 says to refuse, each refused with a page a course administrator can
act on: a token for another tool, replayed, expired, signed with an unknown key, from an
unknown platform or deployment, or from a platform whose key set is down."""

import jwt
import pytest
import requests

from bidder.web import create_app
from bidder.web.lti.login import signed as signer
from lti_helpers import LTI, claims, fields, launch, login, posted, signed, state_and_nonce
from lti_platform import CLIENT_ID, private_pem


@pytest.mark.parametrize("change, status, words", [
    ({"aud": "another-tool"}, 403, "meant for another tool"),
    ({"aud": ["x", "y"], "azp": CLIENT_ID}, 403, "meant for another tool"),
    ({"iss": "https://unknown.example"}, 403, "not registered with bidder"),
    ({"exp": 1000, "iat": 900}, 401, "expired"),
    ({LTI + "deployment_id": "elsewhere"}, 403, "deployment"),
    ({LTI + "message_type": "LtiSubmissionReviewRequest"}, 400, "LtiSubmissionReview"),
    ({"sub": None}, 400, "failed a check"),
    ({"azp": "another-tool"}, 400, "authorized party"),
], ids=["wrong audience", "audiences without the tool", "unknown issuer", "expired token",
        "unregistered deployment", "message of another kind", "no subject",
        "another authorized party"])
def test_a_forged_launch_is_refused_saying_why(tool, platform, change, status, words):
    answer = posted(tool, platform, lambda nonce: signed(platform, claims(platform, nonce,
                                                                            **change)))
    assert answer.status_code == status and words in answer.text


def test_a_launch_signed_with_an_unknown_key_id_is_refused(tool, platform):
    answer = posted(tool, platform, lambda nonce: signed(
        platform, claims(platform, nonce), key=private_pem(), kid="not-published"))
    assert answer.status_code == 403 and "does not publish" in answer.text


def test_a_rotated_key_is_read_again_from_the_key_set(tool, platform, lti_app):
    assert posted(tool, platform, lambda nonce: signed(
        platform, claims(platform, nonce))).status_code == 303
    from lti1p3platform.registration import Registration
    from lti_platform import public_pem
    new = private_pem()
    platform.course.extra_keys.append({**Registration.get_jwk(public_pem(new)), "kid": "k2"})
    answer = posted(tool, platform, lambda nonce: signed(platform, claims(platform, nonce),
                                                         key=new, kid="k2"))
    assert answer.status_code == 303


def test_a_platform_whose_key_set_is_down_is_named(tool, platform):
    platform.course.key_set_down = True
    answer = posted(tool, platform, lambda nonce: signed(platform, claims(platform, nonce)))
    assert answer.status_code == 502 and "HTTP 503" in answer.text
    assert f"{platform.url}/jwks" in answer.text


def test_a_replayed_launch_is_refused(tool, platform):
    authorized = requests.get(login(tool, platform, "dl", "teacher1"), timeout=10)
    form = fields(authorized.text)
    assert tool.post("/lti/launch", data=form).status_code == 200
    again = tool.post("/lti/launch", data=form)
    assert again.status_code == 403 and "not started in this browser" in again.text


def test_a_reused_nonce_is_refused_on_any_worker(tool, platform, lti_app):
    state, nonce = state_and_nonce(tool, platform)
    token = signed(platform, claims(platform, nonce))
    assert tool.post("/lti/launch", data={"state": state, "id_token": token}
                     ).status_code == 303
    worker = create_app({**lti_app.config})  # another worker on the same store and key
    again = worker.test_client()
    with worker.test_request_context():
        again.set_cookie(f"bidder_lti_{state}", signer().dumps(nonce), path="/lti/launch")
    answer = again.post("/lti/launch", data={"state": state, "id_token": token})
    assert answer.status_code == 403 and "used already" in answer.text


def test_a_launch_made_for_another_login_is_refused(tool, platform):
    answer = posted(tool, platform, lambda nonce: signed(platform, claims(platform, "other")))
    assert answer.status_code == 403 and "nonce is not the one" in answer.text


def test_a_launch_in_a_fresh_browser_is_refused(tool, platform, lti_app):
    authorized = requests.get(login(tool, platform, "dl", "teacher1"), timeout=10)
    stranger = lti_app.test_client()
    answer = stranger.post("/lti/launch", data=fields(authorized.text))
    assert answer.status_code == 403 and "not started in this browser" in answer.text


@pytest.mark.parametrize("token, words", [
    ("", "carries no token"), ("not.a.jwt", "not a signed JWT"),
], ids=["no token", "not a token"])
def test_a_launch_without_a_token_is_refused(tool, platform, token, words):
    state, _ = state_and_nonce(tool, platform)
    answer = tool.post("/lti/launch", data={"state": state, "id_token": token})
    assert answer.status_code == 400 and words in answer.text


def test_a_token_not_signed_with_rs256_is_refused(tool, platform):
    answer = posted(tool, platform, lambda nonce: jwt.encode(
        claims(platform, nonce), "a shared secret of enough length", algorithm="HS256"))
    assert answer.status_code == 400 and "RS256" in answer.text


@pytest.mark.parametrize("query, status, words", [
    ("", 400, "not an LTI login"),
    ("?iss=https://unknown.example&login_hint=1&target_link_uri=x", 403, "not registered"),
], ids=["not a login", "unknown issuer"])
def test_a_login_that_cannot_start_says_why(tool, platform, query, status, words):
    answer = tool.get(f"/lti/login{query}")
    assert answer.status_code == status and words in answer.text


def test_a_login_without_a_message_hint_sends_none(tool, platform):
    answer = tool.get(f"/lti/login?iss={platform.url}&login_hint=1&target_link_uri=x")
    assert answer.status_code == 302 and "lti_message_hint" not in answer.headers["Location"]


def test_a_student_cannot_open_the_add_an_item_dialog(tool, platform):
    answer = launch(tool, platform, "dl", "student1")
    assert answer.status_code == 403 and "Only an instructor" in answer.text


@pytest.mark.parametrize("change, words", [
    ({"iss": None}, "no issuer"),
    ({"aud": []}, "no audience"),
    ({"https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings": {},
      LTI + "message_type": "LtiDeepLinkingRequest",
      LTI + "roles": ["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"]},
     "no return address"),
    ({LTI + "custom": {}}, "names no bidder activity"),
], ids=["no issuer", "an empty audience", "a dialog without a return address",
        "a link without an activity"])
def test_a_launch_missing_what_it_needs_says_what(tool, platform, change, words):
    answer = posted(tool, platform, lambda nonce: signed(platform, claims(platform, nonce,
                                                                            **change)))
    assert answer.status_code == 400 and words in answer.text


def test_a_login_cookie_not_signed_by_the_site_starts_nothing(tool, platform):
    state, nonce = state_and_nonce(tool, platform)
    tool.set_cookie(f"bidder_lti_{state}", "forged", path="/lti/launch")
    answer = tool.post("/lti/launch", data={"state": state, "id_token": signed(
        platform, claims(platform, nonce))})
    assert answer.status_code == 403 and "not started in this browser" in answer.text


def test_a_store_that_is_down_makes_a_launch_wait(tool, platform, lti_app, tmp_path):
    (tmp_path / "state.sqlite3").unlink()
    answer = tool.get(f"/lti/login?iss={platform.url}&login_hint=1&target_link_uri=x")
    assert answer.status_code == 503 and "BIDDER_STATE_URL" in answer.text


@pytest.mark.parametrize("size, status, words", [
    (20_000, 400, "not a signed JWT"),  # over the site's usual form field, within a launch's
    (33_000, 400, "one too long"),
    (40_000, 413, ""),
], ids=["a large token is read", "a token over the bound", "a body over the bound"])
def test_a_launch_body_has_a_bound_of_its_own(tool, platform, size, status, words):
    state, _ = state_and_nonce(tool, platform)
    answer = tool.post("/lti/launch", data={"state": state, "id_token": "a" * size})
    assert answer.status_code == status and words in answer.text
