"""The compiled templates of `core`: templates/python."""
