from runner.core.testkit import expect_equal, test


@test("count_up", "tot drie", visible=True)
def to_three(learner):
    expect_equal(learner.count_up(3), reference.count_up(3), "count_up(3) klopt niet.", show=False)
