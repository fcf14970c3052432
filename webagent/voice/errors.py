"""What stops speech in or out before anything is ordered. Each is a `UsageError`: one line, exit code 2.

UsageError
├── AudioError              the recording is missing, empty, silent, not audio, or at a rate
│                           the engine cannot use
├── EngineMissing           pocketsphinx, espeak-ng or sounddevice is not installed (says how)
└── MicrophoneUnavailable   no microphone to listen on
"""

from __future__ import annotations

from webagent.errors import UsageError

__all__ = ["AudioError", "EngineMissing", "MicrophoneUnavailable"]


class AudioError(UsageError):
    """A recording that cannot be transcribed."""


class EngineMissing(UsageError):
    """A speech engine is not installed; the message says how to install it."""


class MicrophoneUnavailable(UsageError):
    """There is no microphone (or no audio library) to listen on."""
