"""The only code that runs beside a student's module: import it, call it, report raw results.

This file is run by path, as a script, inside the sandbox, by an interpreter that sees
only the standard library and the student's folder: it imports nothing from bidder and
never sees an expected answer. It reads its work as one JSON object on standard input:
``{"module": PATH, "functions": [NAME, ...], "hands": [HAND, ...], "limits": {...}}``,
and writes one JSON object per line on the channel, its original standard output:

- ``{"event": "imported", "printed": TEXT}`` or
  ``{"event": "import_error", "error": ERROR, "printed": TEXT}``;
- ``{"event": "missing", "function": NAME, "found": TEXT}`` for a name that is not callable;
- ``{"event": "call", "function": NAME, "case": N, "value": VALUE, "error": ERROR,
  "printed": TEXT}`` for each function (in order) on each hand (in order);
- ``{"event": "done"}``.

VALUE is ``{"kind": "int", "int": N}``, ``{"kind": "str", "str": S}``, ``{"kind": "none"}``
or ``{"kind": "other", "type": NAME, "repr": TEXT}`` (anything that is not exactly an int,
a str or None, subclasses and bools included), or null when the call raised; ERROR is
``{"type": NAME, "message": TEXT, "line": N or null, "where": NAME or null}`` or null.
The parent trusts none of it: it checks every line and decides every verdict itself.
"""

import io
import json
import os
import resource
import signal
import sys

TEXT_LIMIT = 200
INT_LIMIT = 10 ** 9


def apply_limits(limits: dict) -> None:
    """Hard resource limits for this process and all it starts: memory, CPU seconds,
    file size, open files, processes (where the platform counts them), no core dumps.
    A file grown past its limit then fails with an error instead of ending the process."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    for name, value in limits.items():
        resource.setrlimit(getattr(resource, name), (value, value))


def plain(text) -> str:
    """An exact str copy of a str or str subclass, cut to the channel's limit."""
    return str.__str__(text)[:TEXT_LIMIT]


def type_name(value) -> str:
    """The name of *value*'s real type (type() cannot be lied to), or '?'."""
    try:
        name = type(value).__qualname__
        return plain(name) if isinstance(name, str) else "?"
    except BaseException:
        return "?"


def encode_value(value) -> dict:
    """An exact int, an exact str or None as itself; anything else as its type and repr."""
    if type(value) is int and -INT_LIMIT <= value <= INT_LIMIT:
        return {"kind": "int", "int": value}
    if type(value) is str:
        return {"kind": "str", "str": plain(value)}
    if value is None:
        return {"kind": "none"}
    return {"kind": "other", "type": type_name(value), "repr": safe_repr(value)}


def safe_repr(value) -> str:
    """repr() of *value*, cut short, or a description when repr() fails or is not text."""
    try:
        return plain(repr(value))
    except BaseException:
        return f"<a {type_name(value)} whose repr() fails>"


def encode_error(error: BaseException, path: str) -> dict:
    """An exception's type, message and the line of the student's module it came from."""
    try:
        message = plain(str(error))
    except BaseException:
        message = "<a message that cannot be shown>"
    line, where, trace = None, None, error.__traceback__
    while trace is not None:
        code = trace.tb_frame.f_code
        if code.co_filename == path:
            line, where = trace.tb_lineno, plain(code.co_name)
        trace = trace.tb_next
    return {"type": type_name(error), "message": message, "line": line, "where": where}


class Printed(io.TextIOBase):
    """A stand-in for sys.stdout that keeps the start of what is printed, not a flood."""

    def __init__(self) -> None:
        self.kept = ""

    def writable(self) -> bool:
        return True

    def write(self, text) -> int:
        if len(self.kept) < TEXT_LIMIT:
            self.kept += plain(text)
        return len(text)


def captured(action):
    """(result, error, what was printed) of calling *action* with its printing captured."""
    printed, saved = Printed(), (sys.stdout, sys.stderr)
    sys.stdout = sys.stderr = printed
    try:
        return action(), None, printed.kept[:TEXT_LIMIT]
    except BaseException as error:  # SystemExit and KeyboardInterrupt are answers too
        return None, error, printed.kept[:TEXT_LIMIT]
    finally:
        sys.stdout, sys.stderr = saved


def import_module(path: str):
    """The student's module, read as Python source whatever its file name ends with."""
    import importlib.machinery
    import importlib.util

    stem = os.path.splitext(os.path.basename(path))[0]
    name = stem if stem.isidentifier() and stem not in sys.modules else "student_solution"
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


def run(work: dict, channel) -> None:
    """Import the module and call each function on each hand, one line per event."""
    def emit(**event) -> None:
        channel.write(json.dumps(event) + "\n")
        channel.flush()

    path = work["module"]
    module, error, printed = captured(lambda: import_module(path))
    if error is not None:
        emit(event="import_error", error=encode_error(error, path), printed=printed)
        return
    emit(event="imported", printed=printed)
    functions = {}
    for name in work["functions"]:
        function = getattr(module, name, None)
        if callable(function):
            functions[name] = function
        else:
            emit(event="missing", function=name, found="no such name" if function is None
                 else f"a {type_name(function)}, not a function")
    for name, function in functions.items():
        for case, hand in enumerate(work["hands"]):
            value, error, printed = captured(lambda: function(hand))
            emit(event="call", function=name, case=case,
                 value=None if error is not None else encode_value(value),
                 error=None if error is None else encode_error(error, path),
                 printed=printed)
    emit(event="done")


def main() -> None:
    """Read the work, seal this process's limits and output, run it."""
    sys.dont_write_bytecode = True
    work = json.load(sys.stdin)
    apply_limits(work["limits"])
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # whatever the module writes to fd 1 goes to its output, not the channel
    sys.stdin = io.StringIO()
    sys.path[:0] = [os.path.dirname(work["module"])]
    run(work, channel)
    channel.flush()
    os._exit(0)  # no exit handlers or threads of the module's run after the last answer


if __name__ == "__main__":
    main()
