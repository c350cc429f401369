"""The runner beside the student's module, called in this process on real files."""

import io
import json
import os
import runpy
import signal
import subprocess
import sys
from types import SimpleNamespace

import pytest

from bidder.checker import runner as check_runner
from bidder.checker.runner import (TEXT_LIMIT, Printed, apply_limits, captured,
                                   encode_error, encode_value, safe_repr, type_name)

HAND = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"


class Text(str):
    def __eq__(self, other):
        return True

    __hash__ = str.__hash__

    def __str__(self):
        return "lies"


class BadRepr:
    def __repr__(self):
        raise RuntimeError("no")


class NotTextRepr:
    def __repr__(self):
        return 5


class Meta(type):
    def __getattribute__(cls, name):
        if name == "__qualname__":
            raise RuntimeError("no name")
        return super().__getattribute__(name)


class Nameless(metaclass=Meta):
    pass


class int:  # noqa: A001 - a student's class that passes itself off as an int
    __class__ = __builtins__["int"] if isinstance(__builtins__, dict) else __builtins__.int

    def __repr__(self):
        return "12"


LyingInt = int
del int


class Disguised:
    __module__ = "builtins"
    __qualname__ = "int"

    def __repr__(self):
        return "12"


class NumberName(type):
    def __getattribute__(cls, name):
        return 7 if name == "__qualname__" else super().__getattribute__(name)


class Numbered(metaclass=NumberName):
    pass


@pytest.mark.parametrize("value, encoded", [
    (12, {"kind": "int", "int": 12}),
    (-3, {"kind": "int", "int": -3}),
    (10 ** 10, {"kind": "other", "type": "int", "repr": "10000000000"}),
    ("1C", {"kind": "str", "str": "1C"}),
    ("x" * 500, {"kind": "str", "str": "x" * TEXT_LIMIT}),
    (None, {"kind": "none"}),
    (12.0, {"kind": "other", "type": "float", "repr": "12.0"}),
    (True, {"kind": "other", "type": "bool", "repr": "True"}),
    (Text("1C"), {"kind": "other", "type": "test_runner.Text", "repr": "'1C'"}),
    (BadRepr(), {"kind": "other", "type": "test_runner.BadRepr",
                 "repr": "<a test_runner.BadRepr whose repr() fails>"}),
    (NotTextRepr(), {"kind": "other", "type": "test_runner.NotTextRepr",
                     "repr": "<a test_runner.NotTextRepr whose repr() fails>"}),
    (Nameless(), {"kind": "other", "type": "test_runner.Nameless", "repr": ""}),
    (LyingInt(), {"kind": "other", "type": "test_runner.int", "repr": "12"}),
    (Disguised(), {"kind": "other", "type": "builtins.int", "repr": "12"}),
], ids=["int", "negative", "huge-int", "str", "long-str", "none", "float", "bool",
        "str-subclass", "bad-repr", "repr-not-text", "nameless", "lying-int", "disguised"])
def test_encode_value_carries_only_exact_ints_strs_and_none(value, encoded):
    if isinstance(value, Nameless):
        encoded = dict(encoded, repr=safe_repr(value))
    assert encode_value(value) == encoded


def test_type_name_reads_the_real_type_whatever_its_metaclass_says():
    assert type_name(Numbered()) == "test_runner.Numbered"
    assert type_name(KeyError()) == "KeyError"
    assert type_name(json.JSONDecodeError("x", "", 0)) == "json.decoder.JSONDecodeError"
    namespace = {}  # no __name__: the class made there has no __module__
    exec("Moduleless = type('Moduleless', (), {})", namespace)
    assert type_name(namespace["Moduleless"]()) == "?"


def raiser():
    raise KeyError("5C")


class BadMessage(Exception):
    def __str__(self):
        raise RuntimeError("no")


def test_encode_error_names_the_line_in_the_students_file(tmp_path):
    path = tmp_path / "s.py"
    path.write_text("def f():\n    raise ValueError('bad' * 100)\n")
    namespace = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    _, error, _ = captured(namespace["f"])
    assert encode_error(error, str(path)) == {
        "type": "ValueError", "message": ("bad" * 100)[:TEXT_LIMIT], "line": 2, "where": "f"}
    assert encode_error(error, "/elsewhere.py")["line"] is None
    assert encode_error(BadMessage(), "x")["message"] == "<a message that cannot be shown>"


def test_captured_keeps_what_is_printed_and_catches_everything():
    def noisy():
        print("x" * 1000)
        sys.stderr.write("err")
        return 5

    assert captured(noisy) == (5, None, "x" * TEXT_LIMIT)
    result, error, printed = captured(lambda: sys.exit(3))
    assert (result, type(error), printed) == (None, SystemExit, "")


def test_printed_counts_what_it_drops():
    printed = Printed()
    assert printed.writable()
    assert printed.write("a" * 300) == 300
    assert printed.write("b") == 1
    assert printed.kept == "a" * TEXT_LIMIT


def run_on(tmp_path, source: str, hands=(HAND,), name="solution.py") -> list[dict]:
    path = tmp_path / name
    path.write_text(source)
    channel = io.StringIO()
    try:
        check_runner.run({"module": str(path), "functions": ["highCardPoints", "openingBid"],
                          "hands": list(hands)}, channel)
    finally:
        sys.modules.pop(path.stem, None)
    return [json.loads(line) for line in channel.getvalue().splitlines()]


def test_run_reports_every_call_in_order(tmp_path):
    events = run_on(tmp_path, "def highCardPoints(h):\n    return 12\n"
                              "def openingBid(h):\n    print('hi')\n    return '1C'\n",
                    hands=(HAND, HAND))
    assert [event["event"] for event in events] == ["imported", "call", "call", "call",
                                                    "call", "done"]
    assert events[3] == {"event": "call", "function": "openingBid", "case": 0,
                         "value": {"kind": "str", "str": "1C"}, "error": None,
                         "printed": "hi\n"}


def test_run_reports_an_import_error_with_what_was_printed(tmp_path):
    events = run_on(tmp_path, "print('loading')\n1/0\n")
    assert events == [{"event": "import_error", "printed": "loading\n", "error": {
        "type": "ZeroDivisionError", "message": "division by zero", "line": 2,
        "where": "<module>"}}]


def test_run_reports_missing_functions_then_calls_the_rest(tmp_path):
    events = run_on(tmp_path, "openingBid = '1C'\n", name="notes.txt")
    assert events[1:3] == [
        {"event": "missing", "function": "highCardPoints", "found": "no such name"},
        {"event": "missing", "function": "openingBid", "found": "a str, not a function"}]
    assert events[-1] == {"event": "done"}


def test_run_reports_a_raising_call(tmp_path):
    events = run_on(tmp_path, "def highCardPoints(h):\n    return {}[h]\n"
                              "def openingBid(h):\n    return None\n")
    assert events[1]["value"] is None and events[1]["error"]["type"] == "KeyError"
    assert events[1]["error"]["line"] == 2


def test_a_module_named_like_a_loaded_one_gets_another_name(tmp_path):
    events = run_on(tmp_path, "import sys\nNAME = __name__\n"
                              "def highCardPoints(h):\n    return len(NAME)\n",
                    name="json.py")
    assert events[2]["value"] == {"kind": "int", "int": len("student_solution")}
    sys.modules.pop("student_solution")


def test_apply_limits_sets_hard_limits():
    import resource

    apply_limits({"RLIMIT_CORE": 0})
    assert resource.getrlimit(resource.RLIMIT_CORE) == (0, 0)


@pytest.mark.parametrize("held, wanted, given", [
    (-1, 3, (3, 4)), (10, 3, (3, 4)), (4, 3, (3, 4)), (3, 3, (3, 3)),
], ids=["no-hard-limit", "far-above", "just-above", "held-to-it"])
def test_the_hard_cpu_limit_is_a_second_above_within_what_the_checker_may_give(
        monkeypatch, held, wanted, given):
    import resource

    set_to = {}
    fake = SimpleNamespace(RLIMIT_CPU=resource.RLIMIT_CPU, RLIMIT_CORE=resource.RLIMIT_CORE,
                           RLIM_INFINITY=-1, getrlimit=lambda kind: (held, held),
                           setrlimit=lambda kind, pair: set_to.__setitem__(kind, pair))
    monkeypatch.setattr(check_runner, "resource", fake)
    monkeypatch.setattr(check_runner.signal, "signal", lambda *args: None)
    apply_limits({"RLIMIT_CPU": wanted, "RLIMIT_CORE": 0})
    assert set_to == {resource.RLIMIT_CPU: given, resource.RLIMIT_CORE: (0, 0)}


LOOPING = ("import resource, signal\n"
           "resource.setrlimit(resource.RLIMIT_CORE, (0, 0))\n"
           "{before}"
           "from bidder.checker.runner import apply_limits\n"
           "apply_limits({{'RLIMIT_CPU': 1}})\n"
           "print(resource.getrlimit(resource.RLIMIT_CPU), flush=True)\n"
           "{after}"
           "while True:\n"
           "    pass\n")


@pytest.mark.parametrize("before, after, limits, ending", [
    ("", "", "(1, 2)", -signal.SIGXCPU),
    ("", "signal.signal(signal.SIGXCPU, signal.SIG_IGN)\n", "(1, 2)", -signal.SIGKILL),
    ("", "signal.signal(signal.SIGXCPU, lambda *_: None)\n", "(1, 2)", -signal.SIGKILL),
    ("", "resource.setrlimit(resource.RLIMIT_CPU, (2, 2))\n", "(1, 2)", -signal.SIGKILL),
    ("resource.setrlimit(resource.RLIMIT_CPU, (1, 1))\n", "", "(1, 1)", -signal.SIGKILL),
], ids=["sigxcpu-ends-it", "ignored-then-killed", "caught-then-killed",
        "soft-raised-then-killed", "checker-held-to-one"])
def test_the_cpu_seconds_end_a_loop_with_sigxcpu_and_one_more_is_the_kill(
        tmp_path, before, after, limits, ending):
    done = subprocess.run([sys.executable, "-c", LOOPING.format(before=before, after=after)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.stdout.strip() == limits, done.stderr
    assert done.returncode == ending, done.stderr


def test_main_reads_its_work_and_answers_on_the_channel(tmp_path, monkeypatch):
    path = tmp_path / "s.py"
    path.write_text("def highCardPoints(h):\n    import os\n    os.write(1, b'x')\n"
                    "    return 1\n")
    work = {"module": str(path), "functions": ["highCardPoints"], "hands": [HAND],
            "limits": {}}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(work)))
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    read_end, write_end = os.pipe()
    saved = os.dup(1), os.dup(2)
    os.dup2(write_end, 1)
    os.dup2(write_end, 2)
    monkeypatch.setattr(os, "_exit", lambda status: (_ for _ in ()).throw(SystemExit(status)))
    try:
        with pytest.raises(SystemExit):
            runpy.run_path(check_runner.__file__, run_name="__main__")
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(write_end)
    written = os.read(read_end, 1 << 16).decode()
    os.close(read_end)
    assert written.startswith('{"event": "imported"') or "x" in written
    assert '"value": {"kind": "int", "int": 1}' in written
    assert sys.modules.pop("s").__file__ == str(path)


def run_main(monkeypatch, stdin: str, write=None) -> tuple[str, int]:
    """What the runner's main writes on fds 1 and 2, and its exit status, in this process."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(os, "_exit", lambda status: (_ for _ in ()).throw(SystemExit(status)))
    if write is not None:
        monkeypatch.setattr(os, "write", write)
    read_end, write_end = os.pipe()
    saved = os.dup(1), os.dup(2)
    os.dup2(write_end, 1)
    os.dup2(write_end, 2)
    try:
        with pytest.raises(SystemExit) as ended:
            runpy.run_path(check_runner.__file__, run_name="__main__")
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(write_end)
        monkeypatch.undo()
    written = os.read(read_end, 1 << 16).decode()
    os.close(read_end)
    return written, ended.value.code


def test_the_runners_own_failure_is_one_line_without_a_traceback(tmp_path, monkeypatch):
    path = tmp_path / "s2.py"
    path.write_text("x = 1\n")
    work = {"module": str(path), "hands": [HAND], "limits": {}}  # no functions: a KeyError
    written, status = run_main(monkeypatch, json.dumps(work))
    sys.modules.pop("s2", None)
    assert status == check_runner.RUNNER_FAILED
    assert written.endswith('\n{"event": "runner_failed", "type": "KeyError"}\n')
    assert "Traceback" not in written


@pytest.mark.parametrize("write", [None, lambda fd, data: 1 / 0], ids=["no-channel", "no-write"])
def test_a_runner_that_fails_before_its_channel_or_its_write_still_exits(monkeypatch, write):
    written, status = run_main(monkeypatch, "not json" if write is None else
                               json.dumps({"limits": {}}), write)
    assert status == check_runner.RUNNER_FAILED and "Traceback" not in written


def test_failed_line_keeps_the_type_to_a_names_characters():
    error = type("bad\"name\n", (Exception,), {})()
    assert check_runner.failed_line(error) == (
        b'{"event": "runner_failed", "type": "test_runner.badname"}\n')


# a student's own tests ------------------------------------------------------------------

MODULE = ("def highCardPoints(hand):\n    return helper(hand)\n"
          "def helper(hand):\n    return len(hand)\n"
          "def openingBid(hand):\n    if hand:\n        return '1C'\n    return None\n")
TESTS = '''import unittest
from solution import highCardPoints, openingBid

def test_counts():
    assert highCardPoints("AS") == 2

def test_wrong():
    assert openingBid("AS") == "1D", "expected 1D"

def test_broken():
    raise KeyError("x")

def test_fixture(tmp_path):
    pass

helper_value = 3

class Bids(unittest.TestCase):
    def test_right(self):
        self.assertEqual(openingBid("KH"), "1C")
        self.assertEqual(openingBid("KH"), "1C")

    def test_wrong(self):
        self.assertEqual(openingBid("KH"), "2C")

    def test_error(self):
        raise ValueError("no")
'''


def run_tests_on(tmp_path, tests: str = TESTS) -> list[dict]:
    (tmp_path / "solution.py").write_text(MODULE)
    (tmp_path / "test_solution.py").write_text(tests)
    channel = io.StringIO()
    saved, tracer = list(sys.path), sys.gettrace()  # coverage's, when measured
    sys.path.insert(0, str(tmp_path))
    try:
        check_runner.run_tests({"module": str(tmp_path / "solution.py"),
                                "tests": str(tmp_path / "test_solution.py"),
                                "functions": ["highCardPoints", "openingBid"]}, channel)
    finally:
        sys.settrace(tracer)
        sys.path[:] = saved
        for name in ("solution", "test_solution"):
            sys.modules.pop(name, None)
    return [json.loads(line) for line in channel.getvalue().splitlines()]


def test_run_tests_reports_each_test_and_what_they_reached(tmp_path):
    events = run_tests_on(tmp_path)
    assert events[0] == {"event": "imported", "printed": ""}
    outcomes = {event["name"]: (event["outcome"], event["message"]) for event in events[1:-1]}
    assert outcomes == {
        "Bids.test_error": ("error", "ValueError: no"),
        "Bids.test_right": ("passed", ""),
        "Bids.test_wrong": ("failed", "AssertionError: '1C' != '2C'"),
        "test_broken": ("error", "KeyError: 'x'"),
        "test_counts": ("passed", ""),
        "test_fixture": ("error", "TypeError: test_fixture() missing 1 required positional "
                                  "argument: 'tmp_path'"),
        "test_wrong": ("failed", "AssertionError: expected 1D"),
    }
    # What the tests reached is seen by tracing, which this suite's own coverage tracer
    # takes over here; the sealed runs (test_student_tests.py) check it for real.
    assert events[-1]["event"] == "tested" and events[-1]["lines"] == 8


def test_the_watch_follows_calls_from_the_tests_into_the_module(tmp_path):
    path = tmp_path / "solution.py"
    path.write_text("import sys\n"
                    "def openingBid(hand):\n    return sys._getframe()\n"
                    "def helper(hand):\n    return openingBid(hand)\n")
    namespace = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    frame = namespace["openingBid"]("AS")
    watch = check_runner.Watch(str(path), ["openingBid"])
    assert watch.trace(frame, "call", None) == watch.trace
    assert (watch.called, watch.last_hand) == ({"openingBid"}, "AS")
    watch.trace(frame, "line", None)
    assert watch.lines == {frame.f_lineno}
    inner = namespace["helper"]("KH")  # called by the module itself: not a test's call
    fresh = check_runner.Watch(str(path), ["openingBid"])
    fresh.trace(inner, "call", None)
    assert fresh.called == set() and fresh.last_hand is None
    elsewhere = check_runner.Watch("/elsewhere.py", ["openingBid"])
    assert elsewhere.trace(frame, "call", None) is None
    seen = []
    chained = check_runner.Watch("/elsewhere.py", [], lambda *args: seen.append(args))
    chained.trace(frame, "call", None)
    assert seen == [(frame, "call", None)]


def test_run_tests_reports_tests_that_do_not_import(tmp_path):
    events = run_tests_on(tmp_path, "import not_a_module\n")
    assert events == [{"event": "import_error", "printed": "", "error": {
        "type": "ModuleNotFoundError", "message": "No module named 'not_a_module'",
        "line": 1, "where": "<module>"}}]


@pytest.mark.parametrize("text, line", [
    ("Traceback (most recent call last):\n  File 'x'\nAssertionError: a != b\n- a\n+ b\n",
     "AssertionError: a != b"),
    ("  only indented\n", "only indented"),
], ids=["assertion", "no-error-line"])
def test_last_error_line(text, line):
    assert check_runner.last_error_line(text) == line


def test_the_runner_makes_itself_not_dumpable():
    import ctypes

    libc = ctypes.CDLL(None)
    try:
        check_runner.not_dumpable()
        assert libc.prctl(3, 0, 0, 0, 0) == 0  # PR_GET_DUMPABLE
    finally:
        libc.prctl(check_runner.PR_SET_DUMPABLE, 1, 0, 0, 0)



def test_watch_keeps_each_call_of_a_test_once(tmp_path):
    path = str(tmp_path / "m.py")
    namespace = {"sys": sys}
    exec(compile("def openingBid(hand):\n    return sys._getframe()\n", path, "exec"),
         namespace)
    frame = namespace["openingBid"]("AS")
    watch = check_runner.Watch(path, ["openingBid"])
    watch.trace(frame, "call", None)
    watch.trace(frame, "call", None)
    assert watch.calls == [["openingBid", "AS"]]


def test_the_runner_becomes_the_uid_it_is_given_for_good(monkeypatch):
    done = []

    class Libc:
        def prctl(self, *arguments):
            done.append(("prctl", arguments[0]))
    monkeypatch.setattr(check_runner.ctypes, "CDLL", lambda name: Libc())
    for name in ("setgroups", "setresgid", "setresuid"):
        monkeypatch.setattr(check_runner.os, name,
                            lambda *arguments, name=name: done.append((name, arguments)))
    check_runner.become(None)
    assert done == []
    check_runner.become(62_237)
    assert done == [("prctl", check_runner.PR_SET_NO_NEW_PRIVS), ("setgroups", ([],)),
                    ("setresgid", (62_237,) * 3), ("setresuid", (62_237,) * 3)]
