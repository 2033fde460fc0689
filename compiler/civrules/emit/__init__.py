"""Outputs built from a clean ruleset: canonical JSON, typed Python modules, reference sheets."""
