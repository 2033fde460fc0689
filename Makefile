# civrules — `make` sets up and validates every ruleset; `make test` sets up and runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# pytest-xdist workers: one per core and one more. Tests wait on other processes (a Chromium tab,
# a language server, a build being killed) and the extra worker runs while another waits: on 2 cores,
# 92.8-92.9 s of pytest with 3 workers against 95.7-99.2 s with 2, taking turns (2026-12-04).
# loadfile: each test module runs on one worker, so a module's expensive fixtures (a build, a browser
# session) are made once, not once per worker; the longest modules go first (tests/conftest.py,
# LONGEST_FIRST), not the ones with the most tests.
WORKERS ?= $(shell $(PYTHON) -c 'import os; print((os.cpu_count() or 1) + 1)' 2>/dev/null || echo auto)

.PHONY: all setup setup-browser validate build build-check test test-slow test-cpu lint typecheck pytest check bench \
	bench-record bench-check clean validators templates settings bounds replaces runtimes reference diagnostics package-files release provenance provenance-check

all: validate build
	@echo "civrules is installed in $(VENV): type '. $(VENV)/bin/activate' to put civrules on this shell's PATH (or run $(BIN)/civrules)"

# A .venv whose interpreter no longer runs civrules (a Python removed or upgraded under it, an
# interrupted install) is made again: its stamp goes, so the rule below runs.
ifneq ($(wildcard $(STAMP)),)
ifneq ($(shell $(BIN)/python -c 'import civrules' >/dev/null 2>&1 && echo ok),ok)
$(info $(VENV) is broken (its python cannot import civrules): making it again)
$(shell rm -f $(STAMP))
endif
endif

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null || { \
		found=$$(command -v $(PYTHON) >/dev/null 2>&1 && $(PYTHON) --version 2>&1 | head -n 1 || echo "not found"); \
		echo "civrules needs Python 3.11 or newer; PYTHON=$(PYTHON) is: $$found." >&2; \
		echo "Point make at another interpreter, e.g. 'make PYTHON=python3.12' (see 'ls /usr/bin/python3*')." >&2; \
		exit 2; }
	@if [ -d $(VENV) ] && ! $(BIN)/python -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then \
		echo "$(VENV) cannot run Python 3.11 or newer: making it again with $(PYTHON)" >&2; rm -rf $(VENV); fi
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

validate: $(STAMP)
	$(BIN)/civrules validate

build: $(STAMP)
	$(BIN)/civrules build

build-check: $(STAMP)
	$(BIN)/civrules build --check

lint: $(STAMP)
	$(BIN)/ruff check compiler tests bench generated/python
	$(BIN)/ruff format --check compiler tests bench generated/python

# The example family (tests/families/example) is a distribution of its own: checked as one.
typecheck: $(STAMP)
	$(BIN)/mypy
	cd tests/families/example && ../../../$(BIN)/mypy --strict civrules_example_family

# The fast suite: no test asserts on time; the sheet tests skip, saying why, where no Chromium is
# installed (`make setup-browser`, as root, installs Debian's).
# Bytecode first, and kept: the suite starts civrules in many subprocesses, and where the environment
# sets PYTHONDONTWRITEBYTECODE (as CI images often do) each would compile every module again, and
# every pytest worker would rewrite the assertions of every test module and plugin (hypothesis: 73
# modules) again: collection took 4 s of CPU per worker instead of 2.
BYTECODE = $(BIN)/python -m compileall -q compiler tests bench >/dev/null
PYTEST = PYTHONDONTWRITEBYTECODE= $(BIN)/pytest

pytest: $(STAMP)
	$(BYTECODE)
	$(PYTEST) -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder

# mypy runs beside pytest, not before it: it is one process, so on two cores a cold mypy (a fresh
# clone has no .mypy_cache: 15 s of CPU) before pytest kept one core idle for its whole run, while
# beside the two workers it costs about half its CPU time in wall time. Either failing fails `make
# test` (after both have ended). This run also checks the engine code that must not type-check
# (tests/engine/foreign_ids.py: strict mypy fails an ignore that silences nothing); no test shares
# mypy's cache (the slow test that runs mypy on that file gives it a cache of its own).
test: lint
	@$(MAKE) --no-print-directory -j 2 typecheck pytest

# The exhaustive runs kept out of `make test` (@pytest.mark.slow): each sweep whose one cheap
# representative `make test` keeps (every sheet on both papers, every hash-seed build, twenty killed
# builds, the full mutation sweep, the larger fuzzing budget: tests/README.md, "Fast and slow").
# CI runs them too. One worker per core: these runs measure peak memory and growth, and hold
# processes to hang guards, so they keep the cores they have rather than share them with a third.
SLOW_WORKERS ?= auto
test-slow: $(STAMP)
	$(BYTECODE)
	$(PYTEST) -q -n $(SLOW_WORKERS) -m slow

# Where the fast suite's time goes: each test's CPU recorded (tests/cpu_record.py), the costliest
# modules and tests, then every test over a fast test's ceiling (tests/budget.py,
# CEILING_CPU_SECONDS). A record, never a check: it fails nothing. Only the record's own files
# (one JSON file per pytest process) are removed before a run, never the folder CPU_RECORD names.
CPU_RECORD ?= $(CURDIR)/.cpu-record
test-cpu: $(STAMP)
	$(BYTECODE)
	mkdir -p $(CPU_RECORD) && rm -f $(CPU_RECORD)/*.json
	CIVRULES_TEST_CPU_RECORD=$(CPU_RECORD) $(PYTEST) -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder
	$(BIN)/python -m tests.cpu_record $(CPU_RECORD)
	$(BIN)/python -m tests.cpu_record $(CPU_RECORD) --over

check: test test-slow validate build-check bench-check

# The fast schema validators shipped in civrules/_generated/validators/, regenerated after a schema changes.
validators: $(STAMP)
	cd compiler && ../$(BIN)/python -m tools.validators

# The compiled templates shipped in civrules/_generated/templates/, regenerated after a template changes.
templates: $(STAMP)
	cd compiler && ../$(BIN)/python -m tools.templates

# The typed records of SETTINGS (each family runtime's settings.py), regenerated after a schema changes.
settings: $(STAMP)
	cd compiler && ../$(BIN)/python -m tools.settings

# The schema constraints of each family runtime's records (its bounds.py, through each record class's `_schema`
# link), regenerated after a schema or a link changes; tests/generated/test_record_bounds.py fails until then.
bounds: $(STAMP)
	cd compiler && ../$(BIN)/python -m tools.bounds

# Each record class's typed replace() for type checkers (an `if TYPE_CHECKING:` block after its __init__, written
# from that __init__), rewritten after a record's fields change; tests/engine/test_typed_replace.py fails until then.
replaces: $(STAMP)
	cd compiler && ../$(BIN)/python -m tools.replaces

# The ledger of the runtimes' releases (compiler/tools/runtimes.json: each runtime's version and the digest
# of its distribution), recorded after a runtime's version is stepped; it refuses a runtime whose files
# changed under its recorded version (tests/generated/test_distributions.py fails until then).
runtimes: $(STAMP)
	cd compiler && ../$(BIN)/python -m tools.runtimes

# docs/reference.md (and the ruleset schema's overlay types), regenerated after a schema, a family's
# settings or a check's documentation changes; `--check` (tests/generated/test_reference.py) writes nothing.
reference: $(STAMP)
	cd compiler && ../$(BIN)/python -m tools.reference

# docs/diagnostics.md (the table of diagnostic codes), regenerated after a code is added or its
# documentation changes; `--check` (tests/generated/test_diagnostics_doc.py) writes nothing.
diagnostics: $(STAMP)
	cd compiler && ../$(BIN)/python -m tools.diagnostics

# The files of civrules' own sdist and wheel (pyproject.toml, `[tool.hatch.build] only-include`: those git
# tracks under compiler/civrules, rules and schemas), rewritten after such a file is added, moved or removed;
# `--check` (tests/core/test_own_distribution.py) writes nothing.
package-files: $(STAMP)
	cd compiler && ../$(BIN)/python -m tools.package_files

# The fingerprints of the third-party files the rule data cites (provenance/, from `owner/repo@commit:path`
# citations) and of the project's source texts (../shared/sources: the rulebooks, the community files'
# prose), refreshed after a citation is added, changed or removed, or a source text changes: MIRRORS is a
# folder of git mirrors (MIRRORS/<owner>+<repo>/repo), EXTRA one of files no mirror holds
# (EXTRA/<owner>+<repo>/<commit>/<path>). Both are this machine's: never written into a tracked file.
# `provenance-check` needs neither.
provenance: $(STAMP)
	@test -n "$(MIRRORS)" || { echo "usage: make provenance MIRRORS=DIR [EXTRA=DIR] [SOURCES=DIR]: DIR/<owner>+<repo>/repo is a git mirror of each cited repository; EXTRA holds files no mirror has, as EXTRA/<owner>+<repo>/<commit>/<path>; SOURCES is the project's sources (default ../shared/sources)" >&2; exit 2; }
	cd compiler && ../$(BIN)/python -m tools.provenance refresh --mirrors "$(abspath $(MIRRORS))" $(if $(EXTRA),--extra "$(abspath $(EXTRA))") $(if $(SOURCES),--sources "$(abspath $(SOURCES))")
	cd compiler && ../$(BIN)/python -m tools.provenance check $(if $(SOURCES),--sources "$(abspath $(SOURCES))")

provenance-check: $(STAMP)
	cd compiler && ../$(BIN)/python -m tools.provenance check

# Speed goals live here, not in the tests. Results go to bench/out/ (not tracked); `make
# bench-record` writes bench/results.json, the figures `bench-check` compares against. bench/run.py
# measures the adversarial shapes too (bench/shapes.py --measure: bench/out/shapes.json, and the
# "shapes" of results.json).
bench: $(STAMP)
	$(BIN)/python bench/run.py
	$(BIN)/python bench/adversarial.py

bench-record: $(STAMP)
	$(BIN)/python bench/run.py --record
	$(BIN)/python bench/adversarial.py

bench-check: $(STAMP)
	$(BIN)/python bench/run.py --check

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache

# A release: the version in compiler/civrules/__init__.py (the wheel and `civrules --version` read it
# there) must have its section in CHANGELOG.md, the tree must be committed and `make check` pass;
# then the tag `v<version>` that the pre-commit and GitHub Actions examples name is made.
release: check
	@version=$$($(BIN)/python -c 'import civrules; print(civrules.__version__)'); \
	grep -q "^## $$version " CHANGELOG.md || { echo "CHANGELOG.md has no section '## $$version (date)'" >&2; exit 1; }; \
	git diff --quiet HEAD || { echo "commit your changes first: a release tags a commit" >&2; exit 1; }; \
	git tag -a "v$$version" -m "civrules $$version" && echo "tagged v$$version: git push origin v$$version"

# Headless Chromium for the sheet tests (tests/families/advanced_civilization/test_sheets.py): Debian's
# package, installed only where no `chromium` is on the PATH. Needs root (CI runs it); `make test` never does.
setup-browser:
	@command -v chromium >/dev/null 2>&1 || (apt-get update && apt-get install -y chromium)

# A larger, random fuzzing run than the one `make test` holds (tests/security/test_hostile_yaml.py) and
# the random edits `make test-slow` splices (tests/core/test_splice.py): new examples every run,
# failures kept in .hypothesis/ and replayed first. FUZZ_EXAMPLES=N per test.
FUZZ_EXAMPLES ?= 2000
.PHONY: fuzz
fuzz: $(STAMP)
	CIVRULES_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) CIVRULES_FUZZ_RANDOM=1 $(BIN)/pytest -q -p no:cacheprovider -m "slow or not slow" tests/security/test_hostile_yaml.py tests/core/test_splice.py
