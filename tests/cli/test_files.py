"""Outputs written whole or not at all: a temporary file renamed into place, and the
temporary files of killed runs cleared away, never anything else."""

import fcntl
import os
import stat
import time

import pytest

from bidder.cli.files import STALE_AFTER, atomic_output, remove_stale_temporaries


# atomic output -----------------------------------------------------------------------

def test_atomic_output_renames_into_place_with_ordinary_permissions(tmp_path):
    target = tmp_path / "graded.csv"
    with atomic_output(str(target)) as stream:
        stream.write("a\n")
        assert not target.exists()
        assert [path.name for path in tmp_path.iterdir()][0].startswith(".graded.csv.")
    assert target.read_text() == "a\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~current_umask()
    assert [path.name for path in tmp_path.iterdir()] == ["graded.csv"]


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@pytest.mark.parametrize("problem", [KeyboardInterrupt, SystemExit, OSError])
def test_atomic_output_leaves_the_old_file_and_no_temporary(tmp_path, problem):
    target = tmp_path / "graded.csv"
    target.write_text("old\n")
    with pytest.raises(problem):
        with atomic_output(str(target)) as stream:
            stream.write("new\n")
            raise problem()
    assert target.read_text() == "old\n"
    assert [path.name for path in tmp_path.iterdir()] == ["graded.csv"]


def test_atomic_output_names_a_folder_it_cannot_write_in(tmp_path):
    folder = tmp_path / "missing"
    with pytest.raises(FileNotFoundError) as caught:
        with atomic_output(str(folder / "graded.csv")):
            pass
    assert caught.value.filename == str(folder)


def test_atomic_output_writes_a_device_directly():
    with atomic_output(os.devnull) as stream:
        stream.write("discarded\n")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


# temporary files left by killed runs ------------------------------------------

def leftover(folder, name: str, age: float = 0, text: str = "partial\n"):
    """A file as a killed run would leave it, last written *age* seconds ago."""
    path = folder / name
    path.write_text(text)
    when = time.time() - age
    os.utime(path, (when, when))
    return path


OLD = STALE_AFTER + 600


def test_a_dead_runs_old_temporary_file_is_removed_by_the_next_run(tmp_path):
    stale = leftover(tmp_path, ".graded.csv.k3j_9xq2.part", OLD)
    with atomic_output(str(tmp_path / "graded.csv")) as stream:
        stream.write("a\n")
    assert not stale.exists()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["graded.csv"]


@pytest.mark.parametrize("name, age", [
    (".graded.csv.k3j_9xq2.part", 0),            # young: perhaps a run starting now
    (".graded.csv.part", OLD),                   # not the pattern: no random part
    (".graded.csv.k3j.9xq2.part", OLD),          # not the pattern: a dot inside
    (".other.csv.k3j_9xq2.part", OLD),           # another output's
    ("graded.csv.k3j_9xq2.part", OLD),           # not hidden: not ours
    (".graded.csv.k3j_9xq2.part~", OLD),         # not the pattern: a backup
], ids=["young", "no-random-part", "dot-inside", "other-output", "not-hidden", "backup"])
def test_other_files_beside_the_output_are_left_alone(tmp_path, name, age):
    kept = leftover(tmp_path, name, age)
    with atomic_output(str(tmp_path / "graded.csv")) as stream:
        stream.write("a\n")
    assert kept.read_text() == "partial\n"
    assert (tmp_path / "graded.csv").read_text() == "a\n"


def test_a_temporary_file_a_live_run_holds_is_left_alone_however_old(tmp_path):
    held = leftover(tmp_path, ".graded.csv.k3j_9xq2.part", OLD)
    with open(held, "rb") as writer:
        fcntl.flock(writer, fcntl.LOCK_EX)
        with atomic_output(str(tmp_path / "graded.csv")) as stream:
            stream.write("a\n")
        assert held.read_text() == "partial\n"


def test_a_run_locks_its_own_temporary_file_while_it_writes(tmp_path):
    with atomic_output(str(tmp_path / "graded.csv")) as stream:
        [temporary] = [path for path in tmp_path.iterdir() if path.name.endswith(".part")]
        with open(temporary, "rb") as probe, pytest.raises(BlockingIOError):
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        stream.write("a\n")


@pytest.mark.parametrize("make", ["link", "pipe"])
def test_a_link_or_pipe_named_like_a_temporary_file_is_left_alone(tmp_path, make):
    target = leftover(tmp_path, "precious.txt", OLD)
    odd = tmp_path / ".graded.csv.k3j_9xq2.part"
    if make == "link":
        odd.symlink_to(target)
    else:
        os.mkfifo(odd)
    os.utime(odd, (time.time() - OLD,) * 2, follow_symlinks=False)
    remove_stale_temporaries(str(tmp_path / "graded.csv"))
    assert odd.is_symlink() if make == "link" else stat.S_ISFIFO(odd.stat().st_mode)
    assert target.read_text() == "partial\n"


def test_a_folder_that_cannot_be_listed_still_gets_its_output(tmp_path, monkeypatch):
    def refuse(path):
        raise PermissionError(13, "Permission denied", path)

    stale = leftover(tmp_path, ".graded.csv.k3j_9xq2.part", OLD)
    monkeypatch.setattr(os, "listdir", refuse)
    with atomic_output(str(tmp_path / "graded.csv")) as stream:
        stream.write("a\n")
    monkeypatch.undo()
    assert (tmp_path / "graded.csv").read_text() == "a\n" and stale.exists()
