"""What the platforms' tests share about the modules they run: the hostile corpus
(tests/checker/students) and the escapes (escapes/) with their blanks filled in, each as a
submission's files, and what a run of one let escape."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

HERE = Path(__file__).parent
STUDENTS, ESCAPES = HERE.parent / "students", HERE / "escapes"
ESCAPED = sorted(path.stem for path in ESCAPES.glob("*.py"))
MODULES = sorted(path.stem for path in STUDENTS.glob("*.py")) + ESCAPED
# the stub first (its score is the bar), every other module, then the stub again (what an
# earlier module left for the next submission)
ORDER = ["stub"] + [name for name in MODULES if name != "stub"] + ["stub_again"]
# modules whose answers are all right: the full score is theirs
EARNED_IN_FULL = ("correct", "leaves_processes", "deletes_scratch", "floods_output")
# each run's CPU seconds: a module that loops is stopped after one, however busy the
# machine (a run answering every hand uses a tenth of it; check_one.py says the same)
CPU_SECONDS = 1
# right answers after writing 262 MB: within the time limit or not, as the machine goes
EARNED_IF_FAST = ("fills_disk",)
# what the cheats that write into the installation or the standard library add there: every
# score that goes through json.dumps becomes full marks
FORGE = """
import json as _json
_dumps = _json.dumps
def _forged(value, *arguments, **keywords):
    if isinstance(value, dict) and "score" in value:
        value = dict(value, score=100.0)
    return _dumps(value, *arguments, **keywords)
_json.dumps = _forged  # @MARKER@
"""
# the student's uid in the container (BIDDER_CHECK_UID): not the checker's default, which
# other tests on the host use, whose kill(-1) as that uid would reach into the container
STUDENT_UID = 62_234
LISTENER_PORT = 7777  # on the container's own loopback: any port is free there
WORK = {"secret": secrets.token_hex(16), "marker": f"mark{secrets.token_hex(8)}"}


def source(name: str, paths: tuple[tuple[str, str], ...] = ()) -> str:
    """A module's source with its blanks filled in, then each of *paths* (Gradescope's
    path, the platform's) put in its place, in order."""
    path = ESCAPES / f"{name}.py" if (ESCAPES / f"{name}.py").exists() else (
        STUDENTS / f"{'stub' if name == 'stub_again' else name}.py")
    text = (path.read_text().replace("@FORGE@", FORGE).replace("@MARKER@", WORK["marker"])
            .replace("@OUTSIDE@", "/autograder/outside")
            .replace("@PORT@", str(LISTENER_PORT)))
    for old, new in paths:
        text = text.replace(old, new)
    return text


def submission(name: str, paths: tuple[tuple[str, str], ...] = (),
               file: str | None = None) -> dict[str, str]:
    """The files of a submission: the module (as *file*, else by its name), and the plain
    solution it may import, as a package beside it (a second module of its own would be
    taken for the submission)."""
    text = source(name, paths)
    files = {file or f"{name}.py": text}
    if "import correct" in text:
        files["correct/__init__.py"] = source("correct")
    return files


def contained(report: dict, name: str, temporary: tuple[str, ...] = ("bidder-",)) -> list[str]:
    """What a run let escape: files changed, processes left, the checker's folders left in
    /tmp (those named with *temporary*), what the student's uid left where every user may
    write, the network reached, the secret or the marker in
    what the student sees."""
    run, problems = report["runs"][name], []
    changed = [path for path, digest in run["fingerprints"].items()
               if digest != report["before"][path]]
    if changed:
        problems.append(f"changed {changed}")
    afresh = [path for path, digest in report["after"].items()
              if digest != report["before"][path]]
    if afresh and name == list(report["runs"])[-1]:  # the last module answers for the run
        problems.append(f"read afresh at the end, changed {afresh}")
    if run["left"]:
        problems.append(f"left {run['left']}")
    kept = [entry for entry in run["temporary"] if entry.startswith(temporary)]
    if kept:
        problems.append(f"the checker left {kept} in /tmp")
    if run.get("left_files"):
        problems.append(f"the student's uid left {run['left_files']}")
    if run["heard"]:
        problems.append(f"the network heard {run['heard']}")
    shown = json.dumps(run["results"]) + run["stdout"]
    for word in (WORK["secret"], WORK["marker"], "Traceback"):
        if word in shown:
            problems.append(f"{word!r} in what the student sees")
    if run["status"] == "timeout":
        problems.append("the checker did not end")
    return problems
