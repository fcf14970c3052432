"""A user's failing test with the pytest plugin says why, and keeps the run where a person will look.

pytest runs a generated test file in a subprocess (pytester), finding the plugin through its entry
point as a user's project does, with this checkout's code first on the path.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import webagent
from webagent.browser.chromium import find_chromium

pytest_plugins = ["pytester"]


@pytest.fixture(autouse=True)
def same_code_and_chromium(monkeypatch: pytest.MonkeyPatch) -> None:
    """The subprocess uses this checkout's webagent and the Chromium this session found (pytester's
    temporary HOME would hide one under ~/.cache)."""
    monkeypatch.setenv("WEBAGENT_CHROMIUM", find_chromium(headless=True))
    monkeypatch.setenv("PYTHONPATH", str(Path(webagent.__file__).parents[1]))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def test_a_failing_agent_test_prints_the_question_and_keeps_the_report(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_user=textwrap.dedent(
            """
            from webagent.testing import ScriptedModel, call, reply

            def test_orders_dinner(agent):
                # Approval "pause": the run stops before ordering, with a question for a person.
                result = agent.run("Order 2 Tiramisu from Italian Bistro, pay cash", approve="pause")
                assert result.outcome == "ordered"

            def test_looks_around(agent):
                model = ScriptedModel([reply(call("finish", outcome="done", summary="looked"))])
                assert agent.run("Look around", model=model).outcome == "done"
            """
        )
    )

    outcome = pytester.runpytest_subprocess("--tracing", "retain-on-failure")

    outcome.assert_outcomes(failed=1, passed=1)
    out = outcome.stdout.str()
    # The assertion's own explanation says how the run ended, and why, not just 'paused' != 'ordered'.
    assert "assert 'paused' == 'ordered'" in out
    assert "E         the agent's last run ended paused:" in out
    assert "E           question: Approve the order of $" in out
    # The section under the failure: how the run ended, why, and where its report and trace are kept.
    results = pytester.path / "test-results"
    assert [p.name for p in results.iterdir()] == ["test-user-py-test-orders-dinner"]  # the failed test only
    [run_dir] = list((results / "test-user-py-test-orders-dinner").iterdir())
    assert "- webagent -" in out and f"agent run 1 of 1: paused, waiting for approval ({run_dir.name})" in out
    assert "  question: Approve the order of $" in out
    assert f"  report:   {run_dir / 'report.html'}" in out
    assert f"  trace:    playwright show-trace --port 9323 {run_dir / 'trace.zip'}" in out
    report = (run_dir / "report.html").read_text()
    assert 'data-outcome="paused"' in report and str(run_dir / "trace.zip") in report  # written for the copy
    assert (run_dir / "trace.zip").stat().st_size > 0
