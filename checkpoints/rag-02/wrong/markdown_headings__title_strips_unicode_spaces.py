# after: solution.py
# caught by: alleen spaties en tabs gaan van de titel af

def heading_title(rest):
    title = rest.strip()
    if title.strip("#") == "":
        return ""
    return CLOSING_SEQUENCE.sub("", title)
