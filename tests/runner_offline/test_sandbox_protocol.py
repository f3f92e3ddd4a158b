"""The grader's boundary with the zygote (runner.offline.sandbox.protocol): what one end writes the
other reads back as it was, and a message that is not what it must be is refused by the field."""

from __future__ import annotations

import json

import pytest

from runner.offline.sandbox.host import ChildProcessHost
from runner.offline.sandbox.protocol import (
    CgroupInfo,
    CleanupReport,
    ControlRequest,
    LearnerRootView,
    ProtocolError,
    SandboxLimits,
    SpawnReply,
    ZygoteReport,
    ZygoteSpec,
)

SPEC = ZygoteSpec(parent_pid=4321, uid=61000, gid=61000, limits=SandboxLimits(check_seconds=2.5),
                  env={"LANG": "C.UTF-8"}, preload=("math", "numpy"), learner_modules=("math",),
                  hidden=("/srv/klas",))
REPORT = ZygoteReport(preloaded=("math",), missing=("numpy",), subreaper=True, network_isolated=True,
                      private_filesystem=True, learner_root=LearnerRootView(visible=("/usr",), hidden=("/srv",)),
                      unhidden=(), learner_root_problem=None, keyring_filter=True, keyrings_cleared=True,
                      cgroup=CgroupInfo(version=2, directories=("/sys/fs/cgroup/x",)))


@pytest.mark.parametrize("message", [
    SPEC, REPORT, ControlRequest.spawn(), ControlRequest.clean(77), ControlRequest.exit(),
    SpawnReply(pid=77, oom_file=None), SpawnReply(error="no cgroup for the child"),
    CleanupReport(ok=True, killed=2, remaining=(), cgroup_left=False, ended=""),
])
def test_every_message_crosses_as_json_and_comes_back_the_same(message):
    assert type(message).from_wire(json.loads(json.dumps(message.to_wire()))) == message


def test_the_wire_forms_are_the_ones_the_zygote_always_spoke():
    assert json.dumps(ControlRequest.exit().to_wire()) == '{"op": "exit"}'
    assert ControlRequest.clean(77).to_wire() == {"op": "clean", "pid": 77}
    assert list(SPEC.to_wire()) == ["parent_pid", "uid", "gid", "limits", "env", "preload",
                                    "learner_modules", "hidden"]
    assert CleanupReport.lost("zygote lost").to_wire() == {"ok": False, "error": "zygote lost"}
    assert REPORT.to_wire()["cgroup"] == {"version": 2, "directories": ["/sys/fs/cgroup/x"]}


@pytest.mark.parametrize(("kind", "change", "named"), [
    (ZygoteSpec, lambda wire: wire.pop("hidden"), "'hidden' is missing"),
    (ZygoteSpec, lambda wire: wire.update(uid="61000"), "'uid' must be a whole number or null"),
    (ZygoteSpec, lambda wire: wire["limits"].update(memory_bytes=True), "'memory_bytes' must be a whole number"),
    (ZygoteSpec, lambda wire: wire["limits"].update(extra=1), "unknown field 'extra'"),
    (ZygoteReport, lambda wire: wire.update(keyring_filter=1), "'keyring_filter' must be true or false"),
    (ZygoteReport, lambda wire: wire["cgroup"].update(directories="/x"), "'directories' must be a list of texts"),
])
def test_a_bad_field_is_refused_by_its_name(kind, change, named):
    wire = json.loads(json.dumps((SPEC if kind is ZygoteSpec else REPORT).to_wire()))
    change(wire)
    with pytest.raises(ProtocolError, match=named):
        kind.from_wire(wire)


def test_an_unknown_control_message_is_named():
    with pytest.raises(ProtocolError, match="unknown control message 'fork'"):
        ControlRequest.from_wire({"op": "fork"})


def test_the_host_keeps_the_start_up_report_typed(host: ChildProcessHost):
    host.load("def f():\n    return 1\n", ["f"])
    assert isinstance(host.zygote_report, ZygoteReport)
    host.finish_submission()
    assert isinstance(host.cleanup, CleanupReport) and host.cleanup.ok
