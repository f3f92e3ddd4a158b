# after: solution.py
MAX_WORDS_LIMIT = 255
