"""The compiled templates of `imperial_settlers`: templates/sheets."""
