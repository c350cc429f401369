"""The rungs below bubblewrap, for containers where it cannot start (Docker's default
seccomp profile and masked /proc stop it on Gradescope and PrairieLearn).

Each rung is prepared in the checker and put on the child between fork and exec, before
any student code runs, and each is probed once: the report names only those that held.

- a dedicated uid, when the checker is root: no supplementary groups, no new privileges;
  it cannot read the checker's files, memory or environment, nor signal its processes,
  and at the end every process of that uid is killed (``kill(-1)`` as that uid);
- a seccomp filter (built with libseccomp's bindings, which know each architecture's
  system call numbers, else written as raw BPF in ``bpf.py``): no sockets, no signals,
  limits or tracing aimed at other processes, no new namespaces, no mounts, no io_uring,
  no kernel keyring or modules, no System V IPC or POSIX message queues (which outlive
  the run); no new processes where nothing else bounds their number (a root checker
  without the uid rung, which RLIMIT_NPROC does not bind); and no new files where
  nothing else keeps them from shared places (neither the uid rung nor Landlock);
- Landlock where the kernel has it: files written only in the scratch folder, no TCP,
  and (ABI 6) no signals to processes outside the sandbox.
"""

from __future__ import annotations

import ctypes
import errno
import os
import pwd
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass

from . import bpf

STUDENT_UID = 61_234  # no user on the systems graders run; the student's code only
UID_SEARCH = 1000  # uids tried above STUDENT_UID when a user or a process has it
UID_VARIABLE = "BIDDER_CHECK_UID"
NO_NEW_PRIVS, SET_DUMPABLE = 38, 4  # prctl options
KILL_ROUNDS = 50

# clone() flags that make new namespaces
CLONE_NEW = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000,
             0x40000000, 0x00000080)

DENIED = ("socket", "ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
          "pidfd_open", "pidfd_getfd", "pidfd_send_signal", "tkill", "unshare", "setns",
          "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "fsopen",
          "fsmount", "fsconfig", "fspick", "bpf", "perf_event_open", "userfaultfd",
          "keyctl", "add_key", "request_key", "init_module", "finit_module",
          "delete_module", "kexec_load", "kexec_file_load", "reboot", "swapon", "swapoff",
          "sethostname", "setdomainname", "io_uring_setup", "io_uring_enter",
          "io_uring_register", "open_by_handle_at", "name_to_handle_at", "acct",
          "quotactl", "lookup_dcookie", "syslog", "vhangup", "shmget", "semget", "msgget",
          "mq_open")
CLONE_THREAD = 0x00010000

# Landlock (linux/landlock.h): system calls 444-446 on every architecture
LANDLOCK_CREATE_RULESET, LANDLOCK_ADD_RULE, LANDLOCK_RESTRICT_SELF = 444, 445, 446
LANDLOCK_VERSION, PATH_BENEATH = 1, 1
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
WRITES = sum(1 << bit for bit in range(4, 13)) | WRITE_FILE  # remove, make anything
REFER, TRUNCATE = 1 << 13, 1 << 14  # ABI 2, ABI 3
NET_TCP = 0b11  # bind and connect, ABI 4
SCOPE_SIGNAL, SCOPE_UNIX = 1 << 1, 1 << 0  # ABI 6
READS = EXECUTE | READ_FILE | READ_DIR


class RulesetAttr(ctypes.Structure):
    """struct landlock_ruleset_attr."""

    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class PathBeneath(ctypes.Structure):
    """struct landlock_path_beneath_attr (packed)."""

    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


_libc = ctypes.CDLL(None, use_errno=True)


def syscall(number: int, *arguments) -> int:
    """A raw system call; OSError with its errno when it fails."""
    result = _libc.syscall(number, *arguments)
    if result < 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))
    return result


def prctl(option: int, value: int) -> None:
    """prctl(option, value, 0, 0, 0); OSError when it fails."""
    if _libc.prctl(option, value, 0, 0, 0) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))


def landlock_abi() -> int:
    """The Landlock ABI version the kernel offers, 0 where it has none."""
    try:
        return syscall(LANDLOCK_CREATE_RULESET, None, 0, LANDLOCK_VERSION)
    except OSError:
        return 0


def landlock_ruleset(abi: int, scratch: str, readable: tuple[tuple[str, int], ...]) -> int:
    """A Landlock ruleset's file descriptor: read and run only beneath *readable*, write
    only beneath *scratch*, no TCP (ABI 4) and no signals out of the domain (ABI 6)."""
    writes = WRITES | (REFER if abi >= 2 else 0) | (TRUNCATE if abi >= 3 else 0)
    attr = RulesetAttr(READS | writes, NET_TCP if abi >= 4 else 0,
                       SCOPE_SIGNAL | SCOPE_UNIX if abi >= 6 else 0)
    size = ctypes.sizeof(RulesetAttr) if abi >= 6 else 16
    ruleset = syscall(LANDLOCK_CREATE_RULESET, ctypes.byref(attr), size, 0)
    try:
        for path, access in readable + ((scratch, READS | writes),):
            try:
                folder = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue  # a path this system lacks
            try:
                allowed = access if os.path.isdir(path) else access & (EXECUTE | READ_FILE
                                                                      | WRITE_FILE | TRUNCATE)
                rule = PathBeneath(allowed, folder)
                syscall(LANDLOCK_ADD_RULE, ruleset, PATH_BENEATH, ctypes.byref(rule), 0)
            finally:
                os.close(folder)
    except OSError:
        os.close(ruleset)
        raise
    return ruleset


SYSTEM_READABLE = ("/usr/lib", "/usr/lib64", "/usr/lib32", "/usr/bin", "/lib", "/lib64",
                   "/lib32", "/bin", "/etc", "/dev")
PACKAGE_FOLDERS = ("site-packages", "dist-packages")


def readable_paths(interpreter: str, stdlib: str,
                   staged: str) -> tuple[tuple[str, int], ...]:
    """What the child may read, with the access: the system's libraries and programs,
    the interpreter and its standard library (each entry but the package folders), and
    the staged files."""
    found = [(path, READS) for path in SYSTEM_READABLE + (interpreter, staged)]
    try:
        entries = sorted(os.listdir(stdlib))
    except OSError:
        entries = []
    found += [(stdlib, READ_DIR)]  # its names listed, package folders' files left unread
    found += [(os.path.join(stdlib, entry), READS) for entry in entries
              if entry not in PACKAGE_FOLDERS]
    library = os.path.join(os.path.dirname(os.path.dirname(interpreter)), "lib")
    try:
        found += [(os.path.join(library, entry), READS)
                  for entry in sorted(os.listdir(library)) if entry.startswith("libpython")]
    except OSError:
        pass
    return tuple(found)


def seccomp_module():
    """libseccomp's Python bindings: Debian's python3-seccomp, else PyPI's pyseccomp, else
    None."""
    for name in ("seccomp", "pyseccomp"):
        try:
            return __import__(name)
        except (ImportError, RuntimeError, OSError):  # pyseccomp: no libseccomp found
            continue
    return None


def seccomp_rung():
    """What writes the seccomp filter here: libseccomp's bindings, else the raw BPF
    module where it knows the architecture, else None."""
    return seccomp_module() or (bpf if bpf.supported() else None)


def seccomp_filter(bindings, pid: int, forks: bool = True, creates: bool = True):
    """The filter for the child *pid*: every system call allowed but those in DENIED,
    signals to any process but *pid* itself, limits set on any other process, clone()
    into new namespaces (into a new process at all, but for threads, unless *forks*),
    clone3 (whose flags a filter cannot read: glibc then falls back to clone), and,
    unless *creates*, every call that makes, links or renames a file."""
    if bindings is bpf:
        return bpf.Filter(DENIED, pid, forks, creates)
    deny, arg = bindings.ERRNO(errno.EPERM), bindings.Arg
    found = bindings.SyscallFilter(bindings.ALLOW)
    for name in DENIED:
        found.add_rule(deny, name)
    found.add_rule(deny, "kill", arg(0, bindings.NE, pid))
    found.add_rule(deny, "tgkill", arg(0, bindings.NE, pid))
    found.add_rule(deny, "prlimit64", arg(0, bindings.NE, 0))  # 0: the caller itself
    for flag in CLONE_NEW:
        found.add_rule(deny, "clone", arg(0, bindings.MASKED_EQ, flag, flag))
    found.add_rule(bindings.ERRNO(errno.ENOSYS), "clone3")
    if not forks:
        found.add_rule(deny, "clone", arg(0, bindings.MASKED_EQ, CLONE_THREAD, 0))
        for name in ("fork", "vfork"):  # pseudo-calls on AArch64, which libseccomp skips
            found.add_rule(deny, name)
    if not creates:
        for name in bpf.NAMING:
            found.add_rule(deny, name)
        for name, flags in bpf.OPENS:
            for bit in (0o100, 0o20000000):
                found.add_rule(deny, name, arg(flags, bindings.MASKED_EQ, bit, bit))
    return found


def free_uid(uid: int = STUDENT_UID) -> str:
    """Why *uid* cannot be the student's, or '' when it can (root, and no user has it)."""
    if os.geteuid() != 0:
        return "the checker is not root"
    try:
        user = pwd.getpwuid(uid)
    except KeyError:
        return ""
    return f"uid {uid} belongs to the user {user.pw_name}"


def unused_uids(first: int = STUDENT_UID) -> Iterator[int]:
    """The uids from *first* up to the last one searched that no user owns and no process
    runs as, lowest first, each looked at only when the one before is turned down."""
    return (uid for uid in range(first, STUDENT_UID + UID_SEARCH)
            if not free_uid(uid) and not living(uid))


def pick_uid(environ) -> tuple[int, str]:
    """(the student's uid, why it cannot be used or ''): BIDDER_CHECK_UID when set, else
    61234, else the first uid above it that no user owns and no process runs as."""
    if os.geteuid() != 0:
        return STUDENT_UID, "the checker is not root"
    chosen = environ.get(UID_VARIABLE, "").strip()
    if chosen:
        if not chosen.isdigit() or not 0 < int(chosen) < 0xFFFFFFFF:
            return STUDENT_UID, (f"{UID_VARIABLE}={chosen[:20]!r} is not a uid: set it to "
                                 f"a number from 1 to 4294967294, or unset it")
        uid = int(chosen)
        return uid, (f"{UID_VARIABLE}={uid} has processes running: give the student's "
                     f"code a uid of its own" if living(uid) else "")
    uid = next(unused_uids(), None)
    if uid is not None:
        return uid, ""
    return STUDENT_UID, (f"every uid from {STUDENT_UID} to {STUDENT_UID + UID_SEARCH - 1} "
                         f"belongs to a user or runs processes: set {UID_VARIABLE} to a "
                         f"free uid")


@dataclass(frozen=True)
class Confinement:
    """What to put on the child: a uid to run as (None: the checker's), a Landlock
    ruleset's descriptor (None: no Landlock), a seccomp filter's bindings (None: no
    filter), and whether the filter lets it start processes and make files."""

    uid: int | None = None
    ruleset: int | None = None
    bindings: object = None
    forks: bool = True
    creates: bool = True

    def apply(self) -> None:
        """Put every rung on this process (the child, between fork and exec): no new
        privileges, not dumpable, Landlock, then the seccomp filter."""
        prctl(NO_NEW_PRIVS, 1)
        prctl(SET_DUMPABLE, 0)
        if self.ruleset is not None:
            syscall(LANDLOCK_RESTRICT_SELF, self.ruleset, 0)
        if self.bindings is not None:
            seccomp_filter(self.bindings, os.getpid(), self.forks, self.creates).load()


# the lines of a /proc status file that living() reads
STATUS_LINES = {name: re.compile(rb"^" + name + rb":([^\n]*)", re.M)
                for name in (b"Uid", b"State")}
KILL_SCRIPT = "import os, signal\nos.kill(-1, signal.SIGKILL)\n"


def living(uid: int, proc: str = "/proc") -> set[int]:
    """The processes (zombies aside) whose real, effective or saved uid is *uid*."""
    found, wanted = set(), str(uid).encode()
    for entry in filter(str.isdigit, os.listdir(proc)):
        try:
            with open(os.path.join(proc, entry, "status"), "rb") as stream:
                status = stream.read()
        except OSError:  # gone since the listing
            continue
        if wanted in status_field(status, b"Uid").split()[:3] and not status_field(
                status, b"State").startswith(b"Z"):
            found.add(int(entry))
    return found


def status_field(status: bytes, name: bytes) -> bytes:
    """A field of a /proc status file ('Uid', 'State'), empty when it has none."""
    found = STATUS_LINES[name].search(status)
    return found.group(1).strip() if found else b""


def kill_uid(uid: int, interpreter: str) -> bool:
    """Kill every process of *uid*: a helper that runs as that uid sends SIGKILL to all
    it may signal (kill(-1)), round after round until none of that uid is left; whether
    none is."""
    for _ in range(KILL_ROUNDS):
        if not living(uid):
            return True
        try:
            subprocess.run([interpreter, "-I", "-S", "-c", KILL_SCRIPT], user=uid, group=uid,
                           extra_groups=[], stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=30)
        except (OSError, subprocess.SubprocessError):
            return False
    return not living(uid)
