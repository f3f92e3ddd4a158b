# after: solution.py
# caught by: na de sluiter alleen spaties of tabs

def closes_fence(line, marker):
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3:
        return False
    run = len(stripped) - len(stripped.lstrip(marker[0]))
    # strip() haalt ook U+00A0, \f en \v weg: dan sluit "```\xa0" de fence.
    return run >= len(marker) and stripped[run:].strip() == ""
