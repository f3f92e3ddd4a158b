# after: solution.py
# caught by: embed_text: het pad, een lege regel, dan de tekst

def embed_text_of(headings, text):
    prefix = " > ".join(headings)
    return prefix + "\n\n" + text if prefix else text
