# after: solution.py
chunk_coverage = {"total_words": 0}
