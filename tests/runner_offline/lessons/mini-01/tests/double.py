from runner.core.testkit import expect_equal, test


@test("double", "voorbeeld: double(2)", visible=True)
def example(learner):
    expect_equal(learner.double(2), 4, "double(2) moet 4 zijn.")


@test("double", "negatieve getallen")
def negative(learner):
    for value in (-3, -10, 0):
        expect_equal(learner.double(value), reference.double(value), "Verdubbelen klopt niet voor negatieve getallen.", show=False)


@test("double", "grote getallen")
def large(learner):
    expect_equal(learner.double(10**12), 2 * 10**12, "Verdubbelen klopt niet voor grote getallen.", show=False)
