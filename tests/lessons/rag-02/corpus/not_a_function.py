# after: solution.py
sized_chunks = {"max_words": 40}
