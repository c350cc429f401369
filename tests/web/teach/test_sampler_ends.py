"""The /stats sampling process ends with its worker, even one killed with SIGKILL."""

import os
import signal
import subprocess
import sys
import time

WAIT = 60  # seconds, at most: the sampler checks every second
WORKER = """
import sys
from bidder.web.teach.stats import sampler
print(sampler().submit(__import__("os").getpid).result(), flush=True)
sys.stdin.read()
"""


def gone(pid: int) -> bool:
    """Whether process *pid* has ended (a zombie has ended too)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def test_the_sampler_ends_when_its_worker_is_killed():
    worker = subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    sampler_pid = int(worker.stdout.readline())
    assert not gone(sampler_pid)
    worker.send_signal(signal.SIGKILL)
    worker.wait(timeout=WAIT)
    deadline = time.monotonic() + WAIT
    while not gone(sampler_pid):
        assert time.monotonic() < deadline, "the sampler outlived its worker"
        time.sleep(0.1)
    worker.stdin.close()
    worker.stdout.close()


def test_the_watch_goes_on_while_the_parent_lives():
    from bidder.web.teach.stats import watch_parent
    watcher = watch_parent(os.getppid(), every=0.01)
    time.sleep(0.05)
    assert watcher.is_alive() and watcher.daemon


def test_the_watch_ends_the_process_once_the_parent_is_gone():
    from bidder.web.teach.stats import watch_parent
    ended = []
    watch_parent(-1, every=0.01, end=ended.append).join(timeout=WAIT)
    assert ended == [0]
