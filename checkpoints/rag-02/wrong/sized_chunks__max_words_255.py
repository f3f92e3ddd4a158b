# after: solution.py
# caught by: max_words van 1 tot en met 256
MAX_WORDS_LIMIT = 255
