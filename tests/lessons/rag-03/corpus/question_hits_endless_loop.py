# after: solution.py


def covered_length(start, end, spans):
    cursor = start
    covered = 0
    while cursor < end:  # the cursor never moves when a span does not reach it
        for span_start, span_end in spans:
            if span_start <= cursor < span_end:
                covered += 1
        cursor += 0
    return covered
