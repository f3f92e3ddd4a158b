# after: solution.py


def word_chunks(document):
    return []
