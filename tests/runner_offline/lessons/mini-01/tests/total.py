from runner.core.testkit import expect_equal, expect_no_mutation, test


@test("total", "voorbeeld: 1 + 2 + 3", visible=True)
def example(learner):
    expect_equal(learner.total([1, 2, 3]), 6, "total([1, 2, 3]) moet 6 zijn.")


@test("total", "lege lijst")
def empty(learner):
    expect_equal(learner.total([]), 0, "De som van een lege lijst is 0.", show=False)


@test("total", "invoer blijft heel")
def untouched(learner):
    numbers = [5, 1, 4]
    expect_equal(learner.total(numbers), 10, "De som klopt niet.", show=False)
    expect_no_mutation(learner, "total mag de invoerlijst niet veranderen.")
