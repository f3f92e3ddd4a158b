# after: solution.py

def heading_title(rest):
    title = rest.strip()
    if title.strip("#") == "":
        return ""
    return CLOSING_SEQUENCE.sub("", title)
