"""Many runs: batch files, never a second order per line, and the Ray fan-out.

    lines.py        the batch file: `BatchLine`, parsing with line-numbered errors
    files.py        the results JSONL and the attempt log, appended and synced line by line
    settle.py       never a second order: an interrupted line settled with the shop before it runs again
    jobs.py         one line's attempt: `LineJob`, the `LineRunner` seam, `LocalRunner`, `WorkerLost`
    batch.py        ``webagent batch``: running the lines, the summary
    distributed.py  Ray: `BrowserWorker` actors with warm browsers, `RayPool`, `RayLineRunner`

May import: runs, agent, narration, browser, errors, report (each run's report.html, the progress bar),
tools.site (`OrderSessions`: the site's sessions and their orders, got from the run's site through
runs.site_choice — no adapter), demo_site (the embedded shop). Not evals: the eval sends
its work to a Ray worker as a function (`BrowserWorker.run_work`). Only cli and evals import fleet.
"""
