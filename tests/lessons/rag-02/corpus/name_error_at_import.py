# after: solution.py
print(manual)  # a name from the lesson examples, not defined in main.py
