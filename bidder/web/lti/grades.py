"""Scores to a course's gradebook, with no button to press: ``finished`` records a
finished activity's score in the state store and posts it at once; a post that fails
stays queued, and is tried again later with a growing wait, until it goes through or
the tries run out. One record per placed link and student: a second finish, a retry or
two workers at once replace it, never add a column or a row.

Any activity posts its score so::

    from bidder.web.lti import grades
    grades.finished(store, placement_ref, user, score, maximum, comment)

*placement_ref* and *user* come from the launch (``session["lti"]``, see ``launch``).
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timezone

from ..state import Store, StoreUnavailable
from . import ags, platforms
from .keys import ToolKey

QUEUE = "lti:grades"
KEPT_SECONDS = 30 * 86400.0  # a term's last month of posts, shown to the instructor
MAX_POSTS = 100_000  # records kept at once, across courses
FIRST_WAIT = 30.0  # seconds before the first retry; doubled each time
MAX_WAIT = 3600.0
MAX_TRIES = 10  # the last is about five hours after the first
RETRIES_A_CALL = 20  # posts retried by one sweep: a bounded cost per request
SWEEP_SECONDS = 30.0  # one sweep of the queue at most this often, across every worker
PENDING, POSTED, FAILED = "pending", "posted", "failed"
MAX_COMMENT = 1000


@dataclass(frozen=True)
class Target:
    """Where a placed link's scores go: its platform, the grade service's claim of its
    launch, the link's id, and its title (the column's label, if one must be made)."""

    issuer: str
    client_id: str
    service: dict
    link: str
    label: str


def target_key(placement_ref: str) -> str:
    """Where the target of a placed link is kept."""
    return f"lti:target:{placement_ref}"


def remember_target(store: Store, placement_ref: str, target: Target) -> None:
    """Keep where *placement_ref*'s scores go (written at each launch: the latest
    launch's service claim wins, but for a column found or made before, kept when the
    launch names none)."""
    kept = store.get(target_key(placement_ref))
    column = json.loads(kept)["service"].get("lineitem") if kept else None
    if column and not target.service.get("lineitem"):
        target = replace(target, service={**target.service, "lineitem": column})
    store.put(target_key(placement_ref), json.dumps(asdict(target)), KEPT_SECONDS)


@dataclass(frozen=True)
class Post:
    """One score on its way: for whom, where, what, how it stands, how often it was
    tried, when next, and why the last try failed."""

    placement_ref: str
    user: str
    score: float
    maximum: float
    comment: str
    timestamp: str
    state: str = PENDING
    tries: int = 0
    due: float = 0.0
    why: str = ""

    @property
    def field(self) -> str:
        """Its place in the queue: one per placed link and student."""
        return f"{self.placement_ref} {self.user}"


def now_stamp(now: float) -> str:
    """*now* as AGS writes a score's time (ISO 8601, UTC, with its offset)."""
    return datetime.fromtimestamp(now, timezone.utc).isoformat(timespec="milliseconds")


def finished(store: Store, placement_ref: str, user: str, score: float, maximum: float,
             comment: str = "", *, key: ToolKey, now: float | None = None,
             session=None) -> Post:
    """Record that *user* finished the activity placed as *placement_ref* with *score*
    of *maximum* (and *comment*, one sentence, say the misreading named), and post it
    to the gradebook now: the Post as it stands (pending when the post failed, to be
    tried again by ``retry_due``).

    :raises ValueError: for a score outside 0..maximum.
    :raises StoreUnavailable: when the store cannot keep it.
    """
    if not 0 <= score <= maximum or maximum <= 0:
        raise ValueError(f"a score is from 0 to its maximum (above 0): {score} of {maximum}")
    now = time.time() if now is None else now
    post = Post(placement_ref, user, float(score), float(maximum), comment[:MAX_COMMENT],
                now_stamp(now), due=now)
    keep(store, post)
    return attempt(store, post, key, now, session)


def keep(store: Store, post: Post) -> None:
    """Write *post* to the queue (replacing the student's earlier one for that link)."""
    kept, _ = store.put_field_capped(QUEUE, post.field, json.dumps(asdict(post)),
                                     MAX_POSTS, KEPT_SECONDS, replace=True)
    if not kept:
        raise StoreUnavailable(f"the queue of scores holds {MAX_POSTS:,} already")


def attempt(store: Store, post: Post, key: ToolKey, now: float, session=None) -> Post:
    """Try *post* once: posted, or pending with the next try's time and why (failed
    once the tries run out); kept so in the queue."""
    try:
        deliver(store, post, key, session)
    except ags.PostFailed as error:
        tries = post.tries + 1
        post = replace(post, tries=tries, why=str(error),
                       state=FAILED if tries >= MAX_TRIES else PENDING,
                       due=now + min(MAX_WAIT, FIRST_WAIT * 2 ** (tries - 1)))
    else:
        post = replace(post, state=POSTED, tries=post.tries + 1, why="")
    keep(store, post)
    return post


def deliver(store: Store, post: Post, key: ToolKey, session=None) -> None:
    """Send *post* to its link's gradebook: to the column the launch named, else (one
    worker at a time) to the link's column found or made, remembered for the next.

    :raises PostFailed: saying why it did not go.
    """
    kept = store.get(target_key(post.placement_ref))
    if kept is None:
        raise ags.PostFailed("no launch of this link has been seen in the last 30 days, so "
                             "where its scores go is unknown: launch it from the course")
    target = Target(**json.loads(kept))
    platform = platforms.find(store, target.issuer, target.client_id)
    if platform is None:
        raise ags.PostFailed(f"{target.issuer} is no longer registered (`bidder lti add`)")
    making = not target.service.get("lineitem")
    if making and store.put_if_absent(f"lti:column:{post.placement_ref}", "making",
                                      FIRST_WAIT) is not None:
        raise ags.PostFailed("another post is finding or making the link's grade column; "
                             "this one follows it")
    column = ags.post(platform, key, target.service, target.link,
                      {"userId": post.user, "scoreGiven": post.score,
                       "scoreMaximum": post.maximum, "timestamp": post.timestamp,
                       "comment": post.comment, "label": target.label}, session)
    if making:  # the column found or made is where the link's later scores go
        remember_target(store, post.placement_ref, replace(
            target, service={**target.service, "lineitem": column}))


def queued(store: Store, placement_ref: str | None = None) -> list[Post]:
    """The posts in the queue (of one placed link), oldest first."""
    posts = [Post(**json.loads(text)) for text in store.fields(QUEUE).values()]
    return sorted((post for post in posts
                   if placement_ref in (None, post.placement_ref)),
                  key=lambda post: post.timestamp)


def sweep(store: Store, key: ToolKey) -> list[Post]:
    """retry_due, unless a worker swept the queue in the last SWEEP_SECONDS (a launch or
    the instructor's view sweeps it: the queue is read at most that often)."""
    if store.put_if_absent("lti:grades:sweep", "1", SWEEP_SECONDS) is not None:
        return []
    return retry_due(store, key)


def retry_due(store: Store, key: ToolKey, now: float | None = None, session=None,
              limit: int = RETRIES_A_CALL) -> list[Post]:
    """Try again, once each, up to *limit* pending posts whose time has come (each taken
    by one worker alone): the posts as they stand after."""
    now = time.time() if now is None else now
    due = [post for post in queued(store) if post.state == PENDING and post.due <= now]
    tried = []
    for post in due[:limit]:
        if store.put_if_absent(f"lti:grade-try:{post.field}:{post.tries}", "1",
                               FIRST_WAIT) is None:
            tried.append(attempt(store, post, key, now, session))
    return tried
