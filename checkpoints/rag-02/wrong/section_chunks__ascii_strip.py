# after: solution.py
# caught by: de tekst voor het eerste kopje

def trimmed_span(text, start, end):
    while start < end and text[start] in " \t\r\n":
        start += 1
    while end > start and text[end - 1] in " \t\r\n":
        end -= 1
    return start, end
