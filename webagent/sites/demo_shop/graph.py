"""The demo shop's precondition graph: which tool may run in which view, what it needs, and where
it leads.

The earlier bot wrote these rules as prose ("only call after …") that the model was free to ignore.
Here they are data, checked before a tool touches the page, and printable (`webagent graph`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from webagent.errors import UsageError
from webagent.narration.state import PageState

__all__ = [
    "ANY",
    "CONDITIONS",
    "GRAPH",
    "VIEWS",
    "Condition",
    "Node",
    "edges",
    "offered",
    "possible",
    "refusal",
    "render",
]

VIEWS = ("restaurants", "restaurant", "checkout", "confirmation", "orders")
GENERIC = ("press", "fill_field", "choose_option", "press_key", "scroll_to_text")
"""The generic actions (webagent/tools/generic.py): no precondition, they narrate what they changed."""
ANY: frozenset[str] = frozenset(VIEWS)


@dataclass(frozen=True)
class Condition:
    """A fact about the page a tool needs, how to tell, and how to get there."""

    name: str
    holds: Callable[[PageState], bool]
    missing: str
    remedy: str


CONDITIONS = {
    "cart_not_empty": Condition(
        "cart_not_empty",
        lambda s: s.cart_count > 0,
        "the cart is empty",
        "open_restaurant and add_to_cart first",
    ),
    "minimum_reached": Condition(
        "minimum_reached",
        lambda s: s.cart_count > 0 and not s.min_order_notice,
        "the restaurant's minimum order is not reached",
        "add_to_cart more dishes (view_cart shows how much is missing)",
    ),
    "details_complete": Condition(
        "details_complete",
        lambda s: s.checkout is not None and not s.checkout.missing(),
        "delivery details are incomplete",
        "fill_delivery_details",
    ),
}


@dataclass(frozen=True)
class Node:
    """One tool in the graph: the views it runs from, the conditions it needs, the view it leads to."""

    tool: str
    runs_from: frozenset[str] = ANY
    needs: tuple[str, ...] = ()
    leads_to: str | None = None  # None: stays in the view it ran from
    anywhere: bool = False
    """Runs on any page at all, the shop's or not (the generic actions)."""


GRAPH: dict[str, Node] = {
    node.tool: node
    for node in (
        Node("search_restaurants", leads_to="restaurants"),
        Node("open_restaurant", leads_to="restaurant"),
        Node("back_to_restaurants", runs_from=ANY - {"restaurants"}, leads_to="restaurants"),
        Node("add_to_cart", runs_from=frozenset({"restaurant"})),
        Node("view_cart"),
        Node("change_quantity", needs=("cart_not_empty",)),
        Node("remove_from_cart", needs=("cart_not_empty",)),
        Node(
            "go_to_checkout",
            runs_from=ANY - {"checkout"},
            needs=("cart_not_empty", "minimum_reached"),
            leads_to="checkout",
        ),
        Node("fill_delivery_details", runs_from=frozenset({"checkout"})),
        Node(
            "place_order",
            runs_from=frozenset({"checkout"}),
            needs=("cart_not_empty", "details_complete"),
            leads_to="confirmation",
        ),
        Node("view_order_history", leads_to="orders"),
        *(Node(name, anywhere=True) for name in GENERIC),
        Node("answer_dialog", anywhere=True),
        Node("recent_actions"),
        Node("read_page", anywhere=True),
        Node("read_reviews", runs_from=frozenset({"restaurant"})),
        Node("read_dish", runs_from=frozenset({"restaurant"})),
        Node("ask_human"),
        Node("finish"),
    )
}

# Always possible, so not worth repeating in every narration's "Next:" line.
ALWAYS = frozenset({"recent_actions", "read_page", "ask_human", "finish", *GENERIC})
# Page text a model reads only when it asks for it (reviews, descriptions): not offered in "Next:".
ON_DEMAND = frozenset({"read_reviews", "read_dish"})
WHEN_ASKED = frozenset({"answer_dialog"})
"""Offered only while a page's question was answered Cancel: the toolbox adds it then (`Toolbox.offered`)."""
UNCONDITIONAL = (
    ALWAYS
    | ON_DEMAND
    | WHEN_ASKED
    | {"search_restaurants", "open_restaurant", "view_cart", "view_order_history"}
)

VIEW_PHRASES = {
    "restaurants": "the restaurant list",
    "restaurant": "an open restaurant page",
    "checkout": "the checkout page",
    "confirmation": "the order confirmation",
    "orders": "the order history",
}


def _runs_here(node: Node, state: PageState) -> bool:
    return node.anywhere or state.view in node.runs_from


def refusal(tool: str, state: PageState) -> str | None:
    """Why ``tool`` may not run on this page and which tool gets there — or None when it may."""
    node = GRAPH[tool]
    if not _runs_here(node, state):
        needed = sorted(node.runs_from)
        wanted = " or ".join(VIEW_PHRASES[view] for view in needed)
        here = VIEW_PHRASES.get(state.view, "a page that is not one of the shop's")
        routes = [
            other.tool
            for other in GRAPH.values()
            if other.leads_to in node.runs_from and _runs_here(other, state)
        ]
        hint = f" — call {' or '.join(routes)}" if routes else ""
        return f"{tool} needs {wanted}; you are at {here}{hint}."
    for name in node.needs:
        condition = CONDITIONS[name]
        if not condition.holds(state):
            return f"{tool} cannot run: {condition.missing} — {condition.remedy}."
    return None


def possible(state: PageState) -> list[str]:
    """Tools whose preconditions hold now, in graph order, leaving out those that always may run."""
    return [tool for tool in GRAPH if tool not in UNCONDITIONAL and refusal(tool, state) is None]


# Offered in every turn when a model is offered only what it can use now (`offered`): the ways to
# another page, a fuller look, a person, the end, and a press for what the tools do not cover.
CORE = frozenset({"search_restaurants", "open_restaurant", "view_cart", "read_page", "press", "press_key"})
CORE_LOOP = frozenset({"ask_human", "finish"})


def offered(state: PageState) -> list[str]:
    """The tools worth offering a model on this page, in graph order: those whose preconditions hold
    (`possible`), the core ones, ``ask_human`` and ``finish``. On a page not the shop's (one read as any page:
    a title, a heading, a form), the tools that work on any page; on another view the graph does not know,
    all."""
    if state.any_page:
        # a page not the shop's, read as any page (webagent/sites/generic/): the shop's own tools have
        # nothing to act on there; what works on any page does
        return [
            tool
            for tool in GRAPH
            if (GRAPH[tool].anywhere or tool in ALWAYS | CORE_LOOP) and tool not in WHEN_ASKED
        ]
    if state.view not in VIEWS:
        return [tool for tool in GRAPH if tool not in WHEN_ASKED]
    now = set(possible(state)) | CORE | CORE_LOOP
    if not state.cart_count and not state.cart_lines:
        now.discard("view_cart")  # the page line says the cart is empty (the 0.5B opened it three times)
    if not state.focused and not state.dialogs:
        # A key lands on the focused field or a dialog; with neither, the shop's own tools do what a key
        # could (the 1.5B pressed Enter three times at the open cart drawer instead of go_to_checkout).
        now.discard("press_key")
    return [tool for tool in GRAPH if tool in now]


def edges() -> list[tuple[str, str, str]]:
    """Every (from view, tool, to view) edge of the graph, self-loops included."""
    found = []
    for node in GRAPH.values():
        if node.tool in ALWAYS | WHEN_ASKED:
            continue
        for view in VIEWS:
            if view in node.runs_from:
                found.append((view, node.tool, node.leads_to or view))
    return found


def render(fmt: str = "mermaid") -> str:
    """The graph as Mermaid (default) or Graphviz DOT text; edges labelled with tool and conditions."""

    def label(tool: str) -> str:
        needs = GRAPH[tool].needs
        return f"{tool} [{', '.join(needs)}]" if needs else tool

    if fmt == "mermaid":
        lines = ["flowchart LR"]
        lines += [f"  {src} -- {label(tool)!r} --> {dst}".replace("'", '"') for src, tool, dst in edges()]
        lines.append(f"  %% always available: {', '.join(sorted(ALWAYS))}")
        return "\n".join(lines)
    if fmt == "dot":
        lines = ["digraph webagent {", "  rankdir=LR;"]
        lines += [f'  {src} -> {dst} [label="{label(tool)}"];' for src, tool, dst in edges()]
        lines.append(f"  // always available: {', '.join(sorted(ALWAYS))}")
        lines.append("}")
        return "\n".join(lines)
    raise UsageError(f"unknown graph format {fmt!r}; use mermaid or dot")
