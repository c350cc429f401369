"""The instructor's view of a placed link's scores: what went to the gradebook, what is
waiting to be tried again, and what failed, and why; opened by an instructor's launch
of the link, without any key."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template

from ..live.instructor import NO_STORE
from ..rate_limits import limiter, lti_limit
from ..state import store_of
from . import grades
from .activities import from_custom
from .launch import placement
from .own_key import key_of
from .refusals import Refused

blueprint = Blueprint("lti_gradebook", __name__, url_prefix="/lti")

NOT_AN_INSTRUCTOR = Refused(403, "This is the instructor's view", (
    "it opens from an instructor's launch of the activity in the course. Launch the "
    "activity from the course as its instructor."))


@blueprint.get("/scores")
@limiter.limit(lti_limit)
def placement_scores():
    """The scores of the link this instructor launched last, newest trouble first."""
    kept = placement()
    if kept is None or not kept.get("teaches"):
        raise NOT_AN_INSTRUCTOR
    store = store_of(current_app)
    grades.sweep(store, key_of(current_app))
    posts = grades.queued(store, kept["ref"])
    activity = from_custom(kept["activity"])
    return render_template("lti_scores.html", activity=activity, posts=posts,
                           POSTED=grades.POSTED, FAILED=grades.FAILED,
                           PENDING=grades.PENDING), 200, NO_STORE
