"""civrules: a declarative rules-data compiler and validator for the Advanced Civilization family."""

__version__ = "0.1.0"
