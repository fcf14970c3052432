"""Around every request: the session cookie, page-load settings, deliberate faults, security headers."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from demo_site.context import ShopContext
from demo_site.errors import BUG_DETAIL
from demo_site.faults import BUSY_DETAIL

log = logging.getLogger(__name__)

SESSION_COOKIE = "shop_session"
MAX_CLUTTER = 4

_SESSION_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
_PAGE = re.compile(r"/(restaurant/[^/]+|checkout|orders(/[^/]+)?)?/?")
_WHOLE_NUMBER = re.compile(r"[0-9]{1,12}")

# The pages load only their own modules and stylesheet and never build markup from text, so nothing
# inline and nothing foreign may run or style them. Two deliberate openings, both for browser automation:
# - 'unsafe-eval': Playwright's `page.wait_for_function` evaluates its predicate with `eval` in the page
#   (webagent waits for each view that way), so without it an automated browser never sees a page settle;
# - `connect-src *`: the shop's script only calls its own API, and webagent's tests prove that *its*
#   allowlist stops a page that calls elsewhere.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self'; img-src 'self' data:; "
    "connect-src *; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def install_middleware(app: FastAPI, shop: ShopContext) -> None:
    """Sessions, page-load settings and faults (in that order), with security headers on every answer."""

    @app.middleware("http")
    async def session_faults_and_headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        try:
            response = await _handle(shop, request, call_next)
        except Exception:
            # A bug below: still the usual JSON shape, and still the headers.
            log.exception("unhandled error on %s %s", request.method, request.url.path)
            response = JSONResponse({"detail": BUG_DETAIL}, status_code=500)
        response.headers.update(SECURITY_HEADERS)
        return response


async def _handle(
    shop: ShopContext, request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    path = request.url.path
    try:
        overrides = page_overrides(request) if _PAGE.fullmatch(path) else {}
    except ValueError as error:
        return JSONResponse({"detail": str(error)}, status_code=422)
    cookie = request.cookies.get(SESSION_COOKIE)
    known = cookie if cookie is not None and _SESSION_ID.fullmatch(cookie) else None
    session, created = await run_in_threadpool(
        shop.db.session_or_new,
        known,
        overrides.get("clutter", shop.config.clutter),
        overrides.get("seed", shop.config.seed),
    )
    if overrides and any(session[key] != value for key, value in overrides.items()):
        session = {**session, **overrides}
        await run_in_threadpool(
            shop.db.set_session_settings, session["id"], session["clutter"], session["seed"]
        )
    request.state.session = session
    if shop.faults.should_fail(path):
        response: Response = JSONResponse({"detail": BUSY_DETAIL}, status_code=503)
    else:
        delay = shop.faults.delay_seconds(
            request.method, path, session["id"], session["clutter"], session["seed"]
        )
        if delay:
            await asyncio.sleep(delay)
        response = await call_next(request)
    if created:
        response.set_cookie(SESSION_COOKIE, session["id"], httponly=True, samesite="lax", path="/")
    return response


def page_overrides(request: Request) -> dict[str, int]:
    """`?clutter=N&seed=S` on a page load; raises ValueError with a sentence when out of range."""
    overrides: dict[str, int] = {}
    for key, low, high in (("clutter", 0, MAX_CLUTTER), ("seed", 0, 2**31 - 1)):
        raw = request.query_params.get(key)
        if raw is None:
            continue
        # Plain ASCII digits only: int() would also take "3_0", " 3" and other scripts' digits.
        if not _WHOLE_NUMBER.fullmatch(raw) or not low <= int(raw) <= high:
            raise ValueError(f"{key} must be a whole number from {low} to {high}")
        overrides[key] = int(raw)
    return overrides
