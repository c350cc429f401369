"""The student's uid: BIDDER_CHECK_UID when set, else 61234, else the first uid above it
that no user owns and no process runs as; never the rung skipped for want of one."""

import os

import pytest

from bidder.checker import confine
from needs import missing
from bidder.checker.confine import STUDENT_UID, UID_SEARCH, pick_uid

TAKEN = {STUDENT_UID: "user", STUDENT_UID + 1: "process"}


@pytest.fixture
def root(monkeypatch):
    """A root checker on a system where 61234 is a user's and 61235 runs a process."""
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(confine, "free_uid", lambda uid: "a user's" if TAKEN.get(uid) ==
                        "user" else "")
    monkeypatch.setattr(confine, "living", lambda uid: {7} if TAKEN.get(uid) == "process"
                        else set())


@pytest.mark.parametrize("value, expected", [
    (None, (STUDENT_UID + 2, "")),
    ("", (STUDENT_UID + 2, "")),
    ("  ", (STUDENT_UID + 2, "")),
    ("1", (1, "")),
    ("1001", (1001, "")),
    ("4294967294", (4294967294, "")),
    (str(STUDENT_UID), (STUDENT_UID, "")),
    (str(STUDENT_UID + 1), (STUDENT_UID + 1, "BIDDER_CHECK_UID=61235 has processes running: "
                                            "give the student's code a uid of its own")),
    ("0", (STUDENT_UID, "BIDDER_CHECK_UID='0' is not a uid: set it to a number from 1 to "
                        "4294967294, or unset it")),
    ("4294967295", (STUDENT_UID, "BIDDER_CHECK_UID='4294967295' is not a uid: set it to a "
                                 "number from 1 to 4294967294, or unset it")),
    ("-5", (STUDENT_UID, "BIDDER_CHECK_UID='-5' is not a uid: set it to a number from 1 "
                         "to 4294967294, or unset it")),
    ("student", (STUDENT_UID, "BIDDER_CHECK_UID='student' is not a uid: set it to a number "
                              "from 1 to 4294967294, or unset it")),
], ids=["unset: the first free uid", "empty: the same", "blank: the same", "the lowest uid",
        "Gradescope's student user", "the highest uid", "a user's uid, when asked for",
        "a uid with processes is refused", "root is refused", "the uid -1 is refused",
        "negative", "a name"])
def test_the_uid_from_the_environment_or_the_first_free(root, value, expected):
    environ = {} if value is None else {"BIDDER_CHECK_UID": value}
    assert pick_uid(environ) == expected


def test_61234_itself_when_it_is_free(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(confine, "free_uid", lambda uid: "")
    monkeypatch.setattr(confine, "living", lambda uid: set())
    assert pick_uid({}) == (STUDENT_UID, "")


def test_no_free_uid_in_the_range_says_to_set_one(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(confine, "free_uid", lambda uid: "a user's")
    uid, why = pick_uid({})
    assert uid == STUDENT_UID and why == (
        f"every uid from {STUDENT_UID} to {STUDENT_UID + UID_SEARCH - 1} belongs to a user "
        f"or runs processes: set BIDDER_CHECK_UID to a free uid")


def test_not_root_has_no_uid_of_its_own(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert pick_uid({"BIDDER_CHECK_UID": "1001"}) == (STUDENT_UID, "the checker is not root")


def test_the_ladder_runs_the_student_as_the_uid_asked_for(monkeypatch):
    """As root, BIDDER_CHECK_UID is the uid the rung holds with, and the one it names."""
    from bidder.checker.ladder import UID, climb
    from bidder.checker.sandbox import interpreter

    if os.geteuid() != 0:
        missing("the tests do not run as root", "the student's own uid")
    wanted = next(uid for uid in range(61_300, 62_000) if not confine.free_uid(uid)
                  and not confine.living(uid))
    monkeypatch.setenv("BIDDER_CHECK_UID", str(wanted))
    ladder = climb.__wrapped__((UID,), interpreter())
    assert ladder.held == (UID,) and ladder.uid == wanted
    assert ladder.measures()[0].startswith(f"own uid {wanted} ")
