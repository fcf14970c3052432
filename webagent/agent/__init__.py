"""The loop and its guardrails: approval gate, anchor, ask-human, finish integrity, the run's result."""
