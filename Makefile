# civrules — `make` sets up and validates every ruleset; `make test` sets up and runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all setup validate test lint typecheck pytest check clean

all: validate

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

validate: $(STAMP)
	$(BIN)/civrules validate

lint: $(STAMP)
	$(BIN)/ruff check compiler tests
	$(BIN)/ruff format --check compiler tests

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest -q

test: lint typecheck pytest

check: test validate

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
