"""Seeing runs, for people: report.html, eval-report.html, the list of runs, the live view, the progress bar.

    record.py    a run folder read back: `RunRecord` (turns, steps, notes), the list of runs
    html.py      the HTML of both reports: pure functions; the eval's results read through Protocols
    write.py     writing report.html and eval-report.html (`write_report` is the runner's report hook)
    live.py      the live view of a run in the terminal
    progress.py  the one progress bar of many runs (batch, eval, on Ray)

May import: agent (checkpoint, results), `webagent.config`, narration (money). Not evals, fleet or cli:
what it shows of them comes in as plain data or Protocols. Nothing in runs or below imports report.
"""
