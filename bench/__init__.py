"""The benchmarks (`make bench`): see bench/README.md."""

import os

# The benchmarks work on copies of the shipped rules: each copy is read alone, as `--no-shipped`
# reads it, or every copied manifest would shadow the shipped ruleset it copies (R013).
os.environ.setdefault("CIVRULES_NO_SHIPPED", "1")
