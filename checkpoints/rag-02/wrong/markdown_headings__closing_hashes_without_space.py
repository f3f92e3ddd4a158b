# after: solution.py

CLOSING_SEQUENCE = re.compile(r"[ \t]*#+$")
