"""What a student's uid leaves where every user may write is found and removed: whatever
it owns in the shared places, searching only folders every user may write, never
following a link."""

import os

import pytest

from bidder.checker import leftovers
from bidder.checker.leftovers import owned, remove, sweep

STUDENT = 62_236  # no user, no process: files are only chowned to it


@pytest.fixture
def shared(tmp_path):
    """A shared place like /tmp (1777), with root's files and the student's."""
    place = tmp_path / "tmp"
    place.mkdir()
    place.chmod(0o1777)
    (place / "root-file").write_text("root's")
    open_folder = place / "open"  # root's, but every user may write in it
    open_folder.mkdir()
    open_folder.chmod(0o1777)
    closed = place / "closed"  # root's, and no one else may write in it
    closed.mkdir()
    for path in (place / "note", open_folder / "note", closed / "note"):
        path.write_text("the student's")
        os.chown(path, STUDENT, STUDENT)
    folder = place / "folder"
    (folder / "locked").mkdir(parents=True)
    (folder / "locked" / "inner").write_text("x")
    for path in (folder / "locked" / "inner", folder / "locked", folder):
        os.chown(path, STUDENT, STUDENT)
    (folder / "locked").chmod(0)
    os.symlink("/etc", folder / "etc")  # a link in its folder: removed, not followed
    os.symlink("/etc", place / "link")
    os.lchown(place / "link", STUDENT, STUDENT)
    return place


def test_what_the_student_owns_is_found_where_it_could_write(shared):
    found = owned(STUDENT, (str(shared), str(shared / "absent")))
    assert found == sorted(str(shared / name) for name in ("folder", "link", "note",
                                                           "open/note"))


def test_the_search_goes_no_deeper_than_its_depth(shared):
    assert str(shared / "open" / "note") not in owned(STUDENT, (str(shared),), depth=0)


def test_the_sweep_removes_it_all_and_follows_no_link(shared):
    assert len(sweep(STUDENT, (str(shared),))) == 4
    assert owned(STUDENT, (str(shared),)) == []
    assert os.path.isdir("/etc") and (shared / "root-file").exists()
    assert (shared / "closed" / "note").exists()  # in a folder it could not write


def test_an_entry_gone_while_searched_is_passed_over(shared, monkeypatch):
    real = os.scandir

    def vanishing(path):
        entries = list(real(path))
        (shared / "note").unlink(missing_ok=True)
        return entries
    monkeypatch.setattr(leftovers.os, "scandir", vanishing)
    assert str(shared / "note") not in owned(STUDENT, (str(shared),))


def test_remove_never_fails(tmp_path):
    remove(str(tmp_path / "absent"))
    assert not (tmp_path / "absent").exists()
