"""The player aids of the Advanced Civilization family."""
