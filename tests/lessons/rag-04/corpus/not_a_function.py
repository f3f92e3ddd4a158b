# after: solution.py
hybrid_context = {"route": "hybrid", "results": [], "context": []}
