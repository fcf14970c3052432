"""What a planner's question or answer says of the shop is what the shop's pages showed, no more (issue 39):
a restaurant a search lists may have come up for a tag, not a dish on its menu ("Order something hawaiian"
was asked as "Several restaurants sell hawaiian: … Pizza Planet or Poke Paradise?", and only Pizza Planet's
menu names it). A property over generated search results: whatever each search finds, the planner names
only restaurants a search listed, and claims no restaurant sells anything."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shop_double import ShopDouble
from webagent.narration import said
from webagent.narration.narrate import Narration, narrate
from webagent.narration.seen import tool_message
from webagent.narration.state import RestaurantCard
from webagent.planner import Planner
from webagent.runs.runner import opening_said
from webagent.sync import run_sync

OPENING = narrate(Narration(said=opening_said(ShopDouble().page()), after=ShopDouble().page()))
NAMES = [card.name for card in ShopDouble().page().restaurants]
# words no restaurant is named for, so the planner has to search (written for this test)
WANTED = ["something hawaiian", "a curry", "2 spring rolls and a mango lassi", "a veggie wrap", "dumplings"]
CLAIMS = re.compile(r"\b(sells?|serves?|has|have|with)\b", re.IGNORECASE)


def converse(goal: str, finds: Callable[[str], list[str]]) -> tuple[str, str, set[str]]:
    """The planner on ``goal`` while every search finds what ``finds`` gives its query; (how it ended:
    "ask", "finish" or "open", its words, every restaurant a search listed)."""
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "…"},
        {"role": "user", "content": f"{goal}\n\n{OPENING}"},
    ]
    listed: set[str] = set()
    for turn in range(12):
        reply = run_sync(Planner().complete(messages, []))
        if not reply.tool_calls:
            return "finish", reply.content or "", listed
        tool = reply.tool_calls[0]
        args = json.loads(tool.arguments)
        if tool.name == "ask_human":
            return "ask", f"{args['question']} {args.get('choices') or ''}", listed
        if tool.name == "finish":
            return "finish", str(args.get("summary", "")), listed
        if tool.name == "open_restaurant":  # the one restaurant every search found: no claim made
            return "open", str(args.get("name", "")), listed
        assert tool.name == "search_restaurants", (tool.name, args)
        query = str(args.get("query", ""))
        names = finds(query)
        listed |= set(names)
        result = said.searched(query, [RestaurantCard(name=name) for name in names]).said
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{turn}", "type": "function", "function": {"name": tool.name, "arguments": tool.arguments}}
        ]})  # fmt: skip
        messages.append(tool_message(f"c{turn}", result))
    raise AssertionError("the planner neither asked nor finished")


@settings(max_examples=60, deadline=None)
@given(
    goal=st.sampled_from(WANTED),
    lists=st.lists(st.lists(st.sampled_from(NAMES), max_size=4, unique=True), min_size=1, max_size=3),
    ask=st.booleans(),
)
def test_the_planner_says_only_what_a_search_listed(goal: str, lists: list[list[str]], ask: bool) -> None:
    words = f"Which restaurants have {goal.split(' ', 1)[-1]}?" if ask else f"Order {goal}"
    queries: list[str] = []

    def finds(query: str) -> list[str]:
        """The first search finds lists[0], each later one the next list (a search per dish, narrowed)."""
        if query not in queries:
            queries.append(query)
        return lists[min(queries.index(query), len(lists) - 1)]

    _, text, listed = converse(words, finds)
    named, rest = set(), text
    for name in sorted(NAMES, key=len, reverse=True):  # "Sushi House Premium" before "Sushi House"
        if name in rest:
            named.add(name)
            rest = rest.replace(name, "")
    assert named <= listed, (text, listed)
    assert not CLAIMS.search(rest), text
