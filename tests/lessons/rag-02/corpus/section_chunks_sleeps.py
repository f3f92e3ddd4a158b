# after: solution.py
import time


def section_chunks(document):
    time.sleep(600)  # waiting for something that never comes
    return []
