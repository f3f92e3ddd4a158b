"""Rules across the heading-sections widget's options (the build reports them at the directive)."""


def validate(options):
    if options["overlap"] >= options["max_words"]:
        raise ValueError(
            f"overlap must be smaller than max_words, got max_words {options['max_words']}, overlap {options['overlap']}"
        )
