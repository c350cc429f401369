"""Which rungs below bubblewrap hold here: each probed once by starting the interpreter
under it, and named in the report only when it held."""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
import tempfile
from dataclasses import dataclass, replace
from functools import lru_cache

from .confine import (STUDENT_UID, Confinement, landlock_abi, landlock_ruleset, pick_uid,
                      readable_paths, seccomp_module)

UID, SECCOMP, LANDLOCK = "uid", "seccomp", "landlock"
RUNGS = (UID, SECCOMP, LANDLOCK)
SYSTEM_PYTHON = "/usr/bin/python3"


@dataclass(frozen=True)
class Ladder:
    """The rungs that held when probed, the ones that did not with why, the interpreter
    that runs the runner under them, and Landlock's ABI."""

    held: tuple[str, ...] = ()
    missed: tuple[tuple[str, str], ...] = ()
    interpreter: str = ""
    abi: int = 0
    uid: int = STUDENT_UID

    def measures(self) -> tuple[str, ...]:
        """What each rung that held enforces, in words."""
        words = {UID: f"own uid {self.uid} (no groups, no new privileges, not dumpable)",
                 SECCOMP: "seccomp: no sockets, no signals, limits or tracing of other "
                          "processes, no namespaces or mounts",
                 LANDLOCK: f"Landlock (ABI {self.abi}): reads only the system, the "
                           f"interpreter and the submission, writes only the scratch "
                           f"folder" + (", no TCP" if self.abi >= 4 else "")
                           + (", no signals out" if self.abi >= 6 else "")}
        return tuple(words[rung] for rung in self.held)

    def reason(self) -> str:
        """Why the rungs that did not hold did not, or ''."""
        return "; ".join(f"no {rung}: {why}" for rung, why in self.missed)


def confinement(ladder: Ladder, scratch: str, staged: str) -> Confinement:
    """The confinement of the rungs that held, for one run in *scratch* on *staged*."""
    ruleset = None
    if LANDLOCK in ladder.held:
        ruleset = landlock_ruleset(ladder.abi, scratch, readable_paths(
            ladder.interpreter, sysconfig.get_path("stdlib"), staged))
    return Confinement(ladder.uid if UID in ladder.held else None, ruleset,
                       seccomp_module() if SECCOMP in ladder.held else None)


def popen_options(confined: Confinement) -> dict:
    """Popen's arguments that put *confined* on the child."""
    options = {"preexec_fn": confined.apply}
    if confined.uid is not None:
        options.update(user=confined.uid, group=confined.uid, extra_groups=[])
    return options


def _unavailable(rung: str, uid_problem: str) -> str:
    """Why *rung* cannot be tried at all here (*uid_problem* for the uid), or ''."""
    if rung == UID:
        return uid_problem
    if rung == SECCOMP:
        return "" if seccomp_module() else (
            "libseccomp's Python bindings are missing (pip install pyseccomp)")
    return "" if landlock_abi() else "the kernel has no Landlock"


def _starts(ladder: Ladder) -> str:
    """Why the interpreter does not start under *ladder*'s rungs, or '' when it does."""
    scratch = tempfile.mkdtemp(prefix="bidder-probe-")
    confined = None
    try:
        if ladder.uid is not None and UID in ladder.held:
            os.chown(scratch, ladder.uid, ladder.uid)
        confined = confinement(ladder, scratch, scratch)
        probe = subprocess.run([ladder.interpreter, "-I", "-S", "-c", "pass"], cwd=scratch,
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=30,
                               env={}, **popen_options(confined))
        if probe.returncode:
            lines = probe.stderr.decode("utf-8", "replace").strip().splitlines() or ["?"]
            return f"{ladder.interpreter} did not start under it: {lines[-1][:120]}"
        return ""
    except (OSError, subprocess.SubprocessError) as error:
        return f"it could not be put on a process: {str(error)[:120]}"
    finally:
        if confined is not None and confined.ruleset is not None:
            os.close(confined.ruleset)
        shutil.rmtree(scratch, ignore_errors=True)


@lru_cache(maxsize=None)
def climb(wanted: tuple[str, ...], interpreter: str) -> Ladder:
    """Each rung of *wanted* that can be put on the runner here, with its interpreter:
    *interpreter*, or the system's Python when the student's uid cannot run that one; the
    uid as ``pick_uid`` finds it (BIDDER_CHECK_UID, read once)."""
    uid, uid_problem = pick_uid(os.environ)
    ladder = Ladder(interpreter=interpreter, abi=landlock_abi(), uid=uid)
    for rung in RUNGS:
        if rung not in wanted:
            continue
        why = _unavailable(rung, uid_problem)
        trial = replace(ladder, held=ladder.held + (rung,))
        if not why:
            why = _starts(trial)
            if why and rung == UID and os.path.exists(SYSTEM_PYTHON):
                system = replace(trial, interpreter=SYSTEM_PYTHON)
                why = _starts(system) and why
                trial = system if not why else trial
        ladder = trial if not why else replace(ladder, missed=ladder.missed + ((rung, why),))
    return ladder
