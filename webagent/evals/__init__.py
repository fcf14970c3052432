"""The eval: a task suite run against the shop and judged by what the shop's database holds.

    tasks.py         the task file (a contract): `Task`, `Expect`; parsing with line-numbered errors
    verify.py        the strict verifier: reads only the shop's database and the run's transcript
    stop_reasons.py  why a run ordered nothing, verified from its typed records and the shop's data
    shop_facts.py    the shop's ground truth (sold-out dishes, minimums, promo codes, menus): its DB or catalog
    suite.py         running a suite: each task in a fresh shop, verified as it ends; the baselines' suites
    summary.py       `TaskResult`, `SuiteReport`, the summary and the lines people read
    on_ray.py        the suite on Ray actors (``--ray``)
    command.py       ``webagent eval``

The baseline agents the scores are read beside are planners: webagent/planner/baselines.py.

May import: runs, agent, llm, planner, narration, browser, errors, report (the eval report, the progress
bar), fleet.distributed and fleet.jobs (the Ray pool) — no site adapter: a shared shop's sessions are the
site's (`Site.order_sessions`, through runs.site_choice); shop_facts reads the shop's database file and demo_site/catalog.json (as data, never its code).
Nothing below imports evals; fleet does not either.
"""
