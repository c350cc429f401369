"""Helpers for the LTI tests: a launch followed from the click in the LMS, and launches
forged with the platform's key or another."""

import re
import time
from html import unescape
from urllib.parse import parse_qs, urlsplit

import jwt
import requests

from lti_platform import CLIENT_ID, DEPLOYMENT, LEARNER, loaded

LTI = "https://purl.imsglobal.org/spec/lti/claim/"


def fields(page: str) -> dict:
    """The hidden fields of a page's form."""
    return {name: unescape(value) for name, value in
            re.findall(r'name="([^"]+)" value="([^"]*)"', page)}


def login(tool, lms, hint: str, user: str) -> str:
    """Follow a click in the LMS to the platform's authorization: the URL the tool sent
    the browser to (its state and nonce in it)."""
    start = requests.get(lms.start_url(hint, user), allow_redirects=False, timeout=10)
    answer = tool.get(start.headers["Location"])
    assert answer.status_code == 302, answer.text
    return answer.headers["Location"]


def launch(tool, lms, hint: str, user: str):
    """A whole launch, from the click in the LMS to the tool's answer."""
    authorized = requests.get(login(tool, lms, hint, user), timeout=10)
    return tool.post("/lti/launch", data=fields(authorized.text))


def state_and_nonce(tool, lms, user: str = "student1") -> tuple[str, str]:
    """A login made in *tool*'s browser: its state and nonce."""
    query = parse_qs(urlsplit(login(tool, lms, "dl", user)).query)
    return query["state"][0], query["nonce"][0]


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
    return jwt.encode(body, loaded(key or lms.private), algorithm="RS256",
                      headers={"kid": kid})


def posted(tool, lms, token_for) -> object:
    """A launch of the token *token_for(nonce)* in a browser that logged in."""
    state, nonce = state_and_nonce(tool, lms)
    return tool.post("/lti/launch", data={"state": state, "id_token": token_for(nonce)})
