"""bidder as an LTI 1.3 tool: an LMS's launches let in (login, signed launch), deep
linking to place an activity, scores to the gradebook (AGS), and the live poll with the
LMS's names. docs/lms.md is the manual."""

from __future__ import annotations

from flask import Blueprint, Flask, current_app, jsonify, render_template

from ..rate_limits import limiter, lti_limit
from ..state import StoreUnavailable, store_of
from ..teach.finished import FINISHED_HOOKS, Finished
from . import deep_linking, gradebook, grades, launch, login, poll
from .activities import PRACTICE, from_custom
from .own_key import key_of
from .refusals import Refused

blueprint = Blueprint("lti", __name__, url_prefix="/lti")
STORE_DOWN = Refused(503, "The launch cannot be checked just now", (
    "the server cannot reach its state store, where it keeps the LMSes it trusts and "
    "the launches used. Try again in a minute; the site's administrator should check "
    "BIDDER_STATE_URL."))


@blueprint.get("/jwks")
@limiter.limit(lti_limit)
def jwks():
    """The tool's public key set, which platforms read to check what it signs."""
    return jsonify(key_of(current_app).key_set())


def refused_page(error: Refused):
    """The page that says why a request from a course was refused (an error handler)."""
    return render_template("lti_refused.html", error=error), error.status


def store_down(error: StoreUnavailable):
    """The store failed during a launch: a page saying to try again, 503."""
    page, status = refused_page(STORE_DOWN)
    return page, status, {"Retry-After": "60"}


def placed(finished: Finished, activity) -> bool:
    """Whether *finished* is the activity the course's link placed: the same kind, and
    for a practice set the same set."""
    return activity.kind == finished.activity and (activity.kind != PRACTICE or (
        activity.seed, activity.rules, activity.bids) == (
        finished.seed, finished.focus, finished.bids))


def course_finished(finished: Finished) -> None:
    """Post a finished activity's score when the browser came from a course's link to
    that very activity, as a student (a listener of the teaching pages)."""
    kept = launch.placement()
    activity = from_custom(kept["activity"]) if kept else None
    if activity is None or kept["teaches"] or not placed(finished, activity):
        return
    try:
        grades.finished(store_of(current_app), kept["ref"], kept["user"], finished.right,
                        finished.hands, finished.misreading, key=key_of(current_app))
    except StoreUnavailable as trouble:
        current_app.logger.warning("score not queued for the course: %s", trouble)


PARTS = (blueprint, login.blueprint, launch.blueprint, deep_linking.blueprint,
         gradebook.blueprint, poll.blueprint)
for _part in PARTS:
    _part.register_error_handler(StoreUnavailable, store_down)


def init_app(app: Flask) -> None:
    """Register the tool's doors, and the listener that sends scores to a course."""
    app.extensions.setdefault(FINISHED_HOOKS, []).append(course_finished)
    for part in PARTS:
        app.register_blueprint(part)
    for name in ("live", "live_api"):
        app.before_request_funcs.setdefault(name, []).append(poll.course_devices_only)
    for view in (login.login, launch.launch):
        app.extensions["csrf"].exempt(view)
    app.register_error_handler(Refused, refused_page)
