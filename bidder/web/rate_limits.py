"""Rate limits on what grows the state store, per client (Flask-Limiter).

The counters live in the state store itself (RATELIMIT_STORAGE_URI is BIDDER_STATE_URL),
so every worker, and with Redis every machine, counts a client once. A store that cannot
be used lets requests through (the practice page then says scores cannot be kept).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many

from .state import limits_storage  # noqa: F401  (registers the sqlite scheme with `limits`)
from .state.redis_store import CLIENT_OPTIONS

# A class behind one school address answers a hand every few seconds each: 30 students,
# one answer and one count every 15 s, is 240 a minute.
PRACTICE_LIMIT = "240 per minute; 4000 per hour"

# A room votes from one school address: 500 phones each voting twice in a minute, with
# room to spare.
LIVE_LIMIT = "3000 per minute"

# New polls: an instructor starts a few a lecture; a department behind one address a few
# hundred a day. Each is kept 12 hours, so a flood of them would fill the store.
POLL_LIMIT = "30 per minute; 300 per day"

# Join codes that name no poll: a class of 200 behind one address mistyping a code each
# stays well within it; a guesser of codes tries a few a second at most (32**5 codes).
CODE_LIMIT = "300 per minute; 1000 per hour"

# Launches from a course: a class of 200 behind one school address each logging in and
# launching within a minute, with room to spare; platforms reading the key set too.
LTI_LIMIT = "600 per minute; 10000 per hour"

# The diagnostic round's API: a student answers a hand every few seconds; a class of 60
# behind one school address, one answer each every 5 s, is 720 a minute.
DIAGNOSIS_LIMIT = "720 per minute; 20000 per hour"

LIMIT_VARIABLE = "BIDDER_PRACTICE_RATE_LIMIT"
LIVE_VARIABLE = "BIDDER_LIVE_RATE_LIMIT"
POLL_VARIABLE = "BIDDER_POLL_RATE_LIMIT"
CODE_VARIABLE = "BIDDER_CODE_RATE_LIMIT"
LTI_VARIABLE = "BIDDER_LTI_RATE_LIMIT"
DIAGNOSIS_VARIABLE = "BIDDER_DIAGNOSIS_RATE_LIMIT"
LIMITS = (("PRACTICE_RATE_LIMIT", LIMIT_VARIABLE, PRACTICE_LIMIT),
          ("LIVE_RATE_LIMIT", LIVE_VARIABLE, LIVE_LIMIT),
          ("POLL_RATE_LIMIT", POLL_VARIABLE, POLL_LIMIT),
          ("CODE_RATE_LIMIT", CODE_VARIABLE, CODE_LIMIT),
          ("LTI_RATE_LIMIT", LTI_VARIABLE, LTI_LIMIT),
          ("DIAGNOSIS_RATE_LIMIT", DIAGNOSIS_VARIABLE, DIAGNOSIS_LIMIT))  # config, variable, default

# A count that Redis does not answer at once is let through (RATELIMIT_SWALLOW_ERRORS)
# after this long, not after redis-py's default wait: a paused Redis gives a prompt 503
# from the store, not a request held as long as the pause.
LIMITER_REDIS_SECONDS = 0.5
LIMITER_REDIS_OPTIONS = {**CLIENT_OPTIONS, "socket_timeout": LIMITER_REDIS_SECONDS,
                         "socket_connect_timeout": LIMITER_REDIS_SECONDS}

limiter = Limiter(get_remote_address)
LIMITED_MARK = "__wrapper-limiter-instance"  # what Flask-Limiter sets on a view it wraps


def practice_limit() -> str:
    """The limit on practice answers (config PRACTICE_RATE_LIMIT)."""
    return current_app.config["PRACTICE_RATE_LIMIT"]


def live_limit() -> str:
    """The limit on live-poll votes and new polls (config LIVE_RATE_LIMIT)."""
    return current_app.config["LIVE_RATE_LIMIT"]


def limited_blueprints(app: Flask) -> tuple[str, ...]:
    """The blueprints of the views the limiter wraps, by name."""
    return tuple(sorted({endpoint.rpartition(".")[0]
                         for endpoint, view in app.view_functions.items()
                         if getattr(view, LIMITED_MARK, None) == limiter}))


def poll_limit() -> str:
    """The limit on new polls (config POLL_RATE_LIMIT)."""
    return current_app.config["POLL_RATE_LIMIT"]


def code_limit() -> str:
    """The limit on join codes that name no poll (config CODE_RATE_LIMIT)."""
    return current_app.config["CODE_RATE_LIMIT"]


def lti_limit() -> str:
    """The limit on logins, launches and key-set reads from a course (LTI_RATE_LIMIT)."""
    return current_app.config["LTI_RATE_LIMIT"]


def diagnosis_limit() -> str:
    """The limit on diagnostic answers (config DIAGNOSIS_RATE_LIMIT)."""
    return current_app.config["DIAGNOSIS_RATE_LIMIT"]


def missed(response) -> bool:
    """Whether *response* says that no poll has the code asked for."""
    return response.status_code == 404


# Every request that names a poll by its code and says whether it exists: checked
# against the client's count of misses, which only a miss adds to.
code_lookups = limiter.shared_limit(code_limit, scope="poll-codes", deduct_when=missed)


def init_app(app: Flask, environ=None) -> None:
    """Count in the state store, answer a breach with 429 and Retry-After, and let a
    request through when the store cannot count it. Called once the blueprints are
    registered: Flask-Limiter's per-request hooks (its check of application-wide limits,
    of which there are none here, its headers and its clean-up) run only for the
    blueprints with limited views. On every page and /api/bid call they found nothing
    to do and took a tenth of a worker's time; a limited view checks its own limit
    either way.

    :raises RuntimeError: for a BIDDER_*_RATE_LIMIT that is not a limit, naming it.
    """
    for name, variable, default in LIMITS:
        app.config.setdefault(name, (environ or {}).get(variable) or default)
        check_limit(app.config[name], variable)
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config["STATE_URL"])
    if urlsplit(app.config["RATELIMIT_STORAGE_URI"]).scheme in ("redis", "rediss"):
        app.config.setdefault("RATELIMIT_STORAGE_OPTIONS", LIMITER_REDIS_OPTIONS)
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    hooks = (app.before_request_funcs, app.after_request_funcs, app.teardown_request_funcs)
    before = [list(funcs.get(None, ())) for funcs in hooks]
    limiter.init_app(app)
    limited = limited_blueprints(app)
    for funcs, kept in zip(hooks, before):
        added = [hook for hook in funcs.get(None, ()) if hook not in kept]
        funcs[None] = kept
        for name in limited:
            funcs.setdefault(name, []).extend(added)


def check_limit(value: str, variable: str) -> None:
    """Check that *value*, the limit *variable* sets, reads as a rate limit.

    :raises RuntimeError: saying what to write instead.
    """
    try:
        parse_many(value)
    except ValueError:
        raise RuntimeError(
            f"{variable} is {value[:40]!r}, which is not a rate limit: write e.g. "
            f"{variable}='240 per minute; 4000 per hour'") from None
