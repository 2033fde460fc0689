"""The compiled templates of templates/python."""
