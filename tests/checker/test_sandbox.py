"""The sandbox's parts: limits, what is staged, the bwrap command, and the supervisor."""

import ctypes
import json
import os
import subprocess
import sys

import pytest

from bidder.checker import sandbox
from bidder.checker.sandbox import (BUBBLEWRAP, FALLBACK, MIB, PACKAGE, Isolation, Limits,
                                    bound_roots, bubblewrap_command, bubblewrap_problem,
                                    choose_isolation, descendants, masks, measures, stage,
                                    supervise, system_links)
from needs import missing

WORK = {"functions": ["highCardPoints"], "hands": ["x"]}


@pytest.mark.parametrize("limits, cpu", [
    (Limits(timeout=2.5), 4), (Limits(timeout=3.0), 4), (Limits(timeout=3.01), 5),
    (Limits(timeout=10.0, cpu_seconds=1), 1), (Limits(timeout=0.5, cpu_seconds=30), 30),
], ids=["wall-rounded-up", "wall-whole", "wall-just-over", "cpu-below", "cpu-above"])
def test_the_cpu_seconds_are_given_or_follow_the_wall_time(limits, cpu):
    assert limits.cpu == cpu
    assert limits.rlimits()["RLIMIT_CPU"] == cpu
    assert f"CPU {cpu} s" in measures(limits, True)
    assert f"CPU {cpu} s" in measures(limits, False)


@pytest.mark.parametrize("cpu", [0, -1, 1.5, "2", True])
def test_cpu_seconds_below_one_or_not_whole_are_refused_saying_so(cpu):
    with pytest.raises(ValueError, match=r"the CPU seconds must be a whole number from 1 up"):
        Limits(cpu_seconds=cpu)


def test_limits_in_numbers_and_words():
    limits = Limits(timeout=2.5, memory=256 * MIB)
    assert limits.cpu == 4
    assert limits.rlimits()["RLIMIT_AS"] == 256 * MIB
    assert "memory 256 MiB" in measures(limits, True)
    assert "no network" in measures(limits, True)
    assert "no network" not in measures(limits, False)
    assert {"empty environment", "standard library only"} <= set(measures(limits, True))
    fallback = measures(limits, False)
    assert not {"empty environment", "standard library only"} & set(fallback)
    assert not any("descendant" in measure for measure in fallback)


@pytest.mark.parametrize("left, said", [
    (set(), "every descendant killed"),
    ({101}, "1 descendant process could not be killed"),
    ({101, 102}, "2 descendant processes could not be killed"),
    ({-1}, "the descendants could not be listed to be killed"),
], ids=["all", "one", "two", "unlisted"])
def test_the_fallback_claims_only_what_its_reaper_did(left, said):
    isolation = sandbox.reaped(Isolation(FALLBACK, ("own session",)), left)
    assert isolation.measures == ("own session", said)


def test_a_reaper_that_cannot_list_proc_says_so_and_the_run_goes_on(monkeypatch):
    calls = []

    def listing(pid, proc="/proc"):
        calls.append(pid)
        if len(calls) > 1:
            raise OSError(24, "Too many open files")
        return set()

    monkeypatch.setattr(sandbox, "descendants", listing)
    with sandbox._reaping() as left:
        pass
    assert left == {-1}


@pytest.mark.parametrize("uid, counted", [(0, False), (1000, True)], ids=["root", "user"])
def test_processes_are_limited_where_the_kernel_counts_them(monkeypatch, uid, counted):
    monkeypatch.setattr(os, "geteuid", lambda: uid)
    assert ("RLIMIT_NPROC" in Limits().rlimits()) is counted


@pytest.mark.parametrize("isolation, text", [
    (Isolation(BUBBLEWRAP, ("no network", "wall 2 s")), "bubblewrap: no network; wall 2 s"),
    (Isolation(FALLBACK, ("own session",), "bwrap is not installed"),
     "fallback: own session (no sandbox: bwrap is not installed)"),
], ids=["sealed", "fallback"])
def test_isolation_says_what_it_is_and_why(isolation, text):
    assert isolation.describe() == text


def test_isolation_says_which_rung_bounds_what():
    isolation = Isolation(FALLBACK, ("own session",), "bwrap is not installed",
                          bounds=(("processes", "uid"), ("sockets", "seccomp")))
    assert isolation.describe() == ("fallback: own session; held by: processes uid, sockets "
                                    "seccomp (no sandbox: bwrap is not installed)")


@pytest.mark.parametrize("root, problem, processes", [
    (True, "", BUBBLEWRAP), (False, "the checker is not root", BUBBLEWRAP),
    (True, "BIDDER_CHECK_UID='x' is not a uid", "none"),
], ids=["root with a uid", "unprivileged", "root without a uid"])
def test_bubblewrap_bounds_processes_unless_root_has_no_uid_to_give(monkeypatch, root,
                                                                    problem, processes):
    monkeypatch.setattr(sandbox, "bubblewrap_problem", lambda: "")
    monkeypatch.setattr(os, "geteuid", lambda: 0 if root else 1000)
    monkeypatch.setattr(sandbox, "pick_uid", lambda environ: (61_234, problem))
    bounds = dict(choose_isolation("auto", Limits()).bounds)
    assert bounds == {"processes": processes, "sockets": BUBBLEWRAP, "files": BUBBLEWRAP,
                      "ipc": BUBBLEWRAP}
    with sandbox.bubblewrap_uid() as uid:
        assert uid is None or (root and not problem)

def test_stage_copies_the_runner_the_module_and_its_folder_but_never_the_reference(tmp_path):
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "solution.py").write_text("x = 1\n")
    (folder / "helper.py").write_text("y = 2\n")
    (folder / ".secret").write_text("hidden")
    (folder / "big.bin").write_bytes(b"\0" * (sandbox.COPY_LIMIT + 1))
    for package in ("utils", "bidder", "__pycache__", "notes"):
        (folder / package).mkdir()
        if package != "notes":
            (folder / package / "__init__.py").write_text("")
    (folder / "utils" / "deep").mkdir()
    (folder / "utils" / "deep" / "__init__.py").write_text("")
    (folder / "utils" / "deep" / "deeper").mkdir()
    (folder / "utils" / "deep" / "deeper" / "__init__.py").write_text("")
    os.symlink(PACKAGE, folder / "reference")
    staged = tmp_path / "staged"
    assert stage(str(folder / "solution.py"), str(staged)) == "solution.py"
    copied = sorted(str(path.relative_to(staged)) for path in staged.rglob("*"))
    assert copied == ["checker", "checker/check_runner.py", "submission",
                      "submission/helper.py", "submission/solution.py", "submission/utils",
                      "submission/utils/__init__.py", "submission/utils/deep",
                      "submission/utils/deep/__init__.py"]


def test_stage_copies_a_linked_module_and_stops_at_the_file_budget(tmp_path, monkeypatch):
    (tmp_path / "real.py").write_text("z = 3\n")
    folder = tmp_path / "work"
    folder.mkdir()
    os.symlink(tmp_path / "real.py", folder / "solution.py")
    for number in range(5):
        (folder / f"a{number}.py").write_text("")
    monkeypatch.setattr(sandbox, "COPY_FILES", 2)
    stage(str(folder / "solution.py"), str(tmp_path / "staged"))
    assert sorted(os.listdir(tmp_path / "staged" / "submission")) == [
        "a0.py", "a1.py", "solution.py"]
    assert (tmp_path / "staged" / "submission" / "solution.py").read_text() == "z = 3\n"


def test_stage_copies_the_module_alone_from_an_unreadable_folder(tmp_path, monkeypatch):
    (tmp_path / "solution.py").write_text("")
    (tmp_path / "other.py").write_text("")

    def refuse(path):
        raise PermissionError(path)

    monkeypatch.setattr(os, "scandir", refuse)
    stage(str(tmp_path / "solution.py"), str(tmp_path / "staged"))
    assert os.listdir(tmp_path / "staged" / "submission") == ["solution.py"]


@pytest.mark.parametrize("prefix, roots", [
    ("/usr", ["/usr"]), ("/usr/local", ["/usr"]),
    ("/root/.pyenv/versions/3.11.7", ["/usr", "/root/.pyenv/versions/3.11.7"]),
    ("/usrx", ["/usr", "/usrx"]),
], ids=["debian", "usr-local", "pyenv", "not-under-usr"])
def test_bound_roots(prefix, roots):
    assert bound_roots(prefix) == roots


def test_masks_hide_every_site_packages_and_the_installed_reference(tmp_path):
    for folder in ("lib/python3.11/site-packages", "lib/python3/dist-packages",
                   "local/lib/python3.12/dist-packages", "lib/python3.11/encodings"):
        (tmp_path / folder).mkdir(parents=True)
    installed = tmp_path / "opt" / "site" / "bidder"
    found = masks([str(tmp_path)], package=str(installed))
    assert found == sorted(str(tmp_path / folder) for folder in (
        "lib/python3.11/site-packages", "lib/python3/dist-packages",
        "local/lib/python3.12/dist-packages", "opt/site"))
    assert masks([str(tmp_path / "elsewhere")], package=str(installed)) == []


def test_system_links_repeat_links_and_bind_folders(tmp_path):
    (tmp_path / "usr" / "bin").mkdir(parents=True)
    os.symlink("usr/bin", tmp_path / "bin")
    (tmp_path / "lib").mkdir()
    assert system_links(str(tmp_path)) == ["--symlink", "usr/bin", "/bin",
                                           "--ro-bind", str(tmp_path / "lib"), "/lib"]


def test_the_bwrap_command_shows_no_environment_network_or_site_packages(tmp_path):
    command = bubblewrap_command(str(tmp_path), Limits(scratch=8 * MIB))
    assert command[:7] == ["bwrap", "--unshare-all", "--uid", "65534", "--gid", "65534",
                           "--die-with-parent"]
    assert "--clearenv" in command
    assert command[command.index("--size") + 1] == str(8 * MIB)
    assert command[-2:] == ["-I", "-S"]
    hidden = [command[index + 1] for index, word in enumerate(command) if word == "--tmpfs"]
    assert any(path.endswith("site-packages") for path in hidden)
    bound = [command[index + 1] for index, word in enumerate(command) if word == "--ro-bind"]
    assert not any(PACKAGE.startswith(path + "/") or path == PACKAGE for path in bound
                   if path not in hidden and not path.startswith("/usr"))


def test_a_root_checkers_bwrap_makes_no_user_namespace_and_may_only_change_uids(tmp_path):
    command = bubblewrap_command(str(tmp_path), Limits(), drop=True)
    assert "--unshare-all" not in command and "--uid" not in command
    assert command[:5] == ["bwrap", "--unshare-ipc", "--unshare-pid", "--unshare-net",
                           "--unshare-uts"]
    assert [command[index + 1] for index, word in enumerate(command)
            if word == "--cap-add"] == ["CAP_SETUID", "CAP_SETGID"]


@pytest.mark.parametrize("path, found", [
    ("/usr", []), ("/", []), ("/root/.pyenv/versions/3.11.7",
                              ["/root", "/root/.pyenv", "/root/.pyenv/versions"]),
])
def test_the_folders_above_a_bound_root_are_made_open(path, found):
    assert sandbox.ancestors(path) == found


FORK_BOMB = """
import os, time
started = 0
for _ in range(200):
    try:
        if os.fork() == 0:
            time.sleep(3600)
            os._exit(0)
    except OSError:
        break
    started += 1

def highCardPoints(hand):
    return started * 1000 + os.getuid() % 1000
"""


def test_a_fork_bomb_under_bubblewrap_started_as_root_meets_the_process_limit(tmp_path):
    if os.geteuid() != 0 or bubblewrap_problem():
        missing(bubblewrap_problem() or "not root", "the checker's sandbox tests")
    module = tmp_path / "bomb.py"
    module.write_text(FORK_BOMB)
    outcome = sandbox.run_student(str(module), dict(WORK), Limits(processes=16), BUBBLEWRAP)
    started, uid = divmod(json.loads(outcome.channel.splitlines()[-2])["value"]["int"], 1000)
    assert started < 16 and uid != 0  # the runner is no longer root
    assert outcome.isolation.name == BUBBLEWRAP


WRITES = """
import os
for path in ("/", "/var/tmp", "/dev/shm", "/tmp", *{masked!r}):
    try:
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, "note"), "w") as stream:
            stream.write("left")
        print(path, os.statvfs(path).f_blocks * os.statvfs(path).f_frsize)
    except OSError:
        print(path, "refused")
"""


def test_inside_bubblewrap_only_the_scratch_folder_of_its_own_size_takes_writes(tmp_path):
    if bubblewrap_problem():
        missing(bubblewrap_problem(), "the checker's sandbox tests")
    for folder in ("checker", "submission"):
        (tmp_path / folder).mkdir()
    command = bubblewrap_command(str(tmp_path), Limits(scratch=8 * MIB))
    masked = [command[index + 1] for index, word in enumerate(command) if word == "--tmpfs"
              and command[index + 1] != "/tmp"]
    done = subprocess.run(command + ["-c", WRITES.format(masked=masked)],
                          capture_output=True, text=True, timeout=60)
    said = dict(line.rsplit(" ", 1) for line in done.stdout.splitlines())
    assert said.pop("/tmp") == str(8 * MIB)
    assert set(said.values()) == {"refused"} and len(said) == 3 + len(masked)


@pytest.fixture
def fresh_probe():
    bubblewrap_problem.cache_clear()
    yield
    bubblewrap_problem.cache_clear()


def test_the_probe_names_a_missing_bwrap(monkeypatch, fresh_probe):
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    assert bubblewrap_problem() == "bwrap is not installed (apt-get install bubblewrap)"


@pytest.mark.parametrize("script, problem", [
    ("echo 'bwrap: No permissions to create a new namespace' >&2; exit 1",
     "bwrap cannot run here: bwrap: No permissions to create a new namespace"),
    ("exit 1", "bwrap cannot run here: ?"),
], ids=["says-why", "silent"])
def test_the_probe_names_a_bwrap_that_cannot_run(monkeypatch, fresh_probe, script, problem):
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: "/usr/bin/bwrap")
    monkeypatch.setattr(sandbox, "bubblewrap_command",
                        lambda staged, limits, drop: ["sh", "-c", script, "probe"])
    assert bubblewrap_problem() == problem


def test_the_probe_gives_up_on_a_bwrap_that_hangs(monkeypatch, fresh_probe):
    def hang(*args, **kwargs):
        raise subprocess.TimeoutExpired("bwrap", 30)

    monkeypatch.setattr(sandbox.shutil, "which", lambda name: "/usr/bin/bwrap")
    monkeypatch.setattr(sandbox.subprocess, "run", hang)
    assert bubblewrap_problem() == "bwrap did not start within 30 s"


@pytest.mark.parametrize("wanted, problem, name, reason", [
    ("fallback", "", FALLBACK, "the fallback was asked for"),
    ("auto", "", BUBBLEWRAP, ""),
    ("bubblewrap", "", BUBBLEWRAP, ""),
    ("auto", "bwrap is not installed", FALLBACK, "bwrap is not installed"),
], ids=["asked-fallback", "auto-sealed", "demanded", "auto-unavailable"])
def test_choose_isolation(monkeypatch, wanted, problem, name, reason):
    monkeypatch.setattr(sandbox, "bubblewrap_problem", lambda: problem)
    chosen = choose_isolation(wanted, Limits())
    assert (chosen.name, chosen.reason) == (name, reason)


def test_a_demanded_sandbox_that_cannot_run_is_an_error(monkeypatch):
    monkeypatch.setattr(sandbox, "bubblewrap_problem", lambda: "bwrap is not installed")
    with pytest.raises(RuntimeError, match="the sandbox was demanded but bwrap is not"):
        choose_isolation("bubblewrap", Limits())


FALLBACK_ISOLATION = Isolation(FALLBACK, ())


def run_shell(tmp_path, script: str, timeout: float, work=WORK):
    return supervise(["sh", "-c", script], work, Limits(timeout=timeout, output=10),
                     FALLBACK_ISOLATION, str(tmp_path), {"PATH": "/usr/bin:/bin"})


def test_supervise_keeps_the_start_of_each_pipe_and_counts_the_rest(tmp_path):
    outcome = run_shell(tmp_path, "cat >/dev/null; printf 'answer'; printf '0123456789abc' >&2",
                        timeout=60)
    assert (outcome.status, outcome.channel, outcome.channel_dropped) == (0, b"answer", 0)
    assert (outcome.output, outcome.output_dropped) == (b"0123456789", 3)


def test_supervise_survives_a_child_that_never_reads_its_work(tmp_path):
    outcome = run_shell(tmp_path, "exec 0<&-; exit 4", timeout=60,
                        work=dict(WORK, hands=["x" * 100] * 10_000))
    assert outcome.status == 4


def test_supervise_waits_for_a_child_that_closed_its_pipes(tmp_path):
    outcome = run_shell(tmp_path, "exec >&- 2>&-; exit 5", timeout=60)
    assert outcome.status == 5


def test_supervise_stops_a_child_that_closed_its_pipes_and_goes_on(tmp_path):
    outcome = run_shell(tmp_path, "exec >&- 2>&-; while :; do :; done", timeout=0.5)
    assert outcome.status is None


def test_supervise_stops_a_child_at_the_time_limit(tmp_path):
    outcome = run_shell(tmp_path, "while :; do :; done", timeout=0.5)
    assert outcome.status is None


def test_descendants_reads_the_process_tree(tmp_path):
    for pid, parent in ((10, 1), (11, 10), (12, 11), (13, 1)):
        (tmp_path / str(pid)).mkdir()
        (tmp_path / str(pid) / "stat").write_text(f"{pid} (a) name) S {parent} 0 0")
    (tmp_path / "14").mkdir()  # gone before its stat was read
    (tmp_path / "self").mkdir()
    assert descendants(10, str(tmp_path)) == {11, 12}
    assert descendants(os.getpid()) == descendants(os.getpid())


def test_without_a_subreaper_the_fallback_still_runs(tmp_path, monkeypatch):
    def no_libc(*args, **kwargs):
        raise OSError("no libc")

    monkeypatch.setattr(ctypes, "CDLL", no_libc)
    module = tmp_path / "s.py"
    module.write_text("def highCardPoints(hand):\n    return 1\n")
    outcome = sandbox.run_student(str(module), dict(WORK), Limits(), FALLBACK)
    assert outcome.status == 0 and b'"int": 1' in outcome.channel
    assert outcome.isolation.measures[-1] == "every descendant killed"
    assert sys.executable  # the checker itself is unharmed


def test_a_fallback_whose_uid_keeps_processes_says_so(tmp_path, monkeypatch):
    if os.geteuid() != 0:
        missing("the checker is not root", "the fallback's uid tests")
    monkeypatch.setattr(sandbox, "kill_uid", lambda uid, interpreter: False)
    module = tmp_path / "s.py"
    module.write_text("def highCardPoints(hand):\n    return 1\n")
    outcome = sandbox.run_student(str(module), dict(WORK), Limits(), "fallback:uid")
    assert outcome.status == 0 and b'"int": 1' in outcome.channel
    assert outcome.isolation.measures[-1] == "the student's uid still had processes at the end"
    assert any(measure.startswith("own uid") for measure in outcome.isolation.measures)


def test_the_cleanup_removes_locked_folders_and_never_follows_links(tmp_path):
    scratch, kept = tmp_path / "scratch", tmp_path / "kept"
    (scratch / "locked" / "inner").mkdir(parents=True)
    (scratch / "locked" / "inner" / "file").write_text("x")
    kept.mkdir()
    kept.chmod(0o751)
    (scratch / "link").symlink_to(kept)
    for folder in (scratch / "locked" / "inner", scratch / "locked", scratch):
        folder.chmod(0)
    sandbox.remove(str(scratch))
    assert not scratch.exists() and kept.exists() and kept.stat().st_mode & 0o777 == 0o751
    staged = tmp_path / "staged"
    staged.symlink_to(kept)  # a folder swapped for a link: the link goes, not its target
    sandbox.remove(str(staged))
    assert not os.path.lexists(staged) and kept.exists()
    sandbox.remove(str(tmp_path / "gone"))  # nothing there: nothing to do, no error


def test_a_root_checker_with_no_uid_to_give_runs_bubblewrap_as_nobody(tmp_path, monkeypatch):
    if os.geteuid() != 0 or bubblewrap_problem():
        missing(bubblewrap_problem() or "not root", "the checker's sandbox tests")
    monkeypatch.setattr(sandbox, "pick_uid", lambda environ: (61_234, "no uid here"))
    module = tmp_path / "uid.py"
    module.write_text("import os\n\ndef highCardPoints(hand):\n    return os.getuid()\n")
    outcome = sandbox.run_student(str(module), dict(WORK), Limits(), BUBBLEWRAP)
    assert b'"int": 65534' in outcome.channel
