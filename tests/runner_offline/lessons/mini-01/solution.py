"""Reference solution of the runner's test lesson mini-01."""


def double(x):
    return 2 * x


def words(text):
    return text.split()


def total(numbers):
    return sum(numbers)
