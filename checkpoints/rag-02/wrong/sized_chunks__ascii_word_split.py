# after: solution.py
# caught by: Unicode-witruimte scheidt woorden, emoji tellen als één teken
WORD_PATTERN = re.compile(r"[^ \t\r\n]+")
