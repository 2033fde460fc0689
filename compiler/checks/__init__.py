"""Semantic checks over the resolved ruleset; each concern is one module."""
