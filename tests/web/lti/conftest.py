"""Fixtures for the LTI tests: the tool (`lti_app`, `tool`) with its key in the test's
own folder, and a real LTI 1.3 platform (`platform`) registered with it."""

import pytest

from bidder.web import create_app
from bidder.web.lti.platforms import Platform, register
from bidder.web.lti.keys import KEY_FILE, made_pem, written
from bidder.web.lti.own_key import key_of
from bidder.web.state import store_of
from helpers import TEST_SECRET_KEY
from lti_platform import Platform as LMS

TOOL_SITE = "http://localhost"


@pytest.fixture(scope="session")
def tool_pem() -> str:
    """One private key for every test's tool (making an RSA key is 40 ms of CPU, more on a
    busy machine); the key's own tests (test_lti_parts.py) make theirs."""
    return made_pem()


@pytest.fixture
def lti_app(tmp_path, tool_pem):
    """The app, its state store and LTI key in the test's folder."""
    (tmp_path / "instance").mkdir()
    written(tmp_path / "instance" / KEY_FILE, tool_pem)
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
    key = key_of(lti_app)
    with LMS(TOOL_SITE, key.key_set()) as lms:
        register(store_of(lti_app), Platform(**lms.add_args()))
        yield lms
