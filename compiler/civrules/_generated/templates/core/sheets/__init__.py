"""The compiled templates of `core`: templates/sheets."""
