#!/usr/bin/env python3
"""Build the lesson site: `python build.py [--out DIR] [--strict] [--only ID]`, or `python build.py serve`.

See docs/authoring.md for the lesson format and `python build.py --help` for all options.
"""

import sys

from builder.cli import main

if __name__ == "__main__":
    sys.exit(main())
