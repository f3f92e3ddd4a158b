import hashlib


def document_snapshots(records)
    return [dict(record) for record in records]
