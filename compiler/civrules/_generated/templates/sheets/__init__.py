"""The compiled templates of templates/sheets."""
