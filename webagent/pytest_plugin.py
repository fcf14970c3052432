"""pytest plugin: fixtures for end-to-end tests of the demo shop with webagent.

Registered as a ``pytest11`` entry point, so a project that installed webagent needs no conftest:
pytest-playwright's browser launch is pointed at the discovered Chromium.
"""

from __future__ import annotations

from typing import Any

import pytest

from webagent.chromium import find_chromium, launch_args


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's launch arguments, pointed at the Chromium `find_chromium` discovers."""
    return {
        **browser_type_launch_args,
        "executable_path": find_chromium(),
        "args": [*browser_type_launch_args.get("args", []), *launch_args()],
    }
