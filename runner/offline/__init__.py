"""The offline grader: the sandbox, batches, the gradebook, the report and the `python -m runner` CLI.

Runs only in CPython on the teacher's machine; it grades with `runner.core` and may use `rich`
(the CLI only). It never ships into the browser.
"""
