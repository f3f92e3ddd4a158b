"""The sandbox that contains learner code: one fresh, limited child process per submission.

The grader's side: `host` (`ChildProcessHost`, the offline `runner.core.host.Host`, and the zygote's
process), `channel` (its end of the pipes to a child), `sandbox_uid` (a uid of its own, as root),
`sandboxed_host` (what the grader reads of a host beyond `Host`). Between both sides: `protocol`
(the zygote's spec, start-up report, control messages and `SandboxLimits`, typed). The learner's
side: `zygote` (forks a child per submission, cleans up after it), `child` (the child's set-up and
request loop), `learner_root` (its allow-list file system), `seccomp` (its filter, the keyrings),
`libc`. Shared: `cgroups` (memory and process cgroups), `pipes` (the buffered reader both ends
use), `known_values` (large results named by their digest), `import_guard` (the refusal of
imports outside the lesson's modules).
"""
