"""The checks of the Advanced Civilization family."""
