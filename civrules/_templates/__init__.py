"""Compiled templates, generated ahead of time (see civrules.emit.templating)."""
