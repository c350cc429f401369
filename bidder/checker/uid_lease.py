"""One student uid per running check. A check holds an exclusive lock on its uid's lock
file from before the student's code starts until the reaper has killed every process of
that uid, so two checks on one machine (the workers of `bidder class`, or graders sharing
a host) never share a uid, and one check's reaper never kills the other's student. The
locks live in a folder only root may write, and the kernel drops them when a checker
dies, however it dies."""

from __future__ import annotations

import fcntl
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from .confine import STUDENT_UID, UID_SEARCH, UID_VARIABLE, living, unused_uids

LOCK_PARENTS = ("/run", "/var/lock")  # then the temporary folder
LOCK_FOLDER = "bidder-student-uids"


class LeaseError(RuntimeError):
    """No uid could be leased: the message says why and what to do."""


def lock_folder(parents: tuple[str, ...] = LOCK_PARENTS) -> str:
    """The folder of the uids' lock files: made under the first of *parents* (then the
    temporary folder) where it can be, and used only if it is root's own, a real folder
    that no one else may write."""
    for parent in parents + (tempfile.gettempdir(),):
        path = os.path.join(parent, LOCK_FOLDER)
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
        except OSError:
            continue
        found = os.lstat(path)
        if stat.S_ISDIR(found.st_mode) and found.st_uid == 0 and not found.st_mode & 0o022:
            return path
    raise LeaseError(f"no folder for the student uids' locks: make {LOCK_PARENTS[0]}/"
                     f"{LOCK_FOLDER} a folder of root's that only root may write")


def _locked(folder: str, uid: int, wait: bool) -> int | None:
    """A descriptor holding *uid*'s lock, or None when another check holds it."""
    descriptor = os.open(os.path.join(folder, f"{uid}.lock"),
                         os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        os.close(descriptor)
        return None
    return descriptor


@contextmanager
def leased_uid(first: int, fixed: bool | None = None,
               folder: str | None = None) -> Iterator[int]:
    """A uid for one check's student, held until the block ends: *first* itself when
    *fixed* (by default: when BIDDER_CHECK_UID names it), waiting while another check
    holds it, else the first uid from *first* up that no other check holds, no user owns
    and no process runs as."""
    if fixed is None:
        fixed = bool(os.environ.get(UID_VARIABLE, "").strip())
    folder = folder or lock_folder()
    for uid in [first] if fixed else unused_uids(first):
        descriptor = _locked(folder, uid, wait=fixed)
        if descriptor is None:
            continue
        # Looked at again under the lock: a check that died holding it may have left its
        # student running.
        if fixed or not living(uid):
            try:
                yield uid
            finally:
                os.close(descriptor)
            return
        os.close(descriptor)
    raise LeaseError(f"every uid from {first} to {STUDENT_UID + UID_SEARCH - 1} is held by "
                     f"another check, owned by a user or running processes: run fewer "
                     f"checks at once, or set BIDDER_CHECK_UID")
