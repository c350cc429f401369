"""The course's live poll, launched from the LMS: the instructor's launch opens the
placed link's poll (made when there is none open) holding the instructor's cookie; a
student's launch joins it as a device named by the LMS's user id, so every browser of
one student is one voter; and the instructor alone sees who answered what."""

from __future__ import annotations

import hashlib

from flask import Blueprint, redirect, render_template, request, url_for

from ...bids import Bid
from ...dealing import random_hand
from ..live import instructor, ledger
from ..live.device import adopt, device_id
from ..live.model import key_bid
from ..live.pages import PageError, admin, no_store, page_refused, poll_refused, store
from ..rate_limits import code_lookups
from ..state import Store
from ..teach.params import fresh_seed
from .claims import Launch
from .refusals import Refused

blueprint = Blueprint("lti_poll", __name__)

NAMES_LIMIT = ledger.MAX_DEVICES
DEVICE_PREFIX = "lms-"
# The doors through which a device joins a poll: a course's poll lets in only devices its
# students' launches named. A count or a vote needs a device that joined (the ledger's
# own check, in the same store step as the vote), so they need no check of their own.
JOINING = frozenset(("live.phone", "live_api.join"))


def poll_key(ref: str) -> str:
    """Where the code of a placed link's poll is kept."""
    return f"lti:poll:{ref}"


def course_key(code: str) -> str:
    """Where it is kept that poll *code* belongs to a course."""
    return f"lti:course-poll:{code}"


def names_key(code: str) -> str:
    """Where the names of a poll's students are kept, by device."""
    return f"lti:names:{code}"


def device_of(found: Launch) -> str:
    """The device that stands for the launch's user in every poll: the same for each of
    their browsers, another for anyone else."""
    digest = hashlib.sha256(f"{found.issuer}\n{found.user}".encode()).hexdigest()
    return DEVICE_PREFIX + digest[:22]


def current(store_: Store, ref: str):
    """The poll placed as *ref*, if one is open (None once it has expired)."""
    code = store_.get(poll_key(ref))
    if code is None:
        return None
    try:
        return ledger.load(store_, code)[0]
    except ledger.PollError:
        return None


def opened(store_: Store, found: Launch, ref: str, names: bool = False):
    """The instructor's projector view (the poll made on a random hand if none is open),
    or the student's phone page, joined as their LMS user (their name kept for the
    instructor when the LMS sends one and the placed link allows *names*).

    :raises Refused: 409 for a student when the instructor has not opened it yet.
    """
    poll = current(store_, ref)
    if found.teaches:
        if poll is None:
            poll, _ = ledger.create(store_, str(random_hand(fresh_seed())))
            store_.put(course_key(poll.code), ref, ledger.POLL_SECONDS)
            store_.put(poll_key(ref), poll.code, ledger.POLL_SECONDS)
        return instructor.grant(redirect(url_for("live.host", code=poll.code), 303), poll)
    if poll is None:
        raise Refused(409, "The poll has not started yet", (
            "your instructor opens it from the course first; launch this activity again "
            "once they have."))
    device = device_of(found)
    store_.put_field_capped(names_key(poll.code), device,
                            found.name if names and found.name else found.user,
                            NAMES_LIMIT, ledger.POLL_SECONDS, replace=True)
    return adopt(redirect(url_for("live.phone", code=poll.code), 303), device)


def course_devices_only() -> None:
    """Before a join: a course's poll lets in only its students' launches, one device
    each, so a cleared cookie or a second browser is no second vote (a device that did
    not join can neither count nor vote).

    :raises Refused: 403 for any other device, saying to launch from the course.
    """
    if request.endpoint not in JOINING:
        return
    device = device_id()
    if device is not None and device.startswith(DEVICE_PREFIX):
        return
    code = str((request.view_args or {}).get("code", ""))[:20].upper()
    if store().get(course_key(code)) is not None:
        raise Refused(403, "This poll is for a course's students", (
            f"poll {code} was opened from a course, and takes answers only from its "
            f"students, one each: open the poll's activity in the course (the LMS), which "
            f"brings you here as yourself."))


@blueprint.get("/live/<code>/names")
@code_lookups
def names(code: str):
    """Who answered what, round by round, for the poll's instructor alone (the names the
    LMS sent, else its user ids)."""
    poll, status = admin(code)
    known = store().fields(names_key(poll.code))
    rounds = []
    for number in range(status.round + 1):
        votes = ledger.ballots(store(), poll.code, number)
        rounds.append([(known.get(device, "(joined without the LMS)"),
                        Bid.from_value(key_bid(vote))) for device, vote in votes.items()])
    return no_store(render_template("lti_names.html", poll=poll, rounds=rounds))


blueprint.register_error_handler(ledger.PollError, poll_refused)
blueprint.register_error_handler(PageError, page_refused)
