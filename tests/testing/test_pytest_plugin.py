"""The pytest plugin as a user meets it: test files with no conftest, run by pytest in a subprocess.

The subprocess finds the plugin the way a user's project does, through webagent's ``pytest11`` entry
point, and points pytest-playwright's (and the agent's) browser at the discovered Chromium.
"""

from __future__ import annotations

import textwrap

import pytest

from webagent.browser.chromium import find_chromium

pytest_plugins = ["pytester"]


@pytest.fixture(autouse=True)
def same_chromium(monkeypatch: pytest.MonkeyPatch) -> None:
    """pytester gives the subprocess a temporary HOME, which hides a Chromium that `playwright install`
    put under ~/.cache; name the browser this session found explicitly."""
    monkeypatch.setenv("WEBAGENT_CHROMIUM", find_chromium(headless=True))


ORDER = "Order a Lasagna al Forno and a Tiramisu from Italian Bistro, pay cash"


def write_user_test(pytester: pytest.Pytester, body: str) -> None:
    """A user's test file, alone in its project: no conftest, no ``pytest_plugins``."""
    pytester.makepyfile(test_user=textwrap.dedent(body))
    assert not list(pytester.path.glob("**/conftest.py"))


def test_a_user_test_without_conftest_orders_through_the_agent(pytester: pytest.Pytester) -> None:
    write_user_test(
        pytester,
        f"""
        def test_orders(demo_shop, agent):
            assert demo_shop.orders() == []

            result = agent.run({ORDER!r})

            assert result.outcome == "ordered", result.message
            [order] = demo_shop.orders()
            assert order["id"] == result.order_id
            assert order["total_cents"] == result.total_cents
            assert sorted(item["dish_name"] for item in order["items"]) == ["Lasagna al Forno", "Tiramisu"]
            assert order["payment_method"] == "Cash"
            # What the goal leaves out comes from the plugin's default profile.
            assert (order["name"], order["address"], order["phone"]) == (
                "Test Customer", "1 Test Street", "555-0100"
            )
        """,
    )

    outcome = pytester.runpytest_subprocess()

    outcome.assert_outcomes(passed=1)


def test_live_model_tests_are_skipped_without_an_api_key(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    write_user_test(
        pytester,
        """
        import pytest

        @pytest.mark.live_model
        def test_needs_a_model():
            raise AssertionError("a live_model test ran without OPENAI_API_KEY")

        def test_unmarked():
            pass
        """,
    )

    outcome = pytester.runpytest_subprocess("-rs", "--strict-markers")

    outcome.assert_outcomes(passed=1, skipped=1)
    outcome.stdout.fnmatch_lines(["*live_model: OPENAI_API_KEY is not set*"])


def test_the_clutter_option_reaches_the_shop_and_the_agents_session(pytester: pytest.Pytester) -> None:
    write_user_test(
        pytester,
        f"""
        import json
        import sqlite3
        from contextlib import closing
        from urllib.request import urlopen

        def test_cluttered(demo_shop, agent):
            assert (demo_shop.clutter, demo_shop.seed) == (2, 11)
            with urlopen(demo_shop.url + "/api/session") as response:
                assert json.load(response)["clutter"] == 2

            result = agent.run({ORDER!r})

            assert result.outcome == "ordered", result.message
            with closing(sqlite3.connect(demo_shop.db_path)) as db:
                sessions = db.execute("SELECT clutter, seed FROM sessions").fetchall()
            assert (2, 11) in sessions
        """,
    )

    outcome = pytester.runpytest_subprocess("--webagent-clutter", "2", "--webagent-seed", "11")

    outcome.assert_outcomes(passed=1)


def test_the_gguf_option_makes_the_agent_local_and_a_named_model_replaces_it(
    pytester: pytest.Pytester,
) -> None:
    write_user_test(
        pytester,
        f"""
        from pathlib import Path

        def test_local(agent):
            assert (agent.config.model, agent.config.gguf) == (None, Path("no-such.gguf"))
            with __import__("pytest").raises(Exception, match="no-such.gguf: no such file"):
                agent.run({ORDER!r})
            result = agent.run({ORDER!r}, model="planner")  # the session's GGUF is not this run's
            assert result.outcome == "ordered", result.message
        """,
    )

    outcome = pytester.runpytest_subprocess("--webagent-gguf", "no-such.gguf")

    outcome.assert_outcomes(passed=1)


def test_tracing_on_writes_a_trace_for_each_agent_run(pytester: pytest.Pytester) -> None:
    write_user_test(
        pytester,
        f"""
        def test_traced(agent):
            assert agent.run({ORDER!r}).outcome == "ordered"
        """,
    )

    outcome = pytester.runpytest_subprocess("--tracing", "on", "--webagent-runs-dir", "agent-runs")

    outcome.assert_outcomes(passed=1)
    [trace] = (pytester.path / "agent-runs").glob("*/trace.zip")
    assert trace.stat().st_size > 0


def test_a_user_test_drives_a_page_of_its_own_through_site_agent(pytester: pytest.Pytester) -> None:
    """The plugin takes a site (issue 39): a user's page, served inside their test, driven by the generic
    tools through ``site_agent`` with a scripted model; the page's server records the one press."""
    write_user_test(
        pytester,
        """
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        from webagent.testing import ScriptedModel, call, reply

        PAGE = b"<!doctype html><title>Notes</title><main><h1>Notes</h1>" \\
            b"<button onclick=\\"fetch('/saved', {method: 'POST'})\\">Save</button></main>"
        SAVED = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(PAGE)

            def do_POST(self):
                SAVED.append(self.path)
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        def test_my_page(site_agent):
            server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            url = f"http://127.0.0.1:{server.server_address[1]}/notes"
            model = ScriptedModel([
                reply(call("press", name="Save")),
                reply(call("finish", outcome="done", summary="Saved.")),
            ])
            try:
                result = site_agent.run("Save my notes", shop_url=url, model=model)
            finally:
                server.shutdown()
            assert result.outcome == "done", result.message
            assert SAVED == ["/saved"]
            assert site_agent.config.site == "any-page"
            offered = {t["function"]["name"] for _, tools in model.calls for t in tools}
            assert "add_to_cart" not in offered and "press" in offered
        """,
    )
    outcome = pytester.runpytest_subprocess()
    outcome.assert_outcomes(passed=1)
