"""The bidder command as real processes: console script, pipes, terminals, signals, serving."""

import json
import os
import pty
import resource
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

import bidder.grading.batch  # noqa: F401 (see below)
from bidder.cards import EXAMPLE_HAND
from bidder.cli.commands import cli, main
from helpers import children, kill_workers_when_they_start, signal_main_thread
from ports import free_port

# The tests below interrupt this very process (Ctrl-C, SIGTERM) while `bidder grade` runs
# in it. The command imports NumPy when it first needs it: interrupted half-way through
# that import, this process would keep a NumPy missing its attributes for every later
# test. So NumPy is imported here, whatever order the tests run in.
BIN = Path(sys.executable).parent
BIDDER = str(BIN / "bidder")
CLASS_FILE = Path(__file__).parent / "class.txt"
HANDS = ("5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C", "AS 4S KH QH 3H AD QD 7D 6D KC JC 8C 5C",
         "AS KS QS 2S AH KH 3H 2H AD QD 4D 3D 5C", "KS QS JS 9S 8S 7S 6S 5S QH 2H 3D 2D 4C")
STARTUP = 30


def bidder(*args, **options):
    """Run the installed console script, capturing its text output."""
    options.setdefault("timeout", STARTUP)
    return subprocess.run([BIDDER, *map(str, args)], capture_output=True, text=True,
                          **options)


def class_file(path: Path, lines: int) -> Path:
    """A class file of *lines* lines, every 50th one bad."""
    with path.open("w") as stream:
        for number in range(1, lines + 1):
            hand = "AS KS" if number % 50 == 0 else HANDS[number % len(HANDS)]
            stream.write(f"{hand},1C,s{number}\n")
    return path


@pytest.fixture(scope="module")
def big_file(tmp_path_factory):
    return class_file(tmp_path_factory.mktemp("big") / "class.txt", 150_000)


def leftovers(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


# every command as a real process -----------------------------------------------

def test_console_script_help():
    result = bidder("--help")
    assert result.returncode == 0
    assert "Usage: bidder [OPTIONS] COMMAND" in result.stdout


def test_python_dash_m_bidder_in_a_pipe_is_plain():
    result = subprocess.run([sys.executable, "-m", "bidder", "bid", EXAMPLE_HAND],
                            capture_output=True, text=True, timeout=STARTUP)
    assert result.returncode == 0
    assert "Bid        1C   by R3" in result.stdout
    assert "\x1b[" not in result.stdout and "♠ A" in result.stdout


HEAVY = ("flask", "werkzeug", "jinja2", "gunicorn", "concurrent.futures", "bidder.web",
         "bidder.grading", "bidder.checker", "bidder.exact", "numpy")


@pytest.mark.parametrize("args, allowed", [
    (["bid", EXAMPLE_HAND], ()),
    (["deal", "--seed", "1", "--key"], ()),
    (["stats", "--hands", "10"], ()),
    (["stats", "--exact"], ("bidder.exact",)),
    (["grade", str(CLASS_FILE)], ("bidder.grading", "numpy")),
], ids=["bid", "deal", "stats", "stats --exact", "grade"])
def test_only_serve_brings_in_the_web_app(args, allowed):
    code = ("import sys; from click.testing import CliRunner; from bidder.cli.commands import cli; "
            f"CliRunner().invoke(cli, {args!r}); "
            f"print(' '.join(name for name in {HEAVY!r} if name in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=STARTUP).stdout.split()
    assert loaded == list(allowed)


@pytest.mark.parametrize("code", [
    f"from bidder.cli import main; main(['bid', {EXAMPLE_HAND!r}])",
    f"import bidder; bidder.openingBid({EXAMPLE_HAND!r}); bidder.explain('AKQ2.J54.T9.8765')",
], ids=["bidder bid", "graded functions"])
def test_a_bid_needs_neither_click_nor_numpy(code):
    heavy = HEAVY + ("click", "typing")
    shown = subprocess.run(
        [sys.executable, "-c", f"import sys; {code}; "
                               f"print([name for name in {heavy!r} if name in sys.modules])"],
        capture_output=True, text=True, timeout=STARTUP).stdout
    assert shown.splitlines()[-1] == "[]"


def in_terminal(*args, env=None) -> str:
    """Run the command with a terminal as its standard output; what it showed."""
    main_end, other_end = pty.openpty()
    process = subprocess.Popen([BIDDER, *args], stdout=other_end, stderr=other_end,
                               env={**os.environ, **(env or {})})
    os.close(other_end)
    shown = b""
    waiting = selectors.DefaultSelector()  # select() fails on a descriptor above 1023
    waiting.register(main_end, selectors.EVENT_READ)
    while True:
        ready = waiting.select(STARTUP)
        try:
            chunk = os.read(main_end, 65536) if ready else b""
        except OSError:
            chunk = b""
        if not chunk:
            break
        shown += chunk
    waiting.close()
    os.close(main_end)
    assert process.wait(STARTUP) == 0
    return shown.decode()


@pytest.mark.parametrize("env, coloured", [({}, True), ({"NO_COLOR": "1"}, False)],
                         ids=["terminal", "no-color"])
def test_bid_colours_a_terminal_unless_no_color(env, coloured):
    shown = in_terminal("bid", EXAMPLE_HAND, env=env)
    assert "Bid" in shown
    assert ("\x1b[" in shown) is coloured


def test_grade_as_a_process(tmp_path):
    output = tmp_path / "graded.csv"
    result = bidder("grade", CLASS_FILE, "-o", output)
    assert result.returncode == 1
    assert result.stderr.splitlines()[0].startswith(f"{CLASS_FILE}:17: card 4 '1D'")
    assert "26 hands graded, 1 bad line (line 17)" in result.stderr
    assert len(output.read_text().splitlines()) == 28


def test_grade_a_clean_file_exits_0_and_gives_the_same_bytes_twice(tmp_path):
    clean = tmp_path / "clean.txt"
    clean.write_text("".join(line for number, line in enumerate(CLASS_FILE.open(), 1)
                             if number != 17))
    first, second = bidder("grade", clean), bidder("grade", clean)
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout


def test_grade_big_file_in_a_pool_matches_one_process(tmp_path):
    data = class_file(tmp_path / "class.txt", 12_000)
    pooled, single = bidder("grade", data, "--jobs", "2"), bidder("grade", data, "--jobs", "1")
    assert pooled.returncode == single.returncode == 1
    assert pooled.stdout == single.stdout
    assert pooled.stderr == single.stderr
    assert len(pooled.stdout.splitlines()) == 12_001


def test_grade_onto_a_file_too_large_exits_2_and_leaves_nothing(tmp_path):
    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))
    result = subprocess.run([BIDDER, "grade", str(CLASS_FILE), "-o", "graded.csv"],
                            cwd=tmp_path, capture_output=True, text=True,
                            preexec_fn=small_files, timeout=STARTUP)
    assert result.returncode == 2
    assert result.stderr.endswith("\nError: grading stopped: File too large; nothing was "
                                  "written to graded.csv\n")
    assert leftovers(tmp_path) == []


def test_output_piped_into_a_reader_that_stops_early():
    process = subprocess.Popen([BIDDER, "deal", "--count", "100", "--seed", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()
    errors = process.stderr.read().decode()
    assert process.wait(STARTUP) == 1
    assert "Traceback" not in errors


def test_deal_as_a_process():
    result = bidder("deal", "--bid", "2NT", "--seed", "5", "--format", "pbn")
    assert result.returncode == 0
    assert '[Deal "N:' in result.stdout


def test_stats_as_a_process():
    result = bidder("stats", "--hands", "1000", "--json")
    assert json.loads(result.stdout)["hands"] == 1000


def test_check_as_a_process(tmp_path):
    solution = tmp_path / "solution.py"
    solution.write_text("def highCardPoints(hand):\n    return 0\n"
                        "def distributionPoints(hand):\n    return 0\n"
                        "def openingBid(hand):\n    return 'Pass'\n")
    result = bidder("check", solution, "--hands", "20")
    assert result.returncode == 1
    assert "actual:   'Pass' (str); the rules open" in result.stdout
    assert "(and no bid is the value None, not a" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


# interrupted runs ------------------------------------------------------------------

def started(process, folder: Path) -> None:
    """Wait until the run has written part of its output to a temporary file."""
    deadline = time.monotonic() + STARTUP
    while time.monotonic() < deadline:
        parts = [path for path in folder.iterdir() if path.name.endswith(".part")]
        if parts and parts[0].stat().st_size:
            return
        assert process.poll() is None, "the run ended before it could be interrupted"
        time.sleep(0.01)
    raise AssertionError("no output was written")


@contextmanager
def fed_fifo(folder: Path, lines: int):
    """A named pipe in *folder* with *lines* lines of a class file written into it, held
    open until the block ends: a run reading it grades them, then waits for more, so it
    is surely still running when a test signals it."""
    fifo = folder / "class.fifo"
    os.mkfifo(fifo)
    done = threading.Event()

    def feed():
        try:
            with fifo.open("w") as stream:
                stream.write("".join(f"{HANDS[number % 4]},1C,s{number}\n"
                                     for number in range(lines)))
                stream.flush()
                done.wait(STARTUP)
        except BrokenPipeError:  # the run stopped reading: signalled while it read
            pass
    thread = threading.Thread(target=feed)
    thread.start()
    try:
        yield fifo
    finally:
        done.set()
        thread.join()


def grade_from(fifo: Path, folder: Path, *options: str) -> subprocess.Popen:
    """`bidder grade FIFO -o graded.csv` started in *folder*."""
    return subprocess.Popen([BIDDER, "grade", str(fifo), "-o", "graded.csv", *options],
                            cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.mark.parametrize("signum, status, jobs", [
    (signal.SIGINT, 130, "2"), (signal.SIGTERM, 143, "2"), (signal.SIGINT, 130, "1"),
], ids=["ctrl-c-pool", "sigterm-pool", "ctrl-c-one-process"])
def test_an_interrupted_grade_leaves_no_output(tmp_path_factory, tmp_path, signum,
                                               status, jobs):
    with fed_fifo(tmp_path_factory.mktemp("input"), 30_000) as fifo:
        process = grade_from(fifo, tmp_path, "--jobs", jobs)
        started(process, tmp_path)
        process.send_signal(signum)
    out, errors = process.communicate(timeout=STARTUP)
    assert process.returncode == status
    assert leftovers(tmp_path) == []
    assert b"Traceback" not in errors


def test_an_interrupted_grade_keeps_the_previous_output(tmp_path_factory, tmp_path):
    (tmp_path / "graded.csv").write_text("last week\n")
    with fed_fifo(tmp_path_factory.mktemp("input"), 30_000) as fifo:
        process = grade_from(fifo, tmp_path)
        started(process, tmp_path)
        process.send_signal(signal.SIGINT)
    process.communicate(timeout=STARTUP)
    assert process.returncode == 130
    assert leftovers(tmp_path) == ["graded.csv"]
    assert (tmp_path / "graded.csv").read_text() == "last week\n"


def test_ctrl_c_at_any_moment_of_a_file_read_by_the_workers_leaves_all_or_nothing(
        tmp_path, big_file):
    expected = bidder("grade", big_file, "--jobs", "1").stdout
    process = subprocess.Popen([BIDDER, "grade", str(big_file), "-o", "graded.csv",
                                "--jobs", "2"], cwd=tmp_path, stderr=subprocess.PIPE)
    deadline = time.monotonic() + STARTUP
    while process.poll() is None and time.monotonic() < deadline and not any(
            path.stat().st_size for path in tmp_path.glob("*.part")):
        time.sleep(0.01)
    process.send_signal(signal.SIGINT)  # while it writes, or once it has ended
    errors = process.communicate(timeout=STARTUP)[1]
    assert b"Traceback" not in errors
    if process.returncode == 130:
        assert leftovers(tmp_path) == []
    else:
        assert process.returncode == 1  # finished first: every 50th line is bad
        assert leftovers(tmp_path) == ["graded.csv"]
        assert (tmp_path / "graded.csv").read_text() == expected


def feeding(fifo: Path, lines: int, signum: int):
    """A thread that writes *lines* lines into *fifo*, then signals this process while
    the command waits for more."""
    def feed():
        with fifo.open("w") as stream:
            stream.write("".join(f"{HANDS[number % 4]},1C\n" for number in range(lines)))
            stream.flush()
            time.sleep(0.3)
            signal_main_thread(signum)
            time.sleep(0.3)
    thread = threading.Thread(target=feed)
    thread.start()
    return thread


@pytest.mark.parametrize("lines, jobs", [(10, "1"), (12_000, "2")],
                         ids=["one-process", "pool"])
def test_ctrl_c_in_process_exits_130_and_cleans_up(tmp_path, lines, jobs):
    fifo, output = tmp_path / "class.fifo", tmp_path / "graded.csv"
    os.mkfifo(fifo)
    thread = feeding(fifo, lines, signal.SIGINT)
    result = CliRunner().invoke(cli, ["grade", str(fifo), "-o", str(output), "--jobs", jobs])
    thread.join()
    assert result.exit_code == 130
    assert result.stderr.endswith("bidder: interrupted\n")
    assert leftovers(tmp_path) == ["class.fifo"]


def test_sigterm_in_process_exits_143_and_cleans_up(tmp_path):
    fifo, output = tmp_path / "class.fifo", tmp_path / "graded.csv"
    os.mkfifo(fifo)
    thread = feeding(fifo, 10, signal.SIGTERM)
    with pytest.raises(SystemExit) as caught:
        main(["grade", str(fifo), "-o", str(output)])
    thread.join()
    assert caught.value.code == 143
    assert leftovers(tmp_path) == ["class.fifo"]


def test_a_killed_worker_ends_the_run_with_status_2_and_no_output(tmp_path):
    output = tmp_path / "graded.csv"
    killer = kill_workers_when_they_start()
    result = CliRunner().invoke(cli, ["grade", str(class_file(tmp_path / "class.txt", 60_000)),
                                      "-o", str(output), "--jobs", "2"])
    killer.join()
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "Error: grading stopped: a worker process ended before its lines were graded (was "
        f"it killed, or out of memory?); nothing was written to {output}\n")
    assert leftovers(tmp_path) == ["class.txt"]


def test_a_broken_pipe_while_grading_is_left_to_click(tmp_path, monkeypatch):
    reader, writer = os.pipe()
    os.close(reader)
    broken = open(writer, "w", encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", broken)
    with pytest.raises(SystemExit) as caught:
        main(["grade", str(class_file(tmp_path / "class.txt", 500))])
    monkeypatch.undo()
    assert caught.value.code == 1
    with pytest.raises(BrokenPipeError):
        broken.close()


# serving ---------------------------------------------------------------------------



def fetch(port: int) -> int:
    """The status of GET / once the server answers."""
    deadline = time.monotonic() + STARTUP
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as reply:
                return reply.status
        except urllib.error.HTTPError as error:
            return error.code
        except OSError:
            assert time.monotonic() < deadline, "the server did not answer"
            time.sleep(0.1)


def servers() -> list[int]:
    """gunicorn processes started by this process."""
    return [pid for pid in children()
            if b"gunicorn" in Path(f"/proc/{pid}/cmdline").read_bytes()]


def serve_in_process(port: int, then) -> tuple:
    """Run `bidder serve` here while another thread fetches a page, then calls *then*.

    Servers that were already running (the browser tests' one) are left alone.
    """
    outcome, already_running = {}, set(servers())

    def visit():
        outcome["status"] = fetch(port)
        outcome["servers"] = [pid for pid in servers() if pid not in already_running]
        then(outcome["servers"])
    thread = threading.Thread(target=visit)
    thread.start()
    result = CliRunner().invoke(cli, ["serve", "--port", str(port), "--workers", "1"])
    thread.join()
    return result, outcome


def test_serve_runs_gunicorn_until_it_stops():
    port = free_port()
    result, outcome = serve_in_process(
        port, lambda pids: [os.kill(pid, signal.SIGTERM) for pid in pids])
    assert outcome["status"] < 500
    assert len(outcome["servers"]) == 1
    assert result.exit_code == 0


def test_ctrl_c_stops_the_server_too():
    port = free_port()
    already_running = servers()
    result, outcome = serve_in_process(port, lambda pids: signal_main_thread(signal.SIGINT))
    assert result.exit_code == 130
    assert servers() == already_running
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_serve_as_a_process_stops_gunicorn_on_sigterm():
    port = free_port()
    process = subprocess.Popen([BIDDER, "serve", "--port", str(port), "--workers", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert fetch(port) < 500
    finally:
        process.send_signal(signal.SIGTERM)
        out, errors = process.communicate(timeout=STARTUP)
    assert process.returncode == 143
    assert b"Booting worker" in errors
    assert f"Listening at: http://127.0.0.1:{port} (".encode() in errors
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
