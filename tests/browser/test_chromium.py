"""Browser discovery and launch flags."""

import os
from pathlib import Path

import psutil
import pytest

from demo_site import Shop
from webagent.browser.chromium import (
    ENABLED_FEATURES,
    EXTRA_DISABLED_FEATURES,
    ensure,
    find_chromium,
    ignored_default_args,
    launch_args,
)
from webagent.browser.session import Browser
from webagent.errors import BrowserNotFound
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.sync import run_sync

SHELL_NAMES = {"chromium-headless-shell", "chrome-headless-shell", "headless_shell"}


def _executable(path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexec true\n")
    path.chmod(0o755)
    return str(path)


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


def test_headless_prefers_the_shell_and_headed_never_gets_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    registry, bin_dir = tmp_path / "ms-playwright", tmp_path / "bin"
    registry.mkdir()
    bin_dir.mkdir()
    monkeypatch.delenv("WEBAGENT_CHROMIUM", raising=False)
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(registry))
    monkeypatch.setenv("PATH", str(bin_dir))
    with pytest.raises(BrowserNotFound):
        find_chromium(headless=True)

    system = _executable(bin_dir / "chromium")
    assert find_chromium(headless=True) == find_chromium(headless=False) == system  # the full one serves both

    system_shell = _executable(bin_dir / "chromium-headless-shell")
    assert (find_chromium(headless=True), find_chromium(headless=False)) == (system_shell, system)

    # Playwright's own build, matched to its driver, before any system one.
    own = _executable(registry / "chromium-1255" / "chrome-linux64" / "chrome")
    assert (find_chromium(headless=True), find_chromium(headless=False)) == (own, own)

    own_shell = registry / "chromium_headless_shell-1255" / "chrome-headless-shell-linux64"
    own_shell = Path(_executable(own_shell / "chrome-headless-shell"))
    assert (find_chromium(headless=True), find_chromium(headless=False)) == (str(own_shell), own)
    assert find_chromium() == str(own_shell)  # headless by default, as Playwright launches

    chosen = _executable(tmp_path / "my-chromium")
    monkeypatch.setenv("WEBAGENT_CHROMIUM", chosen)
    assert find_chromium(headless=True) == find_chromium(headless=False) == chosen

    # A shell chosen by hand serves headless runs; a headed one is told why it cannot.
    monkeypatch.setenv("WEBAGENT_CHROMIUM", str(own_shell))
    assert find_chromium(headless=True) == str(own_shell)
    with pytest.raises(BrowserNotFound, match="headless shell, which cannot show a window"):
        find_chromium(headless=False)


def test_ensure_installs_the_shell_best_effort_and_never_beside_an_explicit_choice(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    if os.geteuid() != 0:
        pytest.skip("ensure() installs only as root")
    bin_dir, calls = tmp_path / "bin", tmp_path / "apt-get.calls"
    full = _executable(bin_dir / "chromium")
    # An apt-get whose every install fails, as on a machine whose package lists lack the shell.
    apt_get = bin_dir / "apt-get"
    apt_get.write_text(
        f'#!/bin/sh\necho "$@" >> {calls}\n[ "$1" = update ] && exit 0\n'
        'echo "E: Unable to locate package $4" >&2\nexit 100\n'
    )
    apt_get.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "no-registry"))
    monkeypatch.setenv("WEBAGENT_CHROMIUM", full)
    assert ensure() == 0
    assert not calls.exists()  # the explicit choice serves headless too: nothing to install
    assert capsys.readouterr().out.splitlines() == [
        f"Chromium, headless: {full}",
        f"Chromium, headed:   {full}",
    ]

    monkeypatch.delenv("WEBAGENT_CHROMIUM")
    remembered = tmp_path / "no-shell"
    assert ensure(remembered) == 0
    assert calls.read_text().splitlines() == ["update -qq", "install -y -qq chromium-headless-shell"]
    assert capsys.readouterr().out.splitlines()[1:] == [
        "Headless runs use the full Chromium: chromium-headless-shell did not install "
        "(E: Unable to locate package chromium-headless-shell)",
        f"Chromium, headless: {full}",
        f"Chromium, headed:   {full}",
    ]

    # The next `make` remembers it: no second apt-get update for a package that is not there.
    assert ensure(remembered) == 0
    assert len(calls.read_text().splitlines()) == 2
    assert capsys.readouterr().out.splitlines()[0] == (
        "Headless runs use the full Chromium: chromium-headless-shell did not install "
        f"(E: Unable to locate package chromium-headless-shell; not tried again until {remembered} is deleted)"
    )
    remembered.unlink()
    assert ensure(remembered) == 0
    assert len(calls.read_text().splitlines()) == 4  # asked to, it tries again


def test_playwrights_older_shell_layout_is_found(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("WEBAGENT_CHROMIUM", raising=False)
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    full = _executable(tmp_path / "chromium-1148" / "chrome-linux" / "chrome")
    shell = _executable(tmp_path / "chromium_headless_shell-1148" / "chrome-linux" / "headless_shell")
    assert (find_chromium(headless=True), find_chromium(headless=False)) == (shell, full)


def test_a_headless_launch_runs_the_shell_and_renders_the_shop(shop: Shop) -> None:
    if Path(find_chromium(headless=True)).name not in SHELL_NAMES:
        pytest.skip("no Chromium headless shell installed (apt-get install chromium-headless-shell)")
    before = set(psutil.Process().children(recursive=True))
    browser = run_sync(Browser.launch())
    try:
        ours = set(psutil.Process().children(recursive=True)) - before
        executables = {Path(process.exe()).name for process in ours}
        assert executables & SHELL_NAMES, executables
        assert not executables & {"chromium", "chrome"}, executables  # no full Chromium was started
        session = run_sync(browser.new_session(shop.url, DEMO_SHOP))
        try:
            run_sync(session.open("/"))
            cards = run_sync(session.page.get_by_test_id("restaurant-card").all_inner_texts())
            assert any("Italian Bistro" in card for card in cards), cards
        finally:
            run_sync(session.close())
    finally:
        run_sync(browser.close())


def test_our_disable_features_switch_keeps_playwrights_list() -> None:
    replaced = ignored_default_args()
    assert [arg.split("=", 1)[0] for arg in replaced] == ["--disable-features", "--enable-features"]
    playwright_list = replaced[0].split("=", 1)[1].split(",")
    assert "PaintHolding" in playwright_list  # a feature Playwright disables on purpose
    ours = [arg for arg in launch_args() if arg.startswith("--disable-features=")]
    assert len(ours) == 1
    merged = ours[0].split("=", 1)[1].split(",")
    assert merged == [*playwright_list, *EXTRA_DISABLED_FEATURES]
    # Chromium obeys only the last --enable-features too: Playwright's list is kept, WebMCP added to it.
    playwright_enabled = replaced[1].split("=", 1)[1].split(",")
    assert "CDPScreenshotNewSurface" in playwright_enabled
    enabled = [arg for arg in launch_args() if arg.startswith("--enable-features=")]
    assert enabled == ["--enable-features=" + ",".join([*playwright_enabled, *ENABLED_FEATURES])]
    assert "WebMCP" in ENABLED_FEATURES
    assert "--disable-gpu" in launch_args(headless=True) and "--disable-gpu" not in launch_args(
        headless=False
    )
    assert "--disable-background-networking" in launch_args()
