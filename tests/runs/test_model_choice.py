"""Which model a run talks to: the planner, a baseline, a local model, an endpoint's; and what conflicts."""

from __future__ import annotations

from pathlib import Path

import pytest

from webagent.config import RunConfig
from webagent.errors import LocalModelError, UsageError
from webagent.llm.local import DEFAULT_LOCAL
from webagent.llm.openai_client import OpenAIModel
from webagent.planner import Planner
from webagent.runs import runner
from webagent.runs.model_choice import (
    check_model_choice,
    describe_model,
    local_choice,
    make_model,
    uses_planner,
)


@pytest.fixture(autouse=True)
def no_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "WEBAGENT_MODEL", "WEBAGENT_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)


def test_the_runner_still_offers_them() -> None:
    assert runner.make_model is make_model and runner.uses_planner is uses_planner


def test_local_choices() -> None:
    assert local_choice(RunConfig(model="local")) == DEFAULT_LOCAL
    assert local_choice(RunConfig(model="local:1.5b")) == "1.5b"
    assert local_choice(RunConfig(gguf=Path("m.gguf"))) == Path("m.gguf")
    assert local_choice(RunConfig(model="local", gguf=Path("m.gguf"))) == Path("m.gguf")
    assert local_choice(RunConfig(model="gpt-x")) is None
    assert local_choice(RunConfig()) is None


@pytest.mark.parametrize(
    ("config", "says"),
    [
        (RunConfig(model="gpt-x", gguf=Path("m.gguf")), "leave out --model gpt-x"),
        (RunConfig(model="local:1.5b", gguf=Path("m.gguf")), "either --gguf or --model local:1.5b"),
        (RunConfig(gguf=Path("m.gguf"), base_url="http://x/v1"), "leave out --base-url"),
        (RunConfig(model="local", base_url="http://x/v1"), "leave out --base-url"),
        (RunConfig(model="local:13b"), "no local model"),
    ],
)
def test_what_a_local_model_cannot_be_combined_with(config: RunConfig, says: str) -> None:
    with pytest.raises(UsageError, match=says):
        local_choice(config)


def test_a_local_model_is_not_the_planner() -> None:
    assert uses_planner(RunConfig())
    assert not uses_planner(RunConfig(model="local"))
    assert not uses_planner(RunConfig(gguf=Path("m.gguf")))
    assert isinstance(make_model(RunConfig()), Planner)


def test_a_gguf_that_is_no_model_fails_before_anything_starts(tmp_path: Path) -> None:
    (tmp_path / "x.gguf").write_text("not a model")
    for config in (RunConfig(gguf=tmp_path / "x.gguf"), RunConfig(gguf=tmp_path / "absent.gguf")):
        with pytest.raises(LocalModelError):
            check_model_choice(config)
        with pytest.raises(LocalModelError):
            make_model(config)


def test_an_endpoint_model_is_described_as_itself() -> None:
    model = OpenAIModel("qwen3:8b", base_url="http://127.0.0.1:11434/v1")
    assert describe_model(model) == "qwen3:8b @ http://127.0.0.1:11434/v1"
    assert describe_model(Planner()) == "offline planner"


@pytest.mark.slow
def test_local_is_an_openai_model_on_this_process_s_server() -> None:
    from webagent.llm.local import LOCAL_MODELS, check_available

    pytest.importorskip("xllamacpp", reason="xllamacpp is not installed (pip install 'webagent[local]')")
    try:
        check_available(DEFAULT_LOCAL)
    except LocalModelError as error:
        pytest.skip(str(error))
    model = make_model(RunConfig(model="local"))
    assert isinstance(model, OpenAIModel)
    assert model.timeout == 300 and model.model == LOCAL_MODELS[DEFAULT_LOCAL].alias
    described = describe_model(model)
    assert described.startswith(
        f"local {DEFAULT_LOCAL} ({LOCAL_MODELS[DEFAULT_LOCAL].name}) @ http://127.0.0.1:"
    )
    again = make_model(RunConfig(model=f"local:{DEFAULT_LOCAL}", timeout=42))
    assert isinstance(again, OpenAIModel)
    assert (again.base_url, again.timeout) == (model.base_url, 42)  # the same server, the person's timeout
