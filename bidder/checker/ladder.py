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

from . import bpf
from .confine import (STUDENT_UID, Confinement, landlock_abi, landlock_ruleset, pick_uid,
                      readable_paths, seccomp_module, seccomp_rung)
from .uid_lease import LeaseError, leased_uid

UID, SECCOMP, LANDLOCK = "uid", "seccomp", "landlock"
RUNGS = (UID, SECCOMP, LANDLOCK)
RLIMIT, NONE = "rlimit", "none"  # the checker's own uid's process limit; nothing at all
# what each bound keeps from the student's code: the processes it starts, the sockets it
# opens, the files it leaves in shared places, the IPC objects it leaves in the kernel
BOUNDS = ("processes", "sockets", "files", "ipc")
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
    raw: bool = False  # the seccomp filter written as BPF here, libseccomp missing
    root: bool = False  # the checker is root (no process limit binds it)

    @property
    def forks(self) -> bool:
        """Whether the student's code may start processes: wherever a process limit binds
        (its own uid, or an unprivileged checker's), else seccomp allows threads only."""
        return UID in self.held or not self.root

    @property
    def creates(self) -> bool:
        """Whether the student's code may make files: wherever they are kept from shared
        places (Landlock) or removed from them (its own uid), else seccomp refuses."""
        return UID in self.held or LANDLOCK in self.held

    def measures(self) -> tuple[str, ...]:
        """What each rung that held enforces, in words."""
        words = {UID: f"own uid {self.uid} (no groups, no new privileges, not dumpable; "
                      f"what it leaves in /tmp, /var/tmp, /dev/shm, /run/lock removed)",
                 SECCOMP: "seccomp" + (" (raw BPF, no libseccomp)" if self.raw else "")
                          + ": no sockets, no signals, limits or tracing of other "
                          "processes, no namespaces or mounts, no System V IPC or message "
                          "queues" + ("" if self.forks else ", no new processes")
                          + ("" if self.creates else ", no files made"),
                 LANDLOCK: f"Landlock (ABI {self.abi}): reads only the system, the "
                           f"interpreter and the submission, writes only the scratch "
                           f"folder" + (", no TCP" if self.abi >= 4 else "")
                           + (", no signals out" if self.abi >= 6 else "")}
        return tuple(words[rung] for rung in self.held)

    def bounds(self) -> tuple[tuple[str, str], ...]:
        """Which rung bounds each of BOUNDS ('none' where none does)."""
        held = set(self.held)
        processes = (UID if UID in held else RLIMIT if not self.root else
                     SECCOMP if SECCOMP in held else NONE)
        blocks = SECCOMP if SECCOMP in held else NONE
        files = LANDLOCK if LANDLOCK in held else UID if UID in held else blocks
        return tuple(zip(BOUNDS, (processes, blocks, files, blocks)))

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
                       seccomp_rung() if SECCOMP in ladder.held else None, ladder.forks,
                       ladder.creates)


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
        return "" if seccomp_rung() else (
            f"libseccomp's Python bindings are missing (pip install pyseccomp), and no "
            f"filter can be written without them for {bpf.machine()}")
    return "" if landlock_abi() else "the kernel has no Landlock"


def _starts(ladder: Ladder) -> str:
    """Why the interpreter does not start under *ladder*'s rungs, or '' when it does
    (as a uid no other check holds meanwhile, where the uid is a rung)."""
    if UID not in ladder.held:
        return _probe(ladder)
    try:
        with leased_uid(ladder.uid) as uid:
            return _probe(replace(ladder, uid=uid))
    except LeaseError as error:
        return str(error)


def _probe(ladder: Ladder) -> str:
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
    ladder = Ladder(interpreter=interpreter, abi=landlock_abi(), uid=uid,
                    raw=seccomp_module() is None, root=os.geteuid() == 0)
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
