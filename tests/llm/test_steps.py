"""Structured steps (webagent/llm/steps.py) and the schemas held to the page (sites/demo_shop/choices.py).

The schemas are checked three ways that do not share a reading of the rules: OpenAI's strict subset
(`strict_violations`), a JSON Schema validator (`jsonschema`, Draft 2020-12) against documents written
here, and the tools' own pydantic models on the arguments. The real decoder is llama.cpp's
(tests/llm/test_local_model.py).
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from webagent.llm.openai_client import OpenAIModel
from webagent.llm.protocol import Reply
from webagent.llm.schemas import strict_violations
from webagent.llm.steps import as_plain_messages, step_call, step_format, step_hint, step_schema
from webagent.llm.stream import StreamedTurn, reply_from_completion
from webagent.narration.state import CartLine, CheckoutForm, MenuItem, MenuOption, PageState, RestaurantCard
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.sync import run_sync
from webagent.testing import FakeOpenAI
from webagent.tools.toolbox import parse_call, tool_schemas

ALL = tool_schemas(DEMO_SHOP.tools)
NAMES = [schema["function"]["name"] for schema in ALL]

# Names with quotes, accents and brackets: what page text may hold.
text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=24)
options = st.builds(
    MenuOption,
    name=text,
    required=st.booleans(),
    choices=st.lists(text, min_size=1, max_size=4, unique=True),
)
dishes = st.builds(
    MenuItem,
    name=text,
    price_cents=st.integers(1, 5000),
    sold_out=st.booleans(),
    options=st.lists(options, max_size=3),
)
pages = st.one_of(
    st.builds(
        PageState,
        view=st.just("restaurant"),
        restaurant=text,
        menu=st.lists(dishes, min_size=1, max_size=6, unique_by=lambda d: d.name),
        cart_lines=st.lists(
            st.builds(CartLine, name=text, quantity=st.integers(1, 9), total_cents=st.just(100)), max_size=3
        ),
    ),
    st.builds(
        PageState,
        view=st.just("restaurants"),
        restaurants=st.lists(
            st.builds(RestaurantCard, name=text), min_size=1, max_size=8, unique_by=lambda r: r.name
        ),
    ),
    st.builds(PageState, view=st.sampled_from(["checkout", "confirmation", "orders", "unknown"])),
)


@settings(max_examples=60, deadline=None)
@given(page=pages, unions=st.booleans())
def test_a_step_schema_for_any_page_is_strict_and_offers_only_what_the_page_allows(
    page: PageState, unions: bool
) -> None:
    offered = DEMO_SHOP.offered(page, ALL, unions=unions)
    names = [schema["function"]["name"] for schema in offered]
    assert {"ask_human", "finish"} <= set(names)
    if page.view == "unknown":  # a page the graph does not know: every tool, the model judges (but
        assert names == [n for n in NAMES if n != "answer_dialog"]  # answer_dialog: only while asked)
    else:
        assert all(DEMO_SHOP.refusal(name, page) is None for name in names)
    schema = step_schema(offered)
    assert strict_violations(schema, "next_step") == []
    jsonschema.Draft202012Validator.check_schema(schema)
    if not unions:  # as function tools, each stays a strict function
        for tool in offered:
            assert strict_violations(tool["function"]["parameters"], tool["function"]["name"]) == []


@settings(max_examples=60, deadline=None)
@given(page=pages.filter(lambda p: p.view == "restaurant"), data=st.data())
def test_a_step_for_a_dish_on_the_menu_validates_and_one_for_another_dish_does_not(
    page: PageState, data: st.DataObject
) -> None:
    on_sale = [dish for dish in page.menu if not dish.sold_out]
    schema = step_schema(DEMO_SHOP.offered(page, ALL, unions=True))
    validator = jsonschema.Draft202012Validator(schema)
    assume(on_sale)  # a menu all sold out is discarded, never passed unchecked
    dish = data.draw(st.sampled_from(on_sale))
    groups = {option.name: option for option in dish.options}
    chosen: dict[str, Any] = {
        name: data.draw(st.sampled_from(option.choices)) for name, option in groups.items() if option.required
    }
    extras = {name: option for name, option in groups.items() if not option.required}
    if extras and data.draw(st.booleans(), label="with extras"):  # the dish's second shape
        for name, option in extras.items():
            chosen[name] = data.draw(
                st.lists(st.sampled_from(option.choices), min_size=1, max_size=2, unique=True)
            )
    arguments = {"dish": dish.name, "quantity": 2, "options": chosen or None}
    step = {"step": {"tool": "add_to_cart", "arguments": arguments}}
    assert validator.is_valid(step), list(validator.iter_errors(step))
    name, raw = step_call(json.dumps(step)) or ("", "")
    parsed = parse_call(DEMO_SHOP.tools, name, raw)
    assert name == "add_to_cart" and not isinstance(parsed, str), parsed
    wanted = [
        f"{group}: {one}"
        for group, choice in chosen.items()
        for one in ([choice] if isinstance(choice, str) else choice)
    ]
    assert parsed.options == (wanted or None)  # type: ignore[attr-defined]
    invented = {"step": {"tool": "add_to_cart", "arguments": {**arguments, "dish": dish.name + " Deluxe"}}}
    assert not validator.is_valid(invented)
    for group, option in groups.items():
        if option.required:  # a required option cannot be left out, nor take another group's choice
            left_out = {**arguments, "options": {k: v for k, v in chosen.items() if k != group}}
            assert not validator.is_valid({"step": {"tool": "add_to_cart", "arguments": left_out}})
            foreign = {**arguments, "options": {**chosen, group: "Not " + option.choices[0]}}
            if foreign["options"][group] not in option.choices:
                assert not validator.is_valid({"step": {"tool": "add_to_cart", "arguments": foreign}})
    for group, option in extras.items():  # an extra is a list of the group's own, never an empty one
        for odd in ([], None, option.choices[0]):
            extra = {**arguments, "options": {**chosen, group: odd}}
            assert not validator.is_valid({"step": {"tool": "add_to_cart", "arguments": extra}})
    elsewhere = {"step": {"tool": "place_order", "arguments": {}}}  # not allowed on a menu page
    assert not validator.is_valid(elsewhere)


@settings(max_examples=40, deadline=None)
@given(
    slots=st.lists(text, min_size=1, max_size=6, unique=True),
    payments=st.lists(text, min_size=1, max_size=3, unique=True),
    data=st.data(),
)
def test_the_checkout_offers_only_its_own_delivery_times_and_payment_methods(
    slots: list[str], payments: list[str], data: st.DataObject
) -> None:
    form = CheckoutForm(slots=slots, payments=payments)
    page = PageState(
        view="checkout",
        cart_count=1,
        checkout=form,
        cart_lines=[CartLine(name="Tiramisu", quantity=1, total_cents=750)],
    )
    offered = DEMO_SHOP.offered(page, ALL, unions=True)
    assert strict_violations(step_schema(offered), "next_step") == []
    for tool in DEMO_SHOP.offered(page, ALL):  # as function tools too
        assert strict_violations(tool["function"]["parameters"], tool["function"]["name"]) == []
    validator = jsonschema.Draft202012Validator(step_schema(offered))
    details = {
        "name": "Ada",
        "address": "12 Oak Street",
        "phone": "555-0101",
        "promo_code": None,
        "tip_cents": None,
    }
    slot, payment = data.draw(st.sampled_from(slots)), data.draw(st.sampled_from(payments))

    def step(**fields: Any) -> dict[str, Any]:
        arguments = {**details, "delivery_slot": slot, "payment_method": payment, **fields}
        return {"step": {"tool": "fill_delivery_details", "arguments": arguments}}

    assert validator.is_valid(step()), list(validator.iter_errors(step()))
    assert validator.is_valid(step(delivery_slot=None, payment_method=None))  # leaving one as it is
    if "10:00 AM" not in slots:  # what the 1.5B wrote, three times, at the demo shop's checkout
        assert not validator.is_valid(step(delivery_slot="10:00 AM"))
    if "Bitcoin" not in payments:
        assert not validator.is_valid(step(payment_method="Bitcoin"))


def test_the_hint_names_each_allowed_tool_with_its_arguments_in_one_line() -> None:
    # (a dialog open: press_key is offered a small model only where a key lands)
    page = PageState(
        view="restaurants", restaurants=[RestaurantCard(name="Italian Bistro")], dialogs=["Deals"]
    )
    hint = step_hint(DEMO_SHOP.offered(page, ALL))
    assert (
        '- open_restaurant(name: "Italian Bistro"): Open a restaurant\'s page by its name, from any page.'
        in hint
    )
    assert "place_order" not in hint
    assert "e.g. Escape to close a popup" in hint  # "e.g." ends no sentence


def test_the_history_reads_as_plain_turns_that_start_the_same_every_turn() -> None:
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "S"},
        {"role": "user", "content": "goal"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "a", "type": "function", "function": {"name": "view_cart", "arguments": "{}"}},
                {"id": "b", "type": "function", "function": {"name": "read_page", "arguments": "not json"}},
            ],
        },
        {"role": "tool", "tool_call_id": "a", "content": "The cart is empty."},
        {"role": "tool", "tool_call_id": "b", "content": "Invalid arguments."},
        {"role": "user", "content": "Call a tool to go on."},
    ]
    plain = as_plain_messages(messages)
    assert [m["role"] for m in plain] == ["system", "user", "assistant", "user"]
    assert all("tool_calls" not in m for m in plain)
    assert plain[3]["content"].startswith("Result of view_cart:\nThe cart is empty.\n\nResult of read_page:")
    assert step_call(plain[2]["content"].splitlines()[0]) == ("view_cart", "{}")
    assert as_plain_messages(messages[:4]) == [
        *plain[:3],
        {"role": "user", "content": "Result of view_cart:\nThe cart is empty."},
    ]


@pytest.mark.parametrize(
    "content", ["", "prose", "[1]", '{"step": 3}', '{"step": {"tool": 1}}', '{"tool": "x"']
)
def test_text_that_is_no_step_reads_as_none(content: str) -> None:
    assert step_call(content) is None


TOOLS_NOW = DEMO_SHOP.offered(
    PageState(view="restaurants", restaurants=[RestaurantCard(name="Italian Bistro")]), ALL
)


def test_a_structured_model_sends_a_schema_not_tools_and_reads_the_step_as_a_call() -> None:
    step = {"step": {"tool": "open_restaurant", "arguments": {"name": "Italian Bistro"}}}
    fake = FakeOpenAI([Reply(content=json.dumps(step))])
    model = fake.model("m", steps="structured", max_reply_tokens=300)
    messages = [{"role": "system", "content": "S"}, {"role": "user", "content": "goal"}]
    reply = run_sync(model.complete(messages, TOOLS_NOW))
    [call] = reply.tool_calls
    assert (call.name, json.loads(call.arguments), reply.content) == (
        "open_restaurant",
        {"name": "Italian Bistro"},
        None,
    )
    [sent] = fake.requests
    assert "tools" not in sent and sent["response_format"] == step_format(TOOLS_NOW)
    assert sent["max_completion_tokens"] == 300
    assert sent["messages"][:2] == messages and sent["messages"][-1]["content"] == step_hint(TOOLS_NOW)


def test_a_structured_reply_cut_off_at_the_cap_stays_words_and_the_call_ids_are_unique() -> None:
    fake = FakeOpenAI([Reply(content='{"step": {"tool": "open_rest', finish_reason="length")])
    reply = run_sync(
        fake.model("m", steps="structured").complete([{"role": "user", "content": "g"}], TOOLS_NOW)
    )
    assert reply.tool_calls == [] and reply.finish_reason == "length"


def test_every_request_carries_a_cap_on_the_reply_and_tool_choice_when_asked() -> None:
    fake = FakeOpenAI([Reply(content="hi"), Reply(content="hi")])
    run_sync(fake.model("m").complete([{"role": "user", "content": "g"}], TOOLS_NOW))
    run_sync(
        fake.model("m", tool_choice="required", max_reply_tokens=None).complete(
            [{"role": "user", "content": "g"}], TOOLS_NOW
        )
    )
    first, second = fake.requests
    assert first["max_completion_tokens"] == 4096 and "tool_choice" not in first
    assert "max_completion_tokens" not in second and second["tool_choice"] == "required"


def test_an_error_object_in_place_of_a_reply_is_said_with_its_code_and_message() -> None:
    """llama.cpp streams a 500 it hits mid-reply as a chunk holding only {"error": {...}}."""
    import httpx2

    error = {"error": {"code": 500, "message": "Failed to parse tool call arguments", "type": "server_error"}}
    body = f"data: {json.dumps(error)}\n\n".encode()
    answers = [httpx2.Response(200, content=body, headers={"content-type": "text/event-stream"})] * 4
    fake = FakeOpenAI(answers)
    model: OpenAIModel = fake.model("m", stream=True, retry_delay=0)
    from webagent.errors import ModelError

    with pytest.raises(ModelError) as raised:
        run_sync(model.complete([{"role": "user", "content": "g"}], TOOLS_NOW))
    assert "answered HTTP 500 for model m: Failed to parse tool call arguments" in str(raised.value)


def test_an_error_object_in_a_whole_reply_is_said_too_not_as_no_choices() -> None:
    import httpx2

    from webagent.errors import ModelError

    error = {"error": {"code": 503, "message": "Loading model", "type": "unavailable_error"}}
    fake = FakeOpenAI([httpx2.Response(200, json=error)] * 4)
    with pytest.raises(ModelError) as raised:
        run_sync(fake.model("m", retry_delay=0).complete([{"role": "user", "content": "g"}], TOOLS_NOW))
    assert "answered HTTP 503: Loading model" in str(raised.value)
    assert "no choices" not in str(raised.value)


shop_pages = st.lists(
    st.sampled_from(
        [
            PageState(view="restaurants", restaurants=[RestaurantCard(name="Italian Bistro")]),
            PageState(
                view="restaurant",
                restaurant="Italian Bistro",
                menu=[
                    MenuItem(name="Lasagna al Forno", price_cents=1450),
                    MenuItem(name="Tiramisu", price_cents=650),
                ],
            ),
            PageState(
                view="restaurant",
                restaurant="Italian Bistro",
                menu=[MenuItem(name="Lasagna al Forno", price_cents=1450)],
                cart_lines=[CartLine(name="Lasagna al Forno", quantity=2, total_cents=2900)],
            ),
            PageState(view="checkout"),
        ]
    ),
    min_size=2,
    max_size=6,
)
spacing = st.sampled_from(["", " ", "\n", "  "])


@settings(max_examples=40, deadline=None)
@given(shop_pages, st.lists(spacing, min_size=6, max_size=6), st.booleans())
def test_each_prompt_is_the_last_one_with_the_reply_as_generated_and_what_is_new(
    seen: list[PageState], gaps: list[str], fixed: bool
) -> None:
    """Issue 38: nothing of a prompt is rewritten or moved in the next — its hint stays where it was sent,
    the reply stays as the model wrote it (whatever its spacing), and the next prompt adds the result and a
    new hint after them; so a server's prompt cache keeps everything but what is new."""
    replies = []
    for page, gap in zip(seen, gaps, strict=False):
        tool = DEMO_SHOP.offered(page, ALL)[0]["function"]["name"]
        replies.append(Reply(content=f'{{"step":{gap}{{"tool": "{tool}",{gap}"arguments":{gap}{{}}}}}}'))
    fake = FakeOpenAI(replies)
    model = fake.model("m", steps="structured")
    messages: list[dict[str, Any]] = [{"role": "system", "content": "S"}, {"role": "user", "content": "goal"}]
    for turn, page in enumerate(seen):
        reply = run_sync(model.complete(messages, DEMO_SHOP.offered(page, ALL)))
        [call] = reply.tool_calls
        messages.append(reply.to_message())
        messages.append({"role": "tool", "tool_call_id": call.id, "content": f"narration {turn}", "seen": {}})
        if fixed and turn == 1:  # a step taken without the model sits in the history too
            messages.append(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "fixed",
                            "type": "function",
                            "function": {"name": "view_cart", "arguments": "{}"},
                        }
                    ],
                }
            )
            messages.append({"role": "tool", "tool_call_id": "fixed", "content": "The cart is empty."})
    sent = [request["messages"] for request in fake.requests]
    for earlier, later, answer in zip(sent, sent[1:], replies, strict=False):
        assert later[: len(earlier)] == earlier
        assert later[len(earlier)] == {"role": "assistant", "content": answer.content}
    # A tool's line is written once as it is (but for one held to the page's values, written each turn it
    # is allowed: the step that makes progress is usually among them); every hint names the tools allowed.
    hints = [
        m["content"]
        for request in sent
        for m in request
        if m["role"] == "user" and "allowed now" in m["content"]
    ]
    lines = [
        line
        for hint in dict.fromkeys(hints)
        for line in hint.splitlines()
        if line.startswith("- ") and '"' not in line.split("):")[0]
    ]
    assert len(lines) == len(set(lines))


def test_llama_cpps_own_timings_come_with_the_usage_and_add_up() -> None:
    """A llama.cpp answer carries ``timings`` beside ``usage`` (the OpenAI SDK keeps unknown fields): the
    reply's usage has the seconds the server spent on the prompt and on the reply; other servers' have none."""
    answer = {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "qwen",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "hi"}}],
        "usage": {"prompt_tokens": 900, "completion_tokens": 12, "total_tokens": 912},
        "timings": {"prompt_n": 40, "prompt_ms": 1604.25, "predicted_n": 12, "predicted_ms": 2003.5},
    }
    usage = reply_from_completion(ChatCompletion.model_validate(answer)).usage
    assert (usage.prompt_ms, usage.generated_ms) == (1604.2, 2003.5)
    plain = reply_from_completion(ChatCompletion.model_validate({**answer, "timings": None})).usage
    assert (plain.prompt_ms, plain.generated_ms) == (None, None)
    assert (usage + plain).prompt_ms == 1604.2 and (plain + plain).prompt_ms is None
    turn = StreamedTurn()  # streamed: the timings may come in a chunk of their own, after the usage
    chunk = {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "qwen"}
    turn.add(
        ChatCompletionChunk.model_validate({**chunk, "choices": [{"index": 0, "delta": {"content": "hi"}}]})
    )
    turn.add(ChatCompletionChunk.model_validate({**chunk, "choices": [], "usage": answer["usage"]}))
    turn.add(ChatCompletionChunk.model_validate({**chunk, "choices": [], "timings": answer["timings"]}))
    assert (turn.usage.prompt_tokens, turn.usage.prompt_ms, turn.usage.generated_ms) == (900, 1604.2, 2003.5)
