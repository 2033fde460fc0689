"""Compiled templates, generated ahead of time (see compiler/tools/templates.py)."""
