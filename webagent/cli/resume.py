"""``webagent resume``: settle a paused run's approval or question and go on, or finish an
interrupted one without ever placing its order twice."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from webagent.cli.config import run_location
from webagent.cli.flags import model_flags, quiet_flag, runs_dir_flag, watch_flags, window_flags
from webagent.cli.output import finish, live_view

__all__ = ["NAME", "add_parser", "execute"]

NAME = "resume"


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    resume = commands.add_parser(
        NAME,
        help="continue a paused or interrupted run",
        description="Settle a paused run's pending approval or question and go on. An interrupted run "
        "(killed, Ctrl-C) first asks the shop whether its order exists: if so it is reported, never "
        "placed twice; otherwise the run goes on from its checkpoint. A finished run reports its result.",
    )
    resume.add_argument(
        "run_id",
        metavar="RUN",
        help="the run id (printed when it paused; the run folder's name), or its folder",
    )
    decision = resume.add_mutually_exclusive_group()
    decision.add_argument("--approve", action="store_true", default=None, help="approve the pending order")
    decision.add_argument("--deny", action="store_true", help="deny the pending order")
    resume.add_argument("--answer", metavar="TEXT", help="answer the pending question")
    resume.add_argument(
        "--site",
        metavar="NAME",
        help="the run's own site adapter, when it is one of yours (package.module:NAME): named here, since "
        "webagent never imports an adapter a run folder alone names",
    )
    model_flags(resume)
    watching = resume.add_argument_group("display and debugging")
    window_flags(watching)
    watch_flags(watching)
    runs_dir_flag(watching)
    watching.add_argument("--json", action="store_true", help="print exactly one JSON object on stdout")
    quiet_flag(watching)


def execute(args: argparse.Namespace) -> int:
    from webagent.agent.checkpoint import RunFolder
    from webagent.agent.result import RunResult
    from webagent.llm.protocol import close_model
    from webagent.report.write import write_report
    from webagent.runs.model_choice import check_model_choice
    from webagent.runs.runner import make_model, resume_run
    from webagent.runs.site_choice import named_by_you
    from webagent.sync import run_sync

    approve = True if args.approve else (False if args.deny else None)
    # In args too: an error's JSON object (output.failure_json) names the run.
    args.runs_dir, args.run_id = run_location(args.run_id, args.runs_dir)
    state = RunFolder.find(args.runs_dir, args.run_id).load()
    if state.status == "finished" and state.result is not None:
        print(f"webagent: run {args.run_id} already finished; nothing to resume", file=sys.stderr)
        message = f"run already finished: {state.result.message}"
        return finish(state.result.model_copy(update={"message": message}), args)
    named_by_you(state.config, args.site)
    changed = (
        ("model", args.model),
        ("gguf", args.gguf),
        ("base_url", args.base_url),
        ("strict", args.strict),
        ("timeout", args.timeout),
        ("consult", getattr(args, "consult", None)),
    )
    config = state.config.model_copy(update={k: v for k, v in changed if v is not None})
    if args.model is not None and args.gguf is None:
        config = config.model_copy(update={"gguf": None})  # a --model given now replaces the run's choice
    if args.gguf is not None and args.model is None:
        config = config.model_copy(update={"model": None})
    if (args.model not in (None, "planner") or args.gguf is not None) and getattr(
        args, "consult", None
    ) is None:
        config = config.model_copy(
            update={"consult": None}
        )  # consulting is the planner's; another model drops it
    check_model_choice(config)
    view = live_view(args)
    watching = args.keep_open or args.pause_on_failure
    model = make_model(config, on_text=view.text)

    async def resumed() -> RunResult:
        try:
            return await resume_run(
                args.run_id,
                args.runs_dir,
                approve=approve,
                answer=args.answer,
                listen=view,
                model=model,
                headed=True if watching else args.headed,
                slow_mo=args.slow_mo,
                keep_open=args.keep_open or None,
                pause_on_failure=args.pause_on_failure or None,
                report=write_report,
                site=args.site,
            )
        finally:
            await close_model(model)  # in the loop it ran on

    return finish(run_sync(resumed()), args)
