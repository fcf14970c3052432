"""The loop and its guardrails, for one run.

    loop.py        `Agent`: ask the model, run the calls it made, append the narrations, repeat
    prompt.py      the system prompt
    controls.py    the calls the loop settles itself: place_order's gate, ask_human, finish's integrity
    claims.py      what a finish "done" may claim off the shop: not a form filled in and never sent
    approval.py    the approval gate (ask/auto/deny/pause, budget) and the channel to the person
    anchor.py      automatic approval anchored to the person's words, never the page's
    checkpoint.py  the run's state (`Checkpoint`) and its folder: transcript, journal, durable saves
    result.py      `RunResult`, how a run ended

May import: tools (the `ToolRunner` seam, results), llm.protocol, planner (goal reading, for the
anchor), narration, `webagent.config`, `webagent.sync` (the prompt's thread), errors. Never runs, report, evals, fleet, cli or a site adapter.
"""
