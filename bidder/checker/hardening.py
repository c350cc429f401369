"""What the checker does to itself before any student code runs: it keeps no secret in its
environment, lets no process of its uid read its memory, and has already imported every
module it will use after the run, so that nothing the student's code leaves behind is
read or run by the checker afterwards."""

from __future__ import annotations

import importlib
import os
import pkgutil

from .confine import SET_DUMPABLE, UID_VARIABLE, prctl

KEPT = ("PATH", "HOME", "LANG", "LANGUAGE", "TMPDIR", "TZ", "TERM", "BIDDER_CHECK_SEED",
        UID_VARIABLE)  # and every LC_*
SKIPPED = ("bidder.checker.runner",)  # a script, run beside the student's module only


def kept(name: str) -> bool:
    """Whether the variable *name* stays in the checker's environment."""
    return name in KEPT or name.startswith("LC_")


def drop_secrets(environ) -> tuple[str, ...]:
    """Remove from *environ* every variable but the allow-list; the names removed."""
    dropped = tuple(sorted(name for name in environ if not kept(name)))
    for name in dropped:
        del environ[name]
    return dropped


def preload() -> tuple[str, ...]:
    """Import every module of the checker now; the names of those imported."""
    package = importlib.import_module("bidder.checker")
    names = tuple(name for _, name, _ in pkgutil.walk_packages(package.__path__,
                                                              "bidder.checker.")
                  if name not in SKIPPED)
    for name in names:
        importlib.import_module(name)
    return names


def harden(environ=None) -> tuple[str, ...]:
    """Everything above, for a checker about to run student code: preload, drop secrets
    from *environ* (this process's own by default), become not dumpable; the names of
    the variables dropped."""
    preload()
    dropped = drop_secrets(os.environ if environ is None else environ)
    prctl(SET_DUMPABLE, 0)
    return dropped
