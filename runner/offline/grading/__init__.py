"""Grading a class: reading the submissions, grading each in the sandbox, keeping the results.

`submission` reads and checks a learner's exported file, `batch` grades a class's submissions in
worker processes (each in a sandboxed child) and keeps the crash-safe results log, `records` is the
typed result of one submission and the one writer and reader of `results.jsonl`; `grades` turns
records into points and grades and `corrections` reads the teacher's changes to them.
"""
