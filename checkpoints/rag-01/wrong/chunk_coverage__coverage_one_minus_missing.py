# after: solution.py
# caught by: coverage is precies de deling U / N
"""Bewust foute oplossing voor chunk_coverage: Berekent coverage als 1 - ontbrekend / N, wat als float anders afrondt dan U / N.

De andere functies zijn goed; alleen checkpoint chunk_coverage hoort te falen.
"""

_exact_chunk_coverage = chunk_coverage


def chunk_coverage(document, chunks):
    result = _exact_chunk_coverage(document, chunks)
    missing = result["missing_word_indices"]
    result["coverage"] = 1 - len(missing) / result["total_words"]
    return result
