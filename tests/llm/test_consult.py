"""`LocalConsultant` through the real openai SDK against `FakeOpenAI` served over HTTP as llama.cpp
serves (profile ``llama.cpp``): what it sends (a JSON schema holding the reply to the labels), what it
makes of good replies, and the cautious answer to every kind of bad one."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from openai import OpenAI

from webagent.llm.consult import LocalConsultant, label_schema
from webagent.llm.protocol import Reply
from webagent.planner.consult import WORD_LABELS, WORDS
from webagent.testing.fake_openai import FakeOpenAI, status

OPTIONS = ["guys", "Tuna Sashimi"]


def consultant(url: str) -> LocalConsultant:
    return LocalConsultant(client=OpenAI(base_url=url, api_key="local", max_retries=0, timeout=5), model="m")


@pytest.fixture
def served() -> Iterator[tuple[FakeOpenAI, str]]:
    fake = FakeOpenAI([], profile="llama.cpp")
    with fake.serve() as url:
        yield fake, url


def ask(fake: FakeOpenAI, url: str, *replies: object) -> dict[str, str]:
    fake.responses.extend(replies)  # type: ignore[arg-type]
    return consultant(url).classify(WORDS, "you guys rock, and a Tuna Sashimi", OPTIONS, WORD_LABELS)


def test_a_good_reply_labels_each_option_and_the_request_holds_it_to_the_labels(
    served: tuple[FakeOpenAI, str],
) -> None:
    fake, url = served
    got = ask(fake, url, Reply(content=json.dumps({"guys": "not food", "Tuna Sashimi": "food to order"})))
    assert got == {"guys": "not food", "Tuna Sashimi": "food to order"}
    [body] = fake.requests
    schema = body["response_format"]["json_schema"]["schema"]
    assert schema == label_schema(OPTIONS, WORD_LABELS)
    assert schema["required"] == OPTIONS and schema["additionalProperties"] is False
    assert body["temperature"] == 0.0 and "you guys rock" in body["messages"][-1]["content"]


@pytest.mark.parametrize(
    "reply",
    [
        Reply(content="Sure! 'guys' is not food."),  # prose, not JSON
        Reply(content=json.dumps(["not food", "food to order"])),  # JSON, not the object
        Reply(content=json.dumps({"guys": "a person"})),  # a label nobody offered, an option left out
        Reply(content=None),
        status(500, "model crashed"),
    ],
    ids=["prose", "a-list", "unknown-label", "no-content", "http-500"],
)
def test_a_bad_reply_gets_the_cautious_answer(served: tuple[FakeOpenAI, str], reply: object) -> None:
    fake, url = served
    got = ask(fake, url, reply)
    assert got == dict.fromkeys(OPTIONS, WORD_LABELS[1])


def test_nothing_to_label_asks_nothing(served: tuple[FakeOpenAI, str]) -> None:
    fake, url = served
    assert consultant(url).classify(WORDS, "", [], WORD_LABELS) == {}
    assert fake.requests == []
