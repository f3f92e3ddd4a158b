# after: solution.py
while True:  # a loop over the bytes of a file, left at the top level
    pass
