"""Local models: weights joined from installed part packages into a cache, GGUF headers, the server.

The parts are real packages written into a temporary directory on ``sys.path``, found through importlib
as the real ones are; their bytes are a GGUF header written here from the GGUF spec (ggml/docs/gguf.md),
by a writer that shares no code with webagent's reader. Only the test marked ``slow`` loads a model.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import os
import secrets
import shutil
import struct
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webagent.errors import LocalModelError, UsageError
from webagent.llm import local
from webagent.llm.local import LocalModel, Part, check_available, check_gguf, parse_local, weights

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


def test_the_known_models_are_well_formed() -> None:
    for key, model in local.LOCAL_MODELS.items():
        assert model.key == key and len(model.sha256) == 64 and model.size > 100_000_000
        assert [p.file for p in model.parts] == [
            f"data/part{n:02d}.bin" for n in range(1, len(model.parts) + 1)
        ]
        assert all(p.module == p.package.replace("-", "_") for p in model.parts)
    assert local.DEFAULT_LOCAL in local.LOCAL_MODELS


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


def test_local_model_options_leave_room_for_a_cpu() -> None:
    assert local.local_model_options()["timeout"] >= 120


# -- the server (loads a real model) -------------------------------------------------------------------


@pytest.mark.slow
def test_the_default_local_model_is_served() -> None:
    from webagent.llm.openai_client import OpenAIModel

    pytest.importorskip("xllamacpp", reason=f"xllamacpp is not installed ({local.INSTALL})")
    try:
        check_available(local.DEFAULT_LOCAL)
    except LocalModelError as error:
        pytest.skip(str(error))
    known = local.LOCAL_MODELS[local.DEFAULT_LOCAL]
    server = local.serve_known(local.DEFAULT_LOCAL)
    assert local.serve(weights(local.DEFAULT_LOCAL)) is server  # one server per file and process
    assert server.describe() == f"local {known.key} ({known.name}) @ {server.base_url}"
    assert local.running(server.base_url) is server
    assert server.base_url.startswith("http://127.0.0.1:") and server.base_url.endswith("/v1")
    model = OpenAIModel(server.model, base_url=server.base_url, api_key="local")
    # A thread of its own: a sync Playwright fixture earlier on this worker leaves a loop running here.
    with ThreadPoolExecutor(1) as pool:
        served = pool.submit(asyncio.run, model.served_models()).result()
    assert known.alias in (served or [])
