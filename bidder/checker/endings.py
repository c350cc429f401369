"""How the student's process ended, in words: an exit status, or a signal named and said
in plain words ("killed by signal 11, a segmentation fault"), whether the signal came
back as a negative status or, under bubblewrap, as bwrap's exit status 128 + N."""

from __future__ import annotations

import signal

from .sandbox import BUBBLEWRAP, Isolation

SIGNAL_WORDS = {
    signal.SIGSEGV: "a segmentation fault",
    signal.SIGBUS: "a bus error",
    signal.SIGFPE: "an arithmetic fault",
    signal.SIGILL: "an illegal instruction",
    signal.SIGABRT: "an abort",
    signal.SIGKILL: "the kill signal (a limit, or the module itself)",
    signal.SIGXCPU: "the CPU time limit",
    signal.SIGXFSZ: "the file size limit",
    signal.SIGTERM: "asked to stop",
    signal.SIGPIPE: "a closed pipe",
    signal.SIGSYS: "a forbidden system call",
}


SIGNALED = 128  # a shell's and bwrap's exit status for a child killed by signal N: 128 + N


def signal_number(status: int, isolation: Isolation | None) -> int | None:
    """The signal that ended the process, or None when it exited by itself."""
    if status < 0:
        return -status
    wrapped = isolation is not None and isolation.name == BUBBLEWRAP
    if wrapped and SIGNALED < status < SIGNALED + signal.NSIG:
        return status - SIGNALED
    return None


def signal_words(number: int) -> str:
    """'signal 11, a segmentation fault'; 'signal 64 (SIGRTMAX)' for one with no words."""
    try:
        name = signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
    words = SIGNAL_WORDS.get(number)
    return f"signal {number}, {words}" if words else f"signal {number} ({name})"


def ending(status: int, isolation: Isolation | None = None) -> str:
    """'was killed by signal 11, a segmentation fault', or 'ended (exit status 3)'."""
    number = signal_number(status, isolation)
    if number is None:
        return f"ended (exit status {status})"
    return f"was killed by {signal_words(number)}"
