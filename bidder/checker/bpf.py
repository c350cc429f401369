"""The seccomp rung where libseccomp is missing (PrairieLearn's grader image has no
libseccomp.so.2): the same filter written as classic BPF by hand and loaded with
prctl, for the two architectures the graders run (x86-64 and AArch64). A test holds the
system call numbers below to libseccomp's own table wherever both are present.

The program checks the architecture first (a system call made through another
architecture's entry, such as x86-64's 32-bit one, ends the process), then answers
EPERM for each denied call, lets ``kill``/``tgkill`` reach only the child itself,
``prlimit64`` only the caller, ``clone`` make no namespace (and, when *forks* is off, no
process: threads only), ``clone3`` ENOSYS; when *creates* is off, no file or folder is
made, linked or renamed (``open`` with ``O_CREAT`` or ``O_TMPFILE`` refused); everything
else is allowed.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct
from dataclasses import dataclass

# system call numbers (asm/unistd.h), by the name libseccomp gives the architecture
X86_64 = {"socket": 41, "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311,
          "kcmp": 312, "pidfd_open": 434, "pidfd_getfd": 438, "pidfd_send_signal": 424,
          "tkill": 200, "unshare": 272, "setns": 308, "mount": 165, "umount2": 166,
          "pivot_root": 155, "chroot": 161, "move_mount": 429, "open_tree": 428,
          "fsopen": 430, "fsmount": 432, "fsconfig": 431, "fspick": 433, "bpf": 321,
          "perf_event_open": 298, "userfaultfd": 323, "keyctl": 250, "add_key": 248,
          "request_key": 249, "init_module": 175, "finit_module": 313,
          "delete_module": 176, "kexec_load": 246, "kexec_file_load": 320, "reboot": 169,
          "swapon": 167, "swapoff": 168, "sethostname": 170, "setdomainname": 171,
          "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
          "open_by_handle_at": 304, "name_to_handle_at": 303, "acct": 163, "quotactl": 179,
          "lookup_dcookie": 212, "syslog": 103, "vhangup": 153, "shmget": 29,
          "semget": 64, "msgget": 68, "mq_open": 240, "kill": 62, "tgkill": 234,
          "prlimit64": 302, "clone": 56, "clone3": 435, "fork": 57, "vfork": 58,
          "open": 2, "openat": 257, "openat2": 437, "creat": 85, "mkdir": 83,
          "mkdirat": 258, "mknod": 133, "mknodat": 259, "symlink": 88, "symlinkat": 266,
          "link": 86, "linkat": 265, "rename": 82, "renameat": 264, "renameat2": 316}
AARCH64 = {"socket": 198, "ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271,
           "kcmp": 272, "pidfd_open": 434, "pidfd_getfd": 438, "pidfd_send_signal": 424,
           "tkill": 130, "unshare": 97, "setns": 268, "mount": 40, "umount2": 39,
           "pivot_root": 41, "chroot": 51, "move_mount": 429, "open_tree": 428,
           "fsopen": 430, "fsmount": 432, "fsconfig": 431, "fspick": 433, "bpf": 280,
           "perf_event_open": 241, "userfaultfd": 282, "keyctl": 219, "add_key": 217,
           "request_key": 218, "init_module": 105, "finit_module": 273,
           "delete_module": 106, "kexec_load": 104, "kexec_file_load": 294, "reboot": 142,
           "swapon": 224, "swapoff": 225, "sethostname": 161, "setdomainname": 162,
           "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
           "open_by_handle_at": 265, "name_to_handle_at": 264, "acct": 89, "quotactl": 60,
           "lookup_dcookie": 18, "syslog": 116, "vhangup": 58, "shmget": 194,
           "semget": 190, "msgget": 186, "mq_open": 180, "kill": 129, "tgkill": 131,
           "prlimit64": 261, "clone": 220, "clone3": 435, "openat": 56, "openat2": 437,
           "mkdirat": 34, "mknodat": 33, "symlinkat": 36, "linkat": 37, "renameat": 38,
           "renameat2": 276}  # no fork, vfork, open, creat, mkdir, ... there: only the *at
# (AUDIT_ARCH_*, the numbers, the first number of a foreign ABI sharing the entry or None)
ARCHITECTURES = {"x86_64": (0xC000003E, X86_64, 0x40000000),
                 "aarch64": (0xC00000B7, AARCH64, None)}

LOAD, JEQ, JGE, JSET, RET = 0x20, 0x15, 0x35, 0x45, 0x06  # BPF_LD|W|ABS, BPF_JMP|..|K, RET|K
ALLOW, KILL = 0x7FFF0000, 0x80000000  # SECCOMP_RET_ALLOW, SECCOMP_RET_KILL_PROCESS
DENY, NOSYS = 0x00050000 | errno.EPERM, 0x00050000 | errno.ENOSYS  # SECCOMP_RET_ERRNO
NR, ARCH, ARG0 = 0, 4, 16  # offsets in struct seccomp_data (the low word of args[0])
CLONE_THREAD = 0x00010000
CREATES = 0o100 | 0o20000000  # open()'s O_CREAT and O_TMPFILE's own bit
# what makes or moves a name, refused where nothing else keeps files in
NAMING = ("openat2", "creat", "mkdir", "mkdirat", "mknod", "mknodat", "symlink",
          "symlinkat", "link", "linkat", "rename", "renameat", "renameat2")
OPENS = (("open", 1), ("openat", 2))  # and the argument that holds the flags
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2


def machine() -> str:
    """This machine's architecture as the kernel names it."""
    return os.uname().machine


def supported(architecture: str | None = None) -> bool:
    """Whether a filter can be written here without libseccomp."""
    return (architecture or machine()) in ARCHITECTURES


def _only(number: int, body: list[tuple]) -> list[tuple]:
    """*body* (which always returns) for the call *number*; other calls skip it."""
    return [(JEQ, 0, len(body), number)] + body


def instructions(denied: tuple[str, ...], pid: int, forks: bool,
                 architecture: str | None = None, creates: bool = True) -> list[tuple]:
    """The program as (code, jump if true, jump if false, k), for the child *pid*."""
    audit, numbers, foreign = ARCHITECTURES[architecture or machine()]
    namespaces = sum((0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000,
                      0x20000000, 0x40000000, 0x00000080))
    program = [(LOAD, 0, 0, ARCH), (JEQ, 1, 0, audit), (RET, 0, 0, KILL), (LOAD, 0, 0, NR)]
    if foreign is not None:
        program += [(JGE, 0, 1, foreign), (RET, 0, 0, KILL)]
    for name in denied + (() if forks else ("fork", "vfork")) + (() if creates else NAMING):
        if name in numbers:
            program += _only(numbers[name], [(RET, 0, 0, DENY)])
    for name, flags in () if creates else OPENS:
        if name in numbers:
            program += _only(numbers[name], [(LOAD, 0, 0, ARG0 + 8 * flags),
                                             (JSET, 1, 0, CREATES), (RET, 0, 0, ALLOW),
                                             (RET, 0, 0, DENY)])
    for name in ("kill", "tgkill"):
        program += _only(numbers[name], [(LOAD, 0, 0, ARG0), (JEQ, 0, 1, pid),
                                         (RET, 0, 0, ALLOW), (RET, 0, 0, DENY)])
    program += _only(numbers["prlimit64"], [(LOAD, 0, 0, ARG0), (JEQ, 0, 1, 0),
                                            (RET, 0, 0, ALLOW), (RET, 0, 0, DENY)])
    threads = [] if forks else [(JSET, 0, 1, CLONE_THREAD)]
    program += _only(numbers["clone"], [(LOAD, 0, 0, ARG0),
                                        (JSET, 1 + len(threads), 0, namespaces), *threads,
                                        (RET, 0, 0, ALLOW), (RET, 0, 0, DENY)])
    program += _only(numbers["clone3"], [(RET, 0, 0, NOSYS)])
    return program + [(RET, 0, 0, ALLOW)]


class _Program(ctypes.Structure):
    """struct sock_fprog."""

    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


@dataclass(frozen=True)
class Filter:
    """A filter ready to load: the calls denied outright, the child's pid, and whether it
    may start processes and make files."""

    denied: tuple[str, ...]
    pid: int
    forks: bool = True
    creates: bool = True

    def code(self) -> bytes:
        """The program as the kernel reads it (struct sock_filter, native order)."""
        return b"".join(struct.pack("=HBBI", *line) for line in instructions(
            self.denied, self.pid, self.forks, creates=self.creates))

    def load(self) -> None:
        """Put the filter on this process (no new privileges must be set already)."""
        code = self.code()
        buffer = ctypes.create_string_buffer(code, len(code))
        program = _Program(len(code) // 8, ctypes.addressof(buffer))
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(program), 0, 0):
            code = ctypes.get_errno()
            raise OSError(code, os.strerror(code))
