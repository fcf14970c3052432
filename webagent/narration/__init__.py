"""What the model reads: page-state snapshots, narration, result sentences, names — pure functions.

    state.py    `PageState` and the values it holds (menus, cart lines, the checkout form)
    seen.py     `Seen`: what a page state showed, as the small typed record a transcript's tool event keeps
    narrate.py  a tool result's lines from two page states: what changed, the ``Page:`` line, listings
    said.py     each tool's first sentence, success and failure shapes
    names.py    names as a person writes them, resolved against the names on the page
    money.py    ``$12.34`` both ways: the one formatter and the one parser of amounts
    lines.py    cart and order line names both ways: ``2 × Margherita Pizza (Large, Bacon)``
    consent.py  which control of an overlay declines it, and which would accept, subscribe or consent

A sentence the planner or the approval anchor reads back has its reader beside its writer (said.py,
narrate.py), and tests/narration/test_sentences.py checks each reads back what it wrote.

It may import only the standard library, pydantic and rapidfuzz: no browser code, nothing else of webagent,
so the planner, the agent, the tools and the browser layer can all use it.
"""
