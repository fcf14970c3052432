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
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from webagent.errors import BrokenReplies, ModelError, ModelNotServed, ModelTimeout, UsageError
from webagent.llm.openai_client import DEFAULT_MODEL, OpenAIModel
from webagent.llm.protocol import Reply, ToolCall, Usage
from webagent.sync import run_sync
from webagent.testing import (
    FAKE_BASE_URL,
    FakeOpenAI,
    ScriptedModel,
    ScriptExhausted,
    call,
    chat_json,
    chat_stream,
    cut_stream,
    hang,
    no_choices,
    reply,
    stall,
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
    for name in ("WEBAGENT_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "WEBAGENT_TIMEOUT"):
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
    # new_tokens: beyond the last call's prompt and reply — all of it on a model's first call.
    assert result.usage == Usage(prompt_tokens=120, completion_tokens=4, cached_tokens=0, new_tokens=120)
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

    first = usage.model_copy(update={"new_tokens": 2000})  # a model's first call: every token is new
    assert complete(fake.model()).usage == first
    assert complete(fake.model(stream=True)).usage == first


def test_new_tokens_are_what_the_prompt_adds_to_the_last_call_and_its_reply() -> None:
    """Issue 38: beside cached tokens, each call says how many tokens it added to the conversation so far."""
    fake = FakeOpenAI(
        [
            chat_json("a", usage=Usage(prompt_tokens=900, completion_tokens=30, cached_tokens=0)),
            chat_json("b", usage=Usage(prompt_tokens=1100, completion_tokens=20, cached_tokens=930)),
        ]
    )
    model = fake.model()
    assert complete(model).usage.new_tokens == 900
    assert complete(model).usage.new_tokens == 1100 - 900 - 30


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


FAULTS = {
    "503": lambda: status(503, "overloaded"),
    "429": lambda: status(429, "slow down"),
    "unreachable": unreachable,
    "no-choices": no_choices,
    "cut": cut_stream,
}


@settings(max_examples=40, deadline=None)
@given(
    faults=st.lists(st.sampled_from(sorted(FAULTS)), min_size=0, max_size=6),
    retries=st.integers(0, 3),
)
def test_one_budget_bounds_every_retry_whatever_failed(faults: list[str], retries: int) -> None:
    # The SDK's retries ran inside ours: up to (n+1)² requests per call. Now n+1 in all, mixed faults too.
    fake = FakeOpenAI([*(FAULTS[f]() for f in faults), chat_json("done")])
    model = fake.model(max_retries=retries)
    if len(faults) <= retries:
        assert complete(model).content == "done"
        assert len(fake.requests) == len(faults) + 1
    else:
        with pytest.raises(ModelError):
            complete(model)
        assert len(fake.requests) == retries + 1


def test_a_server_that_says_not_to_retry_is_not_retried() -> None:
    refused = httpx2.Response(
        503, json={"error": {"message": "down for maintenance"}}, headers={"x-should-retry": "false"}
    )
    fake = FakeOpenAI([refused, chat_json("never")])

    with pytest.raises(ModelError, match=r"HTTP 503 .*down for maintenance"):
        complete(fake.model(max_retries=3))
    assert len(fake.requests) == 1


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
    fake = FakeOpenAI([status(400, "This model's maximum context length is 8192 tokens.")])

    with pytest.raises(ModelError, match=r"HTTP 400 for model tiny: This model's maximum context length"):
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


# --- tolerant reading: what other servers send ------------------------------------------------------


def raw_completion(
    message: dict[str, Any], finish: str | None = "tool_calls", **extra: Any
) -> httpx2.Response:
    """A Chat Completion written out by hand, to send what no helper here would produce."""
    body = {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish}],
        **extra,
    }
    return httpx2.Response(200, json=body)


def raw_stream(*chunks: dict[str, Any], done: bool = True) -> httpx2.Response:
    """A stream of hand-written deltas (each wrapped into a chunk of choice 0)."""
    head = {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m"}
    events = [{**head, "choices": [{"index": 0, **chunk}]} for chunk in chunks]
    text = "".join(f"data: {json.dumps(event)}\n\n" for event in events) + (
        "data: [DONE]\n\n" if done else ""
    )
    return httpx2.Response(200, content=text.encode(), headers={"content-type": "text/event-stream"})


def test_arguments_sent_as_an_object_and_missing_or_repeated_ids_are_mended() -> None:
    message = {
        "content": None,
        "tool_calls": [
            {"function": {"name": "open_restaurant", "arguments": {"name": "Italian Bistro"}}},
            {"id": "", "type": "function", "function": {"name": "view_cart", "arguments": None}},
            {"id": "same", "type": "function", "function": {"name": "view_cart", "arguments": "{}"}},
            {"id": "same", "type": "function", "function": {"name": "view_cart", "arguments": ""}},
        ],
    }
    fake = FakeOpenAI([raw_completion(message, usage={"prompt_tokens": 5, "completion_tokens": 1})])

    got = complete(fake.model())

    assert [json.loads(c.arguments) for c in got.tool_calls] == [{"name": "Italian Bistro"}, {}, {}, {}]
    ids = [c.id for c in got.tool_calls]
    assert len(set(ids)) == 4 and all(ids) and ids[2] == "same"


def test_a_legacy_function_call_becomes_a_tool_call() -> None:
    message = {"content": None, "function_call": {"name": "view_cart", "arguments": "{}"}}
    fake = FakeOpenAI([raw_completion(message, finish="function_call")])

    got = complete(fake.model())

    assert [(c.name, c.arguments) for c in got.tool_calls] == [("view_cart", "{}")]
    assert got.finish_reason == "function_call" and got.tool_calls[0].id.startswith("call_")


@pytest.mark.parametrize("finish", ["stop", "tool_calls", "eos", "length", None])
def test_any_finish_reason_is_read_and_kept(finish: str | None) -> None:
    message = {
        "content": "Hi.",
        "tool_calls": [{"id": "c", "function": {"name": "view_cart", "arguments": "{}"}}],
    }
    fake = FakeOpenAI([raw_completion(message, finish=finish)])

    got = complete(fake.model())

    assert got.finish_reason == finish and got.content == "Hi." and len(got.tool_calls) == 1


def test_streamed_calls_without_index_with_the_name_again_and_whole_at_index_zero() -> None:
    fake = FakeOpenAI(
        [
            raw_stream(
                # llama.cpp-style: no index, the name resent with every piece.
                {
                    "delta": {
                        "tool_calls": [
                            {"id": "a", "function": {"name": "add_to_cart", "arguments": '{"dish": '}}
                        ]
                    }
                },
                {
                    "delta": {
                        "tool_calls": [{"function": {"name": "add_to_cart", "arguments": '"Tiramisu"}'}}]
                    }
                },
                # Ollama-style: a second and third call, each whole, both at index 0.
                {
                    "delta": {
                        "tool_calls": [
                            {"index": 0, "id": "b", "function": {"name": "view_cart", "arguments": {}}}
                        ]
                    }
                },
                {
                    "delta": {
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": "c",
                                "function": {"name": "read_page", "arguments": {"max_chars": 500}},
                            }
                        ]
                    }
                },
                {"delta": {}, "finish_reason": "stop"},
            )
        ]
    )

    got = complete(fake.model(stream=True))

    assert [(c.id, c.name, json.loads(c.arguments)) for c in got.tool_calls] == [
        ("a", "add_to_cart", {"dish": "Tiramisu"}),
        ("b", "view_cart", {}),
        ("c", "read_page", {"max_chars": 500}),
    ]
    assert got.finish_reason == "stop"


def test_two_calls_without_ids_at_index_zero_stay_two_calls() -> None:
    whole = {"name": "add_to_cart", "arguments": '{"dish": "Tiramisu"}'}
    fake = FakeOpenAI(
        [
            raw_stream(
                {"delta": {"tool_calls": [{"index": 0, "id": "", "function": whole}]}},
                {"delta": {"tool_calls": [{"index": 0, "id": "", "function": whole}]}},
                {"delta": {}, "finish_reason": "tool_calls"},
            )
        ]
    )

    got = complete(fake.model(stream=True))

    assert [c.arguments for c in got.tool_calls] == [whole["arguments"]] * 2
    assert len({c.id for c in got.tool_calls}) == 2


def test_no_usage_is_counted_with_the_tokenizer_and_marked_as_an_estimate() -> None:
    calls = [{"id": "c", "function": {"name": "open_restaurant", "arguments": '{"name": "Italian Bistro"}'}}]
    fake = FakeOpenAI(
        [
            raw_completion({"content": None, "tool_calls": calls}),
            raw_stream({"delta": {"content": "Opening the menu."}}, {"delta": {}, "finish_reason": "stop"}),
        ]
    )

    plain, streamed = complete(fake.model()), complete(fake.model(stream=True))

    for usage in (plain.usage, streamed.usage):
        assert usage.estimated and usage.prompt_tokens > 20 and usage.completion_tokens > 2
    assert (plain.usage + Usage(prompt_tokens=1)).estimated, "an estimate stays marked when added up"
    reported = complete(
        FakeOpenAI([chat_json("ok", usage=Usage(prompt_tokens=9, completion_tokens=1))]).model()
    )
    assert not reported.usage.estimated


# --- compatibility fallbacks ------------------------------------------------------------------------

FEATURES = ["strict", "parallel_tool_calls", "stream_options", "stream"]


@pytest.mark.parametrize("feature", FEATURES)
def test_a_refused_feature_is_dropped_once_and_for_the_rest_of_the_run(feature: str) -> None:
    fake = FakeOpenAI([reply(content="one"), reply(content="two")], refuses={feature})
    model = fake.model(stream=True)

    first, second = complete(model), complete(model)

    assert (first.content, second.content) == ("one", "two")
    assert [d.feature for d in first.downgrades] == [feature] and second.downgrades == []
    # llama.cpp refuses streaming with HTTP 500; read as the refusal it is, it is not retried as is.
    refused = [500] if feature == "stream" else [400]
    assert fake.answers == [*refused, 200, 200]

    def sends(body: dict[str, Any]) -> bool:
        if feature == "strict":
            return any("strict" in tool["function"] for tool in body["tools"])
        return feature in body

    assert [sends(body) for body in fake.requests] == [True] * len(refused) + [False, False]


def test_every_feature_refused_at_once_takes_one_retry_each() -> None:
    fake = FakeOpenAI([reply(content="done")], refuses=set(FEATURES))

    got = complete(fake.model(stream=True))

    assert got.content == "done"
    assert sorted(d.feature for d in got.downgrades) == sorted(FEATURES)
    assert len(fake.requests) == 4 + 1 and fake.answers[-1] == 200  # one refusal per feature, then the reply


def test_a_refusal_that_persists_after_the_drop_fails_instead_of_looping() -> None:
    refusal = status(400, "Unknown parameter: 'stream_options'.")
    fake = FakeOpenAI([refusal, refusal, reply(content="never")])

    with pytest.raises(ModelError, match=r"HTTP 400 .*stream_options"):
        complete(fake.model(stream=True))

    assert len(fake.requests) == 2  # once with it, once without; the same refusal again is an error


def test_a_400_about_something_else_is_an_error_at_once() -> None:
    fake = FakeOpenAI([status(400, "Invalid 'messages[1].content': string too long.")])

    with pytest.raises(ModelError, match="string too long"):
        complete(fake.model(stream=True))

    assert len(fake.requests) == 1


def test_no_strict_sends_no_strict_and_says_so_once() -> None:
    fake = FakeOpenAI([reply(content="a"), reply(content="b")])
    model = fake.model(strict=False)

    first, second = complete(model), complete(model)

    assert all("strict" not in tool["function"] for body in fake.requests for tool in body["tools"])
    assert [d.reason for d in first.downgrades] == ["turned off by --no-strict"] and not second.downgrades


# --- faults: cut, stalled, empty, silent ------------------------------------------------------------


def test_a_cut_stream_is_retried_then_recovers() -> None:
    fake = FakeOpenAI([cut_stream(), reply(call("view_cart"))])

    got = complete(fake.model(stream=True))

    assert [c.name for c in got.tool_calls] == ["view_cart"] and len(fake.requests) == 2


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=40))
def test_a_stream_cut_at_any_chunk_never_yields_a_partial_turn(after: int) -> None:
    whole = reply(
        call("add_to_cart", dish="Margherita Pizza", quantity=2, options=["Large"]), content="Adding."
    )
    fake = FakeOpenAI([cut_stream(whole, after=after), whole])

    got = complete(fake.model(stream=True))

    assert got.tool_calls == whole.tool_calls and got.content == "Adding."


@pytest.mark.parametrize(
    ("fault", "stream", "reason"),
    [
        (cut_stream, True, "cut its streamed reply off mid-way"),
        (no_choices, True, "answered with no choices"),
        (no_choices, False, "answered with no choices"),
        (
            lambda: raw_stream({"delta": {"content": "Half a sent"}}, done=False),
            True,
            "ended its streamed reply before it was complete",
        ),
    ],
    ids=["cut-stream", "no-choices-stream", "no-choices", "closed-early"],
)
def test_broken_replies_end_with_their_own_reason(fault: Any, stream: bool, reason: str) -> None:
    fake = FakeOpenAI([fault()] * 3)

    with pytest.raises(BrokenReplies) as raised:
        complete(fake.model(stream=stream, max_retries=2))

    assert str(raised.value) == f"the model endpoint at {FAKE_BASE_URL} {reason}, 3 times in a row"
    assert len(fake.requests) == 3


def test_a_json_reply_cut_off_is_retried_by_the_sdk_then_named() -> None:
    fake = FakeOpenAI([cut_stream(), cut_stream()])

    with pytest.raises(ModelError) as raised:
        complete(fake.model(max_retries=1))

    assert str(raised.value) == (
        f"the model endpoint at {FAKE_BASE_URL} cut its reply off: peer closed connection without "
        "sending complete message body (incomplete chunked read)"
    )
    assert len(fake.requests) == 2


def test_an_empty_reply_is_retried() -> None:
    fake = FakeOpenAI([raw_completion({"content": ""}, finish="stop"), chat_json("There you go.")])

    assert complete(fake.model()).content == "There you go." and len(fake.requests) == 2


def test_a_stalled_stream_is_retried_then_ends_with_its_reason() -> None:
    recovered = FakeOpenAI([stall(), reply(content="back")])
    assert complete(recovered.model(stream=True, stall_timeout=0.05)).content == "back"

    fake = FakeOpenAI([stall()] * 2)
    with pytest.raises(BrokenReplies, match=r"stalled mid-stream \(nothing for 0.05 s\), 2 times in a row"):
        complete(fake.model(stream=True, stall_timeout=0.05, max_retries=1))


def test_an_endpoint_that_never_answers_fails_within_the_timeout() -> None:
    fake = FakeOpenAI([hang(), hang()])

    with pytest.raises(ModelTimeout, match=r"did not answer within 0.2 s .*--timeout or WEBAGENT_TIMEOUT"):
        complete(fake.model(timeout=0.2))

    assert len(fake.requests) == 1, "the whole call, retries included, fits in the timeout"


def test_the_timeout_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert FakeOpenAI([]).model(timeout=None).timeout == 60.0
    monkeypatch.setenv("WEBAGENT_TIMEOUT", "12.5")
    assert FakeOpenAI([]).model(timeout=None).timeout == 12.5
    monkeypatch.setenv("WEBAGENT_TIMEOUT", "soon")
    with pytest.raises(UsageError, match="WEBAGENT_TIMEOUT must be a number of seconds, not 'soon'"):
        FakeOpenAI([]).model(timeout=None)


# --- what the endpoint serves -----------------------------------------------------------------------


def test_served_models_are_listed_and_a_missing_one_is_named_in_one_line() -> None:
    fake = FakeOpenAI([], profile="vllm", models=["Qwen/Qwen3-8B", "meta-llama/Llama-3.1-8B-Instruct"])

    assert run_sync(fake.model().served_models()) == ["Qwen/Qwen3-8B", "meta-llama/Llama-3.1-8B-Instruct"]
    run_sync(fake.model("Qwen/Qwen3-8B").ensure_served())
    with pytest.raises(ModelNotServed) as raised:
        run_sync(fake.model("qwen3").ensure_served())

    assert str(raised.value) == (
        f"model 'qwen3' is not served by {FAKE_BASE_URL}; it serves Qwen/Qwen3-8B, "
        "meta-llama/Llama-3.1-8B-Instruct (list them with `webagent models`, pick one with --model)"
    )
    assert fake.served == 0 and fake.log.count("GET /v1/models") == 3


def test_an_endpoint_without_a_listing_and_llama_cpp_are_tolerated() -> None:
    no_listing = FakeOpenAI([])
    assert run_sync(no_listing.model().served_models()) is None
    run_sync(no_listing.model("anything").ensure_served())

    llama = FakeOpenAI([reply(content="hi")], profile="llama.cpp", models=["qwen2.5-7b-instruct-q4_k_m.gguf"])
    model = llama.model("gpt-4o")
    run_sync(model.ensure_served())  # llama-server answers under any name
    assert complete(model).content == "hi"


def test_a_model_the_endpoint_does_not_serve_mid_run_is_its_404() -> None:
    fake = FakeOpenAI([], profile="ollama", models=["qwen3:8b"])

    with pytest.raises(
        ModelError, match=r'HTTP 404 for model llama3: model "llama3" not found, try pulling it first'
    ):
        complete(fake.model("llama3"))


def test_a_model_closes_the_client_it_made_inside_its_loop_and_leaves_one_it_was_given() -> None:
    """Several runs in one process (an eval, a benchmark), each on its own event loop: a client closed by
    the garbage collector after its loop ended printed "Event loop is closed" tracebacks."""
    given = openai.AsyncOpenAI(api_key="k", base_url="http://127.0.0.1:9/v1")

    async def both() -> tuple[OpenAIModel, OpenAIModel]:
        made, lent = OpenAIModel("m", base_url="http://127.0.0.1:9/v1"), OpenAIModel("m", client=given)
        await made.aclose()
        await lent.aclose()
        return made, lent

    made, lent = run_sync(both())
    assert made.client.is_closed() and not lent.client.is_closed() and not given.is_closed()


# --- the run's own records stay with the run -----------------------------------------------------------


def test_the_typed_records_beside_the_conversation_are_never_sent_to_an_endpoint() -> None:
    """The run keeps what each page showed (and a person's answer) on its messages; OpenAI refuses any key
    of its own a message does not have, so the client sends the API's keys only."""
    call = {"id": "c1", "type": "function", "function": {"name": "ask_human", "arguments": "{}"}}
    kept = [
        {"role": "user", "content": "goal", "seen": {"view": "restaurants", "restaurants": ["A"]}},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": 'The person answered: "yes"', "answer": "yes"},
    ]
    fake = FakeOpenAI([chat_json("ok")])
    assert run_sync(fake.model().complete(kept, [])).content == "ok"
    sent = fake.requests[-1]["messages"]
    assert fake.answers == [200] and all("seen" not in m and "answer" not in m for m in sent)
    assert kept[0]["seen"] and kept[2]["answer"] == "yes"  # the run's own copy keeps them
    # The strict fake is as strict as OpenAI: the same messages sent as they are get a 400.
    fake = FakeOpenAI([chat_json("ok")])
    with pytest.raises(openai.BadRequestError, match="'seen' was unexpected"):
        run_sync(fake.client().chat.completions.create(model="m", messages=kept))  # type: ignore[arg-type]
