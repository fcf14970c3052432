"""Never a second order for one line: settling a line's earlier attempts with the shop before it runs again.

A line that has attempts but no result (the batch was killed, a Ray worker died) is settled by
`settle_earlier_attempts`: the newest run folder's own result, or else an order in an earlier attempt's
shop session — reported, never placed again. A failed run whose session holds an order ends with what
the shop shows (`true_to_the_shop`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from webagent.agent.checkpoint import RunFolder
from webagent.agent.result import RunResult
from webagent.errors import ShopUnreachable
from webagent.fleet.files import Attempt
from webagent.tools.site import OrderSessions

__all__ = ["give_up", "settle_earlier_attempts", "true_to_the_shop"]


def _close_out(folder: RunFolder, result: RunResult) -> None:
    """Mark an interrupted run folder finished, so that ``webagent resume`` leaves it alone."""
    state = folder.load()
    if state.status != "running":
        return
    state.status, state.result = "finished", result
    folder.save(state)
    folder.record("finished", **result.model_dump(exclude={"run_dir"}))


def _stored_result(folder: RunFolder) -> RunResult | None:
    """The result a run folder holds: finished (any outcome) or paused; None when it was cut off."""
    if not folder.state_path.is_file():
        return None
    state = folder.load()
    if state.status == "finished" and state.result is not None:
        return state.result.model_copy(update={"run_dir": str(folder.path)})
    if state.status == "paused":
        question = state.pending.question if state.pending else "paused"
        return state.result_of("paused", question, str(folder.path))
    return None


async def settle_earlier_attempts(
    line_id: str, attempts: Sequence[Attempt], shop: OrderSessions, runs_dir: Path
) -> RunResult | None:
    """The result of a line that was started before and not written down; None when none exists.

    The seam between batches and durable runs. The newest attempt's run folder, when it finished (or
    paused), gives its own result — older attempts were given up for a newer one, so theirs cannot.
    Otherwise each attempt's session's order history is read, newest first: an order there is the
    line's (a run places at most one, in its own session), reported and never placed again. None says
    nothing was ordered and the line may start again. `ShopUnreachable` when the shop cannot be
    asked: then the line is not started again.
    """
    if attempts:
        stored = _stored_result(RunFolder(runs_dir, attempts[-1].run_id))
        if stored is not None:
            return stored
    for attempt in reversed(attempts):
        orders = await shop.orders(attempt.cookies)
        if orders:
            order = orders[-1]  # the oldest (the shop lists newest first); a run places at most one
            folder = RunFolder(runs_dir, attempt.run_id)
            local = folder.state_path.is_file()
            result = RunResult(
                run_id=attempt.run_id,
                outcome="ordered",
                order_id=order["id"],
                total_cents=order.get("total_cents"),
                run_dir=str(folder.path) if local else "",
                message=(
                    f"Order #{order['id']} was placed by run {attempt.run_id} before it was cut off; the shop's "
                    "order history for its session shows it, so it was not ordered again."
                ),
            )
            if local:
                _close_out(folder, result)
            return result
    return None


def give_up(attempts: Sequence[Attempt], line_id: str, runs_dir: Path) -> None:
    """Close out the cut-off run folders of earlier attempts, now that a new one is on record."""
    for attempt in attempts:
        folder = RunFolder(runs_dir, attempt.run_id)
        if folder.state_path.is_file():
            note = f"interrupted before ordering (the shop shows no order); line {line_id} ran again"
            _close_out(folder, folder.load().result_of("failed", note, str(folder.path)))


async def true_to_the_shop(result: RunResult, shop: OrderSessions, cookies: dict[str, str]) -> RunResult:
    """A failed run whose session holds an order ends with what the shop shows, not with a guess."""
    if result.outcome != "failed" or result.order_id is not None:
        return result
    try:
        orders = await shop.orders(cookies)
    except ShopUnreachable as error:
        return result.model_copy(
            update={"message": f"{result.message} (the shop could not be asked: {error})"}
        )
    if not orders:
        return result
    order = orders[-1]  # the oldest (the shop lists newest first)
    message = f"Order #{order['id']} was placed (the shop shows it); then the run stopped: {result.message}"
    return result.model_copy(
        update={
            "outcome": "ordered",
            "order_id": order["id"],
            "total_cents": order.get("total_cents"),
            "message": message,
        }
    )
