"""Werkplaats grading core: one grader for the browser (Pyodide) and the offline runner (CPython).

The core modules (plain, invoke, model, host, grade, bundle, testkit, messages) use only the
standard library, so the same files run unchanged in both interpreters.
"""

__version__ = "0.1.0"
