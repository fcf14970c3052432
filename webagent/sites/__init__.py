"""Site adapters: what the generic layers know of a particular site.

- `base` — `Site`, the Protocol the toolbox, the browser session and the runs talk to;
- `demo_shop` — the bundled demo shop's adapter, `DEMO_SHOP`.

`base` may import tools, browser and narration; an adapter may import those and `base`. Only runs/
and the people-facing edges (cli, voice, evals, fleet) import an adapter.
"""
