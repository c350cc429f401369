"""Work done once for a whole run of the suite, however many parallel workers run it.

A container run of the whole corpus takes most of a minute. Each pytest-xdist worker
would make it again for the tests of its own that read it: here the first worker to ask
makes it and keeps it (as JSON) in the run's shared temporary folder, and the others wait
for it there and read it."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import Callable

KEPT: dict[tuple[str, str], object] = {}  # read or made in this process, by folder and name


def shared_folder(tmp_path_factory) -> Path:
    """The run's temporary folder that every worker sees: the parent of a worker's own,
    or the run's own folder when the suite runs in one process."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def once(folder: Path, name: str, make: Callable[[], object]):
    """What *make()* returns (a JSON value), made by one worker of the run alone."""
    key = (str(folder), name)
    if key not in KEPT:
        path = folder / f"{name}.json"
        with open(folder / f"{name}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not path.exists():
                part = folder / f"{name}.part"
                part.write_text(json.dumps(make()))
                part.replace(path)
        KEPT[key] = json.loads(path.read_text())
    return KEPT[key]
