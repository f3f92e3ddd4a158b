# after: solution.py
# caught by: na de sluiter alleen spaties of tabs

def closes_fence(line, marker):
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3:
        return False
    return stripped.startswith(marker)
