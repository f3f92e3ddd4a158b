"""Werkplaats grading: one grader for the browser (Pyodide) and the offline runner (CPython).

- `runner.core`: the grading core (plain, invoke, model, host, grade, bundle, testkit, messages,
  web). Standard library only; the same files run unchanged in both interpreters, and all of them
  ship into the browser's checkpoint archive.
- `runner.offline`: the teacher's grader (sandbox, batch, gradebook, report, quality gate, CLI).
"""

__version__ = "0.1.0"
