# Two commands on a fresh machine: `make demo` and `make test`. Each does its own set-up.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo demo-llm test test-fast check lint typecheck chromium voice setup clean shop bench eval

setup: $(STAMP) chromium voice

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,local]'
	touch $(STAMP)

# A Chromium for Playwright: use one that is already there, else apt-get it when we are root.
chromium: $(STAMP)
	@$(PY) -c 'import sys, webagent.browser.chromium as c; sys.exit(c.ensure())'

# Speech: espeak-ng, sox, PortAudio; apt-get them when we are root, else say what to install.
voice: $(STAMP)
	-@$(PY) -m webagent.voice.setup

demo: setup
	$(PY) -m webagent run --clutter 2 --approve auto --budget 60 \
		--name "Ada Demo" --address "12 Oak Street" --phone 555-0101 \
		"Order 2 Margherita Pizza (Large) and a Tiramisu from Italian Bistro, deliver at 7pm, pay cash"

# The same order, driven by a language model on this machine: llama.cpp's server in-process with a small
# open model from the package index (docs/local-model.md). Minutes on a CPU, not seconds.
demo-llm: setup
	$(PY) -m webagent run --model local --clutter 2 --approve auto --budget 60 \
		--name "Ada Demo" --address "12 Oak Street" --phone 555-0101 \
		"Order 2 Margherita Pizza (Large) and a Tiramisu from Italian Bistro, deliver at 7pm, pay cash"

shop: setup
	$(PY) -m demo_site --port 8000 --clutter 2 --seed 7

# Tests run on TEST_JOBS processes (pytest-xdist); each file's tests stay on one, as they share
# module fixtures (one Ray, one CLI shop) and fixed orders of work. Files go out in collection order, the
# longest first (tests/conftest.py), so no worker runs a long one alone at the end.
# One per core. A third process filled the CPUs' idle third (tests that kill, retry and time out wait)
# and saved a minute, but under that load a clutter-4 eval task lost to two stacked popups (issue 23).
TEST_JOBS ?= 2
PYTEST := $(PY) -m pytest -q -n $(TEST_JOBS) --dist loadfile --no-loadscope-reorder

# Everything, the long soaks and the whole shipped eval too; the 15 slowest tests are listed at the end
# (what to look at first when the suite grows slower).
test: setup
	$(PYTEST) --durations=15

# Before a commit: lint, then the pure layers' tests (narration, planner, models, the precondition graph,
# the approval anchor, the server profiles, consent words, the voice grammar) and one order end to end
# through the real shop and Chromium. `make test` runs everything.
CHECK_TESTS := tests/narration tests/planner tests/llm tests/sites/test_graph.py tests/agent/test_anchor.py \
	tests/agent/test_approval.py tests/testing/test_servers.py \
	tests/voice/test_voice_grammar.py tests/e2e/test_tools.py tests/test_house.py
check: setup lint
	$(PYTEST) -m "not slow" $(CHECK_TESTS)

# Every test but those marked slow (kill-and-resume loops, whole evals).
test-fast: setup
	$(PYTEST) -m "not slow"

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy

bench: setup
	$(PY) benchmarks/run.py

eval: setup
	$(PY) -m webagent eval evals/tasks.jsonl

clean:
	rm -rf $(VENV) runs .pytest_cache
