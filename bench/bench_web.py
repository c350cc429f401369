"""Load benchmark for the web app: gunicorn with 2 workers on 127.0.0.1, driven by wrk.

In one run, against two servers started alike, as `bidder serve` (and `make run`) starts
one: its gunicorn command line (bidder.cli.serve.gunicorn_command: the gevent worker with
a timeout on every read, bidder.web.worker.Worker), 2 workers:

1. the baseline, a bare Flask app answering a constant (bench/bare_app.py), then the
   app's /api/bid?hand=..., /?hand=..., /rules, /deal?bid=2NT&seed=N and the advisor's
   page for 1,000 seeded hands in turn (its parts are kept by suit holding and by
   tally, so one repeated hand alone would flatter it), each for
   --duration seconds over --connections connections, after a short warm-up, in
   --rounds interleaved rounds (so a neighbour's load on a shared machine falls on all
   alike); requests per second, latency, socket errors and non-2xx answers, and the
   ratio of each to the baseline (goals: /api/bid >= 0.85, the pages >= 0.5);
2. a soak of --soak seconds over the fixed paths in turn, sampling each worker's
   resident memory; growth from the end of the first fifth to the end must stay < 5 %.

Usage:  .venv/bin/python bench/bench_web.py [--duration 30] [--rounds 3] [--connections 64]
                                           [--soak 300]
Needs wrk (apt-get install wrk). Exits 1 if a goal is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from bidder.cli.serve import gunicorn_command
from bidder.dealing import random_hand

PROJECT_ROOT = Path(__file__).resolve().parents[1]
RESULTS = PROJECT_ROOT / "bench" / "results"
HOST = "127.0.0.1"
WORKERS = 2
HAND = "5C+7H+AS+JD+9D+2C+KH+10H+4C+8H+8C+AD+10C"
VARIED = "/?hand=... (1,000 dealt hands in turn)"  # the advisor page, as a class uses it
VARIED_HANDS = 1000
BASELINE = "/"  # on the bare app
TARGETS = {  # path -> the least share of the baseline's requests per second
    "/api/bid?hand=" + HAND: 0.85,
    "/?hand=" + HAND: 0.5,
    "/rules": 0.5,
    "/deal?bid=2NT&seed=7": 0.5,
    VARIED: 0.5,
}
WARM_UP_SECONDS = 5
SAMPLE_EVERY_SECONDS = 10
MAX_RSS_GROWTH = 0.05
WRK_THREADS = 2
SOAK_CONNECTIONS = 16
ROTATE_PATHS = """
local paths = {%s}
local next_path = 0
request = function()
  next_path = next_path %% #paths + 1
  return wrk.format("GET", paths[next_path])
end
"""


@dataclass(frozen=True)
class Load:
    """What wrk measured for one path."""

    path: str
    requests: int
    per_second: float
    latency_p50_ms: float
    latency_p99_ms: float
    socket_errors: int
    not_2xx: int


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def server_command(port: int, app: str) -> list[str]:
    """`bidder serve`'s gunicorn command line, with WORKERS workers, serving *app*."""
    command = gunicorn_command(HOST, port, WORKERS)
    return command[:-1] + ["--log-level", "warning", app]


def start_server(port: int, app: str = "bidder.web:create_app()",
                 folder: Path = PROJECT_ROOT) -> subprocess.Popen:
    """gunicorn serving *app* as `bidder serve` does, with WORKERS workers."""
    environment = {**os.environ, "BIDDER_SECRET_KEY": secrets.token_hex()}
    server = subprocess.Popen(server_command(port, app), cwd=folder, env=environment)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/", timeout=2):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    sys.exit("gunicorn did not start")


def workers(master: int) -> list[int]:
    """The process ids of the master's worker processes."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return sorted(map(int, children))


def rss_kib(pid: int) -> int:
    """Resident memory of a process, in KiB."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE).group(1))


def _milliseconds(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}[unit]


def parse_wrk(path: str, output: str) -> Load:
    """The figures in wrk's report (run with --latency)."""
    def number(pattern: str, default: str = "0") -> str:
        match = re.search(pattern, output)
        return match.group(1) if match else default

    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), "
                       r"timeout (\d+)", output)
    return Load(
        path=path,
        requests=int(number(r"(\d+) requests in")),
        per_second=float(number(r"Requests/sec:\s+([\d.]+)")),
        latency_p50_ms=_milliseconds(number(r"50%\s+([\d.]+\w+)", "0ms")),
        latency_p99_ms=_milliseconds(number(r"99%\s+([\d.]+\w+)", "0ms")),
        socket_errors=sum(map(int, errors.groups())) if errors else 0,
        not_2xx=int(number(r"Non-2xx or 3xx responses: (\d+)")),
    )


def wrk(base: str, path: str, seconds: int, connections: int) -> Load:
    """Drive *path* for *seconds* with wrk and read its report; VARIED is the advisor's
    page for VARIED_HANDS seeded hands in turn."""
    command = ["wrk", f"-t{WRK_THREADS}", f"-c{connections}", f"-d{seconds}s",
               "--latency", "--timeout", "10s"]
    if path != VARIED:
        output = subprocess.run(command + [base + path], capture_output=True, text=True,
                                check=True).stdout
        return parse_wrk(path, output)
    hands = [str(random_hand(seed)).replace(" ", "+") for seed in range(VARIED_HANDS)]
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(ROTATE_PATHS % ", ".join(json.dumps("/?hand=" + hand)
                                                for hand in hands))
    try:
        output = subprocess.run(command + ["-s", script.name, base + "/"],
                                capture_output=True, text=True, check=True).stdout
    finally:
        Path(script.name).unlink()
    return parse_wrk(path, output)


def combine(loads: list[Load]) -> Load:
    """Rounds of one path as one measurement: totals, mean rate, worst latency."""
    return Load(
        path=loads[0].path,
        requests=sum(load.requests for load in loads),
        per_second=sum(load.per_second for load in loads) / len(loads),
        latency_p50_ms=max(load.latency_p50_ms for load in loads),
        latency_p99_ms=max(load.latency_p99_ms for load in loads),
        socket_errors=sum(load.socket_errors for load in loads),
        not_2xx=sum(load.not_2xx for load in loads),
    )


def soak(base: str, master: int, seconds: int) -> tuple[Load, dict[int, list[int]]]:
    """Rotate over every path for *seconds*, sampling each worker's RSS as it goes."""
    paths = ", ".join(json.dumps(path) for path in TARGETS if path != VARIED)
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(ROTATE_PATHS % paths)
    samples = {pid: [] for pid in workers(master)}
    command = ["wrk", f"-t{WRK_THREADS}", f"-c{SOAK_CONNECTIONS}", f"-d{seconds}s",
               "--latency", "--timeout", "10s", "-s", script.name, base + "/"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as load:
        while load.poll() is None:
            for pid, values in samples.items():
                values.append(rss_kib(pid))
            time.sleep(min(SAMPLE_EVERY_SECONDS, max(1, seconds // 10)))
        output = load.stdout.read()
    for pid, values in samples.items():
        values.append(rss_kib(pid))
    Path(script.name).unlink()
    return parse_wrk("(all the app's paths in turn)", output), samples


def growth(values: list[int]) -> float:
    """RSS growth from the end of the first fifth of the samples (warmed up) to the end."""
    start = values[len(values) // 5]
    return (values[-1] - start) / start


def report(loads: list[Load], soaked: Load, samples: dict[int, list[int]],
           options: argparse.Namespace) -> bool:
    """Print the figures and say whether every goal was met."""
    baseline = loads[0]
    print(f"\n{WORKERS} gunicorn gevent workers (as bidder serve) on {HOST} for each "
          f"app (the baseline: a bare Flask app answering a constant), "
          f"{os.cpu_count()} CPUs; wrk -t{WRK_THREADS} -c{options.connections}, "
          f"{options.duration} s per path in {options.rounds} rounds; "
          f"soak {options.soak} s at -c{SOAK_CONNECTIONS}\n")
    print(f"{'path':<60} {'req/s':>9} {'ratio':>6} {'goal':>6} {'p50 ms':>7} "
          f"{'p99 ms':>7} {'sock.err':>8} {'non-2xx':>7}")
    met = True
    for load in [*loads, soaked]:
        goal = TARGETS.get(load.path)
        ratio = load.per_second / baseline.per_second
        ok = (goal is None or ratio >= goal) and not load.socket_errors and not load.not_2xx
        met &= ok
        print(f"{load.path[:60]:<60} {load.per_second:>9.0f} {ratio:>6.2f} "
              f"{goal or '':>6} {load.latency_p50_ms:>7.2f} {load.latency_p99_ms:>7.2f} "
              f"{load.socket_errors:>8} {load.not_2xx:>7}{'' if ok else '  MISSED'}")
    print()
    for pid, values in samples.items():
        rise = growth(values)
        met &= rise < MAX_RSS_GROWTH
        print(f"worker {pid}: RSS {values[len(values) // 5] / 1024:.1f} MiB -> "
              f"{values[-1] / 1024:.1f} MiB ({rise:+.1%}, goal < {MAX_RSS_GROWTH:.0%}) "
              f"over {len(values)} samples")
    print("\nall goals met" if met else "\nSOME GOALS MISSED")
    return met


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; 0 if every goal is met, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=30, help="seconds per path")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--soak", type=int, default=300, help="seconds of soak")
    options = parser.parse_args(argv)
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install wrk")
    port, bare_port = free_port(), free_port()
    base, bare = f"http://{HOST}:{port}", f"http://{HOST}:{bare_port}"
    server = start_server(port)
    baseline = start_server(bare_port, "bare_app:app", PROJECT_ROOT / "bench")
    targets = [(bare, BASELINE), *((base, path) for path in TARGETS)]
    seconds = max(1, options.duration // options.rounds)
    try:
        for url, path in targets:
            wrk(url, path, WARM_UP_SECONDS, options.connections)
        rounds = [[wrk(url, path, seconds, options.connections) for url, path in targets]
                  for _ in range(options.rounds)]
        loads = [combine(list(measured)) for measured in zip(*rounds)]
        loads[0] = replace(loads[0], path="bare Flask app: " + BASELINE)
        soaked, samples = soak(base, server.pid, options.soak)
    finally:
        for process in (server, baseline):
            process.terminate()
            process.wait(timeout=30)
    met = report(loads, soaked, samples, options)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"web-{time.strftime('%Y%m%d-%H%M%S')}.json").write_text(json.dumps({
        "loads": [asdict(load) for load in loads], "soak": asdict(soaked),
        "rss_kib": {str(pid): values for pid, values in samples.items()},
        "met": met}, indent=1))
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
