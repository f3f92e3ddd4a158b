# after: solution.py
_reference_evaluate = evaluate


def evaluate(questions, rankings, corpus):
    return _reference_evaluate(questions, rankings, corpus, 5)
