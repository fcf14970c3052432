"""Runs on Ray: one small local cluster (2 CPUs, 2 actors at most) for this whole module, shut down after.

Each actor holds its own Chromium; run folders travel back as bytes. A worker is killed (SIGKILL, its
browser with it) at a random moment mid-batch: its lines are settled with the shop and run once more,
and no line is ordered twice.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import psutil
import pytest

from demo_site import Shop
from webagent.cli.main import main
from webagent.config import Profile, RunConfig
from webagent.fleet.batch import run_batch
from webagent.fleet.distributed import RayLineRunner, ray_pool
from webagent.fleet.files import AttemptLog, sidecar
from webagent.fleet.lines import BatchLine, parse_batch
from webagent.sites.demo_shop.session_api import ShopSessions
from webagent.sync import run_sync

from .test_batch import (
    count_orders,
    ordered_items,
    orders_by_line,
    random_order_lines,
    results_of,
    wanted_items,
)

ray = pytest.importorskip("ray")

ROOT = Path(__file__).resolve().parents[2]
EVAL_TASKS = ["t01", "t03", "t13", "t30"]  # clutter 0 and 2; an order, and two that must not order


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[ModuleType]:
    """The module's one Ray: small, quiet, and stopped at the end (others share this machine)."""
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
        object_store_memory=100 * 1024 * 1024,
    )
    try:
        yield ray
    finally:
        ray.shutdown()


def _base(shop: Shop, runs_dir: Path) -> RunConfig:
    profile = Profile(name="Ray Customer", address="9 Node Street", phone="555-0109")
    return RunConfig(shop_url=shop.url, approve="auto", profile=profile, runs_dir=runs_dir, model="planner")


def _lines(raw: list[dict[str, Any]]) -> list[BatchLine]:
    return parse_batch("\n".join(json.dumps(line) for line in raw))


def test_eval_on_ray_passes_the_same_tasks_as_without_it(tmp_path: Path, capsys: Any) -> None:
    only = [arg for task in EVAL_TASKS for arg in ("--only", task)]
    tasks = str(ROOT / "evals" / "tasks.jsonl")

    code_here = main(
        ["eval", tasks, *only, "--json", "--runs-dir", str(tmp_path / "here"), "--model", "planner"]
    )
    here = json.loads(capsys.readouterr().out)
    code_ray = main(
        [
            "eval",
            tasks,
            *only,
            "--json",
            "--runs-dir",
            str(tmp_path / "ray"),
            "--model",
            "planner",
            "--ray",
            "local",
            "--actors",
            "2",
            "--workers-per-node",
            "1",
        ]
    )
    on_ray = json.loads(capsys.readouterr().out)

    assert code_ray == code_here
    verdicts = {task["id"]: task["passed"] for task in here["tasks"]}
    assert {task["id"]: task["passed"] for task in on_ray["tasks"]} == verdicts
    assert all(verdicts.values()), here
    assert on_ray["summary"]["workers"] == 2
    for task in on_ray["tasks"]:  # run folders and shop databases came back over Ray
        if task["run_dir"]:
            assert Path(task["run_dir"]).parent == tmp_path / "ray"
            assert (Path(task["run_dir"]) / "transcript.jsonl").is_file()
    assert len(list((tmp_path / "ray" / "shops").glob("*.db"))) == len(EVAL_TASKS)


def test_lines_spread_over_two_actors_order_against_one_shop_each_in_its_own_session(
    fresh_shop: Shop, tmp_path: Path
) -> None:
    seed = random.randrange(10**6)
    raw = random_order_lines(random.Random(seed), 6)
    out = tmp_path / "results.jsonl"
    base = _base(fresh_shop, tmp_path / "runs")

    async def batch() -> dict[int, int]:
        async with ray_pool("local", actors=2, per_actor=2, ws_url=None, cdp_url=None) as pool:
            await run_batch(
                _lines(raw),
                out=out,
                base=base,
                runner=RayLineRunner(pool, base.runs_dir),
                shop=ShopSessions(fresh_shop.url),
                workers=pool.capacity,
            )
            return dict(pool.served)

    served = run_sync(batch())

    assert len(served) == 2 and sum(served.values()) == 6, served  # both workers ran lines
    records, orders = results_of(out), orders_by_line(out, fresh_shop.db_path)
    for line in raw:
        record = records[line["id"]]
        assert record["outcome"] == "ordered", f"seed {seed}: {record['message']}"
        [order] = orders[line["id"]]
        assert ordered_items(order) == wanted_items(line), f"seed {seed}, line {line['id']}"
        # The run folder came back to this machine's runs dir as bytes.
        assert Path(record["run_dir"]) == base.runs_dir / record["run_id"]
        assert (Path(record["run_dir"]) / "transcript.jsonl").is_file()
    assert count_orders(fresh_shop.db_path) == 6


def test_a_worker_killed_mid_batch_has_its_lines_run_again_without_a_second_order(
    fresh_shop: Shop, tmp_path: Path
) -> None:
    seed = random.randrange(10**6)
    rng = random.Random(seed)
    raw = random_order_lines(rng, 6)
    out = tmp_path / "results.jsonl"
    base = _base(fresh_shop, tmp_path / "runs")
    # After k orders one actor has just placed one and the other holds at most one more line; with k at
    # most 2, three lines wait, so both actors still hold a line 1.5 s later (each line is a whole run).
    after_orders, jitter = rng.randint(0, 2), rng.uniform(0, 1.5)

    async def kill_one_worker(pool: Any) -> None:
        """SIGKILL one actor and its browser after ``after_orders`` orders and a random moment more."""
        while count_orders(fresh_shop.db_path) < after_orders:
            await asyncio.sleep(0.02)
        await asyncio.sleep(jitter)
        victim = psutil.Process(pool.actors[rng.randrange(2)].info["pid"])
        family = [victim, *victim.children(recursive=True)]
        for process in family:
            process.send_signal(signal.SIGKILL)
        psutil.wait_procs(family, timeout=10)

    async def batch() -> int:
        async with ray_pool("local", actors=2, per_actor=1, ws_url=None, cdp_url=None) as pool:
            killer = asyncio.ensure_future(kill_one_worker(pool))
            await run_batch(
                _lines(raw),
                out=out,
                base=base,
                runner=RayLineRunner(pool, base.runs_dir),
                shop=ShopSessions(fresh_shop.url),
                workers=pool.capacity,
            )
            await killer
            return pool.replaced

    replaced = run_sync(batch())

    records, orders = results_of(out), orders_by_line(out, fresh_shop.db_path)
    assert len(records) == 6
    for line in raw:
        assert records[line["id"]]["outcome"] == "ordered", f"seed {seed}: {records[line['id']]}"
        [order] = orders[line["id"]]  # one order, across every attempt's session
        assert order["id"] == records[line["id"]]["order_id"]
        assert ordered_items(order) == wanted_items(line), f"seed {seed}, line {line['id']}"
    assert count_orders(fresh_shop.db_path) == 6
    assert replaced == 1, f"seed {seed}: the worker died after the batch, so nothing was tested"
    # The line the dead worker held was either run again, or — when it had already ordered — settled
    # from the shop's order history for its session.
    attempts = AttemptLog(sidecar(out, ".attempts.jsonl")).by_line()
    run_again = [line for line, tries in attempts.items() if len(tries) == 2]
    settled = [line for line, record in records.items() if "so it was not ordered again" in record["message"]]
    assert len(run_again) + len(settled) == 1, f"seed {seed}: {attempts}"
    assert all(len(tries) <= 2 for tries in attempts.values())


def test_workers_whose_browser_cannot_start_say_so_in_one_line(
    fresh_shop: Shop, tmp_path: Path, capsys: Any
) -> None:
    batch = tmp_path / "b.jsonl"
    batch.write_text(json.dumps({"goal": "a tiramisu from Italian Bistro"}) + "\n")

    code = main(
        [
            "batch",
            str(batch),
            "--ray",
            "--browser-ws",
            "ws://127.0.0.1:9/",
            "--shop-url",
            fresh_shop.url,
            "--approve",
            "auto",
            "--runs-dir",
            str(tmp_path / "runs"),
        ]
    )

    error = capsys.readouterr().err
    assert code == 1
    assert error.startswith("webagent: a Ray worker could not start its browser: ")
    assert "no browser answered at ws://127.0.0.1:9/" in error
    assert len(error.strip().splitlines()) == 1
    assert count_orders(fresh_shop.db_path) == 0
