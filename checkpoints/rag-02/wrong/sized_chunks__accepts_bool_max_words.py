# after: solution.py
# caught by: max_words en overlap zijn exacte ints

def is_exact_int(value):
    return isinstance(value, int)
