"""The compiled templates of `core`."""
