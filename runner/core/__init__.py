"""The grading core: what ships into the browser and runs unchanged in Pyodide and CPython.

Standard library only. Nothing here imports `runner.offline` or the builder; every module of this
folder goes into the browser's checkpoint archive (builder/checkpoint_bundle.py).
"""
