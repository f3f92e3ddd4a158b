# after: solution.py
_sized = sized_chunks


def sized_chunks(document, max_words=40, overlap=0):
    return _sized(document, max_words, overlap)
