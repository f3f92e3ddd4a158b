# after: solution.py
# caught by: opener en sluiter met 0-3 spaties ervoor
# De sluiter met lstrip() zonder argument: een tab of harde spatie ervoor sluit de fence toch.

def closes_fence(line, marker):
    stripped = line.lstrip()
    if len(line) - len(stripped) > 3:
        return False
    run = len(stripped) - len(stripped.lstrip(marker[0]))
    return run >= len(marker) and stripped[run:].strip(" \t") == ""
