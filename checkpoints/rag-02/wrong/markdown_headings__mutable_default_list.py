# after: solution.py
# caught by: elke aanroep begint opnieuw
# Een lijst als standaardwaarde: Python maakt hem één keer, dus de kopjes van eerdere aanroepen
# blijven erin staan.


def markdown_headings(text, found=[]):
    if not isinstance(text, str) or len(text) > MAX_TEXT_LENGTH:
        raise ValueError("text is een str van hoogstens 20000 tekens")
    found.extend(find_headings(text))
    return found
