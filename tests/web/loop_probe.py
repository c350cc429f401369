"""The event-loop probe: the app served by gevent as gunicorn's gevent worker serves it
(everything monkey-patched, heavy work in a pool of one process), a heartbeat greenlet
beating beside it, and each request of a table sent to it in turn.

Every pool job waits at a gate (loop_gate.py) that the heartbeat opens only after
beating BEATS times more, so a request whose work went to the pool finishes only if the
loop kept beating while it was in flight; a request that did its work on the loop sends
no job at all. For each request it prints, as JSON lines: its name, status, the pool
jobs it sent and the heartbeats while it was in flight.

    python loop_probe.py FOLDER < cases.json
"""

from gevent import monkey

monkey.patch_all()

import errno  # noqa: E402
import http.client  # noqa: E402
from http.cookies import SimpleCookie  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
from gevent.pywsgi import WSGIServer  # noqa: E402

from bidder.web import create_app, heavy  # noqa: E402
from loop_gate import gated  # noqa: E402

BEATS = 20  # heartbeats between a job's arrival at the gate and its release
BEAT_SECONDS = 0.001


class Heart:
    """The heartbeat: beats, and a gate opened BEATS beats after each job is sent."""

    def __init__(self, gate: str):
        self.gate, self.beats, self.since = gate, 0, 0

    def beat(self) -> None:
        while True:
            gevent.sleep(BEAT_SECONDS)
            self.beats += 1
            if self.beats - self.since >= BEATS and self.release():
                self.since = self.beats

    def release(self) -> bool:
        """Let one waiting job through, if one waits at the gate."""
        try:
            pipe = os.open(self.gate, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as error:
            if error.errno == errno.ENXIO:  # no job waits
                return False
            raise
        os.write(pipe, b"x")
        os.close(pipe)
        return True


def main() -> None:
    folder = Path(sys.argv[1])
    gate = str(folder / "gate")
    os.mkfifo(gate)
    jobs = []
    original = heavy.Child.call

    def call(self, function, args, seconds=heavy.JOB_SECONDS):
        jobs.append(function.__name__)
        heart.since = heart.beats  # released BEATS beats from now
        return original(self, gated, (gate, function, args), seconds)

    heavy.Child.call = call
    heart = Heart(gate)
    app = create_app({"TESTING": True, "SECRET_KEY": "probe-" + "x1y2z3w4v5u6t7s8",
                      "STATE_URL": f"sqlite:///{folder / 'state.sqlite3'}",
                      "HEAVY_PROCESSES": 1, "WTF_CSRF_ENABLED": False,
                      "WTF_CSRF_METHODS": [], "LIVE_STREAM_SECONDS": 0.05,
                      "LIVE_RATE_LIMIT": "100000 per minute",
                      "PRACTICE_RATE_LIMIT": "100000 per minute",
                      "LTI_KEY_FOLDER": str(folder)})
    server = WSGIServer(("127.0.0.1", 0), app, log=None)
    server.start()
    gevent.spawn(heart.beat)
    serializer = app.session_interface.get_signing_serializer(app)
    known = {}
    jar = SimpleCookie()  # the cookies the answers set, sent back as a browser would
    for line in sys.stdin:
        for name, value in known.items():
            line = line.replace(f"@{name}@", value)
        case = json.loads(line)
        headers = dict(case.get("headers", {}))
        cookies = [f"{name}={morsel.value}" for name, morsel in jar.items()
                   if name != "session"]  # a case's own session, or none
        if "session" in case:
            cookies.append("session=" + serializer.dumps(case["session"]))
        if cookies:
            headers["Cookie"] = "; ".join(cookies)
        connection = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=120)
        del jobs[:]
        before = heart.beats
        connection.request(case["method"], case["path"], body=case.get("body"),
                           headers=headers)
        response = connection.getresponse()
        body = response.read().decode("utf-8", "replace")
        for cookie in response.headers.get_all("Set-Cookie") or ():
            jar.load(cookie)
        if case.get("remember") == "body":
            known.update(json.loads(body))
        elif case.get("remember") == "location":
            known["host"] = response.getheader("Location", "").split("/")[2]
        print(json.dumps({"name": case["name"], "status": response.status,
                          "jobs": list(jobs), "beats": heart.beats - before,
                          "body": body[:2000]}), flush=True)
        connection.close()
    server.stop()
    app.extensions[heavy.EXTENSION].close()


if __name__ == "__main__":
    main()
