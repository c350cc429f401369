"""The results file is written whatever the student's code made of the results folder."""

import os
import stat

import pytest

from bidder.checker.gradescope import write_atomically
from bidder.checker.results_file import prepare_results


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def spoil_nothing(folder):
    pass


def spoil_read_only(folder):
    folder.mkdir()
    folder.chmod(0o500)


def spoil_with_a_folder(folder):
    (folder / "results.json" / "deeper").mkdir(parents=True)
    (folder / "results.json" / "deeper" / "x").write_text("forged")


def spoil_with_a_forged_file(folder):
    folder.mkdir()
    (folder / "results.json").write_text('{"score": 100}')
    (folder / "results.json").chmod(0o444)


def spoil_with_a_link(folder):
    folder.mkdir()
    (folder.parent / "elsewhere").write_text("keep")
    (folder / "results.json").symlink_to(folder.parent / "elsewhere")


@pytest.mark.parametrize("spoil", [spoil_nothing, spoil_read_only, spoil_with_a_folder,
                                   spoil_with_a_forged_file, spoil_with_a_link],
                         ids=lambda spoil: spoil.__name__)
def test_the_results_replace_whatever_stood_there(tmp_path, spoil):
    folder = tmp_path / "results"
    spoil(folder)
    path = prepare_results(str(folder), "results.json")
    write_atomically(path, b'{"score": 4.63}\n')
    assert path == str(folder / "results.json")
    assert not os.path.islink(path) and os.path.isfile(path)
    assert open(path, "rb").read() == b'{"score": 4.63}\n'
    assert mode(folder) == 0o755 and mode(path) == 0o644
    assert sorted(os.listdir(folder)) == ["results.json"]
    if spoil is spoil_with_a_link:
        assert (tmp_path / "elsewhere").read_text() == "keep"


def test_a_folder_of_another_user_keeps_its_mode(tmp_path, monkeypatch):
    folder = tmp_path / "results"
    folder.mkdir()
    folder.chmod(0o775)
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(folder).st_uid + 1)
    assert prepare_results(str(folder), "results.json") == str(folder / "results.json")
    assert mode(folder) == 0o775
