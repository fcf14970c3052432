"""Checkpoint and transcript writes are durable: a temporary file, fsynced, renamed over the old one, and
the directory fsynced after — seen through a recorder of the system calls passed in, not patched."""

from __future__ import annotations

from pathlib import Path

import pytest

from webagent.agent.checkpoint import Checkpoint, Disk, RunFolder
from webagent.config import RunConfig


class Recorder(Disk):
    """The real system calls, each written down as (call, file name)."""

    def __init__(self, fail_writes_to: str | None = None) -> None:
        self.calls: list[tuple[str, ...]] = []
        self.names: dict[int, str] = {}
        self.fail_writes_to = fail_writes_to

    def open(self, path: Path, flags: int) -> int:
        fd = super().open(path, flags)
        self.names[fd] = path.name
        self.calls.append(("open", path.name))
        return fd

    def write(self, fd: int, data: bytes) -> int:
        self.calls.append(("write", self.names[fd]))
        if self.names[fd] == self.fail_writes_to:
            raise OSError(28, "No space left on device")
        return super().write(fd, data)

    def fsync(self, fd: int) -> None:
        self.calls.append(("fsync", self.names[fd]))
        super().fsync(fd)

    def close(self, fd: int) -> None:
        self.calls.append(("close", self.names.pop(fd)))
        super().close(fd)

    def replace(self, source: Path, target: Path) -> None:
        self.calls.append(("replace", source.name, target.name))
        super().replace(source, target)


def test_a_checkpoint_goes_through_a_fsynced_temporary_file_a_rename_and_a_fsynced_directory(
    tmp_path: Path,
) -> None:
    disk = Recorder()
    folder = RunFolder.create(tmp_path, "run-1", disk)
    disk.calls.clear()
    state = Checkpoint(run_id="run-1", config=RunConfig(goal="Order a pizza"), steps=3)
    folder.save(state)
    assert disk.calls == [
        ("open", "state.json.tmp"),
        ("write", "state.json.tmp"),
        ("fsync", "state.json.tmp"),
        ("close", "state.json.tmp"),
        ("replace", "state.json.tmp", "state.json"),
        ("open", "run-1"),
        ("fsync", "run-1"),
        ("close", "run-1"),
    ]
    assert folder.load() == state


def test_a_failed_write_leaves_the_last_checkpoint_whole(tmp_path: Path) -> None:
    folder = RunFolder.create(tmp_path, "run-1")
    folder.save(Checkpoint(run_id="run-1", config=RunConfig(), steps=1))
    failing = RunFolder(tmp_path, "run-1", Recorder(fail_writes_to="state.json.tmp"))
    with pytest.raises(OSError, match="No space left"):
        failing.save(Checkpoint(run_id="run-1", config=RunConfig(), steps=2))
    assert folder.load().steps == 1


def test_each_transcript_line_is_fsynced_and_the_new_file_named_durably(tmp_path: Path) -> None:
    disk = Recorder()
    folder = RunFolder.create(tmp_path, "run-1", disk)
    assert disk.calls == [("open", tmp_path.name), ("fsync", tmp_path.name), ("close", tmp_path.name)]
    disk.calls.clear()
    folder.record("started", goal="x")
    folder.record("tool", name="press")
    journal = [("open", "transcript.jsonl"), ("write", "transcript.jsonl"), ("fsync", "transcript.jsonl"),
               ("close", "transcript.jsonl")]  # fmt: skip
    assert disk.calls == [*journal, ("open", "run-1"), ("fsync", "run-1"), ("close", "run-1"), *journal]
    assert [event["event"] for event in folder.transcript()] == ["started", "tool"]
