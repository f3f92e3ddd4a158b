# after: solution.py


def evidence_index(questions, corpus):
    check_corpus(corpus)
    if not isinstance(questions, list) or not 1 <= len(questions) <= MAX_QUESTIONS:
        raise ValueError("questions")
    index = {}
    for question in questions:
        check_question(question, corpus)
        if question["id"] in index:
            raise ValueError("dubbel id")
        index[question["id"]] = tuple(question["evidence"])  # a tuple is no list
    return index
