# after: solution.py

def is_exact_int(value):
    return isinstance(value, int)
