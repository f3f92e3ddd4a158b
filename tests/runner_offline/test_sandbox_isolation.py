"""The sandbox, round 2 (issue 11): no submission can stall a batch, learner code sees an
allow-list file system and nothing of the checkout, the class or the grader's /proc, no kernel
keyring carries data to the next submission, and the outputs are never written through links.
Each test is a hostile submission or a hostile layout, asserting the safe outcome."""

from __future__ import annotations

import json
import os
import shutil
import site
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest
from offline_support import CORRECT_MINI, MINI_LESSON, ROOT, TEST_LIMITS, needs_root

from runner.offline.cli import main as runner_main
from runner.offline.grading import batch
from runner.offline.grading.batch import sandbox_protections
from runner.offline.sandbox.host import ChildProcessHost
from runner.offline.sandbox.learner_root import plan_learner_root

WORDS_AND_TOTAL = '''
def words(text):
    return text.split()

def total(numbers):
    return sum(numbers)
'''


@pytest.fixture
def outside_dir():
    """A world-readable folder outside every scratch dir (pytest's tmp_path is under /tmp, which
    the child sees as its own fresh tmpfs, so a file there would be out of sight anyway)."""
    directory = Path(tempfile.mkdtemp(prefix="werkplaats-test-", dir="/var/lib"))
    os.chmod(directory, 0o755)
    yield directory
    shutil.rmtree(directory)


def hostile_lesson(folder: Path, extra_test: str) -> Path:
    """A copy of mini-01 with one more test of `double` (a hostile layout of the lesson)."""
    lessons = folder / "lessons"
    shutil.copytree(MINI_LESSON, lessons / "mini-01")
    with open(lessons / "mini-01" / "tests" / "double.py", "a", encoding="utf-8") as handle:
        handle.write(textwrap.dedent(extra_test))
    return lessons


def results_by_name(out: Path) -> dict[str, dict]:
    lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return {Path(result["submission"]).name: result for result in map(json.loads, lines)}


def statuses_of(result: dict) -> dict[str, str]:
    return {test["name"]: test["status"] for checkpoint in result["checkpoints"] for test in checkpoint["tests"]}


# ---- 1. a submission can never stall the batch ----------------------------------------------

LARGE_REQUEST_TEST = '''

@test("double", "een lange tekst")
def long_text(learner):
    expect_equal(learner.double("ab" * 50_000), "ab" * 100_000, "Verdubbelen klopt niet voor lange tekst.", show=False)
'''

# The child shrinks its request pipe to one page and relays requests to the runner's own loop
# through a pipe of its own, until a request does not fit: then it stops reading, forever.
PIPE_STALLER = textwrap.dedent('''
    import fcntl, os, threading

    F_SETPIPE_SZ = 1031
    real_requests = os.dup(3)
    fcntl.fcntl(real_requests, F_SETPIPE_SZ, 4096)
    relayed, relay_end = os.pipe()
    os.dup2(relayed, 3)

    def relay():
        while True:
            data = os.read(real_requests, 4096)
            if len(data) >= 4096:
                threading.Event().wait()
            os.write(relay_end, data)

    threading.Thread(target=relay, daemon=True).start()
''') + CORRECT_MINI


def test_a_child_that_stops_reading_its_requests_cannot_stall_the_batch(tmp_path):
    lessons = hostile_lesson(tmp_path, LARGE_REQUEST_TEST)
    folder = tmp_path / "klas"
    folder.mkdir()
    (folder / "a_staller.py").write_text(PIPE_STALLER)
    (folder / "b_goed.py").write_text(CORRECT_MINI)
    (folder / "c_goed.py").write_text(CORRECT_MINI)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "runner", "grade", "--lesson", "mini-01", "--checkpoints-dir", str(lessons),
               str(folder), "--out", str(out), "--jobs", "1", "--call-timeout", "2", "--submission-timeout", "20"]
    started = time.monotonic()
    # Before the fix the grader's write of the large request never returned: this timed out.
    finished = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert finished.returncode == 0, finished.stderr
    assert time.monotonic() - started < 60
    assert (out / "gradebook.csv").exists() and (out / "report.html").exists()
    results = results_by_name(out)
    assert statuses_of(results["a_staller.py"])["een lange tekst"] == "timeout"
    for name in ("b_goed.py", "c_goed.py"):  # on the same worker, after it
        assert results[name]["score"] == results[name]["max_score"] == 3
        assert set(statuses_of(results[name]).values()) == {"pass"}


STALLING_TEST = '''

@test("double", "nul")
def zero(learner):
    import time
    if learner.double(0) == "vastlopen":  # a lesson's test that hangs the grader for one learner
        time.sleep(3600)
    expect_equal(learner.double(0), 0, "double(0) moet 0 zijn.", show=False)
'''


def test_the_watchdog_ends_a_stalled_worker_and_the_batch_completes(tmp_path, monkeypatch, capsys):
    lessons = hostile_lesson(tmp_path, STALLING_TEST)
    folder = tmp_path / "klas"
    folder.mkdir()
    (folder / "a_goed.py").write_text(CORRECT_MINI)
    (folder / "b_vast.py").write_text(CORRECT_MINI.replace("return 2 * x", "return 'vastlopen' if x == 0 else 2 * x"))
    (folder / "c_goed.py").write_text(CORRECT_MINI)
    (folder / "d_goed.py").write_text(CORRECT_MINI)
    out = tmp_path / "out"
    monkeypatch.setattr(batch, "WATCHDOG_GRACE_SECONDS", 4.0)  # the parent's watchdog; 2 x 5 s + 4 s
    started = time.monotonic()
    code = runner_main(["grade", "--lesson", "mini-01", "--checkpoints-dir", str(lessons), str(folder),
                        "--out", str(out), "--jobs", "2", "--call-timeout", "5", "--submission-timeout", "5"])
    assert time.monotonic() - started < 60
    assert code == 1  # one submission could not be graded, and the run says so
    # A call limit of 5 s, not 2: once, under the load of a whole test run, b_vast.py was graded
    # instead of ended, most likely because its first call ran over 2 s (a plain timeout).
    assert "b_vast.py: not graded (it kept its grading worker busy for more than 14 s" in capsys.readouterr().err
    assert (out / "gradebook.csv").exists() and (out / "report.html").exists()
    results = results_by_name(out)
    assert sorted(results) == ["a_goed.py", "c_goed.py", "d_goed.py"]
    assert all(result["score"] == 3 for result in results.values())


# ---- 2. a class folder that holds the grader's Python ---------------------------------------


@needs_root
def test_a_virtual_environment_inside_the_class_folder_does_not_expose_the_class(outside_dir):
    folder = outside_dir / "klas"
    folder.mkdir()
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(folder / ".venv")],
                   check=True, timeout=120)
    # When the tests themselves run in a virtual environment (the project's .venv), the new one
    # is based on the interpreter below it: give it this environment's packages, as a teacher's
    # environment would have them.
    (new_site,) = (folder / ".venv").glob("lib/python*/site-packages")
    (new_site / "grader-packages.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    classmate = folder / "b_klasgenoot.py"
    classmate.write_text(CORRECT_MINI)
    (folder / "a_nieuwsgierig.py").write_text(textwrap.dedent(f'''
        def double(x):
            try:
                open({str(classmate)!r}).read()
                return -1  # it read a classmate's work
            except OSError:
                return 2 * x
    ''') + WORDS_AND_TOTAL)
    out = outside_dir / "uit"
    finished = subprocess.run(
        [str(folder / ".venv" / "bin" / "python"), "-m", "runner", "grade", "--lesson", "mini-01",
         "--checkpoints-dir", str(MINI_LESSON.parent), str(folder), "--out", str(out), "--jobs", "1"],
        capture_output=True, text=True, timeout=120, cwd=folder, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert finished.returncode == 0, finished.stderr
    assert "warning" not in finished.stderr
    results = results_by_name(out)
    assert results["a_nieuwsgierig.py"]["score"] == 3
    assert results["a_nieuwsgierig.py"]["sandbox"]["private_filesystem"] is True


@needs_root
def test_a_private_folder_that_holds_needed_code_is_reported_not_silently_visible():
    runner_package = str(ROOT / "runner")  # the child runs on it, so it cannot be hidden
    with ChildProcessHost(TEST_LIMITS, hidden_paths=[runner_package]) as host:
        host.load("x = 1")
        assert host.zygote_report.unhidden == (runner_package,)
        assert host.zygote_report.private_filesystem is False
        assert sandbox_protections(host).private_filesystem is False  # and so the result says


def test_private_folders_inside_allowed_ones_are_covered_and_needed_code_bound_again():
    # A hostile layout: the checkout under /usr (so inside an allowed folder), a class folder
    # holding the teacher's virtual environment, whose numpy the zygote preloaded.
    wanted = ["/usr", "/usr/lib/python3.11", "/usr/lib/python3.11/site-packages/numpy",
              "/usr/src/werkplaats/runner", "/home/leraar/klas/.venv/lib/python3.11/site-packages/numpy"]
    private = ["/usr/src/werkplaats", "/usr/src/werkplaats/checkpoints", "/home/leraar/klas", "/var/uit"]
    steps, covered, unhidden = plan_learner_root(wanted, ["/usr/lib/python3.11/site-packages"], private)
    assert steps == [
        ("/usr", True),
        ("/usr/src/werkplaats", False),  # the checkout: empty, but for the runner package
        ("/usr/lib/python3.11/site-packages", False),  # installed packages: only the preloaded
        ("/usr/src/werkplaats/runner", True),
        ("/usr/lib/python3.11/site-packages/numpy", True),
        ("/home/leraar/klas/.venv/lib/python3.11/site-packages/numpy", True),  # not the class around it
    ]
    assert covered == ["/usr/src/werkplaats"] and unhidden == []  # its checkpoints are inside it
    # A private folder that is itself needed code cannot be covered: it is reported.
    assert plan_learner_root(wanted, [], ["/usr/src/werkplaats/runner"])[2] == ["/usr/src/werkplaats/runner"]


# ---- 3 and 5. an allow-list: nothing of the checkout, the class, the outputs, the grader -------

SNOOP = textwrap.dedent('''
    import os, socket

    def peek(path):
        try:
            with open(path, "rb") as handle:
                return handle.read(64).decode("latin-1")
        except OSError as error:
            return type(error).__name__

    def listing(path):
        try:
            return sorted(os.listdir(path))
        except OSError as error:
            return type(error).__name__

    def knock(path):
        try:
            socket.socket(socket.AF_UNIX).connect(path)
            return "verbonden"
        except OSError as error:
            return type(error).__name__

    def own_processes():
        return sorted(int(name) for name in os.listdir("/proc") if name.isdigit())
''')


def environment_inside(folder: Path) -> list[str]:
    """The top folder of the running interpreter's environment when it lies inside `folder`."""
    prefix = Path(sys.prefix).resolve()
    return [prefix.relative_to(folder).parts[0]] if prefix.is_relative_to(folder) else []


@needs_root
def test_learner_code_sees_only_the_allow_list(outside_dir):
    # Everything here is world-readable: only the allow-list keeps it from learner code.
    other_out = outside_dir / "vorige-batch"
    other_out.mkdir()
    (other_out / "results.jsonl").write_text('{"geheim": "cijfers van vorig jaar"}\n')
    linked_target = outside_dir / "echte-inzending.py"
    linked_target.write_text("GEHEIM = 'de code achter een symlink'\n")
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(outside_dir / "dienst.sock"))
        server.listen()
        os.chmod(outside_dir / "dienst.sock", 0o777)
        with ChildProcessHost(TEST_LIMITS) as host:
            host.load(SNOOP, ["peek", "listing", "knock", "own_processes"])

            def call(name, *args):
                return host.call(name, list(args)).value

            assert call("peek", str(other_out / "results.jsonl")) == "FileNotFoundError"
            assert call("peek", str(linked_target)) == "FileNotFoundError"
            assert call("knock", str(outside_dir / "dienst.sock")) == "FileNotFoundError"
            # The checkout: only the runner package (the reference solutions, hidden tests, a
            # built site's checkpoint archives and the golden pages are all outside it).
            if any(str(ROOT).startswith(scratch + "/") for scratch in ("/tmp", "/var/tmp", "/dev/shm")):
                # A checkout under a scratch folder lies below the child's own fresh tmpfs: the
                # zygote preloaded the runner, so nothing of the checkout is in sight at all.
                assert call("listing", str(ROOT)) == "FileNotFoundError"
            else:
                # ...and the interpreter's own environment when it lives in the checkout
                # (the project's .venv): the child runs on it, so it is bound in.
                assert call("listing", str(ROOT)) == sorted(["runner", *environment_inside(ROOT)])
            assert call("peek", str(ROOT / "checkpoints" / "rag-01" / "solution.py")) == "FileNotFoundError"
            assert call("peek", str(MINI_LESSON / "solution.py")) == "FileNotFoundError"
            assert call("listing", "/etc") == ["ld.so.cache"]
            for absent in ("home", "root/.ssh", "run", "sys", "var/lib"):
                assert call("listing", f"/{absent}") == "FileNotFoundError", absent
            # /proc shows the child its own processes only: not the grader, its command line, or
            # another learner's child.
            assert call("peek", f"/proc/{os.getpid()}/cmdline") == "FileNotFoundError"
            assert call("peek", f"/proc/{host._zygote.pid}/cmdline") == "FileNotFoundError"
            assert call("own_processes") == [host.child_pid]
            assert call("peek", "/proc/self/status").startswith("Name:")


# ---- 4. per-user kernel state: keyrings -------------------------------------------------------

KEYRING = textwrap.dedent('''
    import ctypes, os

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    NUMBERS = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219)}[os.uname().machine]
    KEY_SPEC_USER_KEYRING, KEYCTL_GET_PERSISTENT = -4, 22

    def store(secret):
        key = libc.syscall(NUMBERS[0], b"user", b"werkplaats-geheim", secret.encode(), len(secret),
                           KEY_SPEC_USER_KEYRING)
        return [key, os.strerror(ctypes.get_errno()) if key < 0 else ""]

    def persistent():
        key = libc.syscall(NUMBERS[2], KEYCTL_GET_PERSISTENT, -1, KEY_SPEC_USER_KEYRING)
        return [key, os.strerror(ctypes.get_errno()) if key < 0 else ""]
''')

# Run as root in a separate process: become the sandbox uid and read its user keyring.
KEYRING_OF_UID = textwrap.dedent('''
    import ctypes, os, sys

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    KEYCTL = {"x86_64": 250, "aarch64": 219}[os.uname().machine]
    uid = int(sys.argv[1])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    buffer = ctypes.create_string_buffer(4096)
    size = libc.syscall(KEYCTL, 11, -4, buffer, 4096)  # KEYCTL_READ the user keyring: key ids
    print(size)
''')


@needs_root
def test_the_keyring_never_carries_data_to_the_next_submission():
    with ChildProcessHost(TEST_LIMITS) as host:
        host.load(KEYRING, ["store", "persistent"])
        assert host.call("store", ["invoer van de verborgen tests"]).value == [-1, "Operation not permitted"]
        assert host.call("persistent", []).value == [-1, "Operation not permitted"]
        assert host.zygote_report.keyring_filter is True
        assert host.zygote_report.keyrings_cleared is True  # and what an older grader let in, is gone
        host.finish_submission()
        # The next child of the same uid finds nothing: the uid's user keyring is empty.
        read = subprocess.run([sys.executable, "-c", KEYRING_OF_UID, str(host.sandbox_uid)],
                              capture_output=True, text=True, timeout=30, check=True)
        assert read.stdout.strip() == "0"


# ---- 6. the terminal and the outputs --------------------------------------------------------


def test_links_in_the_output_folder_are_refused(tmp_path, outside_dir, capsys):
    folder = tmp_path / "klas"
    folder.mkdir()
    (folder / "a.py").write_text(CORRECT_MINI)
    out = tmp_path / "out"
    out.mkdir()
    target = outside_dir / "belangrijk.txt"
    target.write_text("van root\n")
    (out / "results.jsonl").symlink_to(target)
    code = runner_main(["grade", "--lesson", "mini-01", "--checkpoints-dir", str(MINI_LESSON.parent),
                        str(folder), "--out", str(out), "--jobs", "1"])
    assert code == 2
    assert capsys.readouterr().err == (f"error: --out holds a link, which the grader does not follow: "
                                       f"{out / 'results.jsonl'} (remove it, or choose another --out)\n")
    assert target.read_text() == "van root\n"
    with pytest.raises(OSError):  # and the log itself is never opened through one
        batch.ResultsLog(out / "results.jsonl")


def test_file_names_are_printed_escaped(tmp_path, capsys):
    folder = tmp_path / "klas"
    folder.mkdir()
    (folder / "a\x1b[2J\x1b[31mrood\nnep.py").write_text("")  # empty: invalid, so its name is printed
    (folder / "[bold]notitie.txt").write_text("")  # skipped, so its name is printed
    code = runner_main(["grade", "--lesson", "mini-01", "--checkpoints-dir", str(MINI_LESSON.parent),
                        str(folder), "--out", str(tmp_path / "out"), "--jobs", "1"])
    assert code == 0
    printed = capsys.readouterr()
    both = printed.out + printed.err
    assert "\x1b" not in both
    assert "Invalid (reasons in the report): a\\x1b[2J\\x1b[31mrood\\x0anep.py" in printed.out
    assert "not .py or .json: [bold]notitie.txt" in printed.err
