"""results.jsonl as typed records: one writer, one validating reader, the same bytes as before."""

from __future__ import annotations

import subprocess
import sys

import pytest
from offline_support import CORRECT_MINI, LESSONS, ROOT

from runner.offline.grading.records import (
    CheckpointRecord,
    ResultRecord,
    ResultsFileError,
    SandboxRecord,
    TestRecord,
    cut_torn_last_line,
    parse_record_line,
    read_results,
    record_line,
)

# Two lines exactly as the runner wrote them before results were records: a graded result from
# before the `sandbox` record existed, and an invalid one. Reading and writing them back must not
# change a byte, so an --out folder of an earlier version resumes.
EARLIER_GRADED = (
    b'{"submission":"/klas/anna.json","learner":"anna","lesson":"mini-01","status":"graded","score":1,'
    b'"max_score":2,"code_sha256":"c0de","source_sha256":"f11e","checkpoints":[{"id":"double","status":"pass",'
    b'"tests":[{"name":"voorbeeld: double(2)","status":"pass","message":"","duration_ms":0.412,"visible":true,'
    b'"expected":"4","actual":"4"}]},{"id":"words","status":"fail","tests":[{"name":"lege tekst",'
    b'"status":"fail","message":"words(\\"\\") moet [] geven.","duration_ms":0}]}],'
    b'"created_at":"2026-11-30T09:12:00Z","lesson_revision":"r1","browser_verdicts":{"double":"pass",'
    b'"words":"pass"},"runner_version":"0.1.0","bundle_sha256":"b0b","graded_at":"2026-11-30T10:02:11+00:00"}'
)
EARLIER_INVALID = (
    b'{"submission":"/klas/kapot.py","learner":"kapot","lesson":"mini-01","status":"invalid","score":0,'
    b'"max_score":2,"code_sha256":null,"source_sha256":"","checkpoints":[],"message":"cannot read file: '
    b'Permission denied","runner_version":"0.1.0","bundle_sha256":"b0b","graded_at":"2026-11-30T10:02:12+00:00"}'
)


def test_lines_of_the_earlier_format_read_and_write_back_unchanged():
    graded = parse_record_line(EARLIER_GRADED)
    assert graded.sandbox is None and graded.graded
    assert graded.statuses() == {"double": "pass", "words": "fail"}
    assert graded.checkpoint("words").first_failure == TestRecord("lege tekst", "fail", 'words("") moet [] geven.', 0)
    assert graded.checkpoint("double").tests[0].shows_values
    assert graded.key == ("/klas/anna.json", "f11e", "b0b")
    invalid = parse_record_line(EARLIER_INVALID)
    assert (invalid.graded, invalid.code_sha256, invalid.message) == (False, None, "cannot read file: Permission denied")
    for line in (EARLIER_GRADED, EARLIER_INVALID):
        assert record_line(parse_record_line(line)) == line + b"\n"


def test_a_record_with_every_field_survives_the_round_trip():
    record = ResultRecord(
        submission="/klas/\udce9.py", learner="zoë", lesson="mini-01", status="graded", score=0, max_score=1,
        code_sha256="c", source_sha256="s", runner_version="0.1.0", bundle_sha256="b", graded_at="t",
        checkpoints=(CheckpointRecord("double", "timeout", (TestRecord("traag", "timeout", "Te traag.", 2000.5),)),),
        sandbox=SandboxRecord(sandbox_user=True, private_filesystem=False, network_isolation=True, cgroup_limits=False),
        created_at="2026-11-30T09:00:00Z", browser_verdicts={"double": "pass"},
    )
    line = record_line(record)
    assert line.isascii() and line.endswith(b"}\n") and line.count(b"\n") == 1
    assert parse_record_line(line[:-1]) == record
    assert record.sandbox.missing() == ("private_filesystem", "cgroup_limits")
    assert b'"sandbox":{"sandbox_user":true,"private_filesystem":false,"network_isolation":true,' \
           b'"cgroup_limits":false}' in line


def graded_line(**changes) -> bytes:
    """EARLIER_GRADED with top-level fields replaced (None: removed), as JSON text."""
    import json

    data = json.loads(EARLIER_GRADED)
    for name, value in changes.items():
        if value is None:
            del data[name]
        else:
            data[name] = value
    return json.dumps(data).encode()


@pytest.mark.parametrize(("line", "reason"), [
    (b'{"submission": "/klas/anna.py", "status": "gra', "not JSON: Unterminated string starting at"),
    (b"[1, 2]", "the line must be a JSON object, not a list"),
    (graded_line(score="2"), "field 'score' must be a whole number of at least 0, not a string"),
    (graded_line(score=-1), "field 'score' must be a whole number of at least 0, not a number"),
    (graded_line(status="done"), "field 'status' must be one of graded, invalid, not 'done'"),
    (graded_line(bundle_sha256=None), "missing field 'bundle_sha256'"),
    (graded_line(grade=9), "unknown field 'grade'"),
    (graded_line(checkpoints=[{"id": "double", "status": "passed", "tests": []}]),
     "field 'checkpoints[0].status' must be one of pass, fail, error, timeout, not 'passed'"),
    (graded_line(checkpoints=[{"id": "double", "status": "pass", "tests": [{"name": "t", "status": "pass"}]}]),
     "missing field 'checkpoints[0].tests[0].message'"),
    (graded_line(sandbox={"sandbox_user": 1, "private_filesystem": True, "network_isolation": True}),
     "field 'sandbox.sandbox_user' must be true or false, not a number"),
    (graded_line(browser_verdicts={"double": "ok"}),
     "field 'browser_verdicts' must map checkpoint ids to pass, fail, error, timeout, not 'double': 'ok'"),
    (EARLIER_INVALID.replace(b',"message":"cannot read file: Permission denied"', b""), "missing field 'message'"),
])
def test_a_broken_line_is_one_error_naming_the_file_the_line_and_the_field(tmp_path, line, reason):
    log = tmp_path / "results.jsonl"
    log.write_bytes(EARLIER_INVALID + b"\n\n" + line + b"\n" + EARLIER_GRADED + b"\n")
    with pytest.raises(ResultsFileError) as raised:
        read_results(log)
    message = str(raised.value)
    assert message.startswith(f"{log}:3: {reason}") and "\n" not in message
    if not reason.startswith("not JSON"):
        assert message == f"{log}:3: {reason}"


def test_a_torn_last_line_is_left_out_and_cut_off_on_repair(tmp_path):
    log = tmp_path / "results.jsonl"
    torn = b'{"submission": "/half/written", "status": "gra'
    log.write_bytes(EARLIER_GRADED + b"\n" + torn)
    existing = read_results(log)
    assert (list(existing.results), existing.torn_bytes) == ([parse_record_line(EARLIER_GRADED).key], len(torn))
    assert log.read_bytes().endswith(torn)
    assert read_results(log, repair=True).torn_bytes == len(torn)
    assert log.read_bytes() == EARLIER_GRADED + b"\n"
    log.write_bytes(EARLIER_GRADED + b"\n" + torn)
    assert cut_torn_last_line(log) == len(torn) and cut_torn_last_line(log) == 0
    assert log.read_bytes() == EARLIER_GRADED + b"\n"
    assert cut_torn_last_line(tmp_path / "none.jsonl") == 0
    assert read_results(tmp_path / "none.jsonl").results == {}


def grade(folder, out, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "runner", "grade", "--lesson", "mini-01", "--checkpoints-dir", str(LESSONS),
         str(folder), "--out", str(out), "--jobs", "1", *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )


def test_grade_stops_at_a_broken_results_file_and_regrade_starts_over(tmp_path):
    folder, out = tmp_path / "klas", tmp_path / "out"
    folder.mkdir()
    out.mkdir()
    (folder / "anna.py").write_text(CORRECT_MINI)
    log = out / "results.jsonl"
    log.write_bytes(EARLIER_GRADED + b"\n" + b'{"submission": 3}\n')
    stopped = grade(folder, out)
    assert stopped.returncode == 1
    assert stopped.stderr == (f"error: {log}:2: field 'submission' must be a string, not a number (a line this "
                              "runner did not write: mend or delete it, or grade everything again with --regrade)\n")
    assert not (out / "gradebook.csv").exists()

    regraded = grade(folder, out, "--regrade")
    assert regraded.returncode == 0, regraded.stderr
    assert "1 submission: 1 graded, 0 invalid; 1 new this run, 0 kept from an earlier run" in regraded.stdout
    records = list(read_results(log).results.values())
    assert [(r.learner, r.score) for r in records] == [("anna", 3)]
    resumed = grade(folder, out)
    assert "1 new this run" not in resumed.stdout and "0 new this run, 1 kept" in resumed.stdout
