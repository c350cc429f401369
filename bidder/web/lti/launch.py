"""The launch: the platform's signed token checked (``verify``), then what the placed
link names opened for the user it names: a deep-linking dialog for an instructor adding
an item, the practice set, the diagnostic round or the course's poll, or, for an
instructor, the activity's instructor view."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, request, session, url_for

from ..rate_limits import limiter, lti_limit
from ..state import store_of
from . import deep_linking, grades, poll
from .activities import POLL, from_custom, placement_ref
from .claims import DEEP_LINKING_LAUNCH, Launch
from .own_key import key_of
from .login import forget, nonce_for
from .refusals import Refused
from .verify import MAX_TOKEN, checked

blueprint = Blueprint("lti_launch", __name__, url_prefix="/lti")

SESSION_KEY = "lti"
MAX_BODY = MAX_TOKEN + 4096  # the token and the state, form-encoded
NO_LOGIN = Refused(403, "This launch was not started in this browser", (
    "a launch comes back to the browser whose login started it, within ten minutes, "
    "once. Launch the activity again from the course. If it fails every time, the "
    "browser may be refusing the site's cookies inside the LMS: open the activity in a "
    "new window (docs/lms.md)."))


@blueprint.post("/launch")
@limiter.limit(lti_limit)
def launch():
    """Check the launch and open what it names.

    :raises Refused: saying which check failed and what to do.
    """
    request.max_content_length = request.max_form_memory_size = MAX_BODY
    state = request.form.get("state", "")
    nonce = nonce_for(state) if state else None
    if nonce is None:
        raise NO_LOGIN
    store = store_of(current_app)
    found = checked(store, request.form.get("id_token", ""), nonce)
    grades.sweep(store, key_of(current_app))  # a launch is a moment to try queued scores again
    if found.message_type == DEEP_LINKING_LAUNCH:
        response = deep_linking.dialog(found)
    else:
        response = opened(store, found)
    return forget(current_app.make_response(response), state)


def opened(store, found: Launch):
    """The answer to a resource-link launch: the activity the link names, for this user.

    :raises Refused: 400 for a link that names no activity of bidder's.
    """
    activity = from_custom(found.custom)
    if activity is None or not found.resource_link:
        raise Refused(400, "This link names no bidder activity", (
            "the link carries no activity=practice, diagnosis or poll custom parameter. "
            "Place the activity again with the LMS's 'add an item' dialog (deep linking), "
            "which writes them, or add them by hand (docs/lms.md)."))
    ref = placement_ref(found.issuer, found.deployment, found.resource_link)
    session[SESSION_KEY] = {"ref": ref, "user": found.user, "name": found.name,
                            "teaches": found.teaches, "activity": activity.custom()}
    if activity.graded:
        grades.remember_target(store, ref, grades.Target(
            found.issuer, found.client_id, found.ags, found.resource_link, activity.title))
    if activity.kind == POLL:
        return poll.opened(store, found, ref, activity.names)
    if found.teaches:
        return redirect(url_for("lti_gradebook.placement_scores"), 303)
    return redirect(activity.path(), 303)


def placement() -> dict | None:
    """This browser's latest launch from a course, as launch() kept it; None without one."""
    kept = session.get(SESSION_KEY)
    return kept if isinstance(kept, dict) else None
