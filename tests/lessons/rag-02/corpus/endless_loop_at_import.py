# after: solution.py
while True:  # left over from trying the parser at the top level
    pass
