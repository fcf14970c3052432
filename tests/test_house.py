"""The house in rooms (issue 23), checked over every import statement of the package.

Imports inside functions and under ``TYPE_CHECKING`` count as much as those at the top: a cycle through a
function-level import is still a cycle a reader has to untangle. The checker is tested on packages written
here with a cycle it must find, so a checker that found nothing because it read nothing would fail.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "webagent"
SHOP = "webagent.sites.demo_shop"
# Pure rooms: what the model reads, and the offline planner. No browser, no tools, no site adapter.
PURE = ("webagent.narration", "webagent.planner")
# The generic layer knows no site: it talks to the adapter through the Site / SessionSite Protocols.
GENERIC = ("webagent.agent", "webagent.llm", "webagent.browser", "webagent.tools", *PURE, "webagent.report")


def modules(package: Path) -> dict[str, Path]:
    """Dotted module names under ``package`` (a package is named by its ``__init__.py``)."""
    found = {}
    for file in package.rglob("*.py"):
        parts = list(file.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = file
    return found


def imports(name: str, file: Path, known: dict[str, Path]) -> Iterator[str]:
    """Every name ``file`` imports, anywhere in it: the package's own modules, and others' top names."""

    def own(dotted: str) -> str | None:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    here = name.split(".") if file.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield own(alias.name) or alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield (full if full in known else own(base)) or base


def graph(package: Path) -> dict[str, set[str]]:
    known = modules(package)
    return {name: set(imports(name, file, known)) - {name} for name, file in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start] & edges.keys())))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(edges[child] & edges.keys()))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def reach(edges: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for name in edges.get(todo.pop(), ()):
            if name not in seen:
                seen.add(name)
                todo.append(name)
    return seen


EDGES = graph(PACKAGE)


def test_no_import_cycles() -> None:
    assert cycles(EDGES) == []


def write(root: Path, files: dict[str, str]) -> Path:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return root / "pkg"


@pytest.mark.parametrize(
    "files",
    [
        # a function-level import closing the loop
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg import b\n",
            "pkg/b.py": "def f():\n    import pkg.a\n",
        },
        # one under TYPE_CHECKING, and relative imports through a sub-package
        {
            "pkg/__init__.py": "",
            "pkg/sub/__init__.py": "",
            "pkg/sub/x.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..y import Y\n",
            "pkg/y.py": "from .sub.z import Z\n",
            "pkg/sub/z.py": "from . import x\n",
        },
    ],
)
def test_the_checker_finds_a_cycle_written_here(tmp_path: Path, files: dict[str, str]) -> None:
    found = cycles(graph(write(tmp_path, files)))
    assert len(found) == 1 and len(found[0]) >= 2


def test_no_module_over_600_lines_and_a_short_loop() -> None:
    long = {
        name: n for name, file in modules(PACKAGE).items() if (n := len(file.read_text().splitlines())) > 600
    }
    assert long == {}
    assert len((PACKAGE / "agent" / "loop.py").read_text().splitlines()) <= 220


def test_at_most_15_modules_at_the_top() -> None:
    assert len(list(PACKAGE.glob("*.py"))) <= 15


@pytest.mark.parametrize("room", PURE)
def test_pure_rooms_import_no_browser_code(room: str) -> None:
    for name in [m for m in EDGES if m == room or m.startswith(room + ".")]:
        reached = reach(EDGES, name) | EDGES[name]
        browserish = {
            r
            for r in reached
            if r.split(".")[0] == "playwright"
            or r.startswith(("webagent.browser", "webagent.tools", "webagent.sites", "webagent.agent"))
        }
        assert browserish == set(), f"{name} reaches {sorted(browserish)}"


@pytest.mark.parametrize("room", GENERIC)
def test_the_generic_layer_never_imports_the_shop_adapter(room: str) -> None:
    for name in [m for m in EDGES if m == room or m.startswith(room + ".")]:
        shop = {r for r in reach(EDGES, name) if r == SHOP or r.startswith(SHOP + ".") or r == "demo_site"}
        assert shop == set(), f"{name} reaches {sorted(shop)}"


def _shop_events() -> list[str]:
    """The events the bundled shop's pages dispatch, read from the shop itself (a new one is held too)."""
    pages = "".join(p.read_text() for p in (ROOT / "demo_site").rglob("*") if p.suffix in (".js", ".html"))
    return sorted(set(re.findall(r"""CustomEvent\(\s*["']([\w:-]+)""", pages)))


# What only the bundled shop's adapter may name: its test ids, its activity log, its view marker, its events.
SHOP_WORDS = (
    "data-testid",
    "get_by_test_id",
    "shopActivity",
    "dataset.view",
    "data-view",
    *_shop_events(),
)


def test_only_the_adapter_names_the_shops_test_ids_and_activity_log() -> None:
    assert "shop:action" in _shop_events()  # the events are read from the shop: the reading still finds them
    named = {
        str(file.relative_to(ROOT)): [word for word in SHOP_WORDS if word in file.read_text()]
        for file in PACKAGE.rglob("*.py")
        if SHOP.replace(".", "/") not in file.as_posix()
    }
    assert {path: words for path, words in named.items() if words} == {}


def _shop_names() -> set[str]:
    """The bundled shop's own names, read from the shop itself (not listed here by hand): every test id its
    pages and the adapter use (hyphenated ones: "error" or "toast" are words any page has), its page routes
    and its API paths."""
    import re

    texts = [p.read_text() for p in (ROOT / "demo_site").rglob("*") if p.suffix in (".js", ".html", ".py")]
    texts += [p.read_text() for p in (PACKAGE / "sites" / "demo_shop").rglob("*.py")]
    ids = {
        found
        for text in texts
        for found in re.findall(
            r"""(?:data-testid=|testid["']?\s*[:=]\s*|get_by_test_id\()\\?["']([a-z0-9-]+)""", text
        )
        if "-" in found
    }
    from demo_site.routes.pages import PAGE_ROUTES

    paths = {route.split("{")[0].rstrip("/") for route in PAGE_ROUTES if route != "/"} | {"/api"}
    return ids | paths


def test_no_module_outside_the_adapter_names_the_shops_test_ids_or_paths() -> None:
    """Issue 39: what only the demo shop has — its test ids, its routes ("/checkout", "/orders"), its API —
    is named in string constants of `sites/demo_shop/` alone; the runner, recovery and every generic layer ask
    the `Site` (its order history path, what a reload must restore)."""
    names = _shop_names()
    assert {"cart-drawer", "place-order", "/checkout", "/orders"} <= names, sorted(names)
    found: dict[str, list[str]] = {}
    for file in PACKAGE.rglob("*.py"):
        if SHOP.replace(".", "/") in file.as_posix():
            continue
        tree = ast.parse(file.read_text(encoding="utf-8"))
        prose = {
            id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)
        }  # docstrings explain, not name
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
                value = node.value.rstrip("/")
                hits = [n for n in names if value == n or value.startswith(n + "/") or f'"{n}"' in value]
                if hits:
                    found.setdefault(str(file.relative_to(ROOT)), []).extend(hits)
    assert found == {}


@pytest.mark.parametrize(
    "room", ["webagent.runs", "webagent.mcp_server", "webagent.fleet", "webagent.evals", "webagent.testing"]
)
def test_runs_and_the_mcp_server_name_no_site_adapter(room: str) -> None:
    """Issue 39: the runner, chat, replay, the MCP server, batch and the eval take the site a run names
    (`--site`), through the one registry (`webagent.sites.site_named`); none of them imports an adapter (a
    batch's sessions and their orders are the site's: `Site.order_sessions`)."""
    for name in [m for m in EDGES if m == room or m.startswith(room + ".")]:
        adapters = {r for r in reach(EDGES, name) if r.startswith("webagent.sites.")}
        assert adapters == set(), f"{name} reaches {sorted(adapters)}"
