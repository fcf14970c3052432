"""Reading a GGUF file's header (format, counts, metadata), to say in one line what is wrong with a file
before llama.cpp is asked to load it. Pure: the standard library only."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from webagent.errors import LocalModelError

__all__ = ["GGUFInfo", "check_gguf"]

_MAGIC = b"GGUF"

# GGUF value types (ggml/docs/gguf.md): number → struct format of one value.
_SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
_STRING, _ARRAY = 8, 9


@dataclass(frozen=True)
class GGUFInfo:
    """What a GGUF file's header says: format version, counts, and its metadata key/values."""

    path: Path
    version: int
    tensor_count: int
    metadata: dict[str, Any] = field(repr=False)

    @property
    def architecture(self) -> str:
        return str(self.metadata.get("general.architecture", ""))

    @property
    def name(self) -> str:
        """``general.name``, else the file's name without ``.gguf``."""
        return str(self.metadata.get("general.name") or self.path.stem)


class _Truncated(Exception):
    pass


class _Reader:
    """Reads little-endian GGUF values, never more than the file holds (a bogus length is not allocated)."""

    def __init__(self, file: BinaryIO, size: int) -> None:
        self.file, self.size = file, size

    def take(self, count: int) -> bytes:
        if count > self.size - self.file.tell():
            raise _Truncated
        return self.file.read(count)

    def number(self, fmt: str) -> Any:
        return struct.unpack("<" + fmt, self.take(struct.calcsize(fmt)))[0]

    def string(self) -> str:
        return self.take(self.number("Q")).decode("utf-8", errors="replace")

    def value(self, kind: int) -> Any:
        if kind in _SCALARS:
            return self.number(_SCALARS[kind])
        if kind == _STRING:
            return self.string()
        if kind == _ARRAY:
            item, count = self.number("I"), self.number("Q")
            if item in _SCALARS:  # one read for a whole numeric array (token types: 150 000 of them)
                fmt = _SCALARS[item]
                return list(struct.unpack(f"<{count}{fmt}", self.take(count * struct.calcsize(fmt))))
            if item not in (_STRING, _ARRAY):
                raise ValueError(f"an array of unknown value type {item}")
            if count * 8 > self.size - self.file.tell():  # each element takes at least 8 bytes
                raise _Truncated
            return [self.value(item) for _ in range(count)]
        raise ValueError(f"unknown value type {kind}")


def check_gguf(path: Path | str) -> GGUFInfo:
    """Read ``path``'s GGUF header (up to the tensor list); `LocalModelError` in one line if it is no GGUF file.

    Supports GGUF versions 2 and 3 (64-bit counts); the tensors themselves are not read.
    """
    path = Path(path).expanduser()
    where = f"--gguf {path}"
    try:
        if not path.exists():
            raise LocalModelError(f"{where}: no such file")
        if not path.is_file():
            raise LocalModelError(f"{where}: not a file")
        with path.open("rb") as file:
            reader = _Reader(file, path.stat().st_size)
            key = ""
            try:
                magic = reader.take(4)
                if magic != _MAGIC:
                    raise LocalModelError(
                        f"{where} is not a GGUF model file (it starts with {magic!r}, not b'GGUF')"
                    )
                version = reader.number("I")
                if version not in (2, 3):
                    raise LocalModelError(f"{where}: GGUF version {version} is not supported (2 and 3 are)")
                tensors, count = reader.number("Q"), reader.number("Q")
                if count * 12 > reader.size:  # each key/value takes at least 12 bytes
                    raise _Truncated
                metadata: dict[str, Any] = {}
                for _ in range(count):
                    key = reader.string()
                    metadata[key] = reader.value(reader.number("I"))
            except _Truncated:
                inside = f" inside metadata key {key!r}" if key else ""
                raise LocalModelError(
                    f"{where} is truncated or damaged: its header ends early{inside}"
                ) from None
            except ValueError as error:
                raise LocalModelError(f"{where} is damaged: {error} at metadata key {key!r}") from None
    except OSError as error:
        raise LocalModelError(f"{where}: cannot read it: {error.strerror or error}") from error
    info = GGUFInfo(path=path, version=version, tensor_count=tensors, metadata=metadata)
    if not info.architecture:
        raise LocalModelError(f"{where} has no general.architecture in its header: llama.cpp cannot load it")
    return info


# -- the server ---------------------------------------------------------------------------------------
