"""The rule across the merge viewer's options (the builder calls it for each use)."""


def validate(options):
    if options["slots"] > options["budget"]:
        raise ValueError(f"slots must not exceed budget, got slots {options['slots']}, budget {options['budget']}")
