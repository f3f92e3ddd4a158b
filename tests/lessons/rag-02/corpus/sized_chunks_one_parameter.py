# after: solution.py


def sized_chunks(document):
    return []
