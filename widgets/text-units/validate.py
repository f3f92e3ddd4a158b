"""The rules across the unit table's options (the builder calls it for each use)."""

MAX_CODE_POINTS = 100  # the table draws a row per code point; units.js has the same limit


def validate(options):
    source = options["source"]
    if len(source) > MAX_CODE_POINTS:
        raise ValueError(f"source has {len(source)} code points; the table shows at most {MAX_CODE_POINTS}")
    total = len(source.encode("utf-8", "surrogatepass"))
    if options["byte_end"] > total:
        raise ValueError(f"byte_end must be at most the source's {total} UTF-8 bytes, got {options['byte_end']}")
    if options["byte_start"] > options["byte_end"]:
        raise ValueError(f"byte_start must not come after byte_end, got byte_start {options['byte_start']}, "
                         f"byte_end {options['byte_end']}")
