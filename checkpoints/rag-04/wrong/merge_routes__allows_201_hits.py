# after: solution.py
# caught by: een zoekweg is een list van hoogstens 200 treffers
MAX_HITS = 201
