"""Reference solution of the mutation gate's test lesson mutants-01."""

LIMIT = 10  # één grens


def clamp(value):
    if type(value) is not int:
        raise ValueError("value is een int")
    if value > LIMIT:
        return LIMIT
    return value


def count_up(stop):
    numbers = []
    index = 0
    while index < stop:
        numbers.append(index)
        index += 1
    return numbers
