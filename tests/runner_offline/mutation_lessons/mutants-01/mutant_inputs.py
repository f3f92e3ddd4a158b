"""Differential inputs of mutants-01: values around the limit, and the types next to int."""


def inputs(checkpoint, rng):
    if checkpoint == "clamp":
        return [([rng.choice([-5, 0, 3, 9, 10, 11, 50, True, False, 4.0, "x", None])], {}) for _ in range(60)]
    return [([rng.randint(0, 6)], {}) for _ in range(20)]
