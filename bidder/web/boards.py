"""The boards page `/boards`: a PBN or LIN file in (uploaded or pasted), every board out
as a bridge diagram with each hand's opening by the rules, who opens first by the rules
and the auction at the table. Nothing is kept: the boards are read and shown.
"""

from __future__ import annotations

from flask import Blueprint, Flask, current_app, render_template, request

from ..boards import COLUMNS, Seat, decode, openings, read_boards
from ..errors import BidderError
from . import heavy

blueprint = Blueprint("boards", __name__)

# Where each seat sits in the diagram: North at the top, South at the bottom.
DIAGRAM_ORDER = (Seat.NORTH, Seat.WEST, Seat.EAST, Seat.SOUTH)
NO_FILE = ("Choose a PBN or LIN file, or paste one into the box: the boards as your "
           "bridge program exports them.")
NOTHING_READ = ("No board in this file could be read: see why below, correct the file "
                "and send it again.")


class NoBoards(BidderError):
    """A request that sends the page no file; the message says what to send."""


@blueprint.get("/boards")
def form():
    """The form: a file to upload, or its text to paste."""
    return render_template("boards.html", text="")


@blueprint.post("/boards")
def show():
    """Read the file sent and show its boards; what cannot be read is said."""
    # A pasted file may be as large as the body allows, more than an ordinary field.
    request.max_form_memory_size = current_app.config["MAX_CONTENT_LENGTH"]
    current_app.extensions["csrf"].protect()
    text = request.form.get("text", "")  # the whole body read before the pool is asked
    try:
        reading, tables = heavy.run("a board file", read_with_openings, sent_text())
    except BidderError as error:
        return render_template("boards.html", text=text, error=error.message), 400
    if not reading.boards:
        return render_template("boards.html", text=text, error=NOTHING_READ,
                               problems=reading.problems), 400
    return render_template("boards.html", text="", reading=reading, tables=tables)


def read_with_openings(text: str):
    """The boards of a file's *text* and each board's openings: the page's work, done
    in the worker's pool.

    :raises BidderError: when the text is no file of boards at all.
    """
    reading = read_boards(text)
    return reading, [openings(board) for board in reading.boards]


def sent_text() -> str:
    """The file uploaded, else the text pasted.

    :raises NoBoards: when neither was sent.
    """
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        return decode(upload.read())
    text = request.form.get("text", "")
    if not text.strip():
        raise NoBoards(NO_FILE, "no_file")
    return text


TEMPLATE_GLOBALS = {"DIAGRAM_ORDER": DIAGRAM_ORDER, "AUCTION_COLUMNS": COLUMNS, "Seat": Seat}


def init_app(app: Flask) -> None:
    """Register the page; its form is checked for a CSRF token in the view itself, after
    the field limit is raised for a pasted file."""
    app.register_blueprint(blueprint)
    app.jinja_env.globals.update(TEMPLATE_GLOBALS)
    app.extensions["csrf"].exempt(show)
