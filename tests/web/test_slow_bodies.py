"""A request's body has a deadline (bidder.web.slow_bodies), and the served worker times
out every read (bidder.web.worker). A clock and streams made for the test: no waiting."""

import io

import pytest

from bidder.web.slow_bodies import BODY_SECONDS, BodyTooSlow, TimedBody, timed


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class Stalled(io.BytesIO):
    """A stream whose reads time out, as a socket's do past its timeout."""

    def read(self, *args):
        raise TimeoutError("timed out")

    readline = readinto = read


class ReadOnly:
    """A stream with read alone, as WSGI asks at least."""

    def __init__(self, data):
        self.data = io.BytesIO(data)

    def read(self, size=-1):
        return self.data.read(size)


@pytest.mark.parametrize("elapsed, refused", [
    (0, False), (BODY_SECONDS - 0.001, False), (BODY_SECONDS, False),
    (BODY_SECONDS + 0.001, True), (BODY_SECONDS * 10, True),
])
def test_each_read_past_the_deadline_is_refused(elapsed, refused):
    clock = Clock()
    body = TimedBody(io.BytesIO(b"hand=AS\nbid=1C\n"), clock=clock)
    clock.now += elapsed
    if refused:
        with pytest.raises(BodyTooSlow) as raised:
            body.read(4)
        assert raised.value.code == 408
        assert f"longer than {BODY_SECONDS:g} s" in raised.value.description
    else:
        assert body.read(4) == b"hand"


def test_every_way_of_reading_is_timed():
    body = TimedBody(io.BytesIO(b"one\ntwo\nthree\nfour\n"))
    buffer = bytearray(4)
    assert body.readline() == b"one\n"
    assert body.readinto(buffer) == 4 and bytes(buffer) == b"two\n"
    assert body.readlines(1) == [b"three\n"]
    assert list(body) == [b"four\n"]
    short = TimedBody(ReadOnly(b"ab"))
    buffer = bytearray(4)
    assert short.readinto(buffer) == 2 and bytes(buffer[:2]) == b"ab"


@pytest.mark.parametrize("method, args", [("read", ()), ("readline", ()),
                                          ("readinto", (bytearray(2),))])
def test_a_read_that_times_out_is_408_not_a_client_gone(method, args):
    with pytest.raises(BodyTooSlow) as raised:
        getattr(TimedBody(Stalled()), method)(*args)
    assert "stopped arriving for 10 s" in raised.value.description


@pytest.mark.parametrize("environ, wrapped", [
    ({"wsgi.input": io.BytesIO(b"x"), "CONTENT_LENGTH": "1"}, True),
    ({"wsgi.input": io.BytesIO(b"x"), "HTTP_TRANSFER_ENCODING": "chunked"}, True),
    ({"wsgi.input": io.BytesIO(b"")}, False),  # no body: nothing to time
    ({"wsgi.input": io.BytesIO(b""), "CONTENT_LENGTH": ""}, False),
    ({"CONTENT_LENGTH": "1"}, False),
])
def test_only_a_body_is_timed(environ, wrapped):
    timed(environ)
    assert isinstance(environ.get("wsgi.input"), TimedBody) is wrapped


def test_a_slow_form_gets_408_from_the_app(client):
    answer = client.post("/practice/answer", input_stream=Stalled(),
                         content_type="application/x-www-form-urlencoded",
                         environ_overrides={"CONTENT_LENGTH": "40"})
    assert answer.status_code == 408
    assert "stopped arriving" in answer.get_data(as_text=True)


def test_a_slow_chunked_body_gets_408_at_the_edges(app):
    from bidder.web.security import Edges

    statuses = []
    edges = Edges(lambda environ, start: [b"never"], app.config)
    environ = {"wsgi.input": Stalled(), "HTTP_TRANSFER_ENCODING": "chunked",
               "wsgi.input_terminated": True, "REQUEST_METHOD": "POST",
               "SERVER_NAME": "localhost", "SERVER_PORT": "80", "wsgi.url_scheme": "http"}
    body = b"".join(edges(environ, lambda status, headers, info=None:
                          statuses.append((status, dict(headers)))))
    assert statuses[0][0].startswith("408") and b"stopped arriving" in body
    assert "Content-Security-Policy" in statuses[0][1]  # the edges' headers, as ever


def test_the_served_worker_times_out_every_read_of_a_connection(monkeypatch):
    from gunicorn.workers.base_async import AsyncWorker

    from bidder.web.slow_bodies import READ_SECONDS
    from bidder.web.worker import Worker

    handled = []
    monkeypatch.setattr(AsyncWorker, "handle",
                        lambda self, listener, client, addr: handled.append(client.timeout))

    class Client:
        timeout = None

        def settimeout(self, seconds):
            self.timeout = seconds

        def setblocking(self, flag):  # gunicorn's gevent worker's: no timeout at all
            self.timeout = None

    Worker.handle(object.__new__(Worker), None, Client(), ("127.0.0.1", 1))
    assert handled == [READ_SECONDS]
