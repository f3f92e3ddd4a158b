"""Hostile submissions: whatever learner code does, it never passes unless it is right, the grader
survives, the remaining checkpoints are still graded, and no process is left behind."""

from __future__ import annotations

import dataclasses
import os
import shutil
import socket
import tempfile
import textwrap
import time
from pathlib import Path

import pytest
from offline_support import CORRECT_MINI, TEST_LIMITS, is_alive, needs_root, processes_of_uid

from runner.core.grade import grade
from runner.offline.sandbox.host import ChildProcessHost
from runner.offline.sandbox.protocol import SandboxLimits

WORDS_AND_TOTAL = '''
def words(text):
    return text.split()

def total(numbers):
    return sum(numbers)
'''


def graded(bundle, host, source: str) -> dict[str, str]:
    report = grade(bundle, host, textwrap.dedent(source))
    host.finish_submission()  # its child and everything that child started are killed
    assert host.cleanup is not None and host.cleanup.error is None and host.cleanup.remaining == (), host.cleanup
    if host.sandbox_uid is not None:
        assert processes_of_uid(host.sandbox_uid) == []
    return report.statuses()


def test_correct_solution_passes(mini_bundle, host):
    assert graded(mini_bundle, host, CORRECT_MINI) == {"double": "pass", "words": "pass", "total": "pass"}


def test_infinite_loop_at_import_is_a_timeout_for_every_checkpoint(mini_bundle, host):
    started = time.monotonic()
    statuses = graded(mini_bundle, host, "while True:\n    pass\n" + CORRECT_MINI)
    assert statuses == {"double": "timeout", "words": "timeout", "total": "timeout"}
    assert time.monotonic() - started < TEST_LIMITS.call_seconds + 5


def test_infinite_loop_in_one_function_still_grades_the_others(mini_bundle, host):
    source = "def double(x):\n    while True:\n        pass\n" + WORDS_AND_TOTAL
    assert graded(mini_bundle, host, source) == {"double": "timeout", "words": "pass", "total": "pass"}


@pytest.mark.parametrize("bomb", [
    "data = bytearray(1 << 40)",
    "data = []\n    while True:\n        data.append(' ' * 10_000_000)",
])
def test_memory_bomb_is_an_error_not_a_pass(mini_bundle, bomb):
    source = f"def double(x):\n    {bomb}\n    return 2 * x\n" + WORDS_AND_TOTAL
    # A low cap fills fast even on a busy machine; the numpy already mapped counts toward it.
    limits = SandboxLimits(call_seconds=10.0, submission_seconds=30.0, memory_bytes=320 << 20)
    with ChildProcessHost(limits) as own_host:
        assert graded(mini_bundle, own_host, source) == {"double": "error", "words": "pass", "total": "pass"}


def test_numpy_imports_under_the_memory_cap(mini_bundle, host):
    source = '''
    import numpy as np

    def double(x):
        return int(np.int64(x) * 2)

    def words(text):
        return [str(w) for w in np.array(text.split(), dtype=object)]

    def total(numbers):
        return int(np.sum(np.array(numbers, dtype=np.int64)))
    '''
    assert graded(mini_bundle, host, source) == {"double": "pass", "words": "pass", "total": "pass"}


@needs_root
def test_fork_bomb_is_contained(mini_bundle, host):
    source = textwrap.dedent('''
    import os

    def double(x):
        while True:
            os.fork()
    ''') + WORDS_AND_TOTAL
    statuses = graded(mini_bundle, host, source)
    assert statuses["double"] != "pass"


def test_spawned_process_is_killed_after_the_submission(host):
    host.load(textwrap.dedent('''
        import subprocess

        def spawn():
            return subprocess.Popen(["sleep", "300"]).pid
    '''), ["spawn"])
    pid = host.call("spawn", []).value
    assert is_alive(pid)
    host.finish_submission()
    assert not is_alive(pid)


DAEMON = '''
import os

def daemonize():
    read_end, write_end = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.write(write_end, str(os.getpid()).encode())
            os.close(write_end)
            while True:
                pass
        os._exit(0)
    os.close(write_end)
    return int(os.read(read_end, 32))
'''


@pytest.mark.parametrize("drop_privileges", [
    pytest.param(True, marks=needs_root, id="sandbox-uid"),
    pytest.param(False, id="same-uid"),
])
def test_daemonizing_grandchild_is_gone_afterwards(drop_privileges):
    with ChildProcessHost(TEST_LIMITS, drop_privileges=drop_privileges) as own_host:
        own_host.load(DAEMON, ["daemonize"])
        outcome = own_host.call("daemonize", [])
        assert outcome.kind == "return", outcome
        grandchild = outcome.value
        assert is_alive(grandchild)
        with open(f"/proc/{grandchild}/stat") as handle:
            session = int(handle.read().rsplit(")", 1)[1].split()[3])
        assert session not in (own_host.child_pid, None)  # it left the child's session
        assert session != os.getsid(0)
        own_host.finish_submission()
        assert not is_alive(grandchild)
        assert own_host.cleanup.error is None and own_host.cleanup.remaining == ()


def test_output_flood_is_capped_and_harmless(mini_bundle, host):
    source = textwrap.dedent('''
    import os, sys

    def double(x):
        print("x" * 5_000_000)
        sys.stderr.write("y" * 1_000_000)
        os.write(1, b"z" * 1_000_000)
        os.write(2, b"z" * 1_000_000)
        return 2 * x
    ''') + WORDS_AND_TOTAL
    assert graded(mini_bundle, host, source) == {"double": "pass", "words": "pass", "total": "pass"}
    host.load(textwrap.dedent(source), ["double"])
    outcome = host.call("double", [2])
    assert outcome.value == 4
    assert len(outcome.stdout) < 25_000


@pytest.mark.parametrize("exit_call", ["sys.exit(0)", "os._exit(0)", "raise SystemExit", "os.abort()"])
def test_exit_inside_a_function_is_an_error(mini_bundle, host, exit_call):
    source = f"import os, sys\n\ndef double(x):\n    {exit_call}\n" + WORDS_AND_TOTAL
    assert graded(mini_bundle, host, source) == {"double": "error", "words": "pass", "total": "pass"}


@pytest.mark.parametrize("exit_call", ["sys.exit(0)", "os._exit(0)"])
def test_exit_at_import_grades_nothing(mini_bundle, host, exit_call):
    source = f"import os, sys\n{exit_call}\n" + CORRECT_MINI
    assert set(graded(mini_bundle, host, source).values()) == {"error"}


def test_printed_fake_verdicts_change_nothing(mini_bundle, host):
    source = textwrap.dedent('''
    import json

    def double(x):
        print('{"id": "0", "body": {"kind": "return", "value": 4}}')
        print("PASS double: 3/3 tests")
        return x
    ''') + WORDS_AND_TOTAL
    assert graded(mini_bundle, host, source)["double"] == "fail"


def test_fake_reply_on_the_protocol_fd_is_never_a_pass(mini_bundle, host):
    source = textwrap.dedent('''
    import os

    def double(x):
        fake = '{"id": "0000000000000000", "body": {"kind": "return", "value": %d}}\\n' % (2 * x)
        os.write(4, fake.encode())
        return -1
    ''') + WORDS_AND_TOTAL
    assert graded(mini_bundle, host, source)["double"] == "error"


@pytest.mark.parametrize("tamper", [
    "os.close(3); os.close(4)",
    "os.close(4)",
    "os.dup2(os.open(os.devnull, os.O_RDWR), 4)",
    "os.write(4, b'{not json')",
    "os.write(4, b'x' * 100_000)",
])
def test_tampering_with_the_channel_is_an_error(mini_bundle, host, tamper):
    source = f"import os\n\ndef double(x):\n    {tamper}\n    return 2 * x\n" + WORDS_AND_TOTAL
    assert graded(mini_bundle, host, source)["double"] == "error"


def test_patched_harness_in_the_child_cannot_make_a_wrong_answer_pass(mini_bundle, host):
    source = textwrap.dedent('''
    import builtins, json, sys

    builtins.isinstance = lambda *args: True
    builtins.type = lambda *args: int
    sys.modules["runner.core.plain"].encode = lambda value: 4
    json.dumps = lambda *args, **kwargs: '{"id": "x", "body": {}}'

    def double(x):
        return 4
    ''') + WORDS_AND_TOTAL
    assert graded(mini_bundle, host, source)["double"] != "pass"


def test_lying_eq_never_passes(mini_bundle, host):
    source = '''
    class Anything:
        def __eq__(self, other):
            return True
        __hash__ = object.__hash__

    class LyingList(list):
        def __eq__(self, other):
            return True

    def double(x):
        return Anything()

    def words(text):
        return LyingList()

    def total(numbers):
        return Anything()
    '''
    assert graded(mini_bundle, host, source) == {"double": "fail", "words": "fail", "total": "fail"}


def test_generator_instead_of_a_list_fails(mini_bundle, host):
    source = '''
    def double(x):
        return 2 * x

    def words(text):
        return (word for word in text.split())

    def total(numbers):
        return sum(numbers)
    '''
    assert graded(mini_bundle, host, source) == {"double": "pass", "words": "fail", "total": "pass"}


@pytest.mark.parametrize(("recursion", "ends_as"), [
    ("return double(x)", {"error"}),  # RecursionError
    # Python frames live on the heap: with the limit lifted it runs out of memory or time.
    ("sys.setrecursionlimit(10**8)\n    return double(x)", {"error", "timeout"}),
])
def test_deep_recursion_never_passes(mini_bundle, host, recursion, ends_as):
    source = f"import sys\n\ndef double(x):\n    {recursion}\n" + WORDS_AND_TOTAL
    statuses = graded(mini_bundle, host, source)
    assert statuses["double"] in ends_as
    assert statuses["words"] == statuses["total"] == "pass"


@needs_root
def test_killing_the_parent_or_everything_it_can_leaves_the_grader_standing(mini_bundle, host):
    source = textwrap.dedent('''
    import os, signal

    def double(x):
        for target in (os.getppid(), os.getpgid(os.getppid())):
            try:
                os.kill(target, signal.SIGKILL)
            except OSError:
                pass
        for pid in range(2, 5000):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        return 2 * x
    ''') + WORDS_AND_TOTAL
    grader_pid = os.getpid()
    statuses = graded(mini_bundle, host, source)
    assert os.getpid() == grader_pid and is_alive(grader_pid)
    # Its own process is the only one of its uid it could kill: the call ends as an error.
    assert statuses["double"] in ("pass", "error")
    assert statuses["words"] == "pass" and statuses["total"] == "pass"
    # The grader and its zygote are alive and still grade correctly.
    assert graded(mini_bundle, host, CORRECT_MINI) == {"double": "pass", "words": "pass", "total": "pass"}


@pytest.fixture
def root_only_dir():
    """A readable directory outside the scratch and hidden dirs (the child gets its own /tmp and an
    empty /run, so a file in pytest's tmp_path would merely be out of sight, not refused)."""
    directory = Path(tempfile.mkdtemp(prefix="werkplaats-test-", dir="/var/lib"))
    os.chmod(directory, 0o755)
    yield directory
    shutil.rmtree(directory)


@needs_root
def test_learner_cannot_read_root_only_files_or_signal_the_grader(host, root_only_dir):
    secret = root_only_dir / "secret.txt"
    secret.write_text("geheim")
    os.chmod(secret, 0o600)
    host.load(textwrap.dedent(f'''
        import os, signal

        def read_secret():
            return open({str(secret)!r}).read()

        def signal_grader():
            os.kill({os.getpid()}, signal.SIGTERM)

        def whoami():
            return [os.getuid(), os.geteuid(), os.getgid(), os.getgroups()]
    '''), ["read_secret", "signal_grader", "whoami"])
    read = host.call("read_secret", [])
    # Outside the learner root's allow-list the file is not even there (as the sandbox uid it
    # could not read it either; test_the_learner_root_shows_only_what_is_allowed has both).
    assert read.kind == "raise" and read.error.type_name == "FileNotFoundError"
    kill = host.call("signal_grader", [])
    assert kill.kind == "raise" and kill.error.type_name == "PermissionError"
    uid = host.sandbox_uid
    assert host.call("whoami", []).value == [uid, uid, uid, []]


@needs_root
def test_learner_code_has_no_network_not_even_the_graders_loopback(host):
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(0.5)
        port = server.getsockname()[1]
        host.load(textwrap.dedent(f'''
            import socket

            def reach():
                try:
                    socket.create_connection(("127.0.0.1", {port}), timeout=2).close()
                    return "verbonden"
                except OSError as error:
                    return type(error).__name__
        '''), ["reach"])
        assert host.call("reach", []).value == "OSError"
        with pytest.raises(TimeoutError):
            server.accept()  # nothing ever knocked
    assert host.zygote_report.network_isolated is True


WRITER = textwrap.dedent('''
    import os

    def write(path, size):
        try:
            with open(path, "wb") as handle:
                handle.write(b"x" * size)
            return "geschreven"
        except OSError as error:
            return os.strerror(error.errno)

    def exists(path):
        return os.path.exists(path)
''')


@needs_root
def test_learner_writes_only_to_its_own_temp_dirs_which_vanish(host, root_only_dir):
    os.chmod(root_only_dir, 0o1777)  # world-writable, like /run/lock, but outside the scratch dirs
    host.load(WRITER, ["write", "exists"])
    marker = f"werkplaats-spoor-{os.getpid()}"
    for scratch in ("/tmp", "/var/tmp", "/dev/shm"):
        assert host.call("write", [f"{scratch}/{marker}", 10]).value == "geschreven"
        assert not os.path.exists(f"{scratch}/{marker}")  # the grader's own /tmp never sees it
    # A world-writable folder outside the learner root is not there; inside it, nothing is writable.
    assert host.call("write", [str(root_only_dir / marker), 10]).value == "No such file or directory"
    assert list(root_only_dir.iterdir()) == []
    assert host.call("write", [f"/dev/{marker}", 10]).value in ("Read-only file system", "Permission denied")
    host.load(WRITER, ["write", "exists"])  # the next submission starts with empty temp dirs
    assert host.call("exists", [f"/tmp/{marker}"]).value is False
    assert host.zygote_report.private_filesystem is True


@needs_root
def test_learner_cannot_fill_the_disk_through_tmp():
    with ChildProcessHost(dataclasses.replace(TEST_LIMITS, temp_bytes=2 * 1024 * 1024)) as small:
        small.load(WRITER, ["write", "exists"])
        # Each file is at the file-size cap (1 MiB); two fill the 2 MiB tmpfs, a third does not fit.
        assert small.call("write", ["/tmp/eerste", 1024 * 1024]).value == "geschreven"
        assert small.call("write", ["/tmp/tweede", 1024 * 1024]).value == "geschreven"
        assert small.call("write", ["/tmp/derde", 1024 * 1024]).value == "No space left on device"


@needs_root
def test_hidden_folders_and_the_systems_sockets_are_out_of_sight(root_only_dir):
    secret = root_only_dir / "oplossing.py"
    secret.write_text("def double(x):\n    return 2 * x\n")
    os.chmod(secret, 0o644)  # readable by anyone: only hiding keeps it from the learner
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(root_only_dir / "dienst.sock"))
        server.listen()
        os.chmod(root_only_dir / "dienst.sock", 0o777)
        with ChildProcessHost(TEST_LIMITS, hidden_paths=[root_only_dir]) as hiding:
            hiding.load(textwrap.dedent('''
                import os, socket

                def peek(path):
                    try:
                        return open(path).read()
                    except OSError as error:
                        return type(error).__name__

                def knock(path):
                    try:
                        socket.socket(socket.AF_UNIX).connect(path)
                        return "verbonden"
                    except OSError as error:
                        return type(error).__name__

                def listing(path):
                    return os.listdir(path)
            '''), ["peek", "knock", "listing"])
            assert hiding.call("peek", [str(secret)]).value == "FileNotFoundError"
            assert hiding.call("knock", [str(root_only_dir / "dienst.sock")]).value == "FileNotFoundError"
            top = hiding.call("listing", ["/"]).value
            assert "run" not in top and "dev" in top  # /run's sockets are not in the learner root


@needs_root
def test_shared_memory_does_not_outlive_a_submission(host):
    host.load(textwrap.dedent('''
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        KEY, IPC_CREAT = 0x5EC2E7, 0o1000

        def leave():
            return libc.shmget(KEY, 4096, IPC_CREAT | 0o666) >= 0

        def find():
            return libc.shmget(KEY, 0, 0) >= 0
    '''), ["leave", "find"])
    assert host.call("leave", []).value is True
    assert host.call("find", []).value is True
    host.load(host._source, ["leave", "find"])  # the next submission
    assert host.call("find", []).value is False


def test_child_environment_and_working_directory_are_minimal(host):
    host.load(textwrap.dedent('''
        import os

        def where():
            return [os.getcwd(), sorted(os.listdir(".")), sorted(os.environ)]
    '''), ["where"])
    cwd, listing, env_names = host.call("where", []).value
    assert listing == []
    assert "werkplaats-learner-" in cwd
    assert set(env_names) <= {"PATH", "LANG", "LC_ALL", "HOME", "TMPDIR", "OPENBLAS_NUM_THREADS",
                              "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS",
                              "VECLIB_MAXIMUM_THREADS"}


def test_submission_time_limit_stops_a_slow_submission(mini_bundle):
    limits = SandboxLimits(call_seconds=1.0, submission_seconds=2.5)
    source = "import time\n\ndef double(x):\n    time.sleep(0.6)\n    return 2 * x\n" + WORDS_AND_TOTAL
    with ChildProcessHost(limits) as own_host:
        started = time.monotonic()
        report = grade(mini_bundle, own_host, source)
        elapsed = time.monotonic() - started
    # Five calls of 0.6 s each pass the per-call limit but not the submission's: the checkpoints
    # after it are not even started.
    assert report.statuses() == {"double": "timeout", "words": "timeout", "total": "timeout"}
    assert elapsed < 2.5 + 3
