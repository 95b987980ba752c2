# `make run` and `make test` each set everything up on a fresh machine, then run.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
EXTRAS ?= server,ai,dev
STAMP  := $(VENV)/.installed-$(shell echo $(EXTRAS) | tr ',' '-')

.PHONY: run test lint format bench clean setup

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS)]"
	touch $@

run: setup
	$(BIN)/robotable serve

test: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: setup
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache .hypothesis
