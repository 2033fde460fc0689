"""The compiled templates of `sid_meiers_civilization`: templates/sheets."""
