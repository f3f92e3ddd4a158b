# after: solution.py
# caught by: nieuwe dicts, invoer niet veranderd
"""Bewust foute oplossing voor document_snapshots: Sorteert de invoerlijst ter plekke op id (records.sort) om dubbele ids naast elkaar te krijgen.

De andere functies zijn goed; alleen checkpoint document_snapshots hoort te falen.
"""

_document_snapshots = document_snapshots


def document_snapshots(records):
    snapshots = _document_snapshots(records)
    # Dubbele ids staan na het sorteren naast elkaar; de uitvoer is al in de oude volgorde gemaakt.
    records.sort(key=lambda item: item["id"])
    return snapshots
