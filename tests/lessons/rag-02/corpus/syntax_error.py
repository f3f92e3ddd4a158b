# after: solution.py


def markdown_headings(text)
    return []
