# after: solution.py

def closes_fence(line, marker):
    stripped = line.strip()
    return stripped.startswith("```") or stripped.startswith("~~~")
