"""One student uid per running check: two checks at once never share a uid, so one's
reaper never kills the other's student."""

import os
import stat
import subprocess
import sys
import tempfile

import pytest

from bidder.checker import confine, sandbox, uid_lease
from bidder.checker.confine import STUDENT_UID, UID_SEARCH
from bidder.checker.sandbox import Limits
from bidder.checker.uid_lease import LeaseError, leased_uid, lock_folder
from needs import missing

LAST = STUDENT_UID + UID_SEARCH - 1
TAKEN = {STUDENT_UID + 1: "user", STUDENT_UID + 2: "process"}


@pytest.fixture
def system(monkeypatch):
    """61235 is a user's, 61236 runs a process, every other uid is free."""
    monkeypatch.setattr(confine, "free_uid", lambda uid: "a user's" if TAKEN.get(uid) ==
                        "user" else "")
    for module in (confine, uid_lease):
        monkeypatch.setattr(module, "living", lambda uid: {7} if TAKEN.get(uid) == "process"
                            else set())
    monkeypatch.delenv("BIDDER_CHECK_UID", raising=False)


def test_a_check_takes_the_first_uid_no_other_check_holds(system, tmp_path):
    with leased_uid(STUDENT_UID, folder=str(tmp_path)) as first:
        with leased_uid(STUDENT_UID, folder=str(tmp_path)) as second:
            assert (first, second) == (STUDENT_UID, STUDENT_UID + 3)
        with leased_uid(STUDENT_UID, folder=str(tmp_path)) as third:
            assert third == STUDENT_UID + 3  # given back when the second check ended
    with leased_uid(STUDENT_UID, folder=str(tmp_path)) as again:
        assert again == STUDENT_UID


def test_a_lease_held_by_another_process_is_skipped(system, tmp_path):
    """flock is the kernel's: another checker's lease counts, and dies with it."""
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys; fd = os.open(sys.argv[1], "
         "os.O_RDWR | os.O_CREAT); fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True);"
         " sys.stdin.read()", str(tmp_path / f"{STUDENT_UID}.lock")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        with leased_uid(STUDENT_UID, folder=str(tmp_path)) as uid:
            assert uid == STUDENT_UID + 3
    finally:
        holder.stdin.close()
        holder.wait()
    with leased_uid(STUDENT_UID, folder=str(tmp_path)) as uid:
        assert uid == STUDENT_UID


@pytest.mark.parametrize("value, fixed, expected", [
    ("", None, STUDENT_UID),
    (str(STUDENT_UID + 1), None, STUDENT_UID + 1),
    ("", True, STUDENT_UID + 1),
    ("  ", False, STUDENT_UID + 3),
], ids=["unset: searched", "BIDDER_CHECK_UID: that one, a user's or not",
        "fixed: that one", "not fixed: searched"])
def test_a_fixed_uid_is_the_one_asked_for(system, tmp_path, monkeypatch, value, fixed,
                                          expected):
    monkeypatch.setenv("BIDDER_CHECK_UID", value)
    first = STUDENT_UID if value.strip() == "" and fixed is None else STUDENT_UID + 1
    with leased_uid(first, fixed=fixed, folder=str(tmp_path)) as uid:
        assert uid == expected


def test_a_student_left_running_under_a_lock_just_freed_is_seen(system, tmp_path,
                                                                 monkeypatch):
    """The search saw no process as 61234; by the time its lock is held, one runs there
    (a check that died holding the lock left its student): the next uid is taken."""
    monkeypatch.setattr(uid_lease, "living", lambda uid: {7} if uid == STUDENT_UID else set())
    with leased_uid(STUDENT_UID, folder=str(tmp_path)) as uid:
        assert uid == STUDENT_UID + 3


def test_no_uid_left_says_what_to_do(system, tmp_path, monkeypatch):
    monkeypatch.setattr(confine, "living", lambda uid: {7})
    with pytest.raises(LeaseError, match=f"every uid from {STUDENT_UID} to {LAST} is held by "
                                         f"another check, owned by a user or running "
                                         f"processes: run fewer checks at once, or set "
                                         f"BIDDER_CHECK_UID"):
        with leased_uid(STUDENT_UID, folder=str(tmp_path)):
            pass


def _root_only():
    if os.geteuid() != 0:
        missing("the checker is not root", "the uid locks' folder tests")


def test_the_locks_folder_is_made_root_s_own(tmp_path):
    _root_only()
    folder = lock_folder((str(tmp_path / "absent"), str(tmp_path)))
    found = os.lstat(folder)
    assert folder == str(tmp_path / uid_lease.LOCK_FOLDER)
    assert stat.S_ISDIR(found.st_mode) and stat.S_IMODE(found.st_mode) == 0o700
    assert lock_folder((str(tmp_path),)) == folder  # found again


@pytest.mark.parametrize("spoil", ["writable by all", "someone else's", "a symbolic link"])
def test_a_locks_folder_others_could_touch_is_passed_by(tmp_path, spoil):
    _root_only()
    spoilt, good = tmp_path / "spoilt", tmp_path / "good"
    spoilt.mkdir(), good.mkdir()
    path = spoilt / uid_lease.LOCK_FOLDER
    if spoil == "a symbolic link":
        (tmp_path / "elsewhere").mkdir(mode=0o700)
        path.symlink_to(tmp_path / "elsewhere")
    else:
        path.mkdir(mode=0o700)
        os.chmod(path, 0o777) if spoil == "writable by all" else os.chown(path, 1, 1)
    assert lock_folder((str(spoilt), str(good))) == str(good / uid_lease.LOCK_FOLDER)


def test_with_no_folder_fit_for_locks_it_says_how_to_make_one(tmp_path, monkeypatch):
    _root_only()
    spoilt = tmp_path / uid_lease.LOCK_FOLDER
    spoilt.mkdir(mode=0o777)
    os.chmod(spoilt, 0o777)
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    with pytest.raises(LeaseError, match="no folder for the student uids' locks: make "
                                         "/run/bidder-student-uids a folder of root's"):
        lock_folder((str(tmp_path / "absent"),))


def test_a_check_runs_its_student_as_a_uid_no_other_check_holds(tmp_path, monkeypatch):
    """A check that starts while another holds 61234 says, and uses, the next uid."""
    _root_only()
    monkeypatch.delenv("BIDDER_CHECK_UID", raising=False)
    module = tmp_path / "s.py"
    module.write_text("import os\ndef highCardPoints(hand):\n    return os.getuid()\n")
    work = {"functions": ["highCardPoints"], "hands": ["AS KS QS JS 2H 3H 4H 5D 6D 7D 8C 9C TC"]}
    ladder = sandbox.climb(("uid",), sandbox.interpreter())
    with leased_uid(ladder.uid) as held:
        outcome = sandbox.run_student(str(module), work, Limits(), "fallback:uid")
    used = next(m for m in outcome.isolation.measures if m.startswith("own uid"))
    assert f"own uid {held} " not in used  # whichever uid other checks hold meanwhile
    assert f'"int": {used.split()[2]}'.encode() in outcome.channel


def test_a_uid_rung_with_no_uid_to_lease_is_missed_and_says_why(monkeypatch):
    """The probe, too, runs as a leased uid; with none to lease, the rung is not held."""
    from contextlib import contextmanager

    from bidder.checker import ladder

    @contextmanager
    def none_left(first):
        raise LeaseError("every uid is taken")
        yield first

    monkeypatch.setattr(ladder, "leased_uid", none_left)
    monkeypatch.setattr(ladder, "pick_uid", lambda environ: (STUDENT_UID, ""))
    found = ladder._starts(ladder.Ladder(held=(ladder.UID,), interpreter=sys.executable))
    assert found == "every uid is taken"
