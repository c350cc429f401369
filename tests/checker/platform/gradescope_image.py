"""The Gradescope autograder as Gradescope sets it up: the bundle's zip unpacked into
/autograder/source, run_autograder copied to /autograder, setup.sh run once as root when the
image is built (in a container, its writes kept as a layer), and the harness's driver
(inside.py) beside it. Each submission then runs in a fresh container of that image."""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

from bidder.checker.gradescope import Bundle, write_bundle
from docker_like import Container
from harness import add_harness, run_driver

CHECK_ONE = ["/autograder/bidder-venv/bin/python", "-I", "/harness/check_one.py"]
# the unprivileged checker: neither root nor the student's uid, nor any other test's user
# (a kill(-1) sent by another test's user on the host reaches into the container's PID
# namespace and would end this one's processes)
CHECKER_UID = 62_235


def build_image(folder: Path, bundle: Bundle) -> tuple[str, str]:
    """Build the image's layer under *folder*: (the layer, what setup.sh printed when it
    failed, or '')."""
    unpacked, image = folder / "unpacked", folder / "image"
    source = unpacked / "autograder" / "source"
    source.mkdir(parents=True)
    image.mkdir()
    write_bundle(str(folder / "autograder.zip"), bundle)
    with zipfile.ZipFile(folder / "autograder.zip") as archive:
        for info in archive.infolist():
            archive.extract(info, source)
            os.chmod(source / info.filename, info.external_attr >> 16 & 0o777)
    shutil.copy(source / "run_autograder", unpacked / "autograder" / "run_autograder")
    add_harness(unpacked)
    for path in [unpacked, *unpacked.rglob("*")]:
        os.chmod(path, 0o755 if path.is_dir() or os.access(path, os.X_OK) else 0o644)
    setup = Container(layers=(str(unpacked),)).run(
        ["bash", "/autograder/source/setup.sh"], keep=str(image), timeout=300)
    problem = "" if setup.returncode == 0 else (setup.stdout + setup.stderr).decode()[-3000:]
    return str(image), problem


def run_in_image(image: str, work: dict, user: int | None, prepare: tuple = ()) -> dict:
    """Run the driver on *work* in a fresh container of *image* (after *prepare*), as
    root (None) or as *user*, who then owns /autograder as it would own its own
    installation."""
    if user is not None:
        prepare += (("chown", "-R", f"{user}:{user}", "/autograder"),)
    return run_driver((image,), work, user, "/autograder", prepare)
