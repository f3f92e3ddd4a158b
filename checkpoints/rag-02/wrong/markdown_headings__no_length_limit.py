# after: solution.py
# caught by: text is een str van hoogstens 20000 tekens

_checked = markdown_headings


def markdown_headings(text):
    if not isinstance(text, str):
        raise ValueError("text")
    return _checked(text[:MAX_TEXT_LENGTH]) if len(text) > MAX_TEXT_LENGTH else _checked(text)
