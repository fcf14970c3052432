"""Running the shop: uvicorn in a background thread on a free port (`running_shop`)."""

from __future__ import annotations

import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import uvicorn

from demo_site.app import create_app
from demo_site.config import ShopConfig


@dataclass(frozen=True)
class Shop:
    """A running shop: where to browse it and where its database lives."""

    url: str
    """Base URL without a trailing slash, e.g. `http://127.0.0.1:53211`."""
    db_path: Path
    clutter: int
    seed: int
    flaky: float = 0.0


def bind_socket(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening TCP socket (port 0 = a free one); uvicorn serves on it once started."""
    # An explicit IPPROTO_TCP: asyncio only sets TCP_NODELAY on accepted sockets whose proto says TCP,
    # and without it every keep-alive response waits ~40 ms for a delayed ACK.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    # Listening before uvicorn starts means early clients wait in the backlog instead of being refused.
    sock.listen(128)
    return sock


def make_server(config: ShopConfig, log_level: str = "warning") -> uvicorn.Server:
    """A uvicorn server for the shop app (not started)."""
    app = create_app(config)
    return uvicorn.Server(uvicorn.Config(app, log_level=log_level, lifespan="off"))


@contextmanager
def running_shop(
    db_path: Path | str | None = None, clutter: int = 0, seed: int = 7, flaky: float = 0.0
) -> Iterator[Shop]:
    """Serve the shop on a free local port for the duration of the `with` block.

    `db_path=None` uses a fresh temporary database that is deleted afterwards.
    """
    temp_dir = None
    if db_path is None:
        temp_dir = tempfile.mkdtemp(prefix="shop-")
        db_path = Path(temp_dir) / "shop.db"
    config = ShopConfig(db_path=Path(db_path), clutter=clutter, seed=seed, flaky=flaky)
    server = make_server(config)
    sock = bind_socket()
    port = sock.getsockname()[1]
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="demo-shop", daemon=True)
    thread.start()
    try:
        _wait_started(server, thread)
        yield Shop(f"http://127.0.0.1:{port}", config.db_path, clutter, seed, flaky)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
        if temp_dir is not None:
            shutil.rmtree(temp_dir, ignore_errors=True)


def _wait_started(server: uvicorn.Server, thread: threading.Thread, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("The shop server stopped during startup; see the log above")
        if time.monotonic() > deadline:
            raise RuntimeError(f"The shop server did not start within {timeout:.0f} s")
        time.sleep(0.01)
