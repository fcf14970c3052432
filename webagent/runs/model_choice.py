"""Which model a run talks to: the offline planner, a baseline agent, a local llama.cpp model, or an endpoint's.

    planner       ``--model planner``, or nothing configured (no model, no endpoint, no OPENAI_* variables)
    baseline      ``--model null|ask|random|gullible|namer`` (``random:SEED``, ``namer:SEED``;
                  webagent/planner/baselines.py)
    local         ``--model local[:KEY]`` or ``--gguf PATH``: llama.cpp's server in this process
                  (webagent/llm/local.py), reached through `OpenAIModel` over loopback
    endpoint      any other name, at ``--base-url`` / ``OPENAI_BASE_URL`` / OpenAI
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from webagent.agent.prompt import FIXED
from webagent.config import RunConfig
from webagent.errors import UsageError
from webagent.llm import local
from webagent.llm.openai_client import OpenAIModel, timeout_from_env
from webagent.llm.protocol import Model
from webagent.llm.warm import warm
from webagent.planner.reading import ModelReader, Remembered
from webagent.sites import EMBEDDED

__all__ = [
    "check_model_choice",
    "consult_choice",
    "describe_model",
    "local_choice",
    "make_model",
    "make_reader",
    "uses_planner",
]


def local_choice(config: RunConfig) -> str | Path | None:
    """The local model a run asks for: a key of `local.LOCAL_MODELS`, a GGUF path, or None for none.

    `UsageError` for a local model asked for together with something it cannot be combined with.
    """
    key = local.parse_local(config.model)
    if config.gguf is not None:
        if config.model is not None and key is None:
            raise UsageError(f"--gguf runs that file as a local model: leave out --model {config.model}")
        if key is not None and config.model != "local":
            raise UsageError(f"give either --gguf or --model {config.model}, not both")
        if config.base_url:
            raise UsageError("--gguf starts its own llama.cpp server: leave out --base-url")
        return config.gguf
    if key is not None and config.base_url:
        raise UsageError(f"--model {config.model} starts its own llama.cpp server: leave out --base-url")
    return key


def check_model_choice(config: RunConfig) -> None:
    """Before anything starts: a local model that cannot be had fails here, in one line, cheaply.

    (A GGUF's header is read; a known model's parts are looked up but not joined or hashed.)
    """
    if config.site != EMBEDDED and uses_planner(config):
        raise UsageError(
            f"the offline planner drives only the demo shop (it knows that shop's pages); --site {config.site} "
            "needs a model: --model local, or an endpoint's model"
        )
    chosen = local_choice(config)
    if isinstance(chosen, Path):
        local.check_gguf(chosen)
    elif chosen is not None:
        local.check_available(chosen)
    consulted = consult_choice(config)
    if consulted is not None:
        local.check_available(consulted)


def consult_choice(config: RunConfig) -> str | None:
    """The local model the planner consults (``--consult local[:KEY]``), or None.

    `UsageError` for anything but a local model, or for a run that the planner does not drive.
    """
    if config.consult is None:
        return None
    key = local.parse_local(config.consult)
    if key is None:
        raise UsageError(f"--consult takes local or local:KEY (a model run here), not {config.consult!r}")
    if not uses_planner(config):
        raise UsageError("--consult is for the offline planner: leave out --model, or give --model planner")
    return key


def uses_planner(config: RunConfig) -> bool:
    """The offline planner is the default when no model endpoint is configured."""
    if config.model == "planner":
        return True
    if local_choice(config) is not None:
        return False
    if config.model is not None or config.base_url:
        return False
    return not (os.environ.get("OPENAI_API_KEY") or os.environ.get("OPENAI_BASE_URL"))


def make_model(config: RunConfig, on_text: Callable[[str], None] | None = None) -> Model:
    """The planner, a baseline agent (webagent/planner/baselines.py), a local model, or an `OpenAIModel`.

    A local model's server is started here on first use (its weights joined into the cache first).
    """
    from webagent.planner.baselines import baseline, is_baseline

    if config.model is not None and is_baseline(config.model) and not config.base_url:
        return baseline(config.model)
    chosen = local_choice(config)
    if chosen is not None:
        return _local_model(config, chosen, on_text)
    if uses_planner(config):
        from webagent.planner import Planner

        key = consult_choice(config)
        if key is None:
            return Planner()  # it reads the goal, profile and budget from the conversation, as a model does
        from webagent.llm.consult import LocalConsultant

        return Planner(consultant=LocalConsultant(key), reader=make_reader(config))
    name = None if config.model in (None, "planner") else config.model
    return OpenAIModel(
        name,
        base_url=config.base_url,
        stream=on_text is not None,
        on_text=on_text,
        strict=config.strict,
        timeout=config.timeout,
    )


def _local_model(config: RunConfig, chosen: str | Path, on_text: Callable[[str], None] | None) -> OpenAIModel:
    server = local.serve(chosen) if isinstance(chosen, Path) else local.serve_known(chosen)
    if server.warmed is None:  # the prompt every run starts with: restored from its file, or evaluated and saved
        server.warmed = warm(server.base_url, server.model, server.path, FIXED, slots=server.slots)
        # Before any run's request: one that reached the slot between the evaluation and the save would be
        # saved with it (a person's goal in a file). A restore takes milliseconds; an evaluation, once a machine.
        server.warmed.wait(timeout=300)
    options = local.local_model_options()
    options.update(slot=server.take_slot(), context_tokens=server.n_ctx)  # a slot and its cache per run
    # A person's --timeout, else their WEBAGENT_TIMEOUT, else what a small model on a CPU needs.
    if config.timeout is not None:
        options["timeout"] = config.timeout
    elif os.environ.get("WEBAGENT_TIMEOUT", "").strip():
        options["timeout"] = timeout_from_env()
    return _Slotted(
        server,
        server.model,
        base_url=server.base_url,
        api_key="local",  # never the person's OPENAI_API_KEY: this server needs none
        stream=on_text is not None,
        on_text=on_text,
        strict=config.strict,
        **options,
    )


class _Slotted(OpenAIModel):
    """A local server's model that holds its slot until it is closed, then gives it back."""

    def __init__(self, server: local.LocalServer, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        self.server = server

    async def aclose(self) -> None:
        await super().aclose()
        if self.slot is not None:
            self.server.give_slot(self.slot)
            self.slot = None


def make_reader(config: RunConfig) -> ModelReader | None:
    """The model that reads the person's words where the rules leave them in doubt (webagent/llm/reader.py):
    the local model ``--consult local`` consults, or the one ``--model local`` / ``--gguf`` drives with
    (the same server); None for the rules alone (the planner by itself, a baseline, an endpoint's model)."""
    from webagent.llm.reader import LLMReader

    key = consult_choice(config) if uses_planner(config) else None
    chosen = key or local_choice(config)
    if chosen is None:
        return None
    if isinstance(chosen, Path):
        server = local.serve(chosen)
        from openai import OpenAI

        client = OpenAI(base_url=server.base_url, api_key="local", timeout=120.0, max_retries=0)
        return Remembered(LLMReader(client=client, model=server.model))
    return Remembered(LLMReader(chosen))


def describe_model(model: Model) -> str:
    """For the transcript: ``local 0.5b (Qwen2.5-Coder-0.5B-Instruct Q4_K_M) @ http://127.0.0.1:PORT/v1``,
    ``gpt-5.4-mini @ https://api.openai.com/v1``, ``offline planner``, or the model's type."""
    if isinstance(model, OpenAIModel):
        server = local.running(model.base_url)
        return server.describe() if server is not None else model.describe()
    describe = getattr(model, "describe", None)
    return str(describe()) if callable(describe) else type(model).__name__
