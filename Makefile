# `make run` and `make test` each set everything up on a fresh machine, then run.
PYTHON      ?= python3
VENV        ?= .venv
BIN         := $(VENV)/bin
RUN_EXTRAS  ?= server,ai
TEST_EXTRAS ?= server,ai,dev,ray,research
# The browser tests drive Debian's chromium (Playwright's own browser download does not work here).
CHROMIUM    ?= /usr/bin/chromium

.PHONY: run test lint format bench clean setup cluster

setup: $(VENV)/.installed-test $(CHROMIUM)

$(VENV)/.installed-%: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[$(if $(filter test,$*),$(TEST_EXTRAS),$(RUN_EXTRAS))]"
	touch $@

$(CHROMIUM):
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-ipafont-gothic

run: $(VENV)/.installed-run
	$(BIN)/robotable serve

# Two web processes and one bot worker on PostgreSQL + Redis (ports 8001, 8002; docs/server.md "Scaling out").
DATABASE    ?= postgresql://postgres@127.0.0.1:5432/test
REDIS       ?= redis://127.0.0.1:6379/0
cluster: $(VENV)/.installed-run
	$(BIN)/python -m robotable.server.cluster --database $(DATABASE) --redis $(REDIS) --web 2 --workers 1 --port 8001

# The suite runs on every core (pytest-xdist, -n auto in pyproject.toml); the slowest 25 tests are listed
# at the end, to see where its time goes.
test: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest --durations=25

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(VENV)/.installed-test
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(VENV)/.installed-run
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis
