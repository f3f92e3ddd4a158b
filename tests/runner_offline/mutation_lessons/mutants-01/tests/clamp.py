from runner.core.testkit import expect_equal, expect_value_error, test


@test("clamp", "onder en boven de grens", visible=True)
def around_the_limit(learner):
    for value in (3, 50):
        expect_equal(learner.clamp(value), reference.clamp(value), "clamp klopt niet.", show=False)


@test("clamp", "een float is geen int")
def rejects_float(learner):
    # No test with True: the isinstance mutant survives, and the differential run tells it apart.
    with expect_value_error("Een float moet een ValueError geven."):
        learner.clamp(4.0)
