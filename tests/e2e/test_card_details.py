"""Card details a payment page asks for are entered by the person, never typed by the model (issue 40,
item 2: URL-mode elicitation): on a page written here, whose pay form posts to a local server that records
what the shop would have received.

- a model's `fill_field` into a card field is refused, nothing typed;
- a pay press approved with empty card fields and nobody to ask for them is not pressed;
- with a person to ask (a `CardEntry`), what they enter goes into the page's fields and the form is sent
  once — and the card number is in no narration, no transcript line and no file of the run folder;
- through `webagent mcp`, on the 2026-07-28 revision and on a handshake connection, the SDK's client is sent
  to a card page of the server's own (URL mode); the person's entry there reaches the shop's form; a decline
  sends nothing.
"""

from __future__ import annotations

import asyncio
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_types import CallToolResult, ElicitRequestParams, ElicitResult

from tests.served import Served, holding
from webagent.agent.checkpoint import RunFolder
from webagent.browser.cards import CardField
from webagent.browser.session import Browser
from webagent.config import RunConfig
from webagent.mcp_server import McpSettings
from webagent.mcp_server.server import build_with_handles
from webagent.runs.runner import start_run
from webagent.sync import run_sync
from webagent.testing import ScriptedModel, call, reply

CARD = "4242424242424242"
PAY = """<!doctype html><html><head><meta charset='utf-8'><title>Pay your bill</title></head><body>
<main><h1>Harbour Parking — pay your bill</h1><p>Amount due: $24.00</p>
<form method='post' action='/form'>
  <label>Email for the receipt <input name='email' type='email'></label>
  <label>Name on card <input name='holder' autocomplete='cc-name'></label>
  <label>Card number <input name='pan' autocomplete='cc-number' inputmode='numeric'></label>
  <label>Expiry <input name='exp' placeholder='MM/YY'></label>
  <label>CVC <input name='cvc' maxlength='4'></label>
  <button type='submit'>Pay $24.00</button>
</form></main></body></html>"""


@pytest.fixture
def pay_shop() -> Iterator[Served]:
    shop = Served(
        PAY, after="<!doctype html><body><main><h1>Paid, thank you</h1><p>Receipt sent.</p></main></body>"
    )
    yield shop
    shop.close()


def finish(messages: list[dict[str, Any]]) -> Any:
    text = next((m["content"] for m in reversed(messages) if m["role"] == "tool"), "") or ""
    return reply(call("finish", outcome="done", summary=(text.splitlines() or ["done"])[0][:300]))


MOVES = [
    reply(call("fill_field", label="Card number", text=CARD)),
    reply(call("fill_field", label="Email for the receipt", text="ada@example.com")),
    reply(call("press", name="Pay $24.00")),
]


def run(
    browser: Browser, url: str, runs: Path, prompt: Any = None
) -> tuple[Any, list[dict[str, Any]], list[str]]:
    model = ScriptedModel([*MOVES, finish])
    config = RunConfig(
        goal="Pay my parking bill", shop_url=url, runs_dir=runs, approve="auto", budget_cents=3000
    )
    extra = {} if prompt is None else {"prompt": prompt}
    result = run_sync(start_run(config, model=model, browser=browser, **extra))
    events = RunFolder(runs, result.run_id).transcript()
    said = [str(e.get("narration", "")) for e in events if e["event"] == "tool"]
    return result, events, said


class Person:
    """A terminal prompt that also takes card details (`CardEntry`): says yes, enters the card."""

    def __init__(self, values: dict[str, str] | None) -> None:
        self.values = values
        self.asked: list[tuple[str, list[str]]] = []

    def __call__(self, question: str) -> str:
        return "y"

    async def cards(self, question: str, fields: Sequence[CardField]) -> dict[int, str] | None:
        self.asked.append((question, [f.kind for f in fields]))
        if self.values is None:
            return None
        return {f.index: self.values[f.kind] for f in fields if f.kind in self.values}


ENTRY = {"card number": CARD, "expiry date": "12/30", "security code": "123", "name on card": "Ada Lovelace"}


def test_the_model_never_types_a_card_and_an_unfilled_card_form_is_not_paid(
    agent_browser: Browser, pay_shop: Served, tmp_path: Path
) -> None:
    _, _, said = run(agent_browser, pay_shop.url, tmp_path)
    assert said[0].startswith("Not typed:") and "card number" in said[0], said[0]
    assert said[1].startswith("Filled"), said[1]
    assert "Not pressed: the page asks for card details" in said[2], said[2]
    assert pay_shop.forms == [], pay_shop.forms
    # (The number the model wrote stays in its own call, which the transcript keeps as said; it reached no
    # page: nothing was typed, and the form was never sent.)


def test_what_the_person_enters_goes_into_the_page_and_nowhere_else(
    agent_browser: Browser, pay_shop: Served, tmp_path: Path
) -> None:
    person = Person(ENTRY)
    moves = [MOVES[1], MOVES[2]]  # a model that leaves the card to the person
    model = ScriptedModel([*moves, finish])
    config = RunConfig(
        goal="Pay my parking bill",
        shop_url=pay_shop.url,
        runs_dir=tmp_path,
        approve="auto",
        budget_cents=3000,
    )
    result = run_sync(start_run(config, model=model, browser=agent_browser, prompt=person))
    [(question, kinds)] = person.asked
    assert "$24.00" in question and sorted(kinds) == sorted(ENTRY), person.asked
    [form] = pay_shop.forms
    assert form["pan"] == [CARD] and form["cvc"] == ["123"] and form["exp"] == ["12/30"], form
    assert form["holder"] == ["Ada Lovelace"] and form["email"] == ["ada@example.com"], form
    assert holding(tmp_path, CARD) == [] and holding(tmp_path, "Ada Lovelace") == [], result.run_id
    events = RunFolder(tmp_path, result.run_id).transcript()
    [entered] = [e for e in events if e["event"] == "card_entered"]
    assert entered["asked"] == 4 and entered["entered"] == 4, entered


def test_a_person_who_enters_nothing_pays_nothing(
    agent_browser: Browser, pay_shop: Served, tmp_path: Path
) -> None:
    person = Person(None)
    model = ScriptedModel([MOVES[2], finish])
    config = RunConfig(
        goal="Pay my parking bill",
        shop_url=pay_shop.url,
        runs_dir=tmp_path,
        approve="auto",
        budget_cents=3000,
    )
    result = run_sync(start_run(config, model=model, browser=agent_browser, prompt=person))
    said = [
        str(e.get("narration", ""))
        for e in RunFolder(tmp_path, result.run_id).transcript()
        if e["event"] == "tool"
    ]
    assert "the person entered none" in said[0] and pay_shop.forms == [], said


# -- through webagent mcp ----------------------------------------------------------------------------------


class McpPerson:
    """The MCP client's person: approves the form, and at a link types the card into the page it opens."""

    def __init__(self, go: bool) -> None:
        self.go = go
        self.modes: list[str] = []

    async def __call__(self, context: Any, params: ElicitRequestParams) -> ElicitResult:
        mode = getattr(params, "mode", None) or "form"
        self.modes.append(mode)
        if mode != "url":
            return ElicitResult(action="accept", content={"approve": True})
        if not self.go:
            return ElicitResult(action="decline")
        url = params.url  # type: ignore[union-attr]
        await asyncio.to_thread(self._type_into, url)
        return ElicitResult(action="accept")

    @staticmethod
    def _type_into(url: str) -> None:
        page = urllib.request.urlopen(url).read().decode()  # the person's own browser, in short
        names = {
            kind: name
            for kind, name in zip(
                ["name on card", "card number", "expiry date", "security code"],
                [n.split("'")[0] for n in page.split("name='f")[1:]],
                strict=False,
            )
        }
        assert "Card number" in page and "$24.00" in page, page
        data = {f"f{names[k]}": v for k, v in ENTRY.items()} | {"go": "pay"}
        urllib.request.urlopen(url, data=urllib.parse.urlencode(data).encode()).read()


MCP_MOVES = [
    ("fill_field", {"label": "Email for the receipt", "text": "ada@example.com"}),
    ("press", {"name": "Pay $24.00"}),
]


def mcp_order(
    browser: Browser, shop: Served, runs: Path, person: McpPerson, mode: str
) -> list[CallToolResult]:
    config = RunConfig(runs_dir=runs, shop_url=shop.url)  # no --approve: the person is asked
    server, handles = build_with_handles(McpSettings(config, browser=browser), browser)

    async def scenario() -> list[CallToolResult]:
        async with Client(server, mode=mode, elicitation_callback=person) as client:  # type: ignore[arg-type]
            if mode == "2026-07-28":
                started = await client.call_tool("start_run", {})
                handle = {"run": (started.structured_content or {})["run"]}
            else:
                handle = {}
            results = [await client.call_tool(n, {**a, **handle}) for n, a in MCP_MOVES]
        await handles.close()
        return results

    return run_sync(scenario())


def text(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


@pytest.mark.parametrize("mode", ["2026-07-28", "legacy"])
def test_through_mcp_the_person_enters_the_card_on_a_page_of_the_servers_own(
    agent_browser: Browser, pay_shop: Served, tmp_path: Path, mode: str
) -> None:
    person = McpPerson(go=True)
    results = mcp_order(agent_browser, pay_shop, tmp_path / "runs", person, mode)
    assert not results[-1].is_error, text(results[-1])
    assert person.modes == ["form", "url"], person.modes
    [form] = pay_shop.forms
    assert form["pan"] == [CARD] and form["cvc"] == ["123"], form
    assert all(CARD not in text(r) and CARD not in str(r.structured_content) for r in results)
    assert holding(tmp_path, CARD) == [], holding(tmp_path, CARD)


def test_through_mcp_a_declined_link_pays_nothing(
    agent_browser: Browser, pay_shop: Served, tmp_path: Path
) -> None:
    person = McpPerson(go=False)
    results = mcp_order(agent_browser, pay_shop, tmp_path / "runs", person, "2026-07-28")
    assert results[-1].is_error and "Not pressed" in text(results[-1]), text(results[-1])
    assert pay_shop.forms == [] and person.modes == ["form", "url"], person.modes


PROMPT_PAGE = """<!doctype html><html><head><meta charset='utf-8'><title>Top up</title></head><body><main>
<h1>Top up your travel card</h1>
<button onclick="const c = prompt('Enter your card number'); if (c) fetch('/pay', {method: 'POST', body: c})">
Continue</button></main></body></html>"""


def test_a_page_prompt_asking_for_a_card_is_never_answered_by_the_model(
    agent_browser: Browser, pay_shop: Served, tmp_path: Path
) -> None:
    """A reviewer's case: the page asks for the card in a `prompt()`; the model's answer is refused."""
    moves = [
        reply(call("press", name="Continue")),
        reply(call("answer_dialog", accept=True, text=CARD)),
    ]
    pay_shop.page = PROMPT_PAGE
    model = ScriptedModel([*moves, finish])
    config = RunConfig(goal="Top up my card", shop_url=pay_shop.url, runs_dir=tmp_path, approve="auto")
    result = run_sync(start_run(config, model=model, browser=agent_browser))
    said = [
        str(e.get("narration", ""))
        for e in RunFolder(tmp_path, result.run_id).transcript()
        if e["event"] == "tool"
    ]
    assert len(said) > 1 and "asks for a card number" in said[1], said
    assert pay_shop.forms == [], pay_shop.forms
