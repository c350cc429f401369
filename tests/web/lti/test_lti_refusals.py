"""Launches LTI 1.3 says to refuse, each refused with a page a course administrator can
act on: a token for another tool, replayed, expired, signed with an unknown key, from an
unknown platform or deployment, or from a platform whose key set is down."""

import time

import jwt
import pytest
import requests

from conftest import fields, launch, login, state_and_nonce
from lti_platform import CLIENT_ID, DEPLOYMENT, LEARNER, private_pem

LTI = "https://purl.imsglobal.org/spec/lti/claim/"


def claims(lms, nonce: str, **changes) -> dict:
    """A resource launch's claims as the platform would sign them, with *changes*."""
    now = int(time.time())
    body = {"iss": lms.url, "aud": CLIENT_ID, "sub": "student1", "iat": now,
            "exp": now + 300, "nonce": nonce, LTI + "deployment_id": DEPLOYMENT,
            LTI + "message_type": "LtiResourceLinkRequest", LTI + "version": "1.3.0",
            LTI + "roles": [LEARNER], LTI + "resource_link": {"id": "link1"},
            LTI + "custom": {"activity": "diagnosis"}}
    body.update(changes)
    return {key: value for key, value in body.items() if value is not None}


def signed(lms, body: dict, key: str | None = None, kid: str | None = None) -> str:
    """*body* signed with the platform's key (or *key*, named *kid*)."""
    kid = kid or lms.registration.get_kid()
    return jwt.encode(body, key or lms.private, algorithm="RS256", headers={"kid": kid})


def posted(tool, lms, token_for) -> object:
    """A launch of the token *token_for(nonce)* in a browser that logged in."""
    state, nonce = state_and_nonce(tool, lms)
    return tool.post("/lti/launch", data={"state": state, "id_token": token_for(nonce)})


@pytest.mark.parametrize("change, status, words", [
    ({"aud": "another-tool"}, 403, "meant for another tool"),
    ({"aud": ["x", "y"], "azp": CLIENT_ID}, 403, "meant for another tool"),
    ({"iss": "https://unknown.example"}, 403, "not registered with bidder"),
    ({"exp": 1000, "iat": 900}, 401, "expired"),
    ({LTI + "deployment_id": "elsewhere"}, 403, "deployment"),
    ({LTI + "message_type": "LtiSubmissionReviewRequest"}, 400, "LtiSubmissionReview"),
    ({"sub": None}, 400, "failed a check"),
    ({"azp": "another-tool"}, 400, "authorized party"),
], ids=["wrong audience", "audiences without the tool", "unknown issuer", "expired token", "unregistered deployment",
        "message of another kind", "no subject", "another authorized party"])
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


def test_a_reused_nonce_is_refused_on_any_worker(tool, platform):
    state, nonce = state_and_nonce(tool, platform)
    token = signed(platform, claims(platform, nonce))
    assert tool.post("/lti/launch", data={"state": state, "id_token": token}
                     ).status_code == 303
    other_state, _ = state_and_nonce(tool, platform)
    # the login cookie of a new login, and the token of the old one with its nonce
    tool.set_cookie(f"bidder_lti_{other_state}", tool.get_cookie(
        f"bidder_lti_{other_state}", path="/lti/launch").value, path="/lti/launch")
    from bidder.web.lti.login import signed as signer
    with tool.application.test_request_context():
        tool.set_cookie(f"bidder_lti_{other_state}", signer().dumps(nonce),
                        path="/lti/launch")
    again = tool.post("/lti/launch", data={"state": other_state, "id_token": token})
    assert again.status_code == 403 and "used already" in again.text


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


def test_a_student_cannot_open_the_add_an_item_dialog(tool, platform):
    answer = launch(tool, platform, "dl", "student1")
    assert answer.status_code == 403 and "Only an instructor" in answer.text
