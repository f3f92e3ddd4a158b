# after: solution.py

def embed_text_of(headings, text):
    if not headings:
        return text
    return " > ".join(headings) + "\n" + text
