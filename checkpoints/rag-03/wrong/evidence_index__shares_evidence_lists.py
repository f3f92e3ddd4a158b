# after: solution.py
# caught by: invoer niet veranderd, nieuwe lists
"""Bewust foute oplossing voor evidence_index: geeft de lists uit de vragen zelf terug in plaats van nieuwe.

De andere functies zijn goed; alleen checkpoint evidence_index hoort te falen (en evaluate, die deze functie gebruikt).
"""

def evidence_index(questions, corpus):
    check_corpus(corpus)
    if not isinstance(questions, list) or not 1 <= len(questions) <= MAX_QUESTIONS:
        raise ValueError("questions is een list met 1 tot en met 1000 vragen")
    index = {}
    for question in questions:
        check_question(question, corpus)
        if question["id"] in index:
            raise ValueError("dubbel id")
        index[question["id"]] = question["evidence"]
    return index
