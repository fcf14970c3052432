"""Models: what the loop asks of a model, and the one client that asks a real endpoint.

- `protocol`: the `Model` protocol and the values it returns (`Reply`, `ToolCall` with its id, `Usage`,
  `Downgrade`); pure, pydantic only. What the loop, the planner and the fakes import.
- `openai_client`: `OpenAIModel` over Chat Completions through the openai SDK (retries, timeouts,
  feature fallbacks, usage), `ensure_served`, the default model and timeout.
- `stream`: reading a whole or streamed completion (tool-call deltas included) into a `Reply`; pure.
- `schemas`: tool schemas in OpenAI's strict subset, and its checker; pure.
- `local`: ``--model local`` / ``--gguf``: weights joined from packages into a cache, GGUF headers read,
  llama.cpp's server started in-process (``xllamacpp``, imported only when a server starts).

- `reader`: `LLMReader`, a person's order read by a model in one structured-output call (the final order,
  as `webagent.planner.spec.Reading`).
- `consult`: `LocalConsultant`, the planner's narrow labelling questions to a local model.

May import `webagent.errors` (the `ModelError` tree lives there), pydantic, and the openai SDK,
httpx2 and tiktoken (in `openai_client` only); `reader` also the planner's pure reading types and menu
(webagent/planner/spec.py, reading.py, menu.py) and the name matcher (webagent/narration/names.py);
nothing else of webagent. This package is empty, so
importing `webagent.llm.protocol` does not load the SDK.
"""
