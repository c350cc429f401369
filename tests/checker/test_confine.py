"""The rungs below bubblewrap: each put on a real child here (as root, the student's uid
too), what it forbids tried from inside, and the ladder's probes and reasons."""

import errno
import json
import os
import subprocess
import sys
import textwrap

import pytest

from bidder.checker import bpf, confine, ladder as ladder_module
from bidder.checker.confine import (STUDENT_UID, Confinement, free_uid, kill_uid,
                                    landlock_abi, landlock_ruleset, living, readable_paths,
                                    seccomp_filter, seccomp_module, status_field)
from bidder.checker.ladder import (LANDLOCK, RUNGS, SECCOMP, UID, Ladder, climb,
                                   confinement, popen_options)
from bidder.checker.sandbox import FALLBACK, Isolation, Limits, choose_isolation, \
    interpreter, wanted_rungs
from needs import missing

PROBE = textwrap.dedent("""
    import ctypes, json, os, resource, socket
    found = {"uid": os.getuid(), "groups": os.getgroups()}
    def tried(name, action):
        try:
            action()
            found[name] = "allowed"
        except OSError as error:
            found[name] = error.errno
    tried("socket", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM))
    tried("kill_init", lambda: os.kill(1, 0))
    tried("kill_self", lambda: os.kill(os.getpid(), 0))
    tried("prlimit_init", lambda: resource.prlimit(1, resource.RLIMIT_NOFILE))
    libc = ctypes.CDLL(None, use_errno=True)
    found["unshare"] = libc.unshare(0x10000000) and ctypes.get_errno()
    tried("write_outside", lambda: open(OUTSIDE + "/x", "w"))
    tried("write_scratch", lambda: open("scratch.txt", "w"))
    tried("read_packages", lambda: os.listdir(PACKAGES))
    print(json.dumps(found))
""")


def rung_ready(rung: str) -> None:
    """Skip (fail in CI) when this machine cannot provide *rung*."""
    held = climb((rung,), interpreter())
    if rung not in held.held:
        missing(dict(held.missed)[rung], "the fallback's rung tests")


def probed(rungs: tuple[str, ...], tmp_path) -> dict:
    """What the probe found from inside a child confined by *rungs*."""
    held = climb(rungs, interpreter())
    scratch, outside = tmp_path / "scratch", tmp_path / "outside"
    scratch.mkdir()
    outside.mkdir(mode=0o777)
    os.chmod(outside, 0o777)
    if UID in held.held:
        os.chown(scratch, held.uid, held.uid)
        os.chmod(tmp_path, 0o755)
    packages = next(path for path in sys.path if path.endswith("site-packages"))
    code = f"OUTSIDE = {str(outside)!r}\nPACKAGES = {packages!r}\n" + PROBE
    confined = confinement(held, str(scratch), str(tmp_path))
    try:
        done = subprocess.run([held.interpreter, "-I", "-S", "-c", code], cwd=scratch,
                              env={}, capture_output=True, timeout=60,
                              **popen_options(confined))
    finally:
        if confined.ruleset is not None:
            os.close(confined.ruleset)
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


def test_the_seccomp_rung_forbids_sockets_signals_limits_and_namespaces(tmp_path):
    rung_ready(SECCOMP)
    found = probed((SECCOMP,), tmp_path)
    assert (found["socket"], found["kill_init"], found["prlimit_init"], found["unshare"]) == (
        errno.EPERM,) * 4
    assert found["kill_self"] == "allowed"
    # seccomp alone makes no files where nothing else keeps them from shared places
    creates = climb((SECCOMP,), interpreter()).creates
    assert found["write_scratch"] == ("allowed" if creates else errno.EPERM)


def test_the_landlock_rung_keeps_writes_in_the_scratch_and_packages_unread(tmp_path):
    rung_ready(LANDLOCK)
    found = probed((LANDLOCK,), tmp_path)
    assert found["write_outside"] == found["read_packages"] == errno.EACCES
    assert found["write_scratch"] == "allowed"
    if landlock_abi() >= 4:
        assert found["socket"] == "allowed"  # made, but it could connect to no TCP port


def test_the_uid_rung_runs_as_the_students_uid_with_no_groups(tmp_path):
    rung_ready(UID)
    found = probed((UID,), tmp_path)
    # 61234, or the next uid no other check holds (checks run at once hold their own)
    assert (found["uid"], found["groups"]) == (climb((UID,), interpreter()).uid, [])
    assert found["kill_init"] == errno.EPERM and found["write_scratch"] == "allowed"


def test_kill_uid_leaves_no_process_of_the_uid(tmp_path):
    rung_ready(UID)
    held = climb((UID,), interpreter())
    child = subprocess.Popen([held.interpreter, "-I", "-S", "-c",
                              "import os, time\nif os.fork() == 0:\n    os.setsid()\n"
                              "time.sleep(60)\n"], user=held.uid, group=held.uid,
                             extra_groups=[], stdout=subprocess.PIPE)
    try:
        assert kill_uid(held.uid, held.interpreter)
    finally:
        child.wait()
    assert living(held.uid) == set()


def test_kill_uid_that_cannot_start_its_helper_says_so(monkeypatch):
    monkeypatch.setattr(confine, "living", lambda uid: {1})
    assert not kill_uid(STUDENT_UID, "/nonexistent/python")
    monkeypatch.setattr(confine.subprocess, "run", lambda *args, **kwargs: None)
    assert not kill_uid(STUDENT_UID, "/nonexistent/python")


def test_living_reads_uids_and_leaves_zombies_and_vanished_processes_out(tmp_path):
    for pid, uids, state in ((10, "61234\t61234\t61234\t61234", "S"), (11, "0\t0\t0\t0", "S"),
                             (12, "61234\t61234\t61234\t61234", "Z"), (13, "5\t5\t5\t5", "R"),
                             (15, "0\t0\t61234\t0", "S"), (16, "0\t61234\t0\t0", "D"),
                             (17, "0\t0\t0\t61234", "S"), (18, "612340\t1612340\t0\t0", "S")):
        (tmp_path / str(pid)).mkdir()
        (tmp_path / str(pid) / "status").write_text(
            f"Name:\tx\nState:\t{state} (x)\nUid:\t{uids}\nGid:\t0\t0\t0\t0\n")
    (tmp_path / "14").mkdir()  # gone before its status was read
    (tmp_path / "19").mkdir()
    (tmp_path / "19" / "status").write_text("Name:\tno uid line\n")
    # the real, effective or saved uid; not the file system's alone, nor a longer number
    assert living(61234, str(tmp_path)) == {10, 15, 16}


@pytest.mark.parametrize("status, name, field", [
    (b"Name:\tx\nState:\tS (sleeping)\nUid:\t1\t2\t3\t4\n", b"Uid", b"1\t2\t3\t4"),
    (b"State:\tZ (zombie)\nUid:\t1\t2\t3\t4", b"State", b"Z (zombie)"),
    (b"Name:\tx\nUid:\t7\t7\t7\t7", b"Uid", b"7\t7\t7\t7"),
    (b"Name:\tUid: 5\n", b"Uid", b""),
    (b"", b"State", b""),
], ids=["middle", "first", "last-without-newline", "only-inside-another", "empty"])
def test_a_status_field_is_read_from_its_own_line(status, name, field):
    assert status_field(status, name) == field


def test_free_uid_needs_root_and_an_unused_uid(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert free_uid() == "the checker is not root"
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert free_uid(0) == "uid 0 belongs to the user root"
    assert free_uid(STUDENT_UID) == ""


def test_readable_paths_leave_the_package_folders_unread(tmp_path):
    stdlib = tmp_path / "lib" / "python3.11"
    (stdlib / "site-packages").mkdir(parents=True)
    (stdlib / "json").mkdir()
    (tmp_path / "lib" / "libpython3.11.so").write_text("")
    found = dict(readable_paths(str(tmp_path / "bin" / "python3"), str(stdlib), "/staged"))
    assert found[str(stdlib)] == confine.READ_DIR
    assert found[str(stdlib / "json")] == confine.READS
    assert str(stdlib / "site-packages") not in found
    assert str(tmp_path / "lib" / "libpython3.11.so") in found
    assert "/staged" in found and "/usr/lib" in found
    bare = dict(readable_paths("/nowhere/bin/python3", "/nowhere/lib", "/staged"))
    assert "/nowhere/lib" in bare and len(bare) == len(confine.SYSTEM_READABLE) + 3


def test_a_landlock_rule_that_fails_closes_the_ruleset(tmp_path, monkeypatch):
    if not landlock_abi():
        missing("the kernel has no Landlock", "the fallback's rung tests")
    calls = []
    real = confine.syscall

    def failing(number, *arguments):
        calls.append(number)
        if number == confine.LANDLOCK_ADD_RULE:
            raise OSError(errno.EINVAL, "no")
        return real(number, *arguments)

    monkeypatch.setattr(confine, "syscall", failing)
    with pytest.raises(OSError):
        landlock_ruleset(landlock_abi(), str(tmp_path), ((str(tmp_path), confine.READS),))
    missing_path = landlock_ruleset(1, str(tmp_path / "gone"), ())
    os.close(missing_path)


def test_landlock_abi_is_0_where_the_kernel_has_none(monkeypatch):
    def refused(number, *arguments):
        raise OSError(errno.ENOSYS, "no")

    monkeypatch.setattr(confine, "syscall", refused)
    assert landlock_abi() == 0


def test_syscall_and_prctl_raise_the_errno():
    with pytest.raises(OSError):
        confine.syscall(confine.LANDLOCK_RESTRICT_SELF, -1, 0)
    with pytest.raises(OSError):
        confine.prctl(-1, 0)
    confine.prctl(confine.SET_DUMPABLE, 1)  # as it is already


class Filter:
    def __init__(self, action):
        self.rules, self.loaded = [], False

    def add_rule(self, action, name, *arguments):
        self.rules.append((action, name, arguments))

    def load(self):
        self.loaded = True


class Bindings:
    """libseccomp's bindings' shape, recording what the filter asks for."""

    ALLOW, NE, MASKED_EQ = "allow", "ne", "masked"
    made = []

    def ERRNO(code):
        return f"errno {code}"

    def Arg(*arguments):
        return arguments

    def SyscallFilter(action):
        Bindings.made.append(Filter(action))
        return Bindings.made[-1]


def test_apply_puts_each_rung_on_the_process_in_order(monkeypatch):
    done = []
    monkeypatch.setattr(confine, "prctl", lambda option, value: done.append(("prctl", option)))
    monkeypatch.setattr(confine, "syscall", lambda *arguments: done.append(arguments))
    Confinement(None, 7, Bindings).apply()
    assert done == [("prctl", confine.NO_NEW_PRIVS), ("prctl", confine.SET_DUMPABLE),
                    (confine.LANDLOCK_RESTRICT_SELF, 7, 0)]
    assert Bindings.made[-1].loaded
    rules = {name for _, name, _ in Bindings.made[-1].rules}
    assert {"socket", "ptrace", "unshare", "kill", "prlimit64", "clone", "clone3"} <= rules
    done.clear()
    Confinement().apply()
    assert len(done) == 2
    assert popen_options(Confinement(5))["extra_groups"] == []
    assert "user" not in popen_options(Confinement())


def test_seccomp_filter_is_built_by_the_installed_bindings():
    bindings = seccomp_module()
    if bindings is None:
        missing("libseccomp's Python bindings are missing", "the fallback's rung tests")
    assert seccomp_filter(bindings, os.getpid()) is not None


def test_no_seccomp_bindings_is_none(monkeypatch):
    monkeypatch.setitem(sys.modules, "seccomp", None)
    monkeypatch.setitem(sys.modules, "pyseccomp", None)
    assert seccomp_module() is None


# The ladder ------------------------------------------------------------------------------

def test_the_ladder_names_what_held_and_why_the_rest_did_not(monkeypatch):
    monkeypatch.setattr(ladder_module, "pick_uid",
                        lambda environ: (STUDENT_UID, "the checker is not root"))
    monkeypatch.setattr(ladder_module, "seccomp_rung", lambda: None)
    monkeypatch.setattr(ladder_module, "landlock_abi", lambda: 0)
    monkeypatch.setattr(bpf, "machine", lambda: "riscv64")
    found = climb.__wrapped__(RUNGS, interpreter())
    assert found.held == ()
    assert found.reason() == (
        "no uid: the checker is not root; no seccomp: libseccomp's Python bindings are "
        "missing (pip install pyseccomp), and no filter can be written without them for "
        "riscv64; no landlock: the kernel has no Landlock")


def test_a_rung_the_interpreter_does_not_start_under_is_missed(monkeypatch):
    monkeypatch.setattr(ladder_module, "SYSTEM_PYTHON", "/bin/false")
    monkeypatch.setattr(ladder_module, "pick_uid", lambda environ: (STUDENT_UID, ""))
    found = climb.__wrapped__((UID,), "/bin/false")
    assert found.held == () and found.missed[0][1].startswith(
        "/bin/false did not start under it: ?")
    gone = climb.__wrapped__((UID,), "/nonexistent/python")
    assert "it could not be put on a process" in gone.missed[0][1]


def test_the_ladders_measures_say_what_each_rung_enforces():
    words = Ladder(RUNGS, (), "/usr/bin/python3", 6).measures()
    assert words[0].startswith(f"own uid {STUDENT_UID}") and "no sockets" in words[1]
    assert words[2].endswith("no TCP, no signals out")
    assert Ladder((LANDLOCK,), abi=3).measures()[0].endswith("the scratch folder")


@pytest.mark.parametrize("wanted, rungs", [
    ("auto", RUNGS), (FALLBACK, RUNGS), ("fallback:", ()),
    ("fallback:seccomp+landlock", (SECCOMP, LANDLOCK)),
])
def test_wanted_rungs(wanted, rungs):
    assert wanted_rungs(wanted) == rungs


def test_an_unknown_rung_is_an_error():
    with pytest.raises(ValueError, match="'chroot' is not a rung of the fallback; the "
                                         "rungs are uid, seccomp, landlock"):
        wanted_rungs("fallback:chroot")


def test_the_fallback_isolation_lists_its_rungs_and_why_others_are_missing():
    isolation = choose_isolation("fallback:", Limits())
    assert isolation.reason == "the fallback was asked for"
    assert isinstance(isolation, Isolation) and isolation.ladder.held == ()


# The seccomp filter written as raw BPF, where libseccomp is missing ------------------------

FORKS = textwrap.dedent("""
    import ctypes, json, os, socket, threading
    found = {}
    folder = os.open(".", os.O_RDONLY)
    def tried(name, action):
        try:
            action()
            found[name] = "allowed"
        except OSError as error:
            found[name] = error.errno
    def fork():
        if os.fork() == 0:
            os._exit(0)
        os.wait()
    tried("fork", fork)
    tried("create", lambda: open("made", "w"))
    tried("create_at", lambda: os.open("made", os.O_WRONLY | os.O_CREAT, dir_fd=folder))
    tried("temporary", lambda: os.open(".", os.O_WRONLY | os.O_TMPFILE, dir_fd=folder))
    tried("mkdir", lambda: os.mkdir("folder"))
    tried("write_existing", lambda: open("existing", "r+").write("x"))  # no O_CREAT
    tried("rename", lambda: os.rename("existing", "renamed"))
    tried("socket", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))
    tried("kill_init", lambda: os.kill(1, 0))
    tried("kill_self", lambda: os.kill(os.getpid(), 0))
    thread = threading.Thread(target=lambda: found.setdefault("thread", "allowed"))
    thread.start()
    thread.join()
    libc = ctypes.CDLL(None, use_errno=True)
    found["shmget"] = libc.shmget(0, 4096, 0o1600) < 0 and ctypes.get_errno()
    found["unshare"] = libc.unshare(0x40000000) and ctypes.get_errno()
    print(json.dumps(found))
""")


def bindings_of(kind: str):
    """libseccomp's bindings, or the raw BPF module (skipped where neither is here)."""
    found = seccomp_module() if kind == "libseccomp" else bpf if bpf.supported() else None
    if found is None:
        missing(f"no {kind} filter can be made here", "the fallback's rung tests")
    return found


@pytest.mark.parametrize("kind", ["libseccomp", "raw BPF"])
@pytest.mark.parametrize("forks", [True, False], ids=["processes allowed", "threads only"])
@pytest.mark.parametrize("creates", [True, False], ids=["files allowed", "no files made"])
def test_both_filters_forbid_the_same_and_processes_and_files_only_when_asked(
        tmp_path, kind, forks, creates):
    (tmp_path / "existing").write_text("")
    confined = Confinement(bindings=bindings_of(kind), forks=forks, creates=creates)
    done = subprocess.run([sys.executable, "-I", "-S", "-c", FORKS], env={}, cwd=tmp_path,
                          capture_output=True, timeout=60, **popen_options(confined))
    assert done.returncode == 0, done.stderr.decode()
    found = json.loads(done.stdout)
    assert (found["socket"], found["kill_init"], found["shmget"], found["unshare"]) == (
        errno.EPERM,) * 4
    assert found["kill_self"] == found["thread"] == "allowed"
    assert found["fork"] == ("allowed" if forks else errno.EPERM)
    made = ("create", "create_at", "temporary", "mkdir", "rename")
    assert {name: found[name] for name in made} == dict.fromkeys(
        made, "allowed" if creates else errno.EPERM)
    assert found["write_existing"] == "allowed"


@pytest.mark.parametrize("architecture", sorted(bpf.ARCHITECTURES))
def test_the_raw_filters_numbers_are_libseccomps(architecture):
    bindings = bindings_of("libseccomp")
    audit, numbers, _ = bpf.ARCHITECTURES[architecture]
    arch = getattr(bindings.Arch, architecture.upper())
    assert {name: bindings.resolve_syscall(arch, name) for name in numbers} == numbers
    assert set(confine.DENIED) <= set(numbers)


@pytest.mark.parametrize("architecture, foreign", [("x86_64", 2), ("aarch64", 0)])
def test_the_raw_filter_ends_a_call_through_another_architecture(architecture, foreign):
    program = bpf.instructions(confine.DENIED, 5, True, architecture)
    audit = bpf.ARCHITECTURES[architecture][0]
    assert program[:3] == [(bpf.LOAD, 0, 0, bpf.ARCH), (bpf.JEQ, 1, 0, audit),
                           (bpf.RET, 0, 0, bpf.KILL)]
    assert sum(line[0] == bpf.JGE for line in program) * 2 == foreign
    assert program[-1] == (bpf.RET, 0, 0, bpf.ALLOW)


def test_a_raw_filter_the_kernel_refuses_raises_its_errno():
    class Empty(bpf.Filter):
        def code(self) -> bytes:
            return b""

    with pytest.raises(OSError) as raised:
        Empty((), os.getpid()).load()
    assert raised.value.errno == errno.EINVAL


@pytest.mark.parametrize("libseccomp, machine, found", [
    (True, "x86_64", "libseccomp"), (False, "aarch64", "bpf"), (False, "riscv64", None),
])
def test_the_seccomp_rung_is_libseccomp_else_raw_bpf_where_known(monkeypatch, libseccomp,
                                                                 machine, found):
    monkeypatch.setattr(confine, "seccomp_module", lambda: "libseccomp" if libseccomp else None)
    monkeypatch.setattr(bpf, "machine", lambda: machine)
    assert confine.seccomp_rung() == {"bpf": bpf}.get(found, found)


# Which rung bounds what ----------------------------------------------------------------

@pytest.mark.parametrize("held, root, processes, files, blocks", [
    (RUNGS, True, UID, LANDLOCK, SECCOMP),
    ((UID, SECCOMP), True, UID, UID, SECCOMP),
    ((SECCOMP, LANDLOCK), True, SECCOMP, LANDLOCK, SECCOMP),
    ((SECCOMP, LANDLOCK), False, "rlimit", LANDLOCK, SECCOMP),
    ((LANDLOCK,), True, "none", LANDLOCK, "none"),
    ((), False, "rlimit", "none", "none"),
    ((SECCOMP,), True, SECCOMP, SECCOMP, SECCOMP),
    ((SECCOMP,), False, "rlimit", SECCOMP, SECCOMP),
], ids=["every rung", "no landlock", "root without its uid", "unprivileged",
        "landlock alone as root", "nothing unprivileged", "seccomp alone as root",
        "seccomp alone unprivileged"])
def test_the_ladder_names_the_rung_that_bounds_each(held, root, processes, files, blocks):
    ladder = Ladder(held, root=root)
    assert dict(ladder.bounds()) == {"processes": processes, "sockets": blocks,
                                     "files": files, "ipc": blocks}
    assert ladder.forks is (processes not in (SECCOMP, "none"))
    assert ("no new processes" in " ".join(ladder.measures())) is (processes == SECCOMP)
    assert ladder.creates is (files not in (SECCOMP, "none"))
    assert ("no files made" in " ".join(ladder.measures())) is (files == SECCOMP)


def test_the_measures_say_the_filter_was_written_without_libseccomp():
    assert Ladder((SECCOMP,), raw=True).measures()[0].startswith(
        "seccomp (raw BPF, no libseccomp): no sockets")


def test_a_raw_filter_is_handed_to_the_kernel_whole(monkeypatch):
    handed = []

    class Libc:
        def prctl(self, option, mode, program, *rest):
            handed.append((option, mode, program._obj.len))
            return 0
    monkeypatch.setattr(bpf.ctypes, "CDLL", lambda *arguments, **keywords: Libc())
    found = bpf.Filter(confine.DENIED, 5, forks=False, creates=False)
    found.load()
    lines = bpf.instructions(confine.DENIED, 5, False, creates=False)
    assert handed == [(bpf.PR_SET_SECCOMP, bpf.SECCOMP_MODE_FILTER, len(lines))]
    assert len(found.code()) == 8 * len(lines)


@pytest.mark.parametrize("forks, creates", [(True, True), (False, False)])
def test_each_filter_is_made_for_the_child_and_its_processes(forks, creates):
    assert seccomp_filter(bpf, 5, forks, creates) == bpf.Filter(confine.DENIED, 5, forks,
                                                                creates)
    made = seccomp_filter(bindings_of("libseccomp"), os.getpid(), forks, creates)
    assert made is not None


def test_aarch64_has_no_fork_to_deny_its_clone_is_denied():
    allowed = bpf.instructions((), 5, True, "aarch64")
    threads = bpf.instructions((), 5, False, "aarch64")
    assert len(threads) == len(allowed) + 1  # the CLONE_THREAD test alone


def test_aarch64_makes_files_only_through_the_at_calls():
    allowed = bpf.instructions((), 5, True, "aarch64")
    refused = bpf.instructions((), 5, True, "aarch64", creates=False)
    named = [name for name in bpf.NAMING if name in bpf.AARCH64]
    assert len(refused) == len(allowed) + 2 * len(named) + 5  # openat's flags alone
