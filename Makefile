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

# uv installs the same packages as pip, from the same places (pip's configured constraints, wheel folders and
# extra indexes are passed on), in seconds where pip takes minutes; pip installs them when uv cannot be had.
# Playwright comes as its Python package only (no browser download: the tests drive $(CHROMIUM)).
$(VENV)/.installed-%: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet uv || echo "uv is not available: installing with pip"
	if test -x $(BIN)/uv; then \
	  pipconf() { $(BIN)/python -m pip config get "global.$$1" 2>/dev/null || true; }; \
	  args=""; \
	  for c in $$(pipconf constraint); do args="$$args --constraint $$c"; done; \
	  for f in $$(pipconf find-links) $$PIP_FIND_LINKS; do args="$$args --find-links $$f"; done; \
	  for i in $$(pipconf extra-index-url); do args="$$args --extra-index-url $$i"; done; \
	  $(BIN)/uv pip install --quiet --python $(BIN)/python --index-strategy unsafe-best-match $$args \
	    -e ".[$(if $(filter test,$*),$(TEST_EXTRAS),$(RUN_EXTRAS))]"; \
	else \
	  $(BIN)/python -m pip install --quiet -e ".[$(if $(filter test,$*),$(TEST_EXTRAS),$(RUN_EXTRAS))]"; \
	fi
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

# The suite runs two workers a core (pytest-xdist, -n auto in pyproject.toml, tests/conftest.py); the slowest 25 tests are listed
# at the end, to see where its time goes. Bytecode is written (PYTHONDONTWRITEBYTECODE emptied, as an environment may set
# it): the suite starts hundreds of Python processes (servers, workers, CLIs), which otherwise compile every module they
# import from source each time (uv, unlike pip, installs no .pyc files): a third of the server tests' CPU time.
test: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest --durations=25

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
