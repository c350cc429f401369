"""Deep linking: the LMS's "add an item" dialog opens bidder's picker, the instructor
chooses a practice set (by seed, rules or bids), the diagnostic round or a live poll,
and the tool answers the LMS with the item signed, a grade column with it when the
activity is graded. PyLTI1p3 writes the signed answer."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, render_template, request, session
from pylti1p3.deep_link import DeepLink
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.lineitem import LineItem
from pylti1p3.registration import Registration

from ..rate_limits import limiter, lti_limit
from ..security import allow_form_to
from ..teach import params
from ..teach.practice import read_set
from ..teach.rounds import round_bids, round_rules
from .activities import KINDS, POLL, PRACTICE, Activity
from .claims import DEEP_LINKING, Launch
from .login import launch_url
from .own_key import key_of
from .refusals import Refused

blueprint = Blueprint("lti_deep_linking", __name__, url_prefix="/lti")

SESSION_KEY = "lti_pick"
NOT_TEACHING = Refused(403, "Only an instructor adds bidder to a course", (
    "the LMS's 'add an item' dialog opened bidder for someone without an instructor's "
    "role in this course. Ask the course's instructor, or the LMS's administrator for the "
    "role."))
NO_DIALOG = Refused(400, "The LMS's dialog is over", (
    "this choice belongs to an 'add an item' dialog that has ended, or was opened in "
    "another browser. Open the LMS's dialog again and choose there."))


def dialog(found: Launch):
    """The picker, for an instructor adding an item (the LMS's settings for the answer
    kept in the session).

    :raises Refused: 403 for someone who does not teach; 400 for a dialog without a
        return address.
    """
    settings = found.claims.get(DEEP_LINKING)
    if not found.teaches:
        raise NOT_TEACHING
    if not isinstance(settings, dict) or not isinstance(
            settings.get("deep_link_return_url"), str):
        raise Refused(400, "The LMS's dialog gave no return address", (
            "the deep-linking launch carries no deep_link_return_url, so the choice "
            "could not be sent back; the LMS's administrator should report this to its "
            "vendor."))
    session[SESSION_KEY] = {"issuer": found.issuer, "client_id": found.client_id,
                            "deployment": found.deployment,
                            "return_url": settings["deep_link_return_url"],
                            "data": settings.get("data")}
    return picker()


def picker(problem: str = "", status: int = 200):
    """The page where the instructor chooses."""
    return render_template("lti_pick.html", kinds=KINDS, problem=problem,
                           rules=round_rules(""), max_seed=params.MAX_SEED,
                           seed=params.fresh_seed()), status


def chosen(form) -> Activity:
    """The activity the picker's *form* names.

    :raises params.ParamError: saying what cannot be read.
    """
    kind = form.get("activity", "")
    if kind not in KINDS:
        raise params.ParamError("choose a practice set, the diagnostic round or a poll",
                                "activity")
    if kind == POLL:
        return Activity(kind, names=form.get("names") == "1")
    if kind != PRACTICE:
        return Activity(kind)
    seed, rules, bids = read_set({"set": form.get("set", ""), "rule": form.get("rule", ""),
                                  "bid": form.get("bid", "")})
    return Activity(kind, seed, rules, bids)


def item(activity: Activity, url: str) -> DeepLinkResource:
    """The LTI resource link for *activity*, with a grade column when it is graded."""
    resource = (DeepLinkResource().set_url(url).set_title(activity.title)
                .set_custom_params(activity.custom()).set_target("window"))
    if activity.graded:
        resource.set_lineitem(LineItem().set_label(activity.title).set_score_maximum(
            maximum(activity)).set_tag("bidder"))
    return resource


def maximum(activity: Activity) -> int:
    """The most a student can score on *activity*: the hands of a round."""
    return len(round_bids(activity.bids) if activity.bids else round_rules(activity.rules))


@blueprint.post("/pick")
@limiter.limit(lti_limit)
def pick():
    """Answer the LMS's dialog with the instructor's choice, signed by the tool."""
    kept = session.get(SESSION_KEY)
    if not isinstance(kept, dict):
        raise NO_DIALOG
    try:
        activity = chosen(request.form)
    except params.ParamError as error:
        return picker(f"That choice cannot be placed: {error.message}.", 400)
    key = key_of(current_app)
    registration = (Registration().set_issuer(kept["issuer"])
                    .set_client_id(kept["client_id"])
                    .set_tool_private_key(key.private_pem).set_tool_public_key(key.public_pem))
    settings = {"deep_link_return_url": kept["return_url"], "data": kept["data"]}
    token = DeepLink(registration, kept["deployment"], settings).get_response_jwt(
        [item(activity, launch_url())])
    del session[SESSION_KEY]
    parts = urlsplit(kept["return_url"])
    allow_form_to(f"{parts.scheme}://{parts.netloc}")
    return render_template("lti_return.html", return_url=kept["return_url"], token=token,
                           activity=activity)
