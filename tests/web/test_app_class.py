"""bidder.web.app: the request's one-field reader agrees with Werkzeug's parser, and
the app's remembered ensure_sync agrees with Flask's."""

import pytest
from flask import Flask
from hypothesis import example, given
from hypothesis import strategies as st
from werkzeug.test import EnvironBuilder

from bidder.web.app import SYNC_MEMORY, App, Request

# Pieces of query strings: the field and its look-alikes, separators, escapes (valid,
# invalid UTF-8, malformed), plus signs, and text that is not ASCII.
PIECES = st.sampled_from(["hand=", "hand", "Hand=", "hand%3D", "h%61nd=", "=", "&", ";",
                          "+", "%20", "%2B", "%26", "%E2%99%A0", "%FF", "%", "%4", "AS",
                          "10H", " ", "♠", "é", "\x7f", "\x00"])
QUERIES = st.lists(PIECES, max_size=12).map("".join)


def request_for(query: str) -> Request:
    """A request whose raw query string is *query*, as a server passes it (latin-1)."""
    environ = EnvironBuilder("/").get_environ()
    environ["QUERY_STRING"] = query.encode("utf-8").decode("latin-1")
    return Request(environ)


@given(QUERIES)
@example("hand=5C+7H+AS+JD+9D+2C+KH+10H+4C+8H+8C+AD+10C")
@example("hand=%E2%99%A0A+K")
@example("hand=%FF%FE")
@example("hand=a=b")
@example("hand=")
@example("hand=A&hand=B")
@example("x=1&hand=2")
@example("hand=A;hand=B")
def test_one_field_reads_as_the_parser_reads_it(query):
    assert request_for(query).arg("hand") == request_for(query).args.get("hand")


@pytest.mark.parametrize("query, expected", [
    ("hand=AS+KS", "AS KS"),
    ("hand=%E2%99%A0A", "♠A"),
    ("hand=%FF", "%FF"),  # invalid UTF-8 stays as written, as Werkzeug keeps it
    ("hand=", ""),
    ("", None),
    ("other=1", None),
    ("other=1&hand=AS", "AS"),
])
def test_one_field_of_the_query_string(query, expected):
    assert request_for(query).arg("hand") == expected


def test_the_app_answers_with_its_own_request_class(app):
    with app.test_request_context("/?hand=AS"):
        from flask import request
        assert isinstance(request._get_current_object(), Request)


def synchronous():
    """A view as every view here is."""


async def coroutine():
    """A view Flask would have to run in an event loop."""


@pytest.fixture
def flask_asked(monkeypatch):
    """The functions Flask's own ensure_sync is asked about, in order."""
    asked = []
    flask_ensure_sync = Flask.ensure_sync

    def counting(self, func):
        asked.append(func)
        return flask_ensure_sync(self, func)
    monkeypatch.setattr(Flask, "ensure_sync", counting)
    return asked


def test_ensure_sync_asks_flask_once_per_function(flask_asked):
    app = App(__name__)
    assert [app.ensure_sync(synchronous) for _ in range(3)] == [synchronous] * 3
    assert flask_asked == [synchronous]


def test_ensure_sync_remembers_only_the_latest_functions(flask_asked):
    app = App(__name__)
    fresh = [lambda: None for _ in range(SYNC_MEMORY)]  # as after_this_request makes
    for func in [synchronous, *fresh, synchronous]:
        assert app.ensure_sync(func) is func
    assert flask_asked == [synchronous, *fresh, synchronous]


class Unhashable:
    """A view object that cannot be a dictionary key."""

    __hash__ = None

    def __call__(self):
        """Nothing to do."""


def test_ensure_sync_takes_a_callable_that_cannot_be_a_key(flask_asked):
    view = Unhashable()
    assert App(__name__).ensure_sync(view) is view
    assert flask_asked == [view]


def test_a_coroutine_needs_what_flask_needs():
    app, flask = App(__name__), Flask(__name__)
    try:
        expected = flask.ensure_sync(coroutine)
    except RuntimeError as error:  # Flask without its "async" extra
        with pytest.raises(RuntimeError, match=str(error)[:40]):
            app.ensure_sync(coroutine)
    else:
        assert app.ensure_sync(coroutine) is app.ensure_sync(coroutine)
        assert type(app.ensure_sync(coroutine)) is type(expected)
