"""Fakes shipped for users' tests: `ScriptedModel`, `FakeOpenAI`, server profiles, the pytest plugin."""

from webagent.testing.fakes import *  # noqa: F403
from webagent.testing.fakes import __all__ as __all__
