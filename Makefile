# rummykit developer entry points.
#
#   make run     set up .venv, then serve the web app on http://127.0.0.1:8000 (SQLite)
#   make play    set up .venv, then play in the terminal
#   make test    set up .venv, then ruff, mypy --strict and pytest (with doctests)
#   make bench   set up .venv with the `anchors` extra, then run the benchmark
#                (pass options with ARGS, e.g. `make bench ARGS=--json`)
#   make gin-diff  our gin against OpenSpiel's gin_rummy on 10,000 hands per variant
#                (RULES.md §6.14; prints hands, decisions, disagreements, reasons)
#   make docs    set up .venv, then build the documentation site into build/docs
#   make lock    re-resolve uv.lock after editing pyproject.toml
#   make clean   remove .venv, .tools, caches and build output
#
# Only Python 3.11+ with venv and pip is needed: uv is bootstrapped into .tools/
# (pinned below) unless UV points at an existing uv. uv is told to use the system
# python3 and never to download an interpreter.

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON     ?= python3
UV_VERSION ?= 0.13.8
TOOLS      ?= .tools
UV         ?= $(TOOLS)/bin/uv
ARGS       ?=
# pytest in one process; `make test PYTEST_WORKERS="-n auto --dist loadgroup"` runs it on
# every core (pytest-xdist: about half the time, but some timing-bound tests are still tight
# with two workers on two cores)
PYTEST_WORKERS ?=

export UV_PYTHON           ?= $(PYTHON)
export UV_PYTHON_DOWNLOADS ?= never
export UV_PROJECT_ENVIRONMENT ?= .venv
# Compile bytecode at install time: a fresh Ray otherwise compiles in every first worker.
export UV_COMPILE_BYTECODE ?= 1

UV_RUN := $(UV) run --frozen --no-sync

# Bootstrap the pinned uv only when we are using the local tools copy.
ifeq ($(UV),$(TOOLS)/bin/uv)
UV_DEP := $(UV)
else
UV_DEP :=
endif

.PHONY: help setup setup-anchors run play test lint typecheck pytest bench lock clean

help:
	@sed -n 's/^#   //p' $(firstword $(MAKEFILE_LIST))

# Recipes that may run before `make bench` print to stderr only, so that
# `make bench ARGS=--json > out.json` gives clean JSON.
$(TOOLS)/bin/uv:
	@echo "bootstrapping uv $(UV_VERSION) into $(TOOLS)/" >&2
	@$(PYTHON) -m venv $(TOOLS) >&2
	@$(TOOLS)/bin/python -m pip install --quiet --disable-pip-version-check "uv==$(UV_VERSION)" >&2

# Install the project (editable) and the dev group exactly as locked.
setup: $(UV_DEP)
	$(UV) sync --frozen --all-extras

# Same, plus the reference engines measured by the benchmark.
setup-anchors: $(UV_DEP)
	@$(UV) sync --frozen --all-extras >&2

run: setup
	@echo "rummykit: open http://127.0.0.1:8000 in a browser (Ctrl-C stops the server)"
	$(UV_RUN) rummykit serve --host 127.0.0.1 --port 8000

play: setup
	$(UV_RUN) rummykit play

lint: setup
	$(UV_RUN) ruff check src tests

typecheck: setup
	$(UV_RUN) mypy --strict

pytest: setup
	$(UV_RUN) pytest $(PYTEST_WORKERS)

# All checks run even when one fails (so every problem shows); the exit status is non-zero
# if any failed.
test: setup
	@status=0; \
	echo "== uv lock --check"; $(UV) lock --check || { status=1; echo "uv.lock is stale: run make lock"; }; \
	echo "== ruff check src tests"; $(UV_RUN) ruff check src tests || status=1; \
	echo "== mypy --strict (src/rummykit)"; $(UV_RUN) mypy --strict || status=1; \
	echo "== pytest $(PYTEST_WORKERS)"; $(UV_RUN) pytest $(PYTEST_WORKERS) || status=1; \
	exit $$status

bench: setup-anchors
	@$(UV_RUN) python -m rummykit.benchmark $(ARGS)

lock: $(UV_DEP)
	$(UV) lock

clean:
	rm -rf .venv $(TOOLS) .mypy_cache .ruff_cache .pytest_cache .hypothesis build dist
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	find . -name '*.egg-info' -type d -prune -exec rm -rf {} +

# Load benchmark of the multiplayer server: N tables of WebSocket clients on loopback
# against `rummykit serve` on a fresh SQLite file (pass options with ARGS, e.g.
# `make bench-server ARGS="--tables 200 --duration 60 --json"`).
.PHONY: bench-server
bench-server: setup
	@$(UV_RUN) python -m rummykit.server.loadbench $(ARGS)

# The documentation site (MkDocs, Material, mkdocstrings) into build/docs, warnings as
# errors; the knob page is generated from rummykit.core.rules (docs/hooks/knob_reference.py).
.PHONY: docs
docs: setup
	$(UV_RUN) mkdocs build --strict

# The whole differential test of gin against OpenSpiel's gin_rummy (RULES.md §6.14):
# 10,000 hands per variant (gin, Oklahoma) with random, greedy and adversarial OpenSpiel
# policies; exits non-zero on any disagreement. `make test` runs a seeded part of it
# (tests/test_gin_openspiel.py). Options with ARGS, e.g. `make gin-diff ARGS="--hands 500"`.
.PHONY: gin-diff
gin-diff: setup
	@$(UV_RUN) python -m rummykit.rl.openspiel_gin_diff $(ARGS)
