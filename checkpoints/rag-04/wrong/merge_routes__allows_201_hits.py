# after: solution.py
MAX_HITS = 201
