"""PrairieLearn's download of submitted files (``*_all_files.zip``, ``*_final_files.zip``,
``*_best_files.zip``): one top folder named for the assessment, and in it every file as
``<uid>_<instance>_<qid>_<variant>_<submission number>_<submission id>_<file name>``
(the layout PrairieLearn's instructorAssessmentDownloads page documents). Each student's
latest submission holding a .py file is theirs, with every file submitted with it."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

NAMED = re.compile(r"(?P<uid>.+?)_(?P<instance>\d+)_(?P<qid>.+)_(?P<variant>\d+)_"
                   r"(?P<number>\d+)_(?P<id>\d+)_(?P<name>.+)", re.S)


@dataclass(frozen=True)
class Upload:
    """One submitted file: whose, which submission (its instance and id), its own name
    and where it lies."""

    uid: str
    instance: int
    submission: int
    name: str
    path: str


def read_upload(folder: str, file_name: str) -> Upload | None:
    """The upload a file of the download is, or None when its name is not one."""
    match = NAMED.fullmatch(file_name)
    if match is None or match["name"] in (".", ".."):  # no file of its own to lay out
        return None
    return Upload(match["uid"], int(match["instance"]), int(match["id"]), match["name"],
                  os.path.join(folder, file_name))


def uploads(folder: str) -> list[Upload]:
    """The uploads in *folder* and in the folders just below it (the zip's top folder)."""
    found = []
    for directory in [folder] + sorted(os.path.join(folder, sub) for sub in os.listdir(folder)
                                       if os.path.isdir(os.path.join(folder, sub))):
        for file_name in sorted(os.listdir(directory)):
            upload = read_upload(directory, file_name)
            if upload is not None and os.path.isfile(upload.path):
                found.append(upload)
    return found


def submitted_files(folder: str) -> dict[str, tuple[tuple[str, str], ...]]:
    """For each uid, the files (own name, path) of their latest submission holding a .py
    file: the highest assessment instance, then the highest submission id."""
    latest: dict[str, tuple[int, int]] = {}
    found = uploads(folder)
    for upload in found:
        if upload.name.endswith(".py"):
            key = (upload.instance, upload.submission)
            latest[upload.uid] = max(latest.get(upload.uid, key), key)
    return {uid: tuple((upload.name, upload.path) for upload in found
                       if upload.uid == uid and (upload.instance, upload.submission) == key)
            for uid, key in latest.items()}
