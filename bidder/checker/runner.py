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
- ``{"event": "done"}``;
- ``{"event": "runner_failed", "type": NAME}`` when the runner itself failed (the module
  may have broken something it relies on): the run ends there, and no traceback is shown.

VALUE is ``{"kind": "int", "int": N}``, ``{"kind": "str", "str": S}``, ``{"kind": "none"}``
or ``{"kind": "other", "type": NAME, "repr": TEXT}`` (anything that is not exactly an int,
a str or None, subclasses and bools included), or null when the call raised; ERROR is
``{"type": NAME, "message": TEXT, "line": N or null, "where": NAME or null}`` or null.
The parent trusts none of it: it checks every line and decides every verdict itself.
"""

import builtins
import ctypes
import io
import json
import os
import resource
import signal
import sys

TEXT_LIMIT = 200
INT_LIMIT = 10 ** 9
RUNNER_FAILED = 70  # the exit status when the runner itself failed
PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS = 4, 38
CALLS_LIMIT = 64  # the (function, hand) pairs kept for each test
# held before the module runs, so that nothing it changes can change them
_exit, _write, _type_dict, _builtins = os._exit, os.write, type.__dict__, dict(vars(builtins))


def not_dumpable() -> None:
    """No core dump, and no other process of this uid may trace this one or read its
    memory (exec makes a process dumpable again, so the runner says it itself)."""
    ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def become(uid) -> None:
    """Become *uid* (its own group, no others, no new privileges) for good, when the
    checker asks it (bubblewrap started as root); nothing for None."""
    if uid is not None:
        ctypes.CDLL(None).prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)


def apply_limits(limits: dict) -> None:
    """Hard resource limits for this process and all it starts: memory, CPU seconds,
    file size, open files, processes (where the platform counts them), no core dumps.
    A file grown past its limit then fails with an error instead of ending the process.
    The CPU seconds end the process with SIGXCPU, which the report names; one more second
    is the hard limit, the kill, for a module that catches SIGXCPU."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    for name, value in limits.items():
        kind = getattr(resource, name)
        hard = value
        if kind == resource.RLIMIT_CPU:  # a second more, within what the checker may give
            held = resource.getrlimit(kind)[1]
            hard = value + 1 if held == resource.RLIM_INFINITY else min(value + 1, held)
        resource.setrlimit(kind, (value, hard))


def plain(text) -> str:
    """An exact str copy of a str or str subclass, cut to the channel's limit."""
    return str.__str__(text)[:TEXT_LIMIT]


def type_name(value) -> str:
    """The name of *value*'s real type, read through type's own descriptors so that
    neither a lying __class__ nor a metaclass can change it; a type that is not the
    built-in of that name is named with its module ('solution.int'), or '?'."""
    try:
        kind = type(value)
        name = _type_dict["__qualname__"].__get__(kind)  # always a str
        if _builtins.get(name) is not kind:
            module = _type_dict["__module__"].__get__(kind)
            name = f"{str.__str__(module) if type(module) is str else '?'}.{name}"
        return plain(name)
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


# A student's own tests ----------------------------------------------------------------

class Watch:
    """Lines of the module under test that ran, which of its three functions the tests
    call, and the hand they last passed, seen through sys.settrace."""

    def __init__(self, path: str, functions, previous=None) -> None:
        self.path, self.functions = path, set(functions)
        self.lines, self.called, self.last_hand = set(), set(), None
        self.calls: list = []  # (function, hand) of the current test, each once
        self.previous = previous  # a tracer already at work, which keeps every other frame

    def trace(self, frame, event, arg):
        """The tracer: follow frames of the module's file; leave others to the tracer
        that was already at work, if any."""
        code = frame.f_code
        if code.co_filename != self.path:
            return self.previous(frame, event, arg) if self.previous else None
        if event == "call" and code.co_name in self.functions and (
                frame.f_back is None or frame.f_back.f_code.co_filename != self.path):
            self.called.add(code.co_name)  # by a test, not by the module itself
            hand = frame.f_locals.get(code.co_varnames[0]) if code.co_argcount else None
            self.last_hand = hand if type(hand) is str else self.last_hand
            call = [code.co_name, plain(hand)] if type(hand) is str else None
            if call and call not in self.calls and len(self.calls) < CALLS_LIMIT:
                self.calls.append(call)
        if event == "line":
            self.lines.add(frame.f_lineno)
        return self.trace


def executable_lines(path: str) -> set:
    """The lines of a source file that hold code, from its compiled code objects."""
    with open(path, encoding="utf-8") as stream:
        code = compile(stream.read(), path, "exec")
    lines, pending = set(), [code]
    while pending:
        current = pending.pop()
        lines.update(line for _, _, line in current.co_lines() if line)
        pending.extend(const for const in current.co_consts if hasattr(const, "co_lines"))
    return lines


def collect_tests(module) -> list:
    """(name, callable) for each test: unittest methods, then plain test_ functions."""
    import unittest

    found = []
    for name, value in sorted(vars(module).items()):
        if isinstance(value, type) and issubclass(value, unittest.TestCase):
            for test in unittest.defaultTestLoader.loadTestsFromTestCase(value):
                found.append((f"{name}.{test._testMethodName}", test))
        elif name.startswith("test") and callable(value) and not isinstance(value, type):
            found.append((name, value))
    return found


def last_error_line(traceback_text: str) -> str:
    """The line of a formatted traceback that names the exception and its message."""
    lines = [line for line in traceback_text.splitlines()
             if line[:1].isalpha() and ":" in line and not line.startswith("Traceback")]
    return lines[-1] if lines else traceback_text.strip()[-TEXT_LIMIT:]


def run_test(test) -> tuple[str, str]:
    """(outcome, message) of one test: passed, failed (an assertion) or error."""
    import unittest

    if isinstance(test, unittest.TestCase):
        result = unittest.TestResult()
        _, error, _ = captured(lambda: test.run(result))
        problems = result.failures + result.errors
        if error is not None or problems:
            text = last_error_line(problems[0][1]) if problems else str(error)
            return ("failed" if result.failures else "error"), plain(text)
        return "passed", ""
    _, error, _ = captured(test)
    if error is None:
        return "passed", ""
    outcome = "failed" if isinstance(error, AssertionError) else "error"
    return outcome, plain(f"{type_name(error)}: {error}".rstrip(": ")[:TEXT_LIMIT])


def run_tests(work: dict, channel) -> None:
    """Import the module under test under its own name, run the student's tests on it,
    one line per test, then the lines and functions they reached."""
    def emit(**event) -> None:
        channel.write(json.dumps(event) + "\n")
        channel.flush()

    path, tests_path = work["module"], work["tests"]
    previous = sys.gettrace()  # None in the sealed runner; a coverage tracer in tests
    watch = Watch(path, work["functions"], previous)
    sys.settrace(watch.trace)
    tests, error, printed = captured(lambda: import_module(tests_path))
    if error is not None:
        sys.settrace(previous)
        emit(event="import_error", error=encode_error(error, tests_path), printed=printed)
        return
    emit(event="imported", printed=printed)
    for name, test in collect_tests(tests):
        watch.last_hand, watch.calls = None, []
        sys.settrace(watch.trace)
        outcome, message = run_test(test)
        sys.settrace(previous)
        emit(event="test", name=plain(name), outcome=outcome, message=message,
             hand=watch.last_hand if watch.last_hand is None else plain(watch.last_hand),
             calls=watch.calls)
    lines = executable_lines(path)
    emit(event="tested", called=sorted(watch.called), run=len(watch.lines & lines),
         lines=len(lines))


def failed_line(error: BaseException) -> bytes:
    """The channel line that says the runner failed, built without json (which the
    module may have broken): the exception's type, kept to a name's characters."""
    name = "".join(letter for letter in type_name(error) if letter.isalnum() or letter
                   in "._")[:80] or "?"
    return b'{"event": "runner_failed", "type": "' + name.encode("ascii", "replace") + b'"}\n'


def main() -> int:
    """Read the work, seal this process's limits and output, run it; the exit status."""
    channel = None
    try:
        sys.dont_write_bytecode = True
        not_dumpable()
        work = json.load(sys.stdin)
        become(work.get("uid"))
        not_dumpable()  # a change of uid makes a process dumpable again
        apply_limits(work["limits"])
        channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
        os.dup2(2, 1)  # whatever the module writes to fd 1 goes to its output
        sys.stdin = io.StringIO()
        sys.path[:0] = [os.path.dirname(work["module"])]
        (run_tests if work.get("tests") else run)(work, channel)
        channel.flush()
        return 0
    except BaseException as error:  # the runner's own failure: named, never a traceback
        try:
            if channel is not None:
                _write(channel.fileno(), b"\n" + failed_line(error))
        except BaseException:
            pass
        return RUNNER_FAILED


if __name__ == "__main__":
    _exit(main())  # no exit handlers or threads of the module's run after the last answer
