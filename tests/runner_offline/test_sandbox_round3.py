"""The sandbox, round 3 (issue 22): nothing outside a submission is read, no single file stops a
class's report, the memory cap covers System V IPC, learner code cannot own a user namespace,
shard and resumed rows are checked, and `--out` and merge's messages are safe. Each test is a
hostile submission or layout, asserting the safe outcome."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import textwrap
import time
from pathlib import Path

import pytest
from offline_support import CORRECT_MINI, MINI_LESSON, needs_root

from runner.offline.cli import main as runner_main
from runner.offline.grading.submission import LINK_PROBLEM, collect_submission_files, read_submission, read_submissions

LESSONS_DIR = str(MINI_LESSON.parent)


@pytest.fixture
def secret_file():
    """A file only root can read, outside the class folder."""
    directory = Path(tempfile.mkdtemp(prefix="werkplaats-test-", dir="/var/lib"))
    secret = directory / "geheim.py"
    secret.write_text("GEHEIM = 'alleen voor root'\n")
    os.chmod(secret, 0o600)
    yield secret
    shutil.rmtree(directory)


def grade_folder(folder: Path, out: Path, *extra: str) -> int:
    return runner_main(["grade", "--lesson", "mini-01", "--checkpoints-dir", LESSONS_DIR, str(folder),
                        "--out", str(out), "--jobs", "1", *extra])


def results_by_name(out: Path) -> dict[str, dict]:
    lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return {Path(result["submission"]).name: result for result in map(json.loads, lines)}


# ---- 1. a submission is a regular file, never read through a link ----------------------------


def test_linked_and_special_files_are_refused_with_a_reason(tmp_path, secret_file):
    folder = tmp_path / "klas"
    folder.mkdir()
    (folder / "echt.py").write_text(CORRECT_MINI)
    (folder / "anna.py").symlink_to(secret_file)
    (folder / "bram.json").symlink_to("/proc/self/environ")
    (folder / "carla.py").symlink_to(folder / "echt.py")  # even to a classmate's file
    os.mkfifo(folder / "pijp.py")  # opening it must not hang the grader
    (folder / "map").symlink_to("/usr")  # a linked folder is not walked into
    collected = collect_submission_files([str(folder)])
    assert [path.name for path in collected.submissions] == ["anna.py", "bram.json", "carla.py", "echt.py", "pijp.py"]
    assert [path.name for path in collected.skipped] == ["map"]
    for name in ("anna.py", "bram.json", "carla.py"):
        submission = read_submission(folder / name, "mini-01")
        assert (submission.problem, submission.code, submission.source_sha256) == (LINK_PROBLEM, None, "")
        assert [s.problem for s in read_submissions(folder / name, None)] == [LINK_PROBLEM]
    assert read_submission(folder / "pijp.py", "mini-01").problem == "a named pipe, not a regular file: only files are graded"
    # Named directly, a link is refused too.
    assert read_submission(folder / "anna.py", "mini-01").problem == LINK_PROBLEM

    out = tmp_path / "out"
    assert grade_folder(folder, out) == 0
    results = results_by_name(out)
    assert results["echt.py"]["status"] == "graded"
    for name in ("anna.py", "bram.json", "carla.py", "pijp.py"):
        assert results[name]["status"] == "invalid"
    everything = b"".join(path.read_bytes() for path in out.rglob("*") if path.is_file())
    assert b"alleen voor root" not in everything
    assert b"PATH=" not in everything


def _archive_members(folder: Path, secret: Path) -> None:
    (folder / "anna.py").symlink_to(secret)
    (folder / "bram").mkdir()
    (folder / "bram" / "main.py").symlink_to("/proc/self/environ")


@pytest.mark.parametrize("kind", ["tar", "zip"])
def test_links_restored_from_a_learners_archive_are_refused(tmp_path, secret_file, kind):
    made = tmp_path / "gemaakt"
    made.mkdir()
    _archive_members(made, secret_file)
    folder = tmp_path / "klas"
    folder.mkdir()
    if kind == "tar":
        archive = tmp_path / "inlevering.tar"
        with tarfile.open(archive, "w") as handle:
            handle.add(made, arcname=".")
        subprocess.run(["tar", "-xf", str(archive), "-C", str(folder)], check=True)
    else:
        if shutil.which("unzip") is None or shutil.which("zip") is None:
            pytest.skip("zip and unzip are not installed")
        archive = tmp_path / "inlevering.zip"
        subprocess.run(["zip", "-q", "-r", "--symlinks", str(archive), "."], cwd=made, check=True)
        subprocess.run(["unzip", "-q", str(archive), "-d", str(folder)], check=True)
    assert (folder / "anna.py").is_symlink() and (folder / "bram" / "main.py").is_symlink()
    out = tmp_path / "out"
    assert grade_folder(folder, out, "--feedback") == 0
    results = results_by_name(out)
    assert {name: result["message"] for name, result in results.items()} == {
        "anna.py": LINK_PROBLEM, "main.py": LINK_PROBLEM}
    everything = b"".join(path.read_bytes() for path in out.rglob("*") if path.is_file())
    assert b"alleen voor root" not in everything


# ---- 2. no single submission stops the class's report -----------------------------------------

from runner.offline.outputs import similarity  # noqa: E402

OWN_CODE = "".join(f"def f{i}(x):\n    return x * {i} + {i * 7} - len(str(x))\n" for i in range(40))


def look_alike(extra: str = "") -> str:
    """A 256 KiB file: real code, then one line repeated, the worst case for a longest-match search."""
    return (OWN_CODE + extra + "x = 1\n" * 60_000)[:256 * 1024]


def test_lone_surrogates_in_the_code_do_not_stop_the_similarity_check():
    copied = OWN_CODE + "naam = '\ud800'\n"
    pairs, problems = similarity.find_similar({"a": copied, "b": copied + "\udfff\n", "c": "def g():\n    pass\n"})
    assert problems == []
    assert [(pair.first, pair.second) for pair in pairs] == [("a", "b")]
    assert similarity.not_started(copied, OWN_CODE + "\udc00") in (True, False)


def test_two_large_look_alike_files_are_compared_within_a_time_bound():
    started = time.monotonic()
    pairs = similarity.similar_pairs({"a": look_alike(), "b": look_alike("y = 2\n")})
    assert time.monotonic() - started < 10  # difflib took minutes
    assert [(pair.first, pair.second) for pair in pairs] == [("a", "b")]
    assert pairs[0].stretches  # and the shared lines are still shown


def test_a_pair_that_fails_is_listed_without_lines_and_named_in_one_line(monkeypatch):
    def broken(first, second):
        raise MemoryError
    monkeypatch.setattr(similarity, "shared_stretches", broken)
    pairs, problems = similarity.find_similar({"a": OWN_CODE, "b": OWN_CODE})
    assert [(pair.first, pair.second, pair.stretches) for pair in pairs] == [("a", "b", ())]
    assert problems == ["similarity check could not show the shared lines of a and b: MemoryError"]


def test_a_class_with_lone_surrogates_and_large_look_alikes_gets_its_report(tmp_path, capsys):
    folder = tmp_path / "klas"
    folder.mkdir()
    code = CORRECT_MINI + "# \ud800\n" + OWN_CODE
    for name, learner in (("anna.json", "Anna \udc00"), ("bram.json", "Bram")):
        # json.dumps writes the lone surrogates as \\udXXX escapes: legal JSON.
        (folder / name).write_text(json.dumps({"lesson": "mini-01", "learner": learner, "code": code}))
    (folder / "carla.py").write_text(CORRECT_MINI + "\ndef extra():\n    pass\n")
    (folder / "daan.py").write_text(look_alike())
    (folder / "eva.py").write_text(look_alike("y = 2\n"))
    out = tmp_path / "out"
    started = time.monotonic()
    assert grade_folder(out=out, folder=folder) == 0
    assert grade_folder(folder, out, "--feedback") == 0  # a rerun writes everything from the records again
    assert time.monotonic() - started < 120
    assert "Traceback" not in capsys.readouterr().err
    report = (out / "report.html").read_text(encoding="utf-8")
    assert "Anna \\udc00" in report
    assert len(list((out / "feedback").glob("*.html"))) == 5


# ---- 3. System V shared memory and message queues stay within the cap ----------------------------

from runner.offline.sandbox.host import ChildProcessHost  # noqa: E402
from runner.offline.sandbox.protocol import SandboxLimits  # noqa: E402

SYSV_HOARDER = textwrap.dedent('''
    import ctypes, os

    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
    IPC_PRIVATE, IPC_CREAT, IPC_NOWAIT, SHM_INFO = 0, 0o1000, 0o4000, 14
    MIB = 1 << 20

    def shared_memory(segments, size_mb):
        """Fill segments and detach them: what does the namespace still hold (bytes)?"""
        for _ in range(segments):
            key = libc.shmget(IPC_PRIVATE, size_mb * MIB, IPC_CREAT | 0o600)
            if key < 0:
                continue
            address = libc.shmat(key, None, 0)
            if address in (None, ctypes.c_void_p(-1).value):
                continue
            ctypes.memset(address, 1, size_mb * MIB)
            libc.shmdt(ctypes.c_void_p(address))
        info = (ctypes.c_ulong * 8)()
        libc.shmctl(0, SHM_INFO, info)
        used_ids = info[0] & 0xFFFFFFFF
        return [used_ids, info[1] * os.sysconf("SC_PAGE_SIZE")]

    class Message(ctypes.Structure):
        _fields_ = [("mtype", ctypes.c_long), ("mtext", ctypes.c_char * 8192)]

    def message_queues(queues):
        """Fill as many queues as the kernel allows: how many bytes are queued?"""
        message = Message(1, b"x" * 8192)
        queued = 0
        for _ in range(queues):
            queue = libc.msgget(IPC_PRIVATE, IPC_CREAT | 0o600)
            if queue < 0:
                break
            while libc.msgsnd(queue, ctypes.byref(message), 8192, IPC_NOWAIT) == 0:
                queued += 8192
        return queued
''')


@needs_root
def test_system_v_shared_memory_and_message_queues_count_toward_the_memory_cap():
    limits = SandboxLimits(call_seconds=20.0, submission_seconds=60.0, memory_bytes=256 << 20)
    with ChildProcessHost(limits) as host:
        host.load(SYSV_HOARDER, ["shared_memory", "message_queues"])
        assert host.zygote_report.private_filesystem is True
        # 768 MiB filled then detached under a 256 MiB cap: nothing of it stays behind.
        used_ids, held = host.call("shared_memory", [24, 32]).value
        assert (used_ids, held) == (0, 0)
        # A segment larger than /dev/shm's size is refused outright.
        assert host.call("shared_memory", [1, 128]).value == [0, 0]
        queued = host.call("message_queues", [1000]).value
        assert 0 < queued <= 1 << 20  # the defaults allow 32000 queues of 16 KiB: 500 MiB


# ---- 4. learner code cannot own a user namespace ------------------------------------------------

USER_NAMESPACE = textwrap.dedent('''
    import ctypes, os, shutil, subprocess, threading

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    CLONE_NEWUSER, CLONE_NEWNET, SIGCHLD = 0x10000000, 0x40000000, 17
    CLONE = {"x86_64": 56, "aarch64": 220}[os.uname().machine]

    def by_unshare():
        result = libc.unshare(CLONE_NEWUSER | CLONE_NEWNET)
        return [result, os.strerror(ctypes.get_errno()) if result < 0 else ""]

    def by_clone():
        # Were it allowed, the new process would carry on here: it leaves at once.
        result = libc.syscall(CLONE, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0)
        if result == 0:
            os._exit(0)
        return [min(result, 1), os.strerror(ctypes.get_errno()) if result < 0 else ""]

    def by_program():
        program = shutil.which("unshare")
        if program is None:
            return "no unshare program"
        done = subprocess.run([program, "--user", "--map-root-user", "id", "-u"], capture_output=True, text=True)
        return [done.returncode != 0, done.stdout.strip()]

    def threads_and_processes_still_work():
        found = []
        worker = threading.Thread(target=lambda: found.append(1))
        worker.start()
        worker.join()
        done = subprocess.run(["/bin/echo", "ja"], capture_output=True, text=True)
        return [found, done.stdout.strip()]
''')


@needs_root
def test_learner_code_cannot_create_a_user_namespace():
    with ChildProcessHost(SandboxLimits(call_seconds=10.0, submission_seconds=60.0)) as host:
        host.load(USER_NAMESPACE, ["by_unshare", "by_clone", "by_program", "threads_and_processes_still_work"])
        assert host.zygote_report.keyring_filter is True
        assert host.call("by_unshare", []).value == [-1, "Operation not permitted"]
        assert host.call("by_clone", []).value == [-1, "Operation not permitted"]
        program = host.call("by_program", []).value
        assert program == "no unshare program" or program == [True, ""]
        assert host.call("threads_and_processes_still_work", []).value == [[1], "ja"]


def test_the_filter_program_refuses_user_namespaces_and_answers_clone3_with_enosys():
    from runner.offline.sandbox.seccomp import keyring_filter_program

    program = keyring_filter_program("x86_64")
    assert program is not None and len(program) == 16
    # Every jump lands inside the program, on a return or the flags check.
    for index, (code, jt, jf, _k) in enumerate(program):
        if code in (0x15, 0x35, 0x45):
            assert index + 1 + max(jt, jf) < len(program)
    returns = [k for code, _jt, _jf, k in program if code == 0x06]
    assert sorted(returns) == sorted([0x7FFF0000, 0x7FFF0000, 0x00050000 | 38, 0x00050000 | 1])
    assert keyring_filter_program("riscv64") is None


# ---- 6. shard and resumed rows are checked, re-derived or refused ------------------------------

WRONG_MINI = CORRECT_MINI.replace("return 2 * x", "return 3 * x")


def rewrite_rows(log: Path, change) -> None:
    rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    for row in rows:
        change(Path(row["submission"]).name, row)
    log.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


def all_pass(row: dict, tests_too: bool = True) -> None:
    for checkpoint in row["checkpoints"]:
        checkpoint["status"] = "pass"
        for test in checkpoint["tests"] if tests_too else ():
            test["status"] = "pass"


def test_forged_shard_rows_are_re_derived_or_refused_one_line_each(tmp_path, capsys):
    folder = tmp_path / "klas"
    folder.mkdir()
    for name in ("anna", "bram", "carla", "daan", "eva"):
        (folder / f"{name}.py").write_text(WRONG_MINI)
    (folder / "femke.json").write_text(json.dumps({"lesson": "mini-01", "learner": "Femke", "code": WRONG_MINI}))
    shard = tmp_path / "shard-1"
    assert grade_folder(folder, shard) == 0

    def forge(name: str, row: dict) -> None:
        if name == "anna.py":  # every checkpoint "pass" with score 0 (the example)
            all_pass(row)
            row["score"] = 0
        elif name == "bram.py":  # a consistent-looking score with failing tests
            row["score"] = 3
        elif name == "carla.py":  # a checkpoint's status its tests do not give
            row["checkpoints"][0]["status"] = "pass"
            row["score"] = 2
        elif name == "eva.py":  # another file's hash
            row["source_sha256"] = "0" * 64
        elif name == "femke.json":  # what comes from the file is read from the file
            row["learner"] = "Iemand anders"
            row["code"] = CORRECT_MINI
            row["created_at"] = "2099-01-01T00:00:00Z"
    rewrite_rows(shard / "results.jsonl", forge)
    (folder / "daan.py").unlink()  # a row for a file that is not there
    capsys.readouterr()
    out = tmp_path / "alles"
    code = runner_main(["merge", str(shard), "--out", str(out), "--checkpoints-dir", LESSONS_DIR])
    assert code == 1
    err = capsys.readouterr().err
    refused = sorted(line for line in err.splitlines() if line.startswith("refused: "))
    assert refused == [
        f"refused: {folder / 'anna.py'} (from {shard}): score 0, but 3 checkpoints pass",
        f"refused: {folder / 'bram.py'} (from {shard}): score 3, but 2 checkpoints pass",
        f"refused: {folder / 'carla.py'} (from {shard}): checkpoint double is 'pass', but its tests make it 'fail'",
        f"refused: {folder / 'daan.py'} (from {shard}): its file cannot be read now "
        "(cannot read file: No such file or directory)",
        f"refused: {folder / 'eva.py'} (from {shard}): its file has changed since it was graded",
    ]
    assert "5 results refused and left out: grade those submissions again" in err
    merged = results_by_name(out)
    assert sorted(merged) == ["femke.json"]
    assert merged["femke.json"]["learner"] == "Femke"
    assert merged["femke.json"]["code"] == WRONG_MINI
    assert "created_at" not in merged["femke.json"]
    assert merged["femke.json"]["score"] == 2
    gradebook = (out / "gradebook.csv").read_text(encoding="utf-8")
    assert "Iemand anders" not in gradebook and "anna" not in gradebook


def test_forged_resumed_rows_are_graded_again(tmp_path, capsys):
    folder = tmp_path / "klas"
    folder.mkdir()
    (folder / "anna.py").write_text(WRONG_MINI)
    (folder / "bram.py").write_text(WRONG_MINI)
    out = tmp_path / "out"
    assert grade_folder(folder, out) == 0

    def forge(name: str, row: dict) -> None:
        if name == "anna.py":
            all_pass(row, tests_too=False)
            row["score"] = 3
        else:
            row["learner"] = "Iemand anders"
    rewrite_rows(out / "results.jsonl", forge)
    capsys.readouterr()
    assert grade_folder(folder, out) == 0
    printed = capsys.readouterr()
    assert (f"note: grading again, the earlier result is refused: {folder / 'anna.py'}: checkpoint double is "
            "'pass', but its tests make it 'fail'") in printed.err
    assert "1 new this run, 1 kept from an earlier run" in printed.out
    results = results_by_name(out)
    assert results["anna.py"]["score"] == 2
    assert results["bram.py"]["learner"] == "bram"  # kept, but with what the file says


# ---- 7. --out that is a link, and merge's messages ----------------------------------------------


def test_an_out_folder_that_is_itself_a_link_is_refused(tmp_path, capsys):
    folder = tmp_path / "klas"
    folder.mkdir()
    (folder / "anna.py").write_text(CORRECT_MINI)
    target = Path(tempfile.mkdtemp(prefix="werkplaats-test-", dir="/var/lib"))
    try:
        (target / "feedback").mkdir()
        (target / "feedback" / "belangrijk.html").write_text("van root")
        (target / "results.jsonl").write_text("")
        link = tmp_path / "uit"
        link.symlink_to(target)
        for out in (str(link), str(link) + "/"):
            assert grade_folder(folder, Path(out), "--feedback") == 2
            assert capsys.readouterr().err == (f"error: --out is a link, which the grader does not follow: {link} "
                                               "(give the folder itself, or another --out)\n")
        shard = tmp_path / "shard"
        assert grade_folder(folder, shard) == 0
        capsys.readouterr()
        assert runner_main(["merge", str(shard), "--out", str(link), "--checkpoints-dir", LESSONS_DIR,
                            "--feedback"]) == 2
        assert "error: --out is a link" in capsys.readouterr().err
        assert sorted(path.name for path in target.rglob("*")) == ["belangrijk.html", "feedback", "results.jsonl"]
        assert (target / "feedback" / "belangrijk.html").read_text() == "van root"
        assert (target / "results.jsonl").read_text() == ""
        # A shard's results.jsonl that is a link is not read either.
        linked_shard = tmp_path / "shard-link"
        linked_shard.mkdir()
        (linked_shard / "results.jsonl").symlink_to(shard / "results.jsonl")
        assert runner_main(["merge", str(linked_shard), "--out", str(tmp_path / "alles"),
                            "--checkpoints-dir", LESSONS_DIR]) == 2
        assert "is a link, which merge does not follow" in capsys.readouterr().err
    finally:
        shutil.rmtree(target)


def test_merge_prints_learner_file_names_escaped(tmp_path, capsys):
    folder = tmp_path / "klas"
    folder.mkdir()
    hostile = "a\x1b]0;titel\x07\x1b[2J[bold]rood\n.py"
    (folder / hostile).write_text(CORRECT_MINI)
    (folder / "b.py").write_text(CORRECT_MINI)
    first, second = tmp_path / "shard-1", tmp_path / "shard-2"
    assert grade_folder(folder, first) == 0
    (folder / "b.py").write_text(WRONG_MINI)
    assert grade_folder(folder, second) == 0
    capsys.readouterr()
    (folder / hostile).unlink()
    # Refused rows name the file; the "graded differently" error names it too.
    code = runner_main(["merge", str(first), "--out", str(tmp_path / "alles"), "--checkpoints-dir", LESSONS_DIR])
    printed = capsys.readouterr()
    assert code == 1
    assert "\x1b" not in printed.err + printed.out and "\x07" not in printed.err
    assert "a\\x1b]0;titel\\x07\\x1b[2J[bold]rood\\x0a.py (from" in printed.err
    code = runner_main(["merge", str(first), str(second), "--out", str(tmp_path / "alles"),
                        "--checkpoints-dir", LESSONS_DIR])
    printed = capsys.readouterr()
    assert code == 2
    assert "\x1b" not in printed.err + printed.out
    assert "was graded differently in" in printed.err


# ---- 8. known solutions run in the learners' sandbox ---------------------------------------------

PASTED_SUBMISSION = textwrap.dedent('''\
    # caught by: voorbeeld: double(2)
    import os

    def double(x):
        for path in ({marker!r}, "/root/.werkplaats-gate-test"):
            try:
                with open(path, "w") as handle:
                    handle.write(str(os.getuid()))
            except OSError:
                pass
        return x  # wrong on purpose

    def words(text):
        return text.split()

    def total(numbers):
        return sum(numbers)
''')


@needs_root
def test_the_gate_runs_known_solutions_in_the_sandbox(tmp_path):
    from runner.offline.gates.quality_gate import check_quality_gate

    lesson = tmp_path / "lessons" / "mini-01"
    shutil.copytree(MINI_LESSON, lesson)
    outside = Path(tempfile.mkdtemp(prefix="werkplaats-test-", dir="/var/lib"))
    try:
        os.chmod(outside, 0o777)  # even a folder anyone may write is out of the sandbox's sight
        marker = outside / "geschreven-door-wrong.txt"
        (lesson / "wrong").mkdir(exist_ok=True)
        (lesson / "wrong" / "double__geplakte_inzending.py").write_text(PASTED_SUBMISSION.format(marker=str(marker)))
        failures = check_quality_gate(lesson)
        assert [failure.reason for failure in failures] == []  # it fails double, as it should
        assert not marker.exists()
        assert not Path("/root/.werkplaats-gate-test").exists()
    finally:
        shutil.rmtree(outside)
