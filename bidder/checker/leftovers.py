"""What a student's uid leaves where every user may write: after each run under a uid of
its own, every file and folder that uid owns in the shared temporary places is removed,
so that no note reaches the next run on the same machine (the reaper has killed its
processes already, so nothing is being written meanwhile)."""

from __future__ import annotations

import os
import shutil
import stat
from contextlib import suppress

# where any user may write on the systems graders run (POSIX message queues where
# mounted); folders inside them that every user may write are searched too
SHARED = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/var/lock", "/dev/mqueue")
DEPTH = 8  # world-writable folders searched below a shared place, at most


def owned(uid: int, places: tuple[str, ...] = SHARED, depth: int = DEPTH) -> list[str]:
    """Every entry *uid* owns in *places* (a folder it owns as a whole), searching only
    folders every user may write, which the student could write in; links not followed."""
    found, pending = [], [(place, depth) for place in places]
    while pending:
        folder, left = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:  # absent here, or not ours to read
            continue
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if info.st_uid == uid:
                found.append(entry.path)
            elif stat.S_ISDIR(info.st_mode) and info.st_mode & 0o002 and left > 0:
                pending.append((entry.path, left - 1))
    return sorted(found)


def remove(path: str) -> None:
    """Remove *path* whatever was made of it: a link or a file is unlinked (a link never
    followed), a folder removed with the folders locked in it opened again first; never
    fails."""
    with suppress(OSError):
        if os.path.islink(path) or not os.path.isdir(path):
            os.unlink(path)
            return
        os.chmod(path, 0o700)
        for folder, subfolders, _ in os.walk(path):
            for name in subfolders:
                inner = os.path.join(folder, name)
                if not os.path.islink(inner):
                    with suppress(OSError):
                        os.chmod(inner, 0o700)
        shutil.rmtree(path, ignore_errors=True)


def sweep(uid: int, places: tuple[str, ...] = SHARED) -> list[str]:
    """Remove everything *uid* owns in the shared places; what was found."""
    found = owned(uid, places)
    for path in found:
        remove(path)
    return found
