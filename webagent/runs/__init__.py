"""One run from start to end: starting it, resuming it, replaying it, talking with it.

    runner.py    `start_run` / `resume_run`: shop, browser, model and loop put together for one run
    model_choice.py  which model a run talks to (`make_model`, `uses_planner`): planner, baseline,
                 local llama.cpp model, or an endpoint's
    recovery.py  reconciling an interrupted run with the shop before acting again (the journal)
    replay.py    re-running a recorded run's calls against a shop
    compare.py   what a replay compares (each call's result, the outcome) and what it only notes (popups)
    chat.py      a conversation: one run that goes on over several messages

    site_choice.py  which site a run drives (`RunConfig.site`) and where it opens: the one place the name
                 becomes the adapter (`webagent.sites.site_named`)

May import: agent, tools, browser, llm, planner, narration, `webagent.config`, errors, the site registry
(`webagent.sites`, never an adapter) and the embedded shop's server (demo_site, only when no URL is given).
Never report, evals, fleet or cli: whoever starts a run passes in its report hook (`webagent.start_run`
passes report.html's).
"""
