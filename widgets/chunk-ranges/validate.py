"""The rule across the chunk-range visualizer's options (the builder calls it for each use)."""


def validate(options):
    if options["overlap"] >= options["window"]:
        raise ValueError(f"overlap must be smaller than window, got window {options['window']}, "
                         f"overlap {options['overlap']}")
