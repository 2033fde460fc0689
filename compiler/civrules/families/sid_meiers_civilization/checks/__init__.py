"""Checks of the Sid Meier's Civilization family (code prefix T)."""
