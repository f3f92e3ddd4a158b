# after: solution.py
# caught by: voorbeeld: de handleiding van de lamp

def trimmed_span(text, start, end):
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    # Een lege sectie houdt haar plek: dan staat ze tenminste in de lijst.
    return start, end + (1 if start == end and end < len(text) else 0)
