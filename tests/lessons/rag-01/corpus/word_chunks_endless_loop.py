# after: solution.py
import re


def word_chunks(document, window=40, overlap=8):
    # The step is window - overlap, but this loop forgets to move on (and never allocates more).
    words = list(re.finditer(r"\S+", document["text"]))
    start = 0
    last_chunk = None
    while start < len(words):
        last_chunk = words[start:start + window]
    return [last_chunk]
