# after: solution.py
while True:  # left over from experimenting at the top level
    pass
