# after: solution.py
char_to_utf16 = {"café": 4}
