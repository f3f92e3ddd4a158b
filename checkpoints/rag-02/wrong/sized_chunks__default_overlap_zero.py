# after: solution.py
# caught by: max_words en overlap als sleutelwoorden, en hun standaardwaarden
_sized = sized_chunks


def sized_chunks(document, max_words=40, overlap=0):
    return _sized(document, max_words, overlap)
