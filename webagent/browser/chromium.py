"""Find a Chromium to launch — one function used everywhere, the tests' conftest included.

Headless runs use Chromium's headless shell when there is one, as Playwright itself does: a lighter
build (measured: CPU of the process tree per order 2.06 → 1.85 s, 49 → 59.5 orders a minute at 4
concurrent contexts). Headed runs need the full Chromium: the shell cannot show a window.

Order: the ``WEBAGENT_CHROMIUM`` environment variable (for both); for headless, then Playwright's own
headless shell, then a system ``chromium-headless-shell``; then Playwright's own Chromium when
``playwright install`` has put one on this machine, then a system Chromium.
`ensure()` (what ``make setup`` runs) installs Debian's packages when they are missing and we are root;
``python -m webagent.browser.chromium`` prints the browsers that would be used.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from webagent.errors import BrowserNotFound

__all__ = ["CLOSED_NETWORK_ARGS", "find_chromium", "ignored_default_args", "launch_args"]

# Without these, Chromium keeps dialling Google's services, which a closed network refuses many
# times a second.
CLOSED_NETWORK_ARGS = (
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)

SYSTEM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SHELL_SYSTEM_NAMES = ("chromium-headless-shell", "chrome-headless-shell")

FIX = (
    "No Chromium found. Install one: `apt-get install chromium` (Debian/Ubuntu, as root), "
    "or `playwright install chromium`, or point WEBAGENT_CHROMIUM at a Chromium/Chrome executable."
)


# Where ``playwright install`` puts its builds, newest revision first.
PLAYWRIGHT_CHROMIUM = (
    "chromium-*/chrome-linux*/chrome",
    "chromium-*/chrome-mac*/Chromium.app/Contents/MacOS/Chromium",
)
PLAYWRIGHT_SHELL = (
    "chromium_headless_shell-*/chrome-headless-shell-*/chrome-headless-shell",  # Playwright ≥ 1.57
    "chromium_headless_shell-*/chrome-linux*/headless_shell",  # Playwright 1.49–1.56
)


def _playwright_build(patterns: tuple[str, ...]) -> str | None:
    root = os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or str(Path.home() / ".cache" / "ms-playwright")
    for pattern in patterns:
        found = sorted(Path(root).glob(pattern), reverse=True)
        if found:
            return str(found[0])
    return None


def _on_path(names: tuple[str, ...]) -> str | None:
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


def find_chromium(*, headless: bool = True) -> str:
    """Return the path of the Chromium to launch, or raise `BrowserNotFound` naming the fix.

    ``headless`` (Playwright's default too) prefers the headless shell and falls back to the full
    Chromium, which runs headless as well; headed gets only the full Chromium. Playwright's own builds
    (matched to its driver) come before the system's, so a system shell of another version never
    stands in for them.
    """
    explicit = os.environ.get("WEBAGENT_CHROMIUM")
    if explicit:
        if not (Path(explicit).is_file() and os.access(explicit, os.X_OK)):
            raise BrowserNotFound(f"WEBAGENT_CHROMIUM={explicit} is not an executable file. {FIX}")
        if not headless and "headless" in Path(explicit).name:
            raise BrowserNotFound(
                f"WEBAGENT_CHROMIUM={explicit} is a headless shell, which cannot show a window: a headed "
                "run needs a full Chromium (unset WEBAGENT_CHROMIUM, or point it at one)."
            )
        return explicit
    found = (_playwright_build(PLAYWRIGHT_SHELL) if headless else None) or _playwright_build(
        PLAYWRIGHT_CHROMIUM
    )
    found = found or (_on_path(SHELL_SYSTEM_NAMES) if headless else None) or _on_path(SYSTEM_NAMES)
    if found is None:
        raise BrowserNotFound(FIX)
    return found


# Chromium builds a WebUI omnibox-popup renderer (45–65 MB) for every window, headless too, and Playwright
# opens a window per browser context: measured 111 → 89 MB per extra concurrent run without it.
EXTRA_DISABLED_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")


def playwright_disabled_features() -> list[str] | None:
    """The features Playwright's driver disables by default, read from its bundled source.

    Chromium obeys only the last ``--disable-features`` switch, so ours must repeat Playwright's list.
    None when the list cannot be found (another Playwright layout): then we leave the switch alone.
    """
    return _playwright_features(r"disabledFeatures = \[(.*?)\]\.filter")


def playwright_enabled_features() -> list[str] | None:
    """The features Playwright's driver enables by default (its ``enabledFeatures``), read as the disabled
    ones are; None when the list cannot be found."""
    return _playwright_features(r"enabledFeatures = \(\) => \[(.*?)\]\.filter")


def _playwright_features(listed: str) -> list[str] | None:
    """The feature names in the list ``listed`` (a pattern whose group is the list) finds in Playwright's
    bundled driver source; None when the source or the list is not there."""
    import playwright

    bundle = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"
    try:
        source = bundle.read_text(encoding="utf-8")
    except OSError:
        return None
    found = re.search(listed, source, re.S)
    if found is None:
        return None
    return re.findall(r'"([A-Za-z0-9]+)"', re.sub(r"//[^\n]*", "", found.group(1)))


ENABLED_FEATURES = ("WebMCP",)
"""Added to Playwright's: pages' own typed tools (`document.modelContext`, webagent/browser/webmcp.py)."""


def ignored_default_args() -> list[str]:
    """Playwright's default switches we replace (its ``--disable-features`` and ``--enable-features``,
    merged into ours: Chromium obeys only the last of each)."""
    defaults, enabled = playwright_disabled_features(), playwright_enabled_features()
    return [
        *(["--disable-features=" + ",".join(defaults)] if defaults else []),
        *(["--enable-features=" + ",".join(enabled)] if enabled is not None else []),
    ]


def launch_args(*, headless: bool = True) -> list[str]:
    """Chromium flags for this environment: a closed network, root in a container, lean contexts."""
    args = list(CLOSED_NETWORK_ARGS)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")  # Chromium refuses to start its sandbox as root.
    defaults = playwright_disabled_features()
    if defaults:
        args.append("--disable-features=" + ",".join([*defaults, *EXTRA_DISABLED_FEATURES]))
    enabled = playwright_enabled_features()
    if enabled is not None:
        args.append("--enable-features=" + ",".join([*enabled, *ENABLED_FEATURES]))
    if headless:
        args.append("--disable-gpu")  # nothing is drawn on a screen; saves a GPU process's memory
    return args


def _print_in_use() -> None:
    print(f"Chromium, headless: {find_chromium(headless=True)}")
    print(f"Chromium, headed:   {find_chromium(headless=False)}")


def _apt_get(package: str, *, quiet_failure: bool = False) -> str | None:
    """Install one Debian package; the failure's last line when ``quiet_failure``, else it raises."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", package]):
        done = subprocess.run(
            command, check=not quiet_failure, env=env, capture_output=quiet_failure, text=True
        )
        if done.returncode != 0:
            return (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
    return None


def ensure(remembered: Path | None = None) -> int:
    """Make sure a Chromium is there and print those in use; exit status.

    As root with apt-get: installs Debian's ``chromium`` when no full Chromium is found, and its
    ``chromium-headless-shell`` when no shell is — best effort, as the full Chromium serves headless too.
    A shell the package lists do not have is remembered in ``remembered`` (default: a file in the
    virtualenv), so the next ``make`` does not run ``apt-get update`` for it again; delete it to try again.
    """
    remembered = remembered or Path(sys.prefix) / "webagent-no-headless-shell"
    can_apt = hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get") is not None
    try:
        find_chromium(headless=False)
    except BrowserNotFound:
        if not can_apt:
            print(FIX, file=sys.stderr)
            return 1
        print("No Chromium found; installing Debian's chromium package…", flush=True)
        _apt_get("chromium")
    if (
        can_apt
        and not os.environ.get("WEBAGENT_CHROMIUM")
        and (_playwright_build(PLAYWRIGHT_SHELL) or _on_path(SHELL_SYSTEM_NAMES)) is None
    ):
        failure = remembered.read_text(encoding="utf-8").strip() if remembered.is_file() else None
        if failure is None:
            print("Installing Debian's chromium-headless-shell package for headless runs…", flush=True)
            failure = _apt_get("chromium-headless-shell", quiet_failure=True)
            if failure and "Unable to locate package" in failure:  # not a passing one (no network)
                with contextlib.suppress(OSError):  # best effort, as the shell is
                    remembered.write_text(failure + "\n", encoding="utf-8")
        else:
            failure = f"{failure}; not tried again until {remembered} is deleted"
        if failure:
            print(f"Headless runs use the full Chromium: chromium-headless-shell did not install ({failure})")
    _print_in_use()
    return 0


if __name__ == "__main__":
    try:
        _print_in_use()
    except BrowserNotFound as error:
        print(error, file=sys.stderr)
        sys.exit(1)
