# after: solution.py
# caught by: een fence sluit alleen met minstens zoveel van hetzelfde teken

def closes_fence(line, marker):
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3:
        return False
    run = len(stripped) - len(stripped.lstrip(marker[0]))
    return run >= 3 and stripped[run:].strip(" \t") == ""
