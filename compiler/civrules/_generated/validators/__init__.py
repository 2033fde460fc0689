"""Fast schema validators, generated ahead of time (see tools.validators)."""
