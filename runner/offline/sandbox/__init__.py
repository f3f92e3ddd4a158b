"""The sandbox that contains learner code: one fresh, limited child process per submission.

`host` is the grader's side (`ChildProcessHost`, the offline `runner.core.host.Host`, and its
limits); `child` the learner's side (a zygote that forks a child per submission into its own
filesystem root, uid, limits and seccomp filter); `cgroups` the memory and process cgroups, `pipes`
the buffered reader both ends use, `import_guard` the refusal of imports outside the lesson's modules.
"""
