# Two commands a newcomer needs: `make run` and `make test`. Both build .venv themselves.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/paiju simulate jiaxing --games 4 --seed 1

lint: $(STAMP)
	$(BIN)/ruff check src tests scripts
	$(BIN)/ruff format --check src tests scripts

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

pytest: $(STAMP)
	$(BIN)/pytest

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/paiju bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
