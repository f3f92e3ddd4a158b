# after: solution.py
import time


def evaluate(questions, rankings, corpus, k=5):
    time.sleep(600)  # waiting for an index that never answers
    return {}
