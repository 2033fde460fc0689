"""The compiled templates of `advanced_civilization`: templates/sheets."""
