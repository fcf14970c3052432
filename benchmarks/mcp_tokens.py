"""(Named mcp_tokens, not mcp: a benchmarks/mcp.py would shadow the SDK for its sibling modules.)

Tokens an MCP client reads for a 3-dish order through ``webagent mcp``, beside the ARIA snapshots of
the same pages (what an accessibility-snapshot MCP server such as Playwright MCP returns after every
action).

    python benchmarks/mcp_tokens.py [--json PATH]

A scripted MCP client (the SDK's own `Client`, in process, handshake era) makes the calls of
tokens.py's typical order, then ``finish``, against the bundled shop at clutter 2; its elicitation
handler approves the order. Counted with tiktoken ``cl100k_base``: each result's text content (what a
client shows its model), its structured content (the `PageView` JSON, for clients that read that
instead), and — as the baseline, the same calls made by a `Toolbox` in a twin browser context on the
same shop — ``body.aria_snapshot(mode="ai")`` after each call. Benchmarks are not tests.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from anywhere without install
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CLUTTER, SEED, log
from mcp import Client
from mcp_types import ElicitRequestParams, ElicitResult
from tokens import ORDER_STEPS, encoder

from demo_site import running_shop
from webagent.browser.session import Browser
from webagent.config import RunConfig
from webagent.mcp_server import McpSettings, build_server
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.tools.toolbox import Toolbox


async def approve(context: Any, params: ElicitRequestParams) -> ElicitResult:
    return ElicitResult(action="accept", content={"approve": True})


async def measure(workdir: Path) -> dict[str, Any]:
    enc = encoder()
    count = lambda text: len(enc.encode(text, disallowed_special=()))  # noqa: E731
    steps: list[dict[str, Any]] = []
    with running_shop(db_path=workdir / "shop.db", clutter=CLUTTER, seed=SEED) as shop:
        browser = await Browser.launch()
        try:
            config = RunConfig(shop_url=shop.url, clutter=CLUTTER, seed=SEED, runs_dir=workdir / "runs")
            server = build_server(McpSettings(config), browser)
            twin = await browser.new_session(shop.url, DEMO_SHOP)
            await twin.goto(DEMO_SHOP.start_url(twin.shop_url, CLUTTER, SEED))
            toolbox = Toolbox(twin, DEMO_SHOP)
            async with Client(server, mode="legacy", elicitation_callback=approve) as client:
                listing = (await client.list_tools()).tools
                # What a client puts before its model (name, description, input schema), and the output
                # schemas it may keep for itself.
                # The whole tools/list as a client receives it (and an API client sends on every request).
                definitions = count(
                    json.dumps([t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listing])
                )
                order_id = None
                for name, arguments in ORDER_STEPS:
                    result = await client.call_tool(name, arguments)
                    text = "\n".join(block.text for block in result.content if block.type == "text")
                    structured = json.dumps(result.structured_content or {})
                    await toolbox.call(name, arguments)
                    aria = await twin.page.locator("body").aria_snapshot(mode="ai")  # type: ignore[call-arg]
                    order_id = (result.structured_content or {}).get("order_number") or order_id
                    steps.append(
                        {
                            "tool": name,
                            "ok": not result.is_error,
                            "text": count(text),
                            "structured": count(structured),
                            "aria": count(aria),
                        }
                    )
                    log(
                        f"mcp {name}: text {steps[-1]['text']}, structured {steps[-1]['structured']}, aria {steps[-1]['aria']}"
                    )
                finish = {"outcome": "ordered", "order_id": order_id, "summary": "Ordered 3 dishes."}
                finished = await client.call_tool("finish", finish)
                text = "\n".join(block.text for block in finished.content if block.type == "text")
                steps.append(
                    {
                        "tool": "finish",
                        "ok": not finished.is_error,
                        "text": count(text),
                        "structured": count(json.dumps(finished.structured_content or {})),
                        "aria": 0,
                    }
                )
            await twin.close()
        finally:
            await browser.close()
    return {
        "steps": steps,
        "calls": len(steps),
        "all_ok": all(step["ok"] for step in steps),
        "text_tokens": sum(step["text"] for step in steps),
        "structured_tokens": sum(step["structured"] for step in steps),
        "aria_tokens": sum(step["aria"] for step in steps),
        "tool_list_tokens": definitions,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--json", type=Path, help="write the measurements here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="webagent-bench-mcp-") as workdir:
        result = asyncio.run(measure(Path(workdir)))
    ratio = result["text_tokens"] / result["aria_tokens"]
    print(
        f"| tokens | 3-dish order through `webagent mcp`: tool-result text, {result['calls']} calls | "
        f"{result['text_tokens']:,} tok | {result['aria_tokens']:,} tok (ARIA snapshot after each call) | "
        f"{ratio:.3f}× |"
    )
    print(
        f"structured content: {result['structured_tokens']:,} tok; the tool list (tools/list as sent): "
        f"{result['tool_list_tokens']:,} tok; all calls ok: {result['all_ok']}"
    )
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
