# Two entry points (see README): `make run` and `make test`. Both set up everything first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Two install stamps: `make run` installs the runtime dependencies only; `make test` adds the
# `dev` extra (pytest, mypy, ruff, pyinstaller, radicale, the llama.cpp server, the test GGUF).
RUN_STAMP := $(VENV)/.installed-run
STAMP     := $(VENV)/.installed
# Extra app options for `make run`, e.g. make run RUN_ARGS="--db /tmp/try.sqlite3 --lang zh_CN"
RUN_ARGS ?=

.PHONY: run test check test-future setup bench dist clean

setup: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip setuptools wheel

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e .
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '.[dev]'
	touch $(STAMP) $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/richeng $(RUN_ARGS)

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest --durations=20

# The quick loop while working (about half of `make test`'s time: 120 s against 251 s, back to back
# on a 2-core box): lint, types and import contracts, then the suite without the slow tests
# (PyInstaller build, live-model smoke, the 100k recurrence bombs) and without the tests that load
# the real GGUF model. `make test` runs everything.
check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -m "not slow and not model"

# The headless suite with the system clock a year ahead (libfaketime: apt-get install faketime).
# Proves no test reads the real clock for a decision; Qt, packaging and real-model tests are left out
# because their event loops and subprocess waits are not what this checks.
test-future: $(STAMP)
	QT_QPA_PLATFORM=offscreen faketime -f '+365d' $(BIN)/python -m pytest -p no:cacheprovider -m "not model" \
	  --ignore=tests/app $$(grep -rl --include='test_*.py' "PySide6\|qtbot\|qapp\|^from app\|    from app" tests/agent | sed 's/^/--ignore=/')

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_events_list.py

dist: $(STAMP)
	$(BIN)/pyinstaller --noconfirm --clean --distpath dist --workpath build/pyinstaller build.spec

clean:
	rm -rf $(VENV) build dist *.egg-info
