"""Generators of the files civrules ships and commits (validators, compiled templates, the reference).

Not part of the installed package, which never imports them.
"""
