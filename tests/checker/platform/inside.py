"""What runs inside the container, as the platform's harness would: for each module, a
fresh submission, the autograder (or ``bidder check``) run on it, and what it left behind.

Run by the system's Python as the checker's user, with the work as JSON on standard
input: ``{"mode": "gradescope", "prairielearn" or "check", "modules": {NAME: {PATH: SOURCE}},
"secret": TEXT, "port": N, "checker": [ARGV...], "student_uid": N}``, and for PrairieLearn
``"layout": {"home", "submission", "results", "watched"}`` (Gradescope's by default). A listener on 127.0.0.1:port records whatever
connects, and so does one on the abstract unix socket ``bidder-harness-PORT``. After each
module it records the results file (or what stood in its place), the exit status, the
fingerprints of the files a cheat would change, the processes left, what the student's
uid left where every user may write (and in System V IPC) and what the listeners heard;
one JSON object on standard output holds it all.
"""

import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

AUTOGRADER = "/autograder"
GRADESCOPE = {"home": AUTOGRADER, "submission": f"{AUTOGRADER}/submission",
              "results": f"{AUTOGRADER}/results",
              "watched": [f"{AUTOGRADER}/run_autograder", f"{AUTOGRADER}/source",
                          f"{AUTOGRADER}/bidder-venv", "/etc/cron.d", "/usr/lib/python3.11/json",
                          "/usr/lib/python3.11/os.py", "/root/.bashrc"]}
LAYOUT = dict(GRADESCOPE)  # the platform's, set by main()
heard: list = []


def listen(server: socket.socket) -> None:
    """Record what every connection sends, for ever (a daemon thread)."""
    while True:
        connection, _ = server.accept()
        connection.settimeout(2)
        try:
            heard.append(connection.recv(4096).decode("utf-8", "replace") or "(connected)")
        except OSError:
            heard.append("(connected)")
        connection.close()


SHARED = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")


def left_by(uid: int) -> list:
    """What *uid* owns where every user may write, and its System V IPC objects."""
    found = []
    for folder in SHARED:
        for where, subfolders, names in os.walk(folder):
            for name in subfolders + names:
                try:
                    if os.lstat(os.path.join(where, name)).st_uid == uid:
                        found.append(os.path.join(where, name))
                except OSError:
                    pass
    for kind in ("shm", "sem", "msg"):
        try:
            with open(f"/proc/sysvipc/{kind}") as stream:
                lines = stream.read().splitlines()
        except OSError:
            continue
        header = lines[0].split() if lines else []
        for line in lines[1:]:
            fields = dict(zip(header, line.split()))
            if fields.get("uid") == str(uid):
                found.append(f"System V {kind} {fields.get('key')}")
    return found


# each settled file's contents' digest, with the inode, size, mtime and ctime it was read at
READ: dict = {}
# a file changed this recently may change again within its ctime's clock tick: read each time
SETTLED_NS = 2 * 10**9


def contents(path: str, info: os.stat_result) -> bytes:
    """The digest of a file's contents, read again only when its inode, size, mtime or
    ctime changed: a write changes the ctime, and no process in a container built like
    Docker's can set it back (setting the clock needs CAP_SYS_TIME, which Docker does not
    grant), so the installation is read once, not after each of the modules. Writes
    through a shared mapping may leave the ctime as it was: main() reads every file afresh
    at the end."""
    key = (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
    if READ.get(path, (None,))[0] == key:
        return READ[path][1]
    with open(path, "rb") as stream:
        digest = hashlib.sha256(stream.read()).digest()
    if time.time_ns() - info.st_ctime_ns >= SETTLED_NS:
        READ[path] = (key, digest)
    return digest


def fingerprint(path: str) -> str:
    """A digest of a file or of a whole folder: names, modes, owners and contents."""
    digest = hashlib.sha256()
    if not os.path.lexists(path):
        return "absent"
    paths = [path]
    if os.path.isdir(path) and not os.path.islink(path):
        paths = sorted(os.path.join(folder, name) for folder, subfolders, names in os.walk(path)
                       for name in subfolders + names if name != "__pycache__"
                       and "__pycache__" not in folder)
    for item in paths:
        info = os.lstat(item)
        digest.update(f"{item} {info.st_mode:o} {info.st_uid}\n".encode())
        if os.path.isfile(item) and not os.path.islink(item):
            digest.update(contents(item, info))
    return digest.hexdigest()


def fingerprints() -> dict:
    return {path: fingerprint(path) for path in LAYOUT["watched"]}


def others(kill: bool = True) -> list:
    """Command lines of the processes besides PID 1, this one and its threads, each
    killed (so the next module starts clean) unless *kill* is false."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        if int(entry) in (1, os.getpid()):
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as stream:
                line = stream.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
            with open(f"/proc/{entry}/status") as stream:
                uid = next(line.split()[1] for line in stream if line.startswith("Uid:"))
        except (OSError, StopIteration):
            continue
        if line:
            found.append(f"uid {uid}: {line[:200]}")
            try:
                if kill:
                    os.kill(int(entry), signal.SIGKILL)
            except OSError:
                pass
    return found


def results() -> dict:
    """What stands at results.json: its JSON, or what else is there."""
    path = f"{LAYOUT['results']}/results.json"
    if os.path.isdir(path) or not os.path.exists(path):
        return {"kind": "folder" if os.path.isdir(path) else "absent"}
    try:
        with open(path, encoding="utf-8") as stream:
            return {"kind": "file", "text": stream.read(), "owner": os.stat(path).st_uid,
                    "link": os.path.islink(path)}
    except OSError as error:
        return {"kind": f"unreadable: {error}"}


def fresh(folder: str) -> None:
    """*folder* emptied, whatever a module made of it or of what is in it."""
    if os.path.islink(folder) or os.path.isfile(folder):
        os.unlink(folder)
    elif os.path.isdir(folder):
        shutil.rmtree(folder)
    os.makedirs(folder)


def run_one(work: dict, name: str, files: dict) -> dict:
    """One submission (its files by their paths in the submission's folder): the folder
    made afresh, the checker run, what it left."""
    submission = LAYOUT["submission"]
    fresh(submission)
    if work["mode"] != "check":
        fresh(LAYOUT["results"])
    for path, text in files.items():
        os.makedirs(os.path.dirname(f"{submission}/{path}"), exist_ok=True)
        with open(f"{submission}/{path}", "w", encoding="utf-8") as stream:
            stream.write(text)
    environment = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": os.environ["HOME"],
                   "LANG": "C.UTF-8", "BIDDER_TEST_SECRET": work["secret"],
                   "BIDDER_CHECK_UID": str(work["student_uid"])}
    command = (work["checker"] if work["mode"] != "check"
               else work["checker"] + [f"{submission}/{name}.py"])
    started = time.monotonic()
    try:
        done = subprocess.run(command, cwd=LAYOUT["home"], env=environment, capture_output=True,
                              timeout=300)
        status, output, errors = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired:
        status, output, errors = "timeout", b"", b""
    found = {"status": status, "seconds": round(time.monotonic() - started, 1),
             "stdout": output.decode("utf-8", "replace"),
             "stderr": errors.decode("utf-8", "replace")[-4000:]}
    if others(kill=False):
        time.sleep(0.2)  # a daemon's next write, if one was left
    found["results"] = results() if work["mode"] != "check" else None
    found["left"] = others()
    found["fingerprints"] = fingerprints()
    found["left_files"] = left_by(work["student_uid"])
    found["heard"] = list(heard)
    found["temporary"] = sorted(os.listdir("/tmp"))
    heard.clear()
    return found


def main() -> None:
    work = json.load(sys.stdin)
    LAYOUT.update(work.get("layout", {}))
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", work["port"]))
    server.listen(16)
    threading.Thread(target=listen, args=(server,), daemon=True).start()
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind(f"\0bidder-harness-{work['port']}")
    abstract.listen(16)
    threading.Thread(target=listen, args=(abstract,), daemon=True).start()
    report = {"before": fingerprints(), "runs": {}}
    for name, files in work["modules"].items():
        print(f"checking {name}", file=sys.stderr, flush=True)  # where it stopped, if it did
        report["runs"][name] = run_one(work, name, files)
    READ.clear()  # the end read afresh: a write through a shared mapping may keep the ctime
    report["after"] = fingerprints()
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main()
