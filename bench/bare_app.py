"""The web benchmark's yardstick: a bare Flask app answering a constant, served by
gunicorn under the same settings as the app, so a ratio measures only what the app does
on top of Flask and gunicorn."""

from flask import Flask

app = Flask(__name__)


@app.get("/")
def constant():
    """The same small JSON answer, every time."""
    return {"ok": True}
