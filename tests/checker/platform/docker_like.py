"""A container built the way Docker builds one, for running the checker in the conditions of
the course platforms (Gradescope and PrairieLearn run their autograders in Docker).

There is no Docker engine in CI, so the container is made by hand, as runc makes it:

- new mount, PID, UTS, IPC and network namespaces, and no user namespace (``unshare``);
- an overlay root: the host's ``/`` read-only below, a tmpfs above (so nothing written
  inside reaches the host), with *layers* (host folders) copied in on top, then
  ``pivot_root`` into it and the host's root detached;
- a fresh ``/proc``, masked as Docker masks it (``/dev/null`` or an empty read-only tmpfs
  over ``kcore``, ``keys``, ``timer_list``, ``sched_debug``, ``scsi``, ``acpi``...), and
  ``/proc/sys``, ``sysrq-trigger``, ``irq``, ``bus``, ``fs`` read-only; a ``/dev`` tmpfs
  with Docker's few devices; ``/sys`` read-only; an empty ``/tmp``; loopback up;
- the command runs as a child of an init (PID 1, as ``docker run --init``), under a
  seccomp filter like Docker's default profile (no new namespaces, no ``mount``,
  ``setns``, ``bpf``, keyring, modules, ``io_uring``...; ``clone3`` answers ENOSYS),
  loaded with libseccomp's Python bindings, and with Docker's default capability bounding
  set; no-new-privs is not set, as Docker does not set it;
- as root, or as an unprivileged *user* (its uid and gid, no supplementary groups), as
  ``setpriv --reuid --regid --clear-groups`` would start it.

Commands in *prepare* run first, as root and before any of that sealing (what an image's
build or the platform's harness did beforehand); ``without_libseccomp()`` gives those
that hide libseccomp, as PrairieLearn's grader image lacks it.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field

SYSTEM_PYTHON = "/usr/bin/python3"
TOOLS = ("unshare", "ip", "cp")

# Docker's default capabilities (moby: oci/caps/defaults.go)
DOCKER_CAPABILITIES = ("CHOWN", "DAC_OVERRIDE", "FSETID", "FOWNER", "MKNOD", "NET_RAW",
                       "SETGID", "SETUID", "SETFCAP", "SETPCAP", "NET_BIND_SERVICE",
                       "SYS_CHROOT", "KILL", "AUDIT_WRITE")
# Docker's masked and read-only paths (moby: oci/defaults.go)
MASKED = ("/proc/asound", "/proc/acpi", "/proc/interrupts", "/proc/kcore", "/proc/keys",
          "/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats",
          "/proc/sched_debug", "/proc/scsi", "/sys/firmware",
          "/sys/devices/virtual/powercap")
READ_ONLY = ("/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger")
# What Docker's default seccomp profile refuses a container without CAP_SYS_ADMIN and the
# other capabilities it lacks (moby: profiles/seccomp/default.json lists what it allows;
# these are the calls it leaves out). ptrace, process_vm_* and kcmp are allowed there on
# kernels from 4.8 on, and so they are here.
DOCKER_DENIED = ("unshare", "setns", "mount", "umount2", "pivot_root", "move_mount",
                 "open_tree", "fsopen", "fsmount", "fsconfig", "fspick", "mount_setattr",
                 "bpf", "perf_event_open", "fanotify_init", "lookup_dcookie",
                 "name_to_handle_at", "open_by_handle_at", "quotactl", "sethostname",
                 "setdomainname", "syslog", "acct", "add_key", "keyctl", "request_key",
                 "kexec_load", "kexec_file_load", "init_module", "finit_module",
                 "delete_module", "iopl", "ioperm", "reboot", "settimeofday",
                 "clock_settime", "swapon", "swapoff", "userfaultfd", "io_uring_setup",
                 "io_uring_enter", "io_uring_register", "vhangup", "uselib")
CLONE_NAMESPACES = 0x7E020000  # NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET

LAUNCHER = r'''
import ctypes, json, os, signal, subprocess, sys
import seccomp  # loaded before *prepare*, which may hide libseccomp from the container
config = json.loads(sys.argv[1])
libc = ctypes.CDLL(None, use_errno=True)
RDONLY, NOSUID, NODEV, NOEXEC, REMOUNT, BIND, REC, PRIVATE = 1, 2, 4, 8, 32, 4096, 16384, 1 << 18


def check(result, what):
    if result != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"{what}: {os.strerror(code)}")


def mount(source, target, kind=None, flags=0, data=None):
    encode = lambda text: text.encode() if text is not None else None
    check(libc.mount(encode(source), encode(target), encode(kind), flags, encode(data)),
          f"mount {kind or source} on {target}")


def mask(path):
    if os.path.isdir(path):
        mount("tmpfs", path, "tmpfs", RDONLY)
    elif os.path.exists(path):
        mount("/dev/null", path, None, BIND)


def read_only(path):
    if os.path.exists(path):
        mount(path, path, None, BIND | REC)
        mount(path, path, None, BIND | REC | REMOUNT | RDONLY | NOSUID | NODEV | NOEXEC)


state = config["state"]
mount(None, "/", None, REC | PRIVATE)
mount("tmpfs", state, "tmpfs", 0, "mode=700")
upper, work, root = (os.path.join(state, name) for name in ("upper", "work", "root"))
for folder in (upper, work, root):
    os.mkdir(folder)
for layer in config["layers"]:
    subprocess.run(["cp", "-a", layer + "/.", upper + "/"], check=True)
mount("overlay", root, "overlay", 0, f"lowerdir=/,upperdir={upper},workdir={work}")
if config["keep"]:  # the upper layer, copied out to the host once the command has ended
    keep = os.open(config["keep"], os.O_PATH | os.O_DIRECTORY)
    kept = os.open(upper, os.O_PATH | os.O_DIRECTORY)
os.chdir(root)
check(libc.pivot_root(b".", b"."), "pivot_root")
check(libc.umount2(b".", 2), "detach the host's root")  # MNT_DETACH
os.chdir("/")
mount("proc", "/proc", "proc", NOSUID | NODEV | NOEXEC)
mount("tmpfs", "/dev", "tmpfs", NOSUID, "mode=755,size=65536k")
for name, minor in (("null", 3), ("zero", 5), ("full", 7), ("random", 8), ("urandom", 9)):
    os.mknod(f"/dev/{name}", 0o20666, os.makedev(1, minor))
    os.chmod(f"/dev/{name}", 0o666)
os.mknod("/dev/tty", 0o20666, os.makedev(5, 0))
os.chmod("/dev/tty", 0o666)
for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                     ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
    os.symlink(target, f"/dev/{name}")
for name in ("shm", "pts", "mqueue"):
    os.mkdir(f"/dev/{name}")
mount("shm", "/dev/shm", "tmpfs", NOSUID | NODEV | NOEXEC, "mode=1777,size=65536k")
mount("sysfs", "/sys", "sysfs", RDONLY | NOSUID | NODEV | NOEXEC)
mount("tmpfs", "/tmp", "tmpfs", NOSUID | NODEV, "mode=1777")
for path in config["masked"]:
    mask(path)
for path in config["read_only"]:
    read_only(path)
check(libc.sethostname(b"autograder", 10), "sethostname")
subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
for command in config["prepare"]:
    subprocess.run(command, check=True)


def seal():
    deny = seccomp.ERRNO(1)
    found = seccomp.SyscallFilter(seccomp.ALLOW)
    found.set_attr(seccomp.Attr.CTL_NNP, 0)  # libseccomp would set no-new-privs
    for name in config["denied"]:
        try:
            found.add_rule(deny, name)
        except (RuntimeError, OSError, ValueError):
            pass  # a call this architecture does not have
    namespaces = config["namespaces"]
    for flag in (1 << bit for bit in range(32) if namespaces >> bit & 1):
        found.add_rule(deny, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    found.add_rule(seccomp.ERRNO(38), "clone3")  # ENOSYS: glibc falls back to clone
    found.load()  # still with CAP_SYS_ADMIN: no need of no-new-privs, which Docker leaves off
    last = int(open("/proc/sys/kernel/cap_last_cap").read())
    for capability in range(last + 1):
        if capability not in config["capabilities"]:
            check(libc.prctl(24, capability, 0, 0, 0), f"drop capability {capability}")
    if config["user"] is not None:
        os.setgroups([])
        os.setresgid(config["user"], config["user"], config["user"])
        os.setresuid(config["user"], config["user"], config["user"])


child = os.fork()
if child == 0:
    try:
        os.chdir(config["cwd"])
        seal()
        os.execvpe(config["command"][0], config["command"], config["environment"])
    except BaseException as error:
        os.write(2, f"the container could not start the command: {error}\n".encode())
        os._exit(127)
while True:  # PID 1: reap every orphan until the command itself ends
    pid, status = os.wait()
    if pid == child:
        break
if config["keep"]:
    subprocess.run(["cp", "-a", f"/proc/self/fd/{kept}/.", f"/proc/self/fd/{keep}/"],
                   check=True, pass_fds=(kept, keep))
sys.exit(os.waitstatus_to_exitcode(status) % 256)
'''

CAPABILITY_NUMBERS = {"CHOWN": 0, "DAC_OVERRIDE": 1, "DAC_READ_SEARCH": 2, "FOWNER": 3,
                      "FSETID": 4, "KILL": 5, "SETGID": 6, "SETUID": 7, "SETPCAP": 8,
                      "NET_BIND_SERVICE": 10, "NET_RAW": 13, "SYS_CHROOT": 18,
                      "MKNOD": 27, "AUDIT_WRITE": 29, "SETFCAP": 31}


def without_libseccomp() -> tuple[tuple[str, ...], ...]:
    """*prepare* steps that hide libseccomp from the container, as PrairieLearn's grader
    image lacks it: /dev/null over each of its files, and over the system's bindings
    (Debian links libseccomp into them)."""
    found = sorted({os.path.realpath(path) for pattern in (
        "/usr/lib/*/libseccomp.so*", "/lib/*/libseccomp.so*",
        "/usr/lib/python3/dist-packages/seccomp*.so") for path in glob.glob(pattern)})
    return tuple(("mount", "--bind", "/dev/null", path) for path in found)


def missing_tools() -> str:
    """What the container needs and this machine lacks, or '' (root, the tools, and
    libseccomp's bindings for the system's Python)."""
    if os.geteuid() != 0:
        return "the platform tests need root (to make namespaces and an overlay)"
    lacking = [tool for tool in TOOLS if shutil.which(tool) is None]
    if lacking:
        return f"{', '.join(lacking)} missing (apt-get install util-linux iproute2)"
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import seccomp"], capture_output=True)
    if probe.returncode:
        return "python3-seccomp missing (apt-get install python3-seccomp)"
    return ""


@dataclass(frozen=True)
class Container:
    """A recipe for a container: host folders copied over its root, commands run as root
    before it is sealed, and the user its command runs as (None: root)."""

    layers: tuple[str, ...] = ()
    prepare: tuple[tuple[str, ...], ...] = ()
    user: int | None = None
    environment: dict = field(default_factory=lambda: {"PATH": "/usr/local/sbin:/usr/local/"
                                                       "bin:/usr/sbin:/usr/bin:/sbin:/bin",
                                                       "LANG": "C.UTF-8", "HOME": "/root"})

    def run(self, command: list[str], cwd: str = "/", timeout: float = 600,
            keep: str | None = None, stdin: bytes = b"") -> subprocess.CompletedProcess:
        """Run *command* in a fresh container of this recipe; with *keep*, a host folder
        that receives what the container wrote to its root (its overlay's upper layer)."""
        state = tempfile.mkdtemp(prefix="bidder-container-")
        config = {"state": state, "layers": list(self.layers),
                  "prepare": [list(step) for step in self.prepare],
                  "masked": MASKED, "read_only": READ_ONLY, "denied": DOCKER_DENIED,
                  "namespaces": CLONE_NAMESPACES, "user": self.user, "cwd": cwd,
                  "capabilities": [CAPABILITY_NUMBERS[name] for name in DOCKER_CAPABILITIES],
                  "command": command, "environment": self.environment, "keep": keep}
        try:
            launcher = [SYSTEM_PYTHON, "-I", "-c", LAUNCHER, json.dumps(config)]
            return subprocess.run(["unshare", "--mount", "--pid", "--fork", "--uts", "--ipc",
                                   "--net", "--kill-child", *launcher], input=stdin,
                                  capture_output=True, timeout=timeout)
        finally:
            shutil.rmtree(state, ignore_errors=True)
