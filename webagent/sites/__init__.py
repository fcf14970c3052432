"""Site adapters: everything webagent knows of one particular site.

- `demo_shop` — the bundled demo shop's adapter, `DEMO_SHOP` (a `webagent.tools.site.Site`).

An adapter may import the generic layers (tools, browser, narration). None of them imports an
adapter: only runs/ and the people-facing edges (cli, voice, evals, fleet) choose one.
"""
