"""`python -m runner`: see runner.offline.cli."""

from runner.offline.cli import main

# Guarded: batch workers are started with "spawn", which imports this module as __mp_main__.
if __name__ == "__main__":
    raise SystemExit(main())
