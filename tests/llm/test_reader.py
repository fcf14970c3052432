"""`LLMReader` through the real openai SDK against `FakeOpenAI` served over HTTP as llama.cpp serves: what
it sends (a strict JSON schema, the menu, greedy decoding, a reply cap), what it makes of good replies (the
model's names matched to the menu's, as the rules match them), and None for every kind of bad one.

The real model reads real corpus goals in tests/llm/test_local_model.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from openai import OpenAI

from webagent.llm.protocol import Reply
from webagent.llm.reader import FORMS, MENDED, NOT_ON_MENU, LLMReader, messages_for, reading_schema, shown
from webagent.llm.schemas import strict_violations
from webagent.planner.menu import Menu
from webagent.planner.reading import Fallback, Reading, Want
from webagent.testing.fake_openai import FakeOpenAI, status

ROOT = Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "demo_site" / "catalog.json").read_text(encoding="utf-8"))
MENUS = {r["name"]: Menu.from_catalog(r) for r in CATALOG["restaurants"]}
BISTRO = MENUS["Italian Bistro"]
GOAL = "two lasagne al forno, no wait, three, a large margherita and if the tiramisu's gone nothing. $40 max all in"


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("stated", [True, False])
def test_the_reply_schema_is_in_openais_strict_subset_for_every_menu(form: str, stated: bool) -> None:
    for name, menu in MENUS.items():
        schema = reading_schema(menu, form, fallbacks=stated, budget=stated)
        assert strict_violations(schema, "order") == [], name


def test_words_with_no_condition_or_money_offer_no_fallback_or_budget(served: tuple[FakeOpenAI, str]) -> None:
    """A swap is no fallback, a count no budget: where the words hold neither, the grammar offers neither
    (measured on the 1.5B: a swap was read as "if the new dish is unavailable, the old one")."""
    fake, url = served
    fake.responses.append(reply(items=[{"dish": "Lemonade", "quantity": 1, "choices": []}]))
    client = OpenAI(base_url=url, api_key="local", max_retries=0, timeout=5)
    words = "a tiramisu and a lemonade from italian bistro, actually swap the tiramisu for a caesar salad"
    assert LLMReader(client=client, model="m").read(words, BISTRO) is not None
    schema = fake.requests[-1]["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["fallbacks"]["maxItems"] == 0
    assert schema["properties"]["budget_dollars"] == {"type": "null"}
    assert schema == reading_schema(shown(words, BISTRO), "names", fallbacks=False, budget=False)


def test_enums_hold_the_names_to_the_menu() -> None:
    schema = reading_schema(BISTRO, "enums")
    dish = schema["properties"]["items"]["items"]["properties"]["dish"]
    assert dish["enum"] == [*BISTRO.names, NOT_ON_MENU]
    assert "enum" not in reading_schema(BISTRO, "names")["properties"]["items"]["items"]["properties"]["dish"]


@pytest.fixture
def served() -> Iterator[tuple[FakeOpenAI, str]]:
    fake = FakeOpenAI([], profile="llama.cpp")
    with fake.serve() as url:
        yield fake, url


def read(fake: FakeOpenAI, url: str, *replies: object, form: str = "names") -> object:
    fake.responses.extend(replies)  # type: ignore[arg-type]
    client = OpenAI(base_url=url, api_key="local", max_retries=0, timeout=5)
    return LLMReader(client=client, model="m", form=form).read(GOAL, BISTRO)


def reply(**fields: object) -> Reply:
    body = {
        "items": [],
        "leave_out": [],
        "fallbacks": [],
        "budget_dollars": None,
        "budget_includes_fees": None,
    }
    return Reply(content=json.dumps({**body, **fields}))


def test_a_good_reply_is_the_menus_names_and_the_request_is_held_to_the_schema(
    served: tuple[FakeOpenAI, str],
) -> None:
    fake, url = served
    got = read(
        fake,
        url,
        reply(
            items=[
                {"written": "three", "dish": "lasagne al forno", "quantity": 3, "choices": []},
                {
                    "written": "a large margherita",
                    "dish": "Margherita Pizzas",
                    "quantity": 1,
                    "choices": ["large"],
                },
                {"written": "tiramisu", "dish": "Tiramisu", "quantity": 1, "choices": []},
            ],
            fallbacks=[{"instead_of": "tiramisu", "take": None}],
            budget_dollars=40,
            budget_includes_fees=True,
        ),
    )
    assert got is not None
    assert got.items == (  # type: ignore[attr-defined]
        Want("Lasagna al Forno", 3),
        Want("Margherita Pizza", 1, ("Large",)),
        Want("Tiramisu", 1),
    )
    assert got.fallbacks == (Fallback("Tiramisu", None),)  # type: ignore[attr-defined]
    assert (got.budget_cents, got.budget_includes_fees, got.off_menu) == (4000, True, ())  # type: ignore[attr-defined]
    [body] = fake.requests
    assert body["response_format"]["json_schema"]["strict"] is True
    assert body["response_format"]["json_schema"]["schema"] == reading_schema(shown(GOAL, BISTRO), "names")
    assert body["temperature"] == 0.0 and body["max_tokens"] <= 400
    asked = body["messages"][-1]["content"]
    assert GOAL in asked and '"Lasagna al Forno"' in asked
    # Only the dishes the words name are shown (a small model shown a whole menu orders from it).
    assert '"Spaghetti Carbonara"' not in asked and '"Tiramisu"' in asked


def test_a_goal_that_names_no_dish_is_shown_the_whole_menu() -> None:
    assert shown("something vegetarian please", BISTRO) == BISTRO
    assert [d.name for d in shown("2 lasagne and a large margherita", BISTRO).dishes] == [
        "Margherita Pizza",
        "Lasagna al Forno",
    ]


def test_what_the_menu_lacks_is_kept_as_written_never_dropped(served: tuple[FakeOpenAI, str]) -> None:
    fake, url = served
    got = read(
        fake,
        url,
        reply(
            items=[
                {"written": "a calzone", "dish": "Calzone", "quantity": 1, "choices": []},
                {
                    "written": "extra hot lasagna",
                    "dish": "Lasagna al Forno",
                    "quantity": 1,
                    "choices": ["Extra hot"],
                },
            ]
        ),
    )
    assert got is not None
    assert got.off_menu == ("a calzone", "Lasagna al Forno: Extra hot")  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "bad",
    [
        Reply(content="Sure! Three lasagne."),
        Reply(content=json.dumps(["Lasagna al Forno", 3])),
        Reply(content=json.dumps({"dishes": []})),
        reply(items=[{"written": "x", "dish": "Tiramisu", "quantity": 0, "choices": []}]),
        reply(items=[{"written": "x", "dish": "Tiramisu", "quantity": "3", "choices": []}]),
        reply(fallbacks=["Tiramisu"]),
        Reply(content=None),
        status(500, "model crashed"),
    ],
    ids=[
        "prose",
        "a-list",
        "no-items",
        "zero",
        "a-string-count",
        "a-bare-fallback",
        "no-content",
        "http-500",
    ],
)
def test_a_bad_reply_is_no_reading(served: tuple[FakeOpenAI, str], bad: object) -> None:
    fake, url = served
    assert read(fake, url, bad) is None


def test_the_second_look_lists_every_dish_mentioned_and_keeps_only_what_was_ordered(
    served: tuple[FakeOpenAI, str],
) -> None:
    """`read_again` asks in the ``mentions`` form: every dish the words mention with what became of it; the
    lines dropped (corrected, swapped out, not wanted) are not the order. The first look's worked examples
    show the ordered lines alone, as before."""
    fake, url = served
    words = "a tiramisu and a lemonade from italian bistro, actually swap the tiramisu for a caesar salad"
    fake.responses.append(
        reply(
            items=[
                {"dish": "Tiramisu", "quantity": 1, "choices": [], "status": "dropped"},
                {"dish": "lemonade", "quantity": 1, "choices": [], "status": "order"},
                {"dish": "Caesar Salad", "quantity": 1, "choices": [], "status": "order"},
            ]
        )
    )
    client = OpenAI(base_url=url, api_key="local", max_retries=0, timeout=5)
    reader = LLMReader(client=client, model="m")
    got = reader.read_again(words, BISTRO)
    assert got is not None and got.items == (Want("Lemonade", 1), Want("Caesar Salad", 1))
    [body] = fake.requests
    line = body["response_format"]["json_schema"]["schema"]["properties"]["items"]["items"]
    assert line["properties"]["status"] == {"type": "string", "enum": ["order", "dropped"]}
    assert "status" in line["required"]
    shown_examples = [m["content"] for m in body["messages"] if m["role"] == "assistant"]
    assert any('"dropped"' in example for example in shown_examples)
    first_look = LLMReader(client=client, model="m")
    fake.responses.append(reply(items=[{"dish": "Lemonade", "quantity": 1, "choices": []}]))
    first_look.read(words, BISTRO)
    assert not any(
        "status" in m["content"] for m in fake.requests[-1]["messages"] if m["role"] == "assistant"
    )


def test_a_reader_without_a_second_form_looks_once(served: tuple[FakeOpenAI, str]) -> None:
    fake, url = served
    client = OpenAI(base_url=url, api_key="local", max_retries=0, timeout=5)
    assert LLMReader(client=client, model="m", again=None).read_again(GOAL, BISTRO) is None
    assert fake.requests == []


def test_a_mended_reading_is_asked_with_the_first_reading_and_why_it_was_not_agreed(
    served: tuple[FakeOpenAI, str],
) -> None:
    """`read_mended`: the conversation of the first look, the model's own reading as its reply, then the
    checks' objection; what comes back is parsed as any reading (the menu's names matched). Without
    ``mend`` nothing is asked."""
    fake, url = served
    words = "two, no wait, three lasagna al forno from italian bistro pls"
    first = Reading(by="model", restaurant="Italian Bistro", items=(Want("Lasagna al Forno", 5),))
    why = 'it reads 5 × "Lasagna al Forno", but the words write 3'
    fake.responses.append(reply(items=[{"dish": "lasagna al forno", "quantity": 3, "choices": []}]))
    client = OpenAI(base_url=url, api_key="local", max_retries=0, timeout=5)
    got = LLMReader(client=client, model="m").read_mended(words, BISTRO, first, why)
    assert got is not None and got.items == (Want("Lasagna al Forno", 3),) and got.by == MENDED
    [body] = fake.requests
    *asked, shown_back, told = body["messages"]
    assert asked == messages_for(words, shown(words, BISTRO), "names")
    assert shown_back["role"] == "assistant"
    assert json.loads(shown_back["content"])["items"] == [
        {"dish": "Lasagna al Forno", "quantity": 5, "choices": []}
    ]
    assert told["role"] == "user" and why in told["content"]
    assert body["temperature"] == 0.0 and body["response_format"]["json_schema"]["strict"] is True
    assert LLMReader(client=client, model="m", mend=False).read_mended(words, BISTRO, first, why) is None
    assert len(fake.requests) == 1


def test_a_reading_this_reader_made_is_shown_back_as_the_model_wrote_it(
    served: tuple[FakeOpenAI, str],
) -> None:
    """The mend shows the model its own reply (names as it spelled them, what it read off the menu), not a
    reading rewritten from the parsed one."""
    fake, url = served
    written = {
        "items": [
            {"dish": "lasagne al forno", "quantity": 5, "choices": []},
            {"dish": "garlic bread", "quantity": 3, "choices": []},
        ],
        "fallbacks": [],
        "budget_dollars": None,
        "budget_includes_fees": None,
    }
    fake.responses.append(reply(**{k: v for k, v in written.items() if k in ("items", "fallbacks")}))
    client = OpenAI(base_url=url, api_key="local", max_retries=0, timeout=5)
    reader = LLMReader(client=client, model="m")
    words = "two, no wait, three lasagna al forno from italian bistro pls"
    first = reader.read(words, BISTRO)
    assert first is not None and first.off_menu  # "garlic bread" is not on the menu
    fake.responses.append(reply(items=[{"dish": "Lasagna al Forno", "quantity": 3, "choices": []}]))
    reader.read_mended(words, BISTRO, first, "it reads 5, but the words write 3")
    shown_back = fake.requests[-1]["messages"][-2]
    assert json.loads(shown_back["content"])["items"] == written["items"]
