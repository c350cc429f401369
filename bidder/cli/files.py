"""Files for the command line: inputs read, outputs written whole or not at all, progress,
and the failures that stop a run with exit status 2."""

from __future__ import annotations

import fcntl
import os
import re
import stat
import sys
import tempfile
import time
from contextlib import contextmanager
from typing import Iterator, TextIO

import click

from ..boards import BoardError, Reading, decode, read_boards, sniff

STDIN_NAME = "<stdin>"
TEMPORARY_SUFFIX = ".part"
STALE_AFTER = 3600  # seconds a dead run's temporary file is left before it is removed


class Failure(click.ClickException):
    """A run that cannot go on (an unreadable file, a disk full): exit status 2."""

    exit_code = 2


def is_same_file(path: str, other: str | None) -> bool:
    """Whether two command-line paths name one existing file, however spelled: another
    path to it, a hard link or a symbolic link ('-' is a stream, never a file here)."""
    if "-" in (path, other) or other is None:
        return False
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False


def stopped(what: str, reason: str, target: str) -> Failure:
    """The failure that ends a run: what stopped, why, and that *target* was not written
    ('-' is standard output, where some rows may have gone already)."""
    unwritten = "" if target == "-" else f"; nothing was written to {target}"
    return Failure(f"{what}: {reason}{unwritten}")


def os_reason(error: OSError) -> str:
    """An operating system error in words, with the file it concerns."""
    return error.strerror + (f" ({error.filename})" if error.filename else "")


@contextmanager
def opened_input(path: str):
    """The input as a binary stream: a file, or standard input for '-'."""
    if path == "-":
        yield sys.stdin.buffer
        return
    with open(path, "rb") as stream:
        yield stream


@contextmanager
def output_stream(path: str | None, err: bool = False):
    """A text stream for *path*, written whole or not at all; standard output (or
    standard error) for '-' or None."""

    if path is None or path == "-":
        yield sys.stderr if err else sys.stdout
        return
    with atomic_output(path) as stream:
        yield stream


def input_size(stream) -> int | None:
    """The size of a regular file, None for a pipe, a terminal or an in-memory stream."""
    import io

    try:
        status = os.fstat(stream.fileno())
    except io.UnsupportedOperation:
        return None
    return status.st_size if stat.S_ISREG(status.st_mode) else None


@contextmanager
def progress(total: int | None, stream=None):
    """A progress bar on standard error (or *stream*) when it is a terminal and the size
    is known; yields the function that advances it by some bytes."""
    stream = stream or sys.stderr
    if total is None or not stream.isatty():
        yield lambda size: None
        return
    with click.progressbar(length=total, file=stream, label="grading") as bar:
        yield bar.update


SNIFF_BYTES = 4096


def head_of(stream, size: int = SNIFF_BYTES) -> bytes:
    """The first *size* bytes of a binary stream, left in place for the next reader."""
    if hasattr(stream, "peek"):
        return stream.peek(size)[:size]
    position = stream.tell()
    head = stream.read(size)
    stream.seek(position)
    return head


def sniff_input(path: str) -> str | None:
    """'pbn' or 'lin' when the file (or standard input, '-') holds boards, by what it
    holds; None for a class file of hands. A named pipe or a device is read once only,
    as a class file, since looking at its start would use it up."""
    if path != "-" and not os.path.isfile(path):
        return None
    try:
        with opened_input(path) as stream:
            return sniff(head_of(stream).decode("utf-8", "replace"))
    except OSError:
        return None  # the class file's reading says what is wrong


def read_file(path: str) -> Reading:
    """The boards of a PBN or LIN file ('-' for standard input).

    :raises Failure: if it cannot be read, or holds no boards.
    """
    try:
        with opened_input(path) as stream:
            text = decode(stream.read())
        return read_boards(text)
    except OSError as error:
        raise Failure(f"{path} could not be read: {os_reason(error)}") from None
    except BoardError as error:
        raise Failure(f"{path}: {error.message}") from None


# Writing a file whole or not at all ----------------------------------------

@contextmanager
def atomic_output(path: str) -> Iterator[TextIO]:
    """Write *path* through a temporary file beside it, renamed into place only when the
    block ends normally; on any exception the temporary file is removed.

    A path that is not a regular file (a device, a pipe) is written directly. The
    temporary file is locked while it is written, and the ones killed runs left beside
    *path* are removed (see ``remove_stale_temporaries``).
    """
    if _is_special(path):
        with open(path, "w", encoding="utf-8", newline="") as stream:
            yield stream
        return
    directory, name = os.path.split(os.path.abspath(path))
    try:
        descriptor, temporary = tempfile.mkstemp(dir=directory, prefix=f".{name}.",
                                                 suffix=TEMPORARY_SUFFIX)
    except OSError as error:
        raise OSError(error.errno, error.strerror, directory) from None
    fcntl.flock(descriptor, fcntl.LOCK_EX)
    remove_stale_temporaries(path)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def remove_stale_temporaries(path: str) -> None:
    """Remove the temporary files that killed runs writing *path* left beside it.

    Only names of this module's own pattern (``.NAME.<random>.part``) are looked at, and
    such a file goes only when no run holds its lock and it is over STALE_AFTER old. A
    run locks its temporary file until it is renamed, and the system drops the lock
    when the process ends however it ends (even by SIGKILL), so an unlocked file is a
    dead run's; the age keeps the few moments between a run creating its file and
    locking it safe as well. Younger leftovers are ignored: every run picks a new
    random name, so they never stand in the way.
    """
    directory, name = os.path.split(os.path.abspath(path))
    ours = re.compile(re.escape(f".{name}.") + "[A-Za-z0-9_]+"
                      + re.escape(TEMPORARY_SUFFIX))
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for found in filter(ours.fullmatch, names):
        _remove_if_stale(os.path.join(directory, found))


def _remove_if_stale(path: str) -> None:
    """Remove *path* if it is a regular file, old enough and locked by no run."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:  # gone already, a symbolic link, or not ours to read
        return
    try:
        status = os.fstat(descriptor)
        if stat.S_ISREG(status.st_mode) and time.time() - status.st_mtime > STALE_AFTER:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.unlink(path)
    except OSError:  # a live run holds the lock, or another run removed it first
        pass
    finally:
        os.close(descriptor)


def _is_special(path: str) -> bool:
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return False


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
