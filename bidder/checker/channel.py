"""The runner's lines read back: each checked against the shape it must have, so a module
that tampers with the channel is caught, never believed."""

from __future__ import annotations

import json

from .report import FUNCTIONS, Case
from .sandbox import Outcome


class Corrupted(ValueError):
    """A line on the channel that the runner could not have written as it stands."""


_ERROR_KEYS = {"type": str, "message": str, "line": (int, type(None)),
               "where": (str, type(None))}


_VALUE_KEYS = {"int": {"kind": str, "int": int}, "str": {"kind": str, "str": str},
               "none": {"kind": str}, "other": {"kind": str, "type": str, "repr": str}}


_EVENT_KEYS = {
    "imported": {"event": str, "printed": str},
    "import_error": {"event": str, "error": dict, "printed": str},
    "missing": {"event": str, "function": str, "found": str},
    "call": {"event": str, "function": str, "case": int, "value": (dict, type(None)),
             "error": (dict, type(None)), "printed": str},
    "done": {"event": str},
    "runner_failed": {"event": str, "type": str},
}


TEXT_LIMIT = 200


INT_LIMIT = 10 ** 9


def shaped(item, keys: dict, what: str) -> dict:
    """*item* if it is an object with exactly *keys*, each of its type (no bools for
    ints, no over-long text), else Corrupted."""
    if type(item) is not dict or set(item) != set(keys):
        raise Corrupted(f"{what} has the wrong fields")
    for key, kind in keys.items():
        value = item[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if type(value) not in kinds:
            raise Corrupted(f"{what}: '{key}' has the wrong type")
        if type(value) is str and len(value) > TEXT_LIMIT:
            raise Corrupted(f"{what}: '{key}' is too long")
        if type(value) is int and not -INT_LIMIT <= value <= INT_LIMIT:
            raise Corrupted(f"{what}: '{key}' is out of range")
    return item


def read_event(line: bytes) -> dict:
    """One channel line as an event whose every field has been checked.

    :raises Corrupted: for anything the runner would not have written.
    """
    try:
        event = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise Corrupted("a line is not JSON text") from None
    keys = _EVENT_KEYS.get(event.get("event")) if type(event) is dict else None
    if keys is None:
        raise Corrupted("a line is not an event the checker knows")
    shaped(event, keys, f"a '{event['event']}' event")
    if event.get("error") is not None:
        shaped(event["error"], _ERROR_KEYS, "an error")
    if event.get("value") is not None:
        value_keys = _VALUE_KEYS.get(event["value"].get("kind"))
        if value_keys is None:
            raise Corrupted("a value of no known kind")
        shaped(event["value"], value_keys, "a value")
    if event["event"] == "call" and (event["value"] is None) == (event["error"] is None):
        raise Corrupted("a call with both or neither of a value and an error")
    return event


def runner_failure(channel: bytes) -> tuple[bytes, str]:
    """The channel without the runner's own failure at its end (its line, and the empty
    or cut-short line before it), and the failure's type, or the channel and ''."""
    lines = channel.split(b"\n")
    try:
        event = read_event(lines[-2]) if len(lines) > 2 else {"event": ""}
    except Corrupted:
        return channel, ""
    if event["event"] != "runner_failed":
        return channel, ""
    kept = lines[:-3]
    return b"".join(line + b"\n" for line in kept), event["type"]


def read_channel(outcome: Outcome, cases: tuple[Case, ...],
                 functions: tuple[str, ...] = FUNCTIONS) -> tuple[list[dict], str]:
    """The checked events on the channel, in the order the runner writes them for the
    *functions* it was asked to call, and what was wrong with the channel ('' when
    nothing was)."""
    lines = outcome.channel.split(b"\n")
    complete, events = lines[:-1], []
    missing: list[str] = []
    expected: list[tuple[str, int]] | None = None
    position = 0  # the calls read so far
    try:
        for line in complete:
            event = read_event(line)
            kind = event["event"]
            if not events:
                if kind not in ("imported", "import_error"):
                    raise Corrupted("the first line is not the import")
            elif events[-1]["event"] in ("import_error", "done"):
                raise Corrupted("a line after the last")
            elif kind == "missing":
                if expected is not None or event["function"] not in functions or (
                        missing and functions.index(event["function"])
                        <= functions.index(missing[-1])):
                    raise Corrupted("a missing function out of order")
                missing.append(event["function"])
            elif kind == "runner_failed":
                raise Corrupted("the runner's failure before its end")
            elif kind in ("call", "done"):
                if expected is None:
                    expected = [(function, index) for function in functions
                                if function not in missing for index in range(len(cases))]
                if kind == "done" and position != len(expected):
                    raise Corrupted("the end before every call")
                if kind == "call" and (position >= len(expected) or (
                        event["function"], event["case"]) != expected[position]):
                    raise Corrupted("a call out of order")
                position += kind == "call"
            else:
                raise Corrupted("a second import")
            events.append(event)
    except Corrupted as problem:
        return events, str(problem)
    if outcome.channel_dropped:
        return events, f"{outcome.channel_dropped:,} bytes more than any answers need"
    return events, ""
