"""Where the project's own code lives: site/, node_modules/ and `python -m runner` are found from here."""

from pathlib import Path

CODE_ROOT = Path(__file__).resolve().parent.parent
