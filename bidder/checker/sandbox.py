"""Running a student's module sealed off from the checker, the reference and the machine.

The module runs in a child interpreter that sees only the standard library, a copy of
the student's folder and the runner (``runner.py``), with hard resource limits.
Where Linux namespaces are available it runs under bubblewrap: no network, its own
process namespace (every descendant dies with it), a read-only view of the interpreter
and the submission, a private scratch ``/tmp`` of bounded size, an empty environment,
and, when the checker is root, as a student uid of its own, so that its process count
is bounded. Elsewhere it falls back to what the platform offers (its own session, the
same limits, a scrubbed environment, a temporary working folder, every descendant killed
at the end, and what the student's uid left in shared places removed), and says so,
naming the rung that bounds each of the processes, sockets, files and IPC. The child's work goes in on standard input; its answers come back on
standard output, and what the module itself prints on standard error, both read by the
parent with caps, so no flood can block or exhaust the checker.
"""

from __future__ import annotations

import ctypes
import glob
import json
import math
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Iterator

from .confine import Confinement, kill_uid, pick_uid
from .ladder import BOUNDS, NONE, RUNGS, UID, Ladder, climb, confinement, popen_options
from .leftovers import remove, sweep
from .uid_lease import leased_uid

# the whole installed package, the reference in it: never shown to the child
PACKAGE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
RUNNER = os.path.join(PACKAGE, "checker", "runner.py")
BUBBLEWRAP = "bubblewrap"
FALLBACK = "fallback"
SANDBOX_UID = 65534  # nobody, inside the sandbox's own user namespace
INSIDE_RUNNER = "/checker/check_runner.py"
INSIDE_SUBMISSION = "/submission"
MIB = 1 << 20
COPY_LIMIT = 16 * MIB  # what of the student's folder is copied in, at most
COPY_FILES = 200
SKIPPED_FOLDERS = ("__pycache__", "node_modules", "site-packages", "dist-packages", "bidder")
PR_SET_CHILD_SUBREAPER = 36
GRACE = 0.5  # seconds to drain the pipes after the child has gone
KILL_ROUNDS = 20  # rounds of killing what is left, for processes that fork as they die


@dataclass(frozen=True)
class Limits:
    """What the student's code may use: wall and CPU time, memory, disk, processes,
    and how much of its own output is kept. *cpu_seconds* (None: the wall time, rounded
    up, and one more) stops a module that computes for ever as soon as it has used them,
    however busy the machine is, where the wall time waits for it in real time."""

    timeout: float = 10.0
    memory: int = 1024 * MIB
    file_size: int = 16 * MIB
    scratch: int = 64 * MIB
    output: int = 4096
    open_files: int = 64
    processes: int = 64
    cpu_seconds: int | None = None

    def __post_init__(self) -> None:
        if self.cpu_seconds is not None and (type(self.cpu_seconds) is not int
                                             or self.cpu_seconds < 1):
            raise ValueError(f"the CPU seconds must be a whole number from 1 up, not "
                             f"{self.cpu_seconds!r}: give --cpu 1 or more, or leave it out")

    @property
    def cpu(self) -> int:
        """CPU seconds each run may use: *cpu_seconds*, or the wall time, rounded up, and
        one more."""
        return math.ceil(self.timeout) + 1 if self.cpu_seconds is None else self.cpu_seconds

    def rlimits(self, counted: bool | None = None) -> dict[str, int]:
        """The resource limits the runner sets on itself, by name; processes are limited
        where the kernel counts them (*counted*: the runner is not root)."""
        limits = {"RLIMIT_AS": self.memory, "RLIMIT_CPU": self.cpu,
                  "RLIMIT_FSIZE": self.file_size, "RLIMIT_NOFILE": self.open_files,
                  "RLIMIT_CORE": 0}
        if os.geteuid() != 0 if counted is None else counted:
            limits["RLIMIT_NPROC"] = self.processes
        return limits


@dataclass(frozen=True)
class Isolation:
    """Which isolation was in force, what it consists of, and why no better one was."""

    name: str
    measures: tuple[str, ...]
    reason: str = ""
    ladder: Ladder | None = field(default=None, compare=False, repr=False)
    bounds: tuple[tuple[str, str], ...] = ()  # which rung bounds each of ladder.BOUNDS

    def describe(self) -> str:
        """One sentence for a report."""
        text = f"{self.name}: " + "; ".join(self.measures)
        if self.bounds:
            text += "; held by: " + ", ".join(f"{what} {rung}" for what, rung in self.bounds)
        return text + (f" (no sandbox: {self.reason})" if self.reason else "")


@dataclass(frozen=True)
class Outcome:
    """How the child ended and what it wrote, as bytes the parent has yet to check."""

    status: int | None  # exit status, negative for a signal; None when the time ran out
    channel: bytes
    channel_dropped: int
    output: bytes
    output_dropped: int
    isolation: Isolation
    elapsed: float


def measures(limits: Limits, sealed: bool) -> tuple[str, ...]:
    """What keeps the module in, in words: only what the chosen isolation enforces (the
    fallback's reaper adds what it found at the end)."""
    common = (f"memory {limits.memory // MIB} MiB", f"CPU {limits.cpu} s",
              f"wall {limits.timeout:g} s", f"files {limits.file_size // MIB} MiB",
              f"output kept {limits.output:,} bytes")
    if sealed:
        return ("no network", "own process namespace", "own IPC namespace",
                "read-only interpreter and submission",
                f"private /tmp of {limits.scratch // MIB} MiB") + common + (
                f"processes {limits.processes}", "empty environment", "standard library only")
    return ("own session", "temporary working folder", "scrubbed environment") + common


def reaped(isolation: Isolation, left: set[int]) -> Isolation:
    """*isolation* with what the reaper found at the end: every descendant killed, how
    many it could not kill, that it could not look (-1 in *left*) or that the student's
    uid kept processes (-2)."""
    count = len(left - {-1, -2})
    found = ("the descendants could not be listed to be killed" if -1 in left else
             "the student's uid still had processes at the end" if -2 in left else
             "every descendant killed" if not count else
             f"{count} descendant process{'es' if count != 1 else ''} could not be killed")
    return replace(isolation, measures=isolation.measures + (found,))


# Staging: what the child may see -------------------------------------------------

def stage(module: str, into: str) -> str:
    """Copy the runner and the student's folder (its files, and the packages in it but
    never the reference) under *into*; return the module's name there."""
    os.makedirs(os.path.join(into, "checker"))
    shutil.copy(RUNNER, os.path.join(into, "checker", "check_runner.py"))
    submission = os.path.join(into, "submission")
    os.makedirs(submission)
    budget = [COPY_LIMIT, COPY_FILES]
    _copy_folder(os.path.dirname(os.path.abspath(module)), submission, budget, depth=2)
    name = os.path.basename(module)
    shutil.copyfile(module, os.path.join(submission, name))  # always, even through a link
    settle_modes(into)
    return name


def settle_modes(into: str) -> None:
    """Every staged folder 0755 and file 0644, whatever the umask and the modes of the
    files copied (the checker's own may be unreadable to the student's uid)."""
    for folder, _, names in os.walk(into):
        os.chmod(folder, 0o755)
        for name in names:
            os.chmod(os.path.join(folder, name), 0o644)


def _copy_folder(source: str, target: str, budget: list[int], depth: int) -> None:
    """Copy regular files and package folders from *source*, within the budget."""
    try:
        entries = sorted(os.scandir(source), key=lambda entry: entry.name)
    except OSError:  # an unreadable folder: the module alone is copied
        return
    for entry in entries:
        if entry.name.startswith(".") or budget[1] <= 0:
            continue
        if entry.is_file(follow_symlinks=False):
            size = entry.stat(follow_symlinks=False).st_size
            if size <= budget[0]:
                shutil.copyfile(entry.path, os.path.join(target, entry.name))
                budget[0] -= size
                budget[1] -= 1
        elif (depth > 0 and entry.is_dir(follow_symlinks=False)
              and entry.name not in SKIPPED_FOLDERS
              and os.path.exists(os.path.join(entry.path, "__init__.py"))):
            os.makedirs(os.path.join(target, entry.name))
            _copy_folder(entry.path, os.path.join(target, entry.name), budget, depth - 1)


# The two ways to run it -------------------------------------------------------------

def interpreter() -> str:
    """This Python's own executable, outside any virtual environment."""
    return os.path.realpath(sys.executable)


def bound_roots(prefix: str) -> list[str]:
    """The folders the sandbox shows read-only: /usr and the interpreter's *prefix*."""
    return ["/usr"] if prefix == "/usr" or prefix.startswith("/usr/") else ["/usr", prefix]


def masks(roots: list[str], package: str = PACKAGE) -> list[str]:
    """Folders inside the bound roots that could hold the reference: every site- and
    dist-packages, and wherever bidder itself is installed; each is hidden by an empty
    tmpfs."""
    found = set()
    for root in roots:
        for pattern in ("lib/python3*/site-packages", "lib/python3*/dist-packages",
                        "local/lib/python3*/site-packages", "local/lib/python3*/dist-packages",
                        "lib/python3/dist-packages"):
            found.update(glob.glob(os.path.join(root, pattern)))
    installed = os.path.dirname(package)
    if any(installed.startswith(root + "/") for root in roots):
        found.add(installed)
    return sorted(found)


def system_links(root: str = "/") -> list[str]:
    """bwrap arguments that show /bin, /lib and the like as they are here: the same
    links where they are links (a merged /usr), else read-only folders."""
    arguments = []
    for name in ("bin", "lib", "lib32", "lib64", "sbin"):
        path = os.path.join(root, name)
        if os.path.islink(path):
            arguments += ["--symlink", os.readlink(path), "/" + name]
        elif os.path.isdir(path):
            arguments += ["--ro-bind", path, "/" + name]
    return arguments


def ancestors(path: str) -> list[str]:
    """The folders above *path*, the root aside, outermost first."""
    found = []
    while os.path.dirname(path) not in ("/", path):
        path = os.path.dirname(path)
        found.insert(0, path)
    return found


def bubblewrap_command(staged: str, limits: Limits, drop: bool = False) -> list[str]:
    """The bwrap command line that runs the runner sealed: as nobody in a user namespace
    of its own, or, with *drop* (a root checker), in no user namespace, with the power
    to change uids alone, for the runner to become the student's uid before anything
    else (the kernel counts no processes of root's, not even those that are nobody in a
    user namespace of root's, so only a uid of its own bounds them)."""
    roots = bound_roots(os.path.realpath(sys.base_prefix))
    users = (["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
              "--unshare-cgroup-try", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
             if drop else ["--unshare-all", "--uid", str(SANDBOX_UID),
                           "--gid", str(SANDBOX_UID)])
    command = ["bwrap", *users, "--die-with-parent", "--new-session",
               "--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/tmp",
               "--setenv", "LANG", "C.UTF-8"]
    for root in roots:
        for parent in ancestors(root):  # made by bwrap, 0700 unless told
            command += ["--perms", "0755", "--dir", parent]
        command += ["--ro-bind", root, root]
    command += system_links()
    for mask in masks(roots):
        command += ["--tmpfs", mask, "--remount-ro", mask]
    command += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777",
                "--size", str(limits.scratch), "--tmpfs", "/tmp",
                "--ro-bind", os.path.join(staged, "checker"), "/checker",
                "--ro-bind", os.path.join(staged, "submission"), INSIDE_SUBMISSION,
                # the sandbox's own root and /dev (with /dev/shm) are tmpfs of no size of
                # their own: read-only, so that /tmp, of its own size, is the one place
                # to write
                "--remount-ro", "/dev", "--remount-ro", "/",
                "--chdir", "/tmp", interpreter(), "-I", "-S"]
    return command


@contextmanager
def bubblewrap_uid() -> Iterator[int | None]:
    """The uid the runner becomes under bwrap: a root checker's student uid (leased, as
    for the fallback); None (nobody in a user namespace) otherwise, or where no uid can
    be the student's."""
    uid, problem = pick_uid(os.environ)
    if os.geteuid() != 0 or problem:
        yield None
        return
    with leased_uid(uid) as leased:
        yield leased


@lru_cache(maxsize=1)
def bubblewrap_problem() -> str:
    """Why bubblewrap cannot run here, or '' when it can (tried once per process)."""
    if shutil.which("bwrap") is None:
        return "bwrap is not installed (apt-get install bubblewrap)"
    with tempfile.TemporaryDirectory(prefix="bidder-probe-") as staged:
        for folder in ("checker", "submission"):
            os.makedirs(os.path.join(staged, folder))
        try:
            probe = subprocess.run(bubblewrap_command(staged, Limits(), os.geteuid() == 0)
                                   + ["-c", "pass"], stdin=subprocess.DEVNULL,
                                   capture_output=True, timeout=30)
        except subprocess.TimeoutExpired:
            return "bwrap did not start within 30 s"
    if probe.returncode:
        lines = probe.stderr.decode("utf-8", "replace").strip().splitlines() or ["?"]
        return f"bwrap cannot run here: {lines[-1][:120]}"
    return ""


def wanted_rungs(wanted: str) -> tuple[str, ...]:
    """The rungs below bubblewrap that *wanted* asks for: every one for 'auto' and
    'fallback', those named for 'fallback:uid+seccomp', none for 'fallback:'."""
    if not wanted.startswith(FALLBACK + ":"):
        return RUNGS
    named = tuple(rung for rung in wanted.split(":", 1)[1].split("+") if rung)
    unknown = [rung for rung in named if rung not in RUNGS]
    if unknown:
        raise ValueError(f"{unknown[0]!r} is not a rung of the fallback; the rungs are "
                         f"{', '.join(RUNGS)}")
    return named


def choose_isolation(wanted: str, limits: Limits) -> Isolation:
    """bubblewrap when it runs here (or is demanded), else the fallback with the rungs
    below it that hold here, and the reasons for anything less."""
    if wanted.split(":")[0] == FALLBACK:
        problem = "the fallback was asked for"
    else:
        problem = bubblewrap_problem()
        if problem and wanted == BUBBLEWRAP:
            raise RuntimeError(f"the sandbox was demanded but {problem}")
        if not problem:
            counted = os.geteuid() != 0 or not pick_uid(os.environ)[1]
            return Isolation(BUBBLEWRAP, measures(limits, True), bounds=tuple(
                (what, BUBBLEWRAP if counted or what != "processes" else NONE)
                for what in BOUNDS))
    ladder = climb(wanted_rungs(wanted), interpreter())
    reason = "; ".join(filter(None, (problem, ladder.reason())))
    return Isolation(FALLBACK, measures(limits, False) + ladder.measures(), reason, ladder,
                     ladder.bounds())


def run_student(module: str, work: dict, limits: Limits = Limits(),
                isolation: str = "auto", tests: str | None = None,
                replacement: str | None = None) -> Outcome:
    """Run the runner on *work* for the student's *module*, sealed; never raises for
    anything the module does, and its cleanup never fails. With *tests*, the student's
    test file is staged beside the module and run on it; with *replacement*, the
    module's file holds that source instead (the reference, or a mutant, under the
    student's module name)."""
    chosen = choose_isolation(isolation, limits)
    staged = tempfile.mkdtemp(prefix="bidder-check-")
    try:
        name = stage(module, staged)
        submission = os.path.join(staged, "submission")
        if replacement is not None:
            with open(os.path.join(submission, name), "w", encoding="utf-8") as stream:
                stream.write(replacement)
        ladder = chosen.ladder
        confined = ladder is not None and UID in ladder.held
        inside = INSIDE_SUBMISSION if chosen.name == BUBBLEWRAP else submission
        work = dict(work, module=f"{inside}/{name}", limits=limits.rlimits(
            counted=True if confined or chosen.name == BUBBLEWRAP else None))
        if tests is not None:
            shutil.copyfile(tests, os.path.join(submission, os.path.basename(tests)))
            work["tests"] = f"{inside}/{os.path.basename(tests)}"
        settle_modes(staged)
        if chosen.name == BUBBLEWRAP:
            return _run_bubblewrap(staged, work, limits, chosen)
        return _run_fallback(staged, work, limits, chosen)
    finally:
        remove(staged)


def _run_bubblewrap(staged: str, work: dict, limits: Limits, chosen: Isolation) -> Outcome:
    """Run the runner sealed, as a root checker's student uid (the runner becomes it
    first, so that the process limit binds; its processes are killed at the end)."""
    with bubblewrap_uid() as uid:
        command = bubblewrap_command(staged, limits, uid is not None) + [INSIDE_RUNNER]
        outcome = supervise(command, dict(work, uid=uid), limits, chosen, cwd=staged,
                            environment={})
        if uid is not None:
            kill_uid(uid, interpreter())
    return outcome


def _run_fallback(staged: str, work: dict, limits: Limits, chosen: Isolation) -> Outcome:
    """Run the runner under the rungs that held, as a student uid no other check holds
    while it runs and is reaped (where that rung held)."""
    ladder = chosen.ladder
    if UID not in ladder.held:
        return _run_confined(staged, work, limits, chosen)
    with leased_uid(ladder.uid) as uid:
        leased = replace(ladder, uid=uid)
        own = chosen.measures[:len(chosen.measures) - len(ladder.measures())]
        return _run_confined(staged, work, limits,
                             replace(chosen, ladder=leased, measures=own + leased.measures()))


def _run_confined(staged: str, work: dict, limits: Limits, chosen: Isolation) -> Outcome:
    """Run the runner in a scratch folder of its own under the rungs that held, then
    kill whatever is left of it."""
    ladder = chosen.ladder
    scratch = tempfile.mkdtemp(prefix="bidder-scratch-")
    confined = Confinement()
    try:
        if UID in ladder.held:
            os.chown(scratch, ladder.uid, ladder.uid)
        confined = confinement(ladder, scratch, staged)
        command = [ladder.interpreter, "-I", "-S",
                   os.path.join(staged, "checker", "check_runner.py")]
        environment = {"PATH": "/usr/bin:/bin", "HOME": scratch, "TMPDIR": scratch,
                       "LANG": "C.UTF-8"}
        with _reaping() as left:
            outcome = supervise(command, work, limits, chosen, cwd=scratch,
                                environment=environment, **popen_options(confined))
            if confined.uid is not None:
                if not kill_uid(confined.uid, ladder.interpreter):
                    left.add(-2)
                sweep(confined.uid)
        return replace(outcome, isolation=reaped(chosen, left))
    finally:
        if confined.ruleset is not None:
            os.close(confined.ruleset)
        remove(scratch)


# Watching the child -----------------------------------------------------------------

class _Capped:
    """The first *limit* bytes read from a pipe, and a count of the rest."""

    def __init__(self, limit: int) -> None:
        self.kept, self.dropped, self.limit = bytearray(), 0, limit

    def add(self, data: bytes) -> None:
        room = self.limit - len(self.kept)
        self.kept += data[:max(room, 0)]
        self.dropped += max(len(data) - max(room, 0), 0)


def supervise(command: list[str], work: dict, limits: Limits, isolation: Isolation,
              cwd: str, environment: dict, **options) -> Outcome:
    """Start *command* (with Popen's *options*), hand it *work*, read both pipes with
    caps until it ends or the time runs out, then kill whatever is left of it."""
    started = time.monotonic()
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=cwd, env=environment,
                             start_new_session=True, **options)
    pipes = {child.stdout: _Capped(channel_limit(work)), child.stderr: _Capped(limits.output)}
    try:
        child.stdin.write(json.dumps(work).encode())
        child.stdin.close()
    except OSError:
        pass  # the child has gone already; how it ended says why
    status = _watch(child, pipes, started + limits.timeout)
    channel, output = pipes[child.stdout], pipes[child.stderr]
    return Outcome(status, bytes(channel.kept), channel.dropped, bytes(output.kept),
                   output.dropped, isolation, time.monotonic() - started)


def channel_limit(work: dict) -> int:
    """The most the channel may carry: about a kilobyte a call, and room for the rest."""
    if work.get("tests"):
        return MIB  # a line for each test
    return 64 * 1024 + 1024 * len(work["hands"]) * len(work["functions"])


def _watch(child: subprocess.Popen, pipes: dict, deadline: float) -> int | None:
    """Drain the pipes until both close and the child has ended, or until *deadline*.

    :returns: the exit status, or None when the time ran out.
    """
    selector = selectors.DefaultSelector()
    for pipe in pipes:
        os.set_blocking(pipe.fileno(), False)
        selector.register(pipe, selectors.EVENT_READ)
    timed_out, drain_until = False, None
    try:
        while selector.get_map():
            now = time.monotonic()
            if child.poll() is not None and drain_until is None:
                drain_until = now + GRACE
            limit = deadline if drain_until is None else min(deadline, drain_until)
            if now >= limit:
                timed_out = drain_until is None
                break
            for key, _ in selector.select(min(limit - now, 0.1)):
                data = os.read(key.fileobj.fileno(), 65536)
                if data:
                    pipes[key.fileobj].add(data)
                else:
                    selector.unregister(key.fileobj)
        if not timed_out and child.poll() is None:  # both pipes closed, the child goes on
            child.wait(max(deadline - time.monotonic(), 0))
    except subprocess.TimeoutExpired:
        timed_out = True
    finally:
        selector.close()
        _kill(child)
        for pipe in pipes:
            pipe.close()
    return None if timed_out else child.returncode


def _kill(child: subprocess.Popen) -> None:
    """Kill the child's whole session (and with it, under bubblewrap, its namespace)."""
    with suppress(ProcessLookupError):
        os.killpg(child.pid, signal.SIGKILL)
    child.wait()


# Finding every descendant, where there is no process namespace ------------------------

def _set_subreaper(on: bool) -> bool:
    """Become (or stop being) the parent of orphaned descendants; False where unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def descendants(pid: int, proc: str = "/proc") -> set[int]:
    """Every process below *pid*, from /proc."""
    parents = {}
    for entry in filter(str.isdigit, os.listdir(proc)):
        try:
            with open(os.path.join(proc, entry, "stat"), "rb") as stream:
                fields = stream.read().rsplit(b")", 1)[1].split()
        except OSError:  # the process has gone since the listing
            continue
        parents[int(entry)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items()
                    if parent in frontier and child not in found}
        found |= frontier
    return found


@contextmanager
def _reaping() -> Iterator[set[int]]:
    """While the block runs, orphans of the child become ours; after it, every process
    that appeared below us is killed and reaped; the set yielded then holds those that
    could not be (or -1 when /proc could not be read)."""
    before = descendants(os.getpid())
    subreaper = _set_subreaper(True)
    unkilled: set[int] = set()
    try:
        yield unkilled
    finally:
        try:
            unkilled |= _kill_below(before)
        except OSError:
            unkilled.add(-1)
        if subreaper:
            _set_subreaper(False)


def _kill_below(before: set[int]) -> set[int]:
    """Kill and reap every process below us that was not there *before*, round after
    round while any are left; those still left after the last round."""
    left, rounds = descendants(os.getpid()) - before, 0
    while left and rounds < KILL_ROUNDS:
        for pid in left:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for pid in left:
            with suppress(ChildProcessError):
                os.waitpid(pid, 0)
        left, rounds = descendants(os.getpid()) - before, rounds + 1
    return left
