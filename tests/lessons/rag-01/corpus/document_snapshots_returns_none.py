# after: solution.py


def document_snapshots(records):
    for record in records:
        record["revision"] = None  # forgot the return, and mutates the input as well
