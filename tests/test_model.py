"""The model slot: `OpenAIModel` through the real openai SDK over a fake transport, and `ScriptedModel`.

Coroutines run through `run_sync` (the sync facade) inside plain tests: no async pytest plugin is needed,
and it works where pytest-playwright already runs an event loop on the main thread.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, cast

import httpx2
import openai
import pytest
from pydantic import BaseModel, Field

from webagent.errors import ModelError
from webagent.model import DEFAULT_MODEL, OpenAIModel, Reply, ToolCall, Usage
from webagent.sync import run_sync
from webagent.testing import (
    FAKE_BASE_URL,
    FakeOpenAI,
    ScriptedModel,
    ScriptExhausted,
    call,
    chat_json,
    chat_stream,
    reply,
    status,
    unreachable,
)


class OpenRestaurant(BaseModel):
    """Open a restaurant's menu."""

    name: str = Field(description="The restaurant's name as shown on the page.")


# The SDK types its schema as a TypedDict; the model slot takes plain dicts (what goes on the wire).
TOOLS = [
    cast(
        dict[str, Any],
        openai.pydantic_function_tool(OpenRestaurant, name="open_restaurant", description="Open a menu."),
    )
]
MESSAGES: list[dict[str, Any]] = [{"role": "user", "content": "Order a pizza."}]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No test may pick up the developer's real endpoint or model choice."""
    for name in ("WEBAGENT_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    yield


def complete(model: OpenAIModel, tools: list[dict[str, Any]] | None = None) -> Reply:
    return run_sync(model.complete(MESSAGES, TOOLS if tools is None else tools))


# --- plain JSON replies -----------------------------------------------------------------------------


def test_plain_reply_has_content_usage_and_finish_reason() -> None:
    fake = FakeOpenAI([chat_json("Which pizza?", usage=Usage(prompt_tokens=120, completion_tokens=4))])

    result = complete(fake.model())

    assert result.content == "Which pizza?"
    assert result.tool_calls == []
    assert result.finish_reason == "stop"
    assert result.usage == Usage(prompt_tokens=120, completion_tokens=4, cached_tokens=0)
    assert result.to_message() == {"role": "assistant", "content": "Which pizza?"}
    fake.assert_complete()


def test_parallel_tool_calls_keep_ids_names_and_raw_arguments() -> None:
    first = ToolCall(id="call_a", name="open_restaurant", arguments='{"name": "Italian Bistro"}')
    second = ToolCall(id="call_b", name="open_restaurant", arguments='{"name":"Sushi Bar"}')
    fake = FakeOpenAI([chat_json(tool_calls=[first, second])])

    result = complete(fake.model())

    assert result.tool_calls == [first, second]
    assert result.finish_reason == "tool_calls"
    assert result.to_message()["tool_calls"] == [
        {
            "id": "call_a",
            "type": "function",
            "function": {"name": "open_restaurant", "arguments": first.arguments},
        },
        {
            "id": "call_b",
            "type": "function",
            "function": {"name": "open_restaurant", "arguments": second.arguments},
        },
    ]


def test_malformed_arguments_and_unknown_tool_come_back_untouched() -> None:
    broken = ToolCall(id="call_x", name="open_restaurant", arguments='{"name": "Italian Bis')
    unknown = ToolCall(id="call_y", name="teleport", arguments='{"to": "kitchen"}')
    fake = FakeOpenAI([chat_json(tool_calls=[broken, unknown]), chat_stream(tool_calls=[broken, unknown])])

    assert complete(fake.model()).tool_calls == [broken, unknown]
    assert complete(fake.model(stream=True)).tool_calls == [broken, unknown]


def test_cached_tokens_are_read_from_prompt_tokens_details() -> None:
    usage = Usage(prompt_tokens=2000, completion_tokens=30, cached_tokens=1536)
    fake = FakeOpenAI([chat_json("ok", usage=usage), chat_stream("ok", usage=usage)])

    assert complete(fake.model()).usage == usage
    assert complete(fake.model(stream=True)).usage == usage


# --- what is sent -----------------------------------------------------------------------------------


def test_request_carries_model_from_env_tools_and_parallel_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBAGENT_MODEL", "local-llama")
    fake = FakeOpenAI([chat_json("hi")])
    model = fake.model(temperature=0.2)

    complete(model)

    sent = fake.requests[0]
    assert sent["model"] == "local-llama"
    assert sent["messages"] == MESSAGES
    assert sent["tools"] == json.loads(json.dumps(TOOLS))
    assert sent["parallel_tool_calls"] is True
    assert sent["temperature"] == 0.2
    assert "stream" not in sent
    assert model.describe() == f"local-llama @ {FAKE_BASE_URL}"


def test_model_argument_beats_env_and_default_applies_without_either(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeOpenAI([])
    assert fake.model().model == DEFAULT_MODEL
    monkeypatch.setenv("WEBAGENT_MODEL", "from-env")
    assert fake.model().model == "from-env"
    assert fake.model("from-arg").model == "from-arg"


def test_no_tools_means_no_tool_fields_and_parallel_can_be_turned_off() -> None:
    fake = FakeOpenAI([chat_json("hi"), chat_json("hi")])

    complete(fake.model(), tools=[])
    complete(fake.model(parallel_tool_calls=False))

    assert "tools" not in fake.requests[0]
    assert "parallel_tool_calls" not in fake.requests[0]
    assert fake.requests[1]["parallel_tool_calls"] is False


def test_local_endpoint_without_key_gets_a_placeholder() -> None:
    model = OpenAIModel("llama3", base_url="http://localhost:11434/v1")

    assert model.client.api_key == "not-needed"
    assert model.describe() == "llama3 @ http://localhost:11434/v1"


def test_no_key_and_no_endpoint_is_a_model_error_naming_the_variable() -> None:
    with pytest.raises(ModelError, match="OPENAI_API_KEY"):
        OpenAIModel()


# --- streaming --------------------------------------------------------------------------------------


def test_stream_sends_text_deltas_in_order_and_assembles_tool_calls() -> None:
    pick = ToolCall(id="call_s1", name="open_restaurant", arguments='{"name": "Italian Bistro"}')
    other = ToolCall(id="call_s2", name="open_restaurant", arguments='{"name": "Burger Barn"}')
    fake = FakeOpenAI([chat_stream("Opening both menus now.", tool_calls=[pick, other], piece=5)])
    deltas: list[str] = []

    result = complete(fake.model(stream=True, on_text=deltas.append))

    assert len(deltas) > 1, "the text should arrive in several deltas"
    assert "".join(deltas) == "Opening both menus now."
    assert result.content == "Opening both menus now."
    assert result.tool_calls == [pick, other]
    assert result.finish_reason == "tool_calls"
    assert fake.requests[0]["stream"] is True
    assert fake.requests[0]["stream_options"] == {"include_usage": True}


def test_stream_without_text_has_no_content() -> None:
    fake = FakeOpenAI([chat_stream(tool_calls=[call("open_restaurant", name="Sushi Bar")])])
    deltas: list[str] = []

    result = complete(fake.model(stream=True, on_text=deltas.append))

    assert result.content is None
    assert deltas == []
    assert json.loads(result.tool_calls[0].arguments) == {"name": "Sushi Bar"}


# --- retries and errors -----------------------------------------------------------------------------


@pytest.mark.parametrize("code", [503, 429])
def test_sdk_retries_transient_errors_then_succeeds(code: int) -> None:
    fake = FakeOpenAI([status(code, "try again"), chat_json("recovered")])

    result = complete(fake.model())

    assert result.content == "recovered"
    assert len(fake.requests) == 2


def test_retries_exhausted_is_a_model_error_with_status_and_server_message() -> None:
    fake = FakeOpenAI([status(503, "The engine is currently overloaded")] * 3)

    with pytest.raises(ModelError) as raised:
        complete(fake.model(max_retries=2))

    assert len(fake.requests) == 3
    assert "503" in str(raised.value)
    assert "The engine is currently overloaded" in str(raised.value)
    assert "\n" not in str(raised.value)


def test_unauthorized_is_not_retried_and_mentions_the_key_variable() -> None:
    fake = FakeOpenAI([status(401, "Incorrect API key provided")])

    with pytest.raises(ModelError, match="OPENAI_API_KEY") as raised:
        complete(fake.model())

    assert "Incorrect API key provided" in str(raised.value)
    assert len(fake.requests) == 1


def test_bad_request_names_status_and_model() -> None:
    fake = FakeOpenAI([status(400, "Invalid schema for function 'open_restaurant'")])

    with pytest.raises(ModelError, match=r"HTTP 400 for model tiny: Invalid schema"):
        complete(fake.model("tiny"))


def test_unreachable_endpoint_is_retried_then_reported_with_its_url() -> None:
    fake = FakeOpenAI([unreachable(), unreachable()])

    with pytest.raises(ModelError, match=f"could not reach the model endpoint at {FAKE_BASE_URL}"):
        complete(fake.model(max_retries=1))

    assert len(fake.requests) == 2


def test_error_event_inside_a_stream_is_a_model_error() -> None:
    events = b'data: {"error": {"message": "context length exceeded", "type": "invalid_request_error"}}\n\n'
    broken = httpx2.Response(200, content=events, headers={"content-type": "text/event-stream"})
    fake = FakeOpenAI([broken])

    with pytest.raises(ModelError, match="context length exceeded"):
        complete(fake.model(stream=True))


def test_fake_endpoint_past_its_script_fails_the_test_loudly() -> None:
    fake = FakeOpenAI([])

    with pytest.raises(ScriptExhausted, match="scripted for 0"):
        complete(fake.model())


# --- Reply and Usage --------------------------------------------------------------------------------


def test_usage_adds_up() -> None:
    total = Usage(prompt_tokens=10, completion_tokens=2, cached_tokens=4) + Usage(
        prompt_tokens=5, completion_tokens=1
    )

    assert total == Usage(prompt_tokens=15, completion_tokens=3, cached_tokens=4)


# --- ScriptedModel ----------------------------------------------------------------------------------


def test_scripted_model_plays_steps_and_records_calls() -> None:
    first = reply(call("open_restaurant", name="Italian Bistro"), content="Opening it.")
    model = ScriptedModel([first, reply(content="Done.")])
    messages: list[dict[str, Any]] = [{"role": "user", "content": "go"}]

    got = run_sync(model.complete(messages, TOOLS))
    messages.append(got.to_message())
    run_sync(model.complete(messages, TOOLS))

    assert got is first
    assert json.loads(got.tool_calls[0].arguments) == {"name": "Italian Bistro"}
    assert [len(sent) for sent, _ in model.calls] == [1, 2], "each call keeps its own copy of the messages"
    assert model.calls[0][1] == TOOLS
    model.assert_complete()


def test_call_ids_are_unique() -> None:
    ids = {call("noop").id for _ in range(5)}

    assert len(ids) == 5
    assert all(i.startswith("call_") for i in ids)


def test_scripted_model_step_can_look_at_the_narration() -> None:
    def answer(messages: list[dict[str, Any]]) -> Reply:
        return reply(content=f"saw: {messages[-1]['content']}")

    model = ScriptedModel([answer])

    got = run_sync(model.complete([{"role": "tool", "tool_call_id": "c", "content": "Cart: 2 items"}], []))

    assert got.content == "saw: Cart: 2 items"


def test_scripted_model_past_its_script_raises() -> None:
    model = ScriptedModel([reply(content="only one")])
    run_sync(model.complete(MESSAGES, []))

    with pytest.raises(ScriptExhausted, match="called 2 times but scripted for 1"):
        run_sync(model.complete(MESSAGES, []))


def test_assert_complete_reports_unused_steps() -> None:
    model = ScriptedModel([reply(content="a"), reply(content="b")])
    run_sync(model.complete(MESSAGES, []))

    with pytest.raises(AssertionError, match="1 never ran"):
        model.assert_complete()
