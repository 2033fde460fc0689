"""civrules: a declarative rules-data compiler and validator for board games (one family per game)."""

__version__ = "0.1.0"
