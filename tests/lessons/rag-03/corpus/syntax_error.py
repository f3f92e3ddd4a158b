def evidence_index(questions, corpus)
    return {q["id"]: q["evidence"] for q in questions}
