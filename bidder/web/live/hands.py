"""The hands a poll is opened on: pasted, dealt for a rule, or dealt to tell
misreadings apart."""

from __future__ import annotations

from ...advice import explain


def canonical(text: str) -> str:
    """The hand *text* in canonical form.

    :raises InvalidHandError: saying what is wrong with it.
    """
    return explain(text).to_dict()["hand"]
