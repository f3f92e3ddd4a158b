def document_snapshots(records):
    result = []
    for record in records:
        result.append(dict(record))
      return result
