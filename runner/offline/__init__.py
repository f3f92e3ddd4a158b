"""The offline grader: the sandbox, batches, the gradebook, the report and the `python -m runner` CLI.

Runs only in CPython on the teacher's machine; it grades with `runner.core` and may use `rich`
(the CLI only). It never ships into the browser. By subsystem: `cli` (the command line),
`session` (the use case "grade a class" the command line calls), `grading/` (submissions,
batches, records, grades), `outputs/` (gradebook, report, feedback), `sandbox/` (the child
process learner code runs in), `gates/` (the quality and mutation gates).
"""
