"""Fast schema validators, generated ahead of time (see civrules.validator_codegen)."""
