"""Ray fan-out for ``webagent batch`` and ``webagent eval``: an actor per worker, each with a warm Chromium.

``--ray local`` starts a small Ray on this machine (shut down at the end); ``--ray ADDRESS`` joins a
cluster (``ray start --head`` on one machine, ``ray start --address …`` on the others). Each actor
(`BrowserWorker`) launches — or, with ``--browser-ws``/``--cdp``, connects to — one Chromium when it
starts and keeps it warm, running up to ``--workers-per-node`` lines at once as browser contexts. Its
run folders live in a scratch folder on its own machine; each one comes back to the driver's
``--runs-dir`` as bytes over Ray (a tar.gz), so no shared disk is assumed.

A worker that dies (its process killed, its machine gone) is replaced, and each line it held raises
`WorkerLost` in the driver; the batch then settles the line with the shop before starting it once more
(webagent/fleet/settle.py: never a second order). Other work — an eval task, run by
webagent/evals/on_ray.py — reaches a worker as a function (`BrowserWorker.run_work`), so this module does
not know the eval.

Ray is an optional extra (``pip install 'webagent[ray]'``); nothing here imports it until ``--ray`` is used.
"""

from __future__ import annotations

import asyncio
import io
import os
import secrets
import shutil
import tarfile
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from webagent.agent.result import RunResult
from webagent.errors import RunError, UsageError
from webagent.fleet.jobs import LineJob, WorkerLost, failed_result, run_job

__all__ = [
    "RAY_MISSING",
    "BrowserWorker",
    "RayLineRunner",
    "RayPool",
    "default_actors",
    "import_ray",
    "pack",
    "ray_cluster",
    "ray_pool",
    "unpack",
]

RAY_MISSING = "--ray needs Ray, an optional extra: pip install 'webagent[ray]'"

ACTOR_CPUS = 1
"""Ray CPUs each actor claims: placement counts it, the browser's renderers are not bound by it."""

LOCAL_OBJECT_STORE = 100 * 1024 * 1024
"""Bytes of shared memory a local Ray keeps for objects: run folders are small, the default is 30 % of RAM."""


def import_ray() -> ModuleType:
    """The ``ray`` module, or `UsageError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise UsageError(RAY_MISSING) from None
    return ray


@contextmanager
def ray_cluster(address: str, *, cpus: int) -> Iterator[ModuleType]:
    """Ray, started locally (``local``, with ``cpus`` CPUs) or joined at ``address``; shut down on exit.

    When this process has already joined a cluster (a notebook, a test session), that one is used and
    left running.
    """
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    quiet: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
    try:
        if address == "local":
            ray.init(num_cpus=cpus, object_store_memory=LOCAL_OBJECT_STORE, **quiet)
        else:
            ray.init(address=address, **quiet)
    except (ConnectionError, RuntimeError, ValueError) as error:
        raise UsageError(f"cannot join the Ray cluster at {address}: {_first_line(error)}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


# The actor ----------------------------------------------------------------------------------------


def pack(folder: Path, *extra: Path) -> bytes:
    """A run folder (and extra files, stored under ``extra/``) as tar.gz bytes."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        if folder.is_dir():
            tar.add(folder, arcname=folder.name)
        for path in extra:
            if path.is_file():
                tar.add(path, arcname=f"extra/{path.name}")
    return buffer.getvalue()


def unpack(data: bytes, runs_dir: Path, extra_dir: Path | None = None) -> None:
    """Put packed run folders under ``runs_dir`` (and the extra files in ``extra_dir``)."""
    runs_dir.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar.getmembers():
            if member.name.startswith("extra/"):
                if extra_dir is not None:
                    extra_dir.mkdir(parents=True, exist_ok=True)
                    member.name = member.name.removeprefix("extra/")
                    tar.extract(member, extra_dir, filter="data")
            else:
                tar.extract(member, runs_dir, filter="data")


Work = Callable[..., Awaitable[tuple[str, bytes]]]
"""A module-level async function ``(browser, scratch, *args) -> (result JSON, packed files)``: Ray sends it
to the actor by reference (its module's name), so the actor imports the module that sent it."""


class BrowserWorker:
    """A Ray actor's body: one warm browser, runs as its contexts, folders sent back as bytes.

    Plain Python (Ray wraps it in `RayPool`), so it can be read and tested without Ray.
    """

    def __init__(self, ws_url: str | None = None, cdp_url: str | None = None) -> None:
        self.ws_url, self.cdp_url = ws_url, cdp_url
        self.scratch = Path(tempfile.mkdtemp(prefix="webagent-worker-"))
        self._browser: Any = None
        self._starting: asyncio.Lock | None = None

    async def _open_browser(self) -> Any:
        from webagent.browser.session import Browser

        self._starting = self._starting or asyncio.Lock()
        async with self._starting:
            if self._browser is None:
                self._browser = await Browser.open(ws_url=self.ws_url, cdp_url=self.cdp_url)
        return self._browser

    async def warm(self) -> dict[str, Any]:
        """Start the browser now; where this worker runs (for people, and for tests that kill it)."""
        import socket

        started = time.monotonic()
        await self._open_browser()
        return {"pid": os.getpid(), "host": socket.gethostname(), "browser_s": time.monotonic() - started}

    async def run_line(self, job_json: str) -> tuple[str, bytes]:
        """One batch line's attempt: its `RunResult` (JSON) and its run folder (tar.gz)."""
        job = LineJob.model_validate_json(job_json)
        try:
            browser = await self._open_browser()
        except Exception as error:  # no browser on this worker: the line fails, the worker stays
            result = failed_result(job, f"the worker's browser did not start: {error}", self.scratch)
        else:
            result = await run_job(job, browser, self.scratch)
        folder = self.scratch / job.run_id
        data = pack(folder)
        shutil.rmtree(folder, ignore_errors=True)
        return result.model_dump_json(), data

    async def run_work(self, work: Work, *args: Any) -> tuple[str, bytes]:
        """``work(browser, scratch, *args)`` with this worker's warm browser and a scratch folder of its own,
        emptied afterwards: an eval task, say (webagent/evals/on_ray.py), verified where it ran."""
        browser = await self._open_browser()
        scratch = self.scratch / f"work-{secrets.token_hex(4)}"
        try:
            return await work(browser, scratch, *args)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    async def close(self) -> None:
        if self._browser is not None:
            await self._browser.close()
            self._browser = None
        shutil.rmtree(self.scratch, ignore_errors=True)


# The driver's side --------------------------------------------------------------------------------


@dataclass
class _Actor:
    handle: Any
    ready: Any
    """The ``warm`` call's reference: where the actor runs, once its browser is up."""
    busy: int = 0
    dead: bool = False
    info: dict[str, Any] = field(default_factory=dict)


class RayPool:
    """``actors`` `BrowserWorker` actors of ``per_actor`` contexts each; a dead one is replaced."""

    def __init__(
        self,
        ray: ModuleType,
        *,
        actors: int,
        per_actor: int,
        ws_url: str | None = None,
        cdp_url: str | None = None,
    ) -> None:
        if actors < 1 or per_actor < 1:
            raise UsageError("--actors and --workers-per-node must be at least 1")
        self.ray = ray
        self.per_actor = per_actor
        self.options = {"ws_url": ws_url, "cdp_url": cdp_url}
        self._remote = ray.remote(BrowserWorker)
        self.actors = [self._start() for _ in range(actors)]
        self.replaced = 0
        """Actors started again after theirs died."""
        self.served: Counter[int] = Counter()
        """Calls answered, by the pid of the actor that answered."""

    @property
    def capacity(self) -> int:
        """Runs at once across the pool."""
        return len(self.actors) * self.per_actor

    def _start(self) -> _Actor:
        handle = self._remote.options(
            num_cpus=ACTOR_CPUS, max_concurrency=self.per_actor + 1, scheduling_strategy="SPREAD"
        ).remote(**self.options)
        return _Actor(handle, handle.warm.remote())

    async def warm(self) -> list[dict[str, Any]]:
        """Wait until every actor's browser is up; where each runs (pid, host, seconds to start)."""
        for actor in self.actors:
            await self._ready(actor)
        return [actor.info for actor in self.actors]

    async def _ready(self, actor: _Actor) -> None:
        if actor.info:
            return
        try:
            actor.info = await actor.ready
        except self.ray.exceptions.RayTaskError as error:  # its browser did not start: say why, once
            cause = getattr(error, "cause", None) or error
            raise RunError(f"a Ray worker could not start its browser: {_first_line(cause)}") from None

    async def call(self, method: str, *args: Any) -> Any:
        """Call ``method`` on the least busy live actor; `WorkerLost` when that actor dies meanwhile."""
        actor = min((a for a in self.actors if not a.dead), key=lambda a: a.busy)
        actor.busy += 1
        try:
            await self._ready(actor)
            answer = await getattr(actor.handle, method).remote(*args)
            self.served[actor.info["pid"]] += 1
            return answer
        except self.ray.exceptions.RayActorError as error:
            where = f" (pid {actor.info['pid']} on {actor.info['host']})" if actor.info else ""
            self._replace(actor)
            raise WorkerLost(f"the Ray worker{where} died: {_first_line(error)}") from None
        finally:
            actor.busy -= 1

    def _replace(self, actor: _Actor) -> None:
        if actor.dead:
            return
        actor.dead = True
        self.actors[self.actors.index(actor)] = self._start()
        self.replaced += 1

    async def close(self) -> None:
        for actor in self.actors:
            with suppress(Exception):  # a dying actor has nothing left to close
                await asyncio.wait_for(actor.handle.close.remote(), timeout=30)
            self.ray.kill(actor.handle)


@asynccontextmanager
async def ray_pool(
    address: str, *, actors: int, per_actor: int, ws_url: str | None, cdp_url: str | None
) -> AsyncIterator[RayPool]:
    """A warm `RayPool` (Ray must already be initialised, see `ray_cluster`), closed on exit."""
    pool = RayPool(import_ray(), actors=actors, per_actor=per_actor, ws_url=ws_url, cdp_url=cdp_url)
    try:
        await pool.warm()
        yield pool
    finally:
        await pool.close()


@dataclass
class RayLineRunner:
    """A `LineRunner` on a `RayPool`: each run folder is unpacked into the driver's ``runs_dir``."""

    pool: RayPool
    runs_dir: Path

    async def run(self, job: LineJob) -> RunResult:
        result_json, data = await self.pool.call("run_line", job.model_dump_json())
        result = RunResult.model_validate_json(result_json)
        unpack(data, self.runs_dir)
        folder = self.runs_dir / job.run_id
        return result.model_copy(update={"run_dir": str(folder) if folder.is_dir() else ""})


def default_actors(ray: ModuleType, address: str) -> int:
    """One actor here, or one per live node of a cluster."""
    if address == "local":
        return 1
    return max(1, sum(1 for node in ray.nodes() if node.get("Alive")))


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
