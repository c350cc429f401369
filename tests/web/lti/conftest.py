"""Fixtures for the LTI tests: the tool (`lti_app`, `tool`) with its key in the test's
own folder, and a real LTI 1.3 platform (`platform`) registered with it."""

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from bidder.web import create_app
from bidder.web.lti.platforms import Platform, register
from bidder.web.state import store_of
from helpers import TEST_SECRET_KEY
from lti_platform import Platform as LMS

TOOL_SITE = "http://localhost"


@pytest.fixture
def lti_app(tmp_path):
    """The app, its state store and LTI key in the test's folder."""
    return create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY,
                       "STATE_URL": f"sqlite:///{tmp_path / 'state.sqlite3'}",
                       "LTI_KEY_FOLDER": str(tmp_path / "instance")})


@pytest.fixture
def tool(lti_app):
    """A browser on the tool."""
    return lti_app.test_client()


@pytest.fixture
def platform(lti_app):
    """A real platform, served, and registered with the tool."""
    key = lti_app.extensions["bidder.lti.key"]
    with LMS(TOOL_SITE, key.key_set()) as lms:
        register(store_of(lti_app), Platform(**lms.add_args()))
        yield lms


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
