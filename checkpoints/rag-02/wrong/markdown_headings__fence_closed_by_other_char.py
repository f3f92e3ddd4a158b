# after: solution.py
# caught by: een fence sluit alleen met minstens zoveel van hetzelfde teken

def closes_fence(line, marker):
    stripped = line.strip()
    return stripped.startswith("```") or stripped.startswith("~~~")
