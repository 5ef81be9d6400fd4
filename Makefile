# Two commands on a fresh machine with Python 3.11 and make:
#   make play   -- set up .venv (if needed) and start the game
#   make test   -- set up .venv with the test extras, check the code with ruff, the layers with lint-imports
#                  (the contracts in pyproject.toml), the types with mypy, and run the whole suite
# The venv is reinstalled whenever pyproject.toml is newer than its stamp file.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
ARGS   ?=
JOBS   ?= 2
PYTEST_ARGS ?=
# The app's own tests (its quick ones) run a second time on stock Textual paths, with the
# internals layer (lagoon_tui/turbo) off, so the game is proven to work without it.
# `STOCK_TESTS=tests/tui` runs all of them so (3 minutes more); `STOCK_TESTS=` skips the run.
# A run given its own PYTEST_ARGS (the quick loop, one file) skips it unless STOCK_TESTS is given.
ifeq ($(origin PYTEST_ARGS),command line)
STOCK_TESTS ?=
else
STOCK_TESTS ?= -m 'not slow' tests/tui
endif

.PHONY: play test test-next venv clean screenshots

# The game's modules are compiled to bytecode first, as an installed wheel's are: an editable
# install leaves that to Python's first import, which skips it where PYTHONDONTWRITEBYTECODE
# is set, and every start then compiles them again (about a fifth of its instructions).
play: $(VENV)/.stamp-play
	$(BIN)/python -m compileall -q rules lagoon_tui
	$(BIN)/lagoon $(ARGS)

test: $(VENV)/.stamp-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/mypy
	$(BIN)/python -m pytest -n $(JOBS) $(PYTEST_ARGS)
ifneq ($(strip $(STOCK_TESTS)),)
	LAGOON_STOCK_TEXTUAL=1 $(BIN)/python -m pytest -n $(JOBS) $(PYTEST_ARGS) $(STOCK_TESTS)
endif

venv: $(VENV)/.stamp-test

# The app's quick tests on the newest Textual release (or TEXTUAL_NEXT=x.y.z), in a venv of its own,
# after a report of which pieces of the internals layer (lagoon_tui/turbo) switched themselves off
# there. Not part of `make test`, and allowed to fail: it tells what moving to that release would take.
NEXT_VENV ?= .venv-next
TEXTUAL_NEXT ?=
test-next:
	$(PYTHON) -m venv $(NEXT_VENV)
	$(NEXT_VENV)/bin/python -m pip install --quiet -e '.[test]'
	$(NEXT_VENV)/bin/python -m pip install --quiet --upgrade 'textual$(if $(TEXTUAL_NEXT),==$(TEXTUAL_NEXT))'
	$(NEXT_VENV)/bin/python -m lagoon_tui.turbo
	$(NEXT_VENV)/bin/python -m pytest -n $(JOBS) -m 'not slow' tests/tui

# SVG pictures of the app from fixed seeds, shown in the README.
screenshots: $(VENV)/.stamp-test
	$(BIN)/python screenshots/take.py

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Lagoon needs Python 3.11 or newer; try make PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)

$(VENV)/.stamp-play: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# The test install is a superset of the play install, so it satisfies both.
$(VENV)/.stamp-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.stamp-play

clean:
	rm -rf $(VENV) $(NEXT_VENV) build dist .pytest_cache
