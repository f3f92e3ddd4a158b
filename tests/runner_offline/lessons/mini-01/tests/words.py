from runner.core.testkit import expect_equal, test


@test("words", "voorbeeld: twee woorden", visible=True)
def example(learner):
    expect_equal(learner.words("a b"), ["a", "b"], "words('a b') moet ['a', 'b'] zijn.")


@test("words", "witruimte")
def whitespace(learner):
    text = "  een\ttwee\n drie  "
    expect_equal(learner.words(text), reference.words(text), "Witruimte scheidt woorden.", show=False)


@test("words", "lege tekst")
def empty(learner):
    expect_equal(learner.words(""), [], "Een lege tekst heeft geen woorden.", show=False)
