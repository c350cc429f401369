"""A launch, login or grade refused: the status, a title, and what a course
administrator or instructor can do about it (shown as a page by the package's error
handler, never a traceback)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Refused(Exception):
    """Why a request from a platform was refused, in words a course administrator can act
    on."""

    status: int
    title: str
    message: str

    def __str__(self) -> str:
        return f"{self.title}: {self.message}"
