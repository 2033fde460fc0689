"""Tests of each game family, one folder per family."""
