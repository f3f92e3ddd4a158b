"""The commands of `python -m runner` (runner/offline/cli.py), one module each: `check`, `grade`,
`merge`, `gates` (gate and mutate); `arguments` parses them all, `terminal` makes text safe to print."""
