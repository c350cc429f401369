"""What the platforms' images share: the harness's driver (inside.py) copied into an image,
and the driver run on some work in a fresh container of that image."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from docker_like import Container, missing_tools
from needs import missing

HERE = Path(__file__).parent
DRIVER = "/harness/inside.py"


def needed() -> None:
    """Skip (fail under CI) where the container cannot be made."""
    problem = missing_tools()
    if problem:
        missing(problem, "the tests in the platforms' conditions")


def add_harness(unpacked: Path) -> None:
    """The driver and the checker's one-module runner, under /harness of the image."""
    (unpacked / "harness").mkdir()
    for name in ("inside.py", "check_one.py"):
        shutil.copy(HERE / name, unpacked / "harness" / name)


def run_driver(layers: tuple[str, ...], work: dict, user: int | None, home: str,
               prepare: tuple = ()) -> dict:
    """The driver's report on *work*, run in a fresh container of *layers* from *home*, as
    root (None) or as *user*."""
    environment = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
                   "HOME": "/root" if user is None else "/tmp"}
    container = Container(layers=layers, prepare=prepare, user=user, environment=environment)
    done = container.run(["/usr/bin/python3", "-I", DRIVER], cwd=home,
                         stdin=json.dumps(work).encode(), timeout=900)
    if done.returncode:
        raise AssertionError(f"the driver failed ({done.returncode}): "
                             f"{done.stderr.decode()[-3000:]}")
    return json.loads(done.stdout)
