# after: solution.py
WORD_PATTERN = re.compile(r"[^ \t\r\n]+")
