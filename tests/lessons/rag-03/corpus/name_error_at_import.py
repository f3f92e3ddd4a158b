# after: solution.py
MAX_K = LIMIT_FROM_CONFIG  # a name that was never defined
