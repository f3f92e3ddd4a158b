# after: solution.py
# caught by: voorbeeld: de handleiding met max_words 5 en overlap 1

def embed_text_of(headings, text):
    if not headings:
        return text
    return " > ".join(headings) + "\n" + text
