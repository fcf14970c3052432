"""Browser discovery and launch flags."""

import os
from pathlib import Path

import pytest

from webagent.browser.chromium import (
    EXTRA_DISABLED_FEATURES,
    find_chromium,
    ignored_default_args,
    launch_args,
)
from webagent.errors import BrowserNotFound


def test_env_var_wins_and_a_bad_one_names_the_fix(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = find_chromium()
    assert os.access(real, os.X_OK)
    # Another executable than the one found otherwise: only the variable can make it the answer.
    chosen = tmp_path / "my-chromium"
    chosen.write_text("#!/bin/sh\nexec true\n")
    chosen.chmod(0o755)
    monkeypatch.setenv("WEBAGENT_CHROMIUM", str(chosen))
    assert find_chromium() == str(chosen) != real
    chosen.chmod(0o644)  # there, but not executable: refused, not silently replaced by another
    with pytest.raises(BrowserNotFound, match="is not an executable file"):
        find_chromium()
    monkeypatch.setenv("WEBAGENT_CHROMIUM", str(tmp_path / "nope"))
    with pytest.raises(BrowserNotFound, match="apt-get install chromium"):
        find_chromium()


def test_our_disable_features_switch_keeps_playwrights_list() -> None:
    replaced = ignored_default_args()
    assert len(replaced) == 1 and replaced[0].startswith("--disable-features=")
    playwright_list = replaced[0].split("=", 1)[1].split(",")
    assert "PaintHolding" in playwright_list  # a feature Playwright disables on purpose
    ours = [arg for arg in launch_args() if arg.startswith("--disable-features=")]
    assert len(ours) == 1
    merged = ours[0].split("=", 1)[1].split(",")
    assert merged == [*playwright_list, *EXTRA_DISABLED_FEATURES]
    assert "--disable-gpu" in launch_args(headless=True) and "--disable-gpu" not in launch_args(
        headless=False
    )
    assert "--disable-background-networking" in launch_args()
