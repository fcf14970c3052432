"""Errors always answer `{"detail": "one sentence"}`, and the OpenAPI schema says so.

FastAPI's own 422 body is a list of error objects and its schema promises that list; the shop
answers one readable sentence instead, so the handlers here write that sentence and `responses()`
declares the shape (`ErrorBody`) for every status a route may answer.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from demo_site.models import ErrorBody

log = logging.getLogger(__name__)

BUG_DETAIL = "Something went wrong in the shop; this is a bug"

_MEANING = {
    404: "Not found: no such restaurant, dish, cart line or order (for this session)",
    409: "Conflict with the cart's state: sold out, another restaurant, minimum order, stale checkout",
    422: "The request is malformed or out of range; `detail` names the field",
    503: "The kitchen is busy (`--flaky`); try again",
}


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` for these error statuses, each with the `ErrorBody` shape."""
    return {status: {"model": ErrorBody, "description": _MEANING[status]} for status in statuses}


def install_error_handlers(app: FastAPI) -> None:
    """Make every error the app answers an `ErrorBody`."""
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, _http_error)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _unexpected_error)


async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    """FastAPI's 422 with one readable sentence instead of a list of error objects."""
    return JSONResponse({"detail": validation_sentence(exc.errors())}, status_code=422)


async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    """Starlette's own 404/405 say "Not Found"; say what was not found."""
    detail = exc.detail
    if exc.status_code == 400 and detail == "There was an error parsing the body":
        # FastAPI's answer to a body that is not even UTF-8; for the client it is just not JSON.
        return JSONResponse({"detail": "The request body is not valid JSON"}, status_code=422)
    if exc.status_code == 404 and detail == "Not Found":
        detail = f"There is no page or endpoint at {request.url.path}"
    elif exc.status_code == 405 and detail == "Method Not Allowed":
        detail = f"{request.method} is not allowed on {request.url.path}"
    return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=exc.headers)


async def _unexpected_error(request: Request, exc: Exception) -> JSONResponse:
    """A bug in the shop: log it; the client still gets the usual JSON shape."""
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return JSONResponse({"detail": BUG_DETAIL}, status_code=500)


def validation_sentence(errors: Any) -> str:
    """Pydantic's error list as one sentence, e.g. "quantity: must be at most 50"."""
    parts = []
    for error in errors:
        # Union members appear in the location as e.g. "list[function-after[check(), str]]": not a field.
        location = [
            str(part)
            for part in error.get("loc", ())
            if part not in ("body", "query", "path") and not str(part).endswith("]")
        ]
        field = ".".join(location)
        kind = error.get("type", "")
        context = error.get("ctx") or {}
        if kind == "json_invalid":
            return "The request body is not valid JSON"
        if kind == "missing":
            message = "is required"
        elif kind in ("greater_than_equal", "greater_than"):
            message = f"must be at least {context.get('ge', context.get('gt'))}"
        elif kind in ("less_than_equal", "less_than"):
            message = f"must be at most {context.get('le', context.get('lt'))}"
        elif kind in ("int_type", "int_from_float"):
            message = "must be a whole number (a JSON integer, not text or true/false)"
        elif kind == "int_parsing":
            message = "must be a whole number"
        elif kind == "string_type":
            message = "must be text"
        elif kind == "string_unicode":
            message = "must be valid Unicode text (a lone surrogate like \\ud800 is not)"
        elif kind == "string_too_long":
            message = f"must be at most {context.get('max_length')} characters"
        elif kind == "string_too_short":
            minimum = context.get("min_length")
            message = "must not be empty" if minimum == 1 else f"must be at least {minimum} characters"
        elif kind == "value_error":
            message = str(context.get("error", error.get("msg", "")))
        else:
            message = str(error.get("msg", "is invalid"))
            message = message[:1].lower() + message[1:]
        parts.append(f"{field}: {message}" if field else message[:1].upper() + message[1:])
    return "; ".join(dict.fromkeys(parts)) or "The request is invalid"
