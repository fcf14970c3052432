"""Fakes shipped for users' tests, so they can drive webagent without a model endpoint.

- `scripted`: `ScriptedModel`, which replaces the model slot with scripted turns (`reply`, `call`).
- `fake_openai`: `FakeOpenAI`, which keeps the real openai SDK and fakes only the HTTP endpoint, on
  ``httpx2.MockTransport``; the responses and faults it can serve; the audio endpoints.
- `servers`: the server profiles `FakeOpenAI` plays (OpenAI, vLLM, Ollama, llama.cpp): how each checks
  a request and renders a reply.
- `recordings`: `spoken_wav`, speech recordings for tests of voice input.
- `pytest_plugin`: the fixtures registered through the ``pytest11`` entry point.
- The baseline agents (`NullAgent`, `AskAgent`, `RandomAgent`, `GullibleAgent`,
  `NamerAgent`), re-exported from
  webagent/planner/baselines.py: models that deserve no score, to measure a suite against.

This package may import everything it fakes or drives (`webagent.llm`, `webagent.planner.baselines`, and
in the plugin's fixtures the runner, the browser and the report). Nothing else in webagent imports it:
the runtime never depends on its fakes.
"""

from webagent.planner.baselines import (
    BASELINES,
    AskAgent,
    GullibleAgent,
    NamerAgent,
    NullAgent,
    RandomAgent,
    baseline,
)
from webagent.testing.fake_openai import (
    FAKE_BASE_URL,
    FakeOpenAI,
    Fault,
    audio_problem,
    chat_json,
    chat_stream,
    cut_stream,
    hang,
    no_choices,
    request_body,
    speech,
    stall,
    status,
    transcription,
    unreachable,
)
from webagent.testing.recordings import spoken_wav
from webagent.testing.scripted import ScriptedModel, ScriptExhausted, Step, call, reply

__all__ = [
    "BASELINES",
    "FAKE_BASE_URL",
    "AskAgent",
    "FakeOpenAI",
    "Fault",
    "GullibleAgent",
    "NamerAgent",
    "NullAgent",
    "RandomAgent",
    "ScriptExhausted",
    "ScriptedModel",
    "Step",
    "audio_problem",
    "baseline",
    "call",
    "chat_json",
    "chat_stream",
    "cut_stream",
    "hang",
    "no_choices",
    "reply",
    "request_body",
    "speech",
    "spoken_wav",
    "stall",
    "status",
    "transcription",
    "unreachable",
]
