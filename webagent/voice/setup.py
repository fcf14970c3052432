"""What ``make setup`` runs for voice: the system programs speech needs, installed like Chromium.

espeak-ng speaks offline and pronounces dish names the recogniser's dictionary lacks; sox makes the
16 kHz recordings the tests speak; PortAudio (libportaudio2) lets sounddevice open a microphone.
`ensure()` prints what is there and, as root on Debian/Ubuntu, apt-gets what is missing; otherwise it
says what to install. ``python -m webagent.voice.setup`` runs it.
"""

from __future__ import annotations

import ctypes.util
import os
import shutil
import subprocess
import sys

__all__ = ["ensure", "missing"]

PACKAGES = {
    "espeak-ng": lambda: shutil.which("espeak-ng") is not None,
    "sox": lambda: shutil.which("sox") is not None,
    "libportaudio2": lambda: ctypes.util.find_library("portaudio") is not None,
}


def missing() -> list[str]:
    """The Debian packages of `PACKAGES` not found on this machine."""
    return [package for package, found in PACKAGES.items() if not found()]


def ensure() -> int:
    """Install missing voice programs with apt-get when root; otherwise say how. Exit status (0: all there)."""
    absent = missing()
    if not absent:
        print("Voice: espeak-ng, sox and PortAudio are installed")
        return 0
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        print(f"Voice: installing {' '.join(absent)}…", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", *absent], check=True, env=env)
        return 0 if not missing() else 1
    print(
        f"Voice: {', '.join(absent)} not found. Install with `sudo apt-get install {' '.join(absent)}` "
        "(macOS: `brew install espeak-ng sox portaudio`); speech out and the voice tests need them.",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(ensure())
