"""One run from start to end: starting it, resuming it, replaying it, talking with it.

    runner.py    `start_run` / `resume_run`: shop, browser, model and loop put together for one run
    model_choice.py  which model a run talks to (`make_model`, `uses_planner`): planner, baseline,
                 local llama.cpp model, or an endpoint's
    recovery.py  reconciling an interrupted run with the shop before acting again (the journal)
    replay.py    re-running a recorded run's calls against a shop
    compare.py   what a replay compares (each call's result, the outcome) and what it only notes (popups)
    chat.py      a conversation: one run that goes on over several messages

May import: agent, tools, browser, llm, planner, narration, `webagent.config`, errors, and the site
adapter it runs (sites.demo_shop). Never report, evals, fleet or cli: whoever starts a run passes in
its report hook (`webagent.start_run` passes report.html's).
"""
