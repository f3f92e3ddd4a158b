# after: solution.py
while True:  # a retry loop for a route, left at the top level
    pass
