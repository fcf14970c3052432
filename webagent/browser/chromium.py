"""Find a Chromium to launch — one function used everywhere, the tests' conftest included.

Order: the ``WEBAGENT_CHROMIUM`` environment variable, then Playwright's own Chromium when
``playwright install`` has put one on this machine, then a system Chromium.
`ensure()` (what ``make setup`` runs) installs Debian's package when none is found and we are root;
``python -m webagent.browser.chromium`` prints the browser that would be used.
"""

from __future__ import annotations

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

FIX = (
    "No Chromium found. Install one: `apt-get install chromium` (Debian/Ubuntu, as root), "
    "or `playwright install chromium`, or point WEBAGENT_CHROMIUM at a Chromium/Chrome executable."
)


def _playwright_chromium() -> Path | None:
    root = os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or str(Path.home() / ".cache" / "ms-playwright")
    patterns = (
        "chromium-*/chrome-linux*/chrome",
        "chromium-*/chrome-mac*/Chromium.app/Contents/MacOS/Chromium",
    )
    for pattern in patterns:
        found = sorted(Path(root).glob(pattern), reverse=True)
        if found:
            return found[0]
    return None


def find_chromium() -> str:
    """Return the path of the Chromium to launch, or raise `BrowserNotFound` naming the fix."""
    explicit = os.environ.get("WEBAGENT_CHROMIUM")
    if explicit:
        if Path(explicit).is_file() and os.access(explicit, os.X_OK):
            return explicit
        raise BrowserNotFound(f"WEBAGENT_CHROMIUM={explicit} is not an executable file. {FIX}")
    own = _playwright_chromium()
    if own is not None:
        return str(own)
    for name in SYSTEM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    raise BrowserNotFound(FIX)


# Chromium builds a WebUI omnibox-popup renderer (45–65 MB) for every window, headless too, and Playwright
# opens a window per browser context: measured 111 → 89 MB per extra concurrent run without it.
EXTRA_DISABLED_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")


def playwright_disabled_features() -> list[str] | None:
    """The features Playwright's driver disables by default, read from its bundled source.

    Chromium obeys only the last ``--disable-features`` switch, so ours must repeat Playwright's list.
    None when the list cannot be found (another Playwright layout): then we leave the switch alone.
    """
    import playwright

    bundle = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"
    try:
        source = bundle.read_text(encoding="utf-8")
    except OSError:
        return None
    found = re.search(r"disabledFeatures = \[(.*?)\]\.filter", source, re.S)
    if found is None:
        return None
    return re.findall(r'"([A-Za-z0-9]+)"', re.sub(r"//[^\n]*", "", found.group(1)))


def ignored_default_args() -> list[str]:
    """Playwright's default switches we replace (its ``--disable-features``, merged into ours)."""
    defaults = playwright_disabled_features()
    return ["--disable-features=" + ",".join(defaults)] if defaults else []


def launch_args(*, headless: bool = True) -> list[str]:
    """Chromium flags for this environment: a closed network, root in a container, lean contexts."""
    args = list(CLOSED_NETWORK_ARGS)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")  # Chromium refuses to start its sandbox as root.
    defaults = playwright_disabled_features()
    if defaults:
        args.append("--disable-features=" + ",".join([*defaults, *EXTRA_DISABLED_FEATURES]))
    if headless:
        args.append("--disable-gpu")  # nothing is drawn on a screen; saves a GPU process's memory
    return args


def ensure() -> int:
    """Print the Chromium in use; apt-get Debian's when none is found and we are root. Exit status."""
    try:
        print(f"Chromium: {find_chromium()}")
        return 0
    except BrowserNotFound:
        pass
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        print("No Chromium found; installing Debian's chromium package…", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=True, env=env)
        print(f"Chromium: {find_chromium()}")
        return 0
    print(FIX, file=sys.stderr)
    return 1


if __name__ == "__main__":
    try:
        print(find_chromium())
    except BrowserNotFound as error:
        print(error, file=sys.stderr)
        sys.exit(1)
