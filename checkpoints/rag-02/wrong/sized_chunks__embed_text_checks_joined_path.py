# after: solution.py

def embed_text_of(headings, text):
    prefix = " > ".join(headings)
    return prefix + "\n\n" + text if prefix else text
