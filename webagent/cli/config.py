"""From parsed flags to what the library takes: a run's `RunConfig` (with its profile and order files
read and checked) and where a RUN argument's folder is. Bad files and bad names are `UsageError`s."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from webagent.config import Profile, RunConfig
from webagent.errors import UsageError

__all__ = ["load_mapping", "profile_from", "run_config", "run_location", "site_checked"]


def load_mapping(path: Path, what: str) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise UsageError(f"cannot read {what} {path}: {error.strerror}") from error
    except yaml.YAMLError as error:
        # One line for people: PyYAML's own message spans several, with a drawing of the spot.
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(error, "problem", None) or type(error).__name__
        raise UsageError(f"{what} {path} is not valid JSON or YAML: {problem}{where}") from error
    if not isinstance(data, dict):
        raise UsageError(f"{what} {path} must hold an object (a mapping of fields)")
    return data


def profile_from(args: argparse.Namespace) -> Profile:
    base = Profile()
    if args.profile:
        try:
            base = Profile.model_validate(load_mapping(args.profile, "profile"))
        except ValidationError as error:
            raise UsageError(
                f"profile {args.profile}: {error.errors()[0]['msg']} ({error.errors()[0]['loc']})"
            ) from error
    flags = Profile(name=args.name, address=args.address, phone=args.phone, payment_method=args.payment)
    return base.merged_under(flags)


def run_config(args: argparse.Namespace, *, headed_default: bool = False) -> RunConfig:
    from webagent.agent.approval import default_policy
    from webagent.runs.model_choice import check_model_choice

    order = None
    goal = getattr(args, "goal", None)
    if getattr(args, "order", None):
        order = load_mapping(args.order, "order file")
        from webagent.planner import OrderSpec

        try:
            order = OrderSpec.model_validate(order).model_dump(mode="json", exclude_none=True)
        except ValidationError as error:
            raise UsageError(
                f"order file {args.order}: {error.errors()[0]['msg']} at {error.errors()[0]['loc']}"
            ) from error
    headed = args.headed if args.headed is not None else headed_default
    keep_open, pause_on_failure = getattr(args, "keep_open", False), getattr(args, "pause_on_failure", False)
    headed = headed or keep_open or pause_on_failure  # both are about a window a person looks at
    config = RunConfig(
        goal=goal,
        order=order,
        profile=profile_from(args),
        site=site_checked(args.site, args.shop_url),
        shop_url=args.shop_url,
        db_path=args.db,
        clutter=args.clutter,
        seed=args.seed,
        headed=headed,
        slow_mo=args.slow_mo or 0,
        trace=args.trace,
        screenshots="views" if args.screenshots is None else args.screenshots,
        keep_open=keep_open,
        pause_on_failure=pause_on_failure,
        overlay_shortcuts=getattr(args, "overlay_shortcuts", True),
        init_scripts=getattr(args, "init_script", []),
        model=args.model,
        gguf=getattr(args, "gguf", None),
        consult=getattr(args, "consult", None),
        base_url=args.base_url,
        strict=args.strict is not False,
        timeout=args.timeout,
        approve=args.approve or default_policy(),
        budget_cents=args.budget,
        answers=args.answer,
        max_steps=args.max_steps,
        max_tokens=args.max_tokens,
        runs_dir=args.runs_dir,
    )
    check_model_choice(config)  # a missing local model or a wrong --gguf: one line, before any run folder
    return config


def site_checked(name: str, url: str | None = None) -> str:
    """``--site NAME``, once it names an adapter that loads, and a page to open for any site but the
    embedded shop's; a usage error otherwise."""
    from webagent.sites import EMBEDDED, UnknownSite, site_named

    try:
        site_named(name)
    except UnknownSite as error:
        raise UsageError(str(error)) from error
    if name != EMBEDDED and not url:
        raise UsageError(f"--site {name} needs the page to open: give it with --url")
    return name


def run_location(run: str, runs_dir: Path) -> tuple[Path, str]:
    """(runs directory, run id) of RUN, given as an id in ``runs_dir`` or as the path of its folder
    (or of a file in it, such as its report.html)."""
    path = Path(run)
    if path.name == run and (runs_dir / run / "state.json").is_file():
        return runs_dir, run
    if path.is_file():
        path = path.parent
    if (path / "state.json").is_file():
        return path.parent, path.name
    if "/" in run or "\\" in run:
        raise UsageError(f"{run} is not a run folder: it has no state.json")
    return runs_dir, run
