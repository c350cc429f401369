"""The harness's own fingerprints: a file changed in place is seen, even with its size and
mtime put back, and a settled file's contents are read again only when its stat changed."""

from __future__ import annotations

import os
from types import SimpleNamespace

import inside


def test_a_file_changed_in_place_with_its_size_and_mtime_put_back_is_seen(tmp_path):
    folder = tmp_path / "venv"
    (folder / "lib").mkdir(parents=True)
    target = folder / "lib" / "os.py"
    target.write_bytes(b"original")
    before = inside.fingerprint(str(folder))
    assert inside.fingerprint(str(folder)) == before
    info = target.stat()
    target.write_bytes(b"forged!!")  # within the same clock tick, maybe: read again
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert inside.fingerprint(str(folder)) != before
    target.write_bytes(b"original")
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert inside.fingerprint(str(folder)) == before


def test_a_settled_file_is_read_again_only_when_its_stat_changed(tmp_path, monkeypatch):
    monkeypatch.setattr(inside, "SETTLED_NS", -10**18)  # every file taken as settled
    target = tmp_path / "run_autograder"
    target.write_bytes(b"#!/bin/sh\n")
    first = inside.fingerprint(str(target))
    opened = []
    real_open = open
    monkeypatch.setattr("builtins.open", lambda *args, **kw: opened.append(args[0])
                        or real_open(*args, **kw))
    assert inside.fingerprint(str(target)) == first and opened == []
    target.write_bytes(b"#!/bin/bash\n")
    assert inside.fingerprint(str(target)) != first and opened == [str(target)]


def test_a_settled_file_is_read_again_when_its_ctime_alone_changed(tmp_path, monkeypatch):
    monkeypatch.setattr(inside, "SETTLED_NS", -10**18)
    target = tmp_path / "os.py"
    target.write_bytes(b"original")
    info = target.stat()
    stat = SimpleNamespace(st_ino=info.st_ino, st_size=info.st_size,
                           st_mtime_ns=info.st_mtime_ns, st_ctime_ns=info.st_ctime_ns)
    first = inside.contents(str(target), stat)
    target.write_bytes(b"forged!!")
    assert inside.contents(str(target), stat) == first  # the same stat: kept
    stat.st_ctime_ns += 1
    assert inside.contents(str(target), stat) != first
