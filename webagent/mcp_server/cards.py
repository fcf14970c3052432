"""Card details entered by the person on a page of the server's own, never through the client or the model.

When a payment the person approved is on a page that asks for card details, ``webagent mcp`` sends the
person a link (URL-mode elicitation): a one-time page on this machine (127.0.0.1, an unguessable path) that
shows what the payment is for and asks for exactly the card fields the shop's page asks for. What they type
there goes into the shop page's fields in the run's browser and nowhere else: not into a tool result, the
transcript, the checkpoint or the client's context. The page answers once; a decline on it, or no entry
within `WAIT`, enters nothing and the payment is not pressed.
"""

from __future__ import annotations

import asyncio
import html
import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

from webagent.browser.cards import CardField

__all__ = ["WAIT", "CardDesk", "Desk"]

WAIT = 600.0
"""Seconds a card page waits for the person before the payment is let go (not pressed)."""

AUTOCOMPLETE = {
    "card number": "cc-number",
    "expiry date": "cc-exp",
    "security code": "cc-csc",
    "name on card": "cc-name",
}


@dataclass
class Desk:
    """One card page: its link, and the person's entry once they send it (None: they declined)."""

    key: str
    url: str
    question: str
    fields: tuple[CardField, ...]
    entry: asyncio.Future[dict[int, str] | None]
    loop: asyncio.AbstractEventLoop

    def settle(self, values: dict[int, str] | None) -> None:
        def put() -> None:
            if not self.entry.done():
                self.entry.set_result(values)

        self.loop.call_soon_threadsafe(put)


class CardDesk:
    """The server's card pages, served on 127.0.0.1 from a thread of their own once the first is opened."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host
        self.desks: dict[str, Desk] = {}
        self._server: ThreadingHTTPServer | None = None
        self._lock = threading.Lock()

    def open(self, question: str, fields: Sequence[CardField]) -> Desk:
        """A new one-time page asking for ``fields``, for the payment ``question`` describes."""
        server = self._serving()
        key = secrets.token_urlsafe(24)
        port = server.server_address[1]
        loop = asyncio.get_running_loop()
        desk = Desk(
            key, f"http://{self.host}:{port}/card/{key}", question, tuple(fields), loop.create_future(), loop
        )
        self.desks[key] = desk
        return desk

    async def entry(self, desk: Desk, wait: float = WAIT) -> dict[int, str] | None:
        """What the person entered on ``desk`` (None: declined, or nothing within ``wait`` seconds); the
        page is closed after."""
        try:
            return await asyncio.wait_for(asyncio.shield(desk.entry), wait)
        except TimeoutError:
            return None
        finally:
            self.desks.pop(desk.key, None)

    def close(self) -> None:
        for desk in list(self.desks.values()):
            desk.settle(None)
        self.desks.clear()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def _serving(self) -> ThreadingHTTPServer:
        with self._lock:
            if self._server is None:
                self._server = ThreadingHTTPServer((self.host, 0), _handler(self))
                threading.Thread(
                    target=self._server.serve_forever, name="webagent-cards", daemon=True
                ).start()
            return self._server


def _handler(owner: CardDesk) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            desk = self._desk()
            if desk is None:
                self._send(404, _page("<p>This link is no longer open.</p>"))
                return
            self._send(200, _form(desk))

        def do_POST(self) -> None:
            desk = self._desk()
            if desk is None:
                self._send(404, _page("<p>This link is no longer open.</p>"))
                return
            length = min(int(self.headers.get("Content-Length") or 0), 16_384)
            sent = parse_qs(self.rfile.read(length).decode("utf-8", "replace"))
            owner.desks.pop(desk.key, None)  # one answer per page
            if sent.get("go") != ["pay"]:
                desk.settle(None)
                self._send(200, _page("<p>Nothing was entered; the payment will not be made.</p>"))
                return
            values = {f.index: (sent.get(f"f{f.index}") or [""])[0].strip() for f in desk.fields}
            desk.settle(values)
            said = (
                "<p>Thank you. webagent now types them into the shop's page and presses pay only if every one "
                "of them takes; your MCP client says how it went. You can close this tab.</p>"
            )
            self._send(200, _page(said))

        def _desk(self) -> Desk | None:
            path = self.path.split("?")[0]
            if not path.startswith("/card/"):
                return None
            key = path.removeprefix("/card/")
            desk = owner.desks.get(key)
            return desk if desk is not None and secrets.compare_digest(desk.key, key) else None

        def _send(self, status: int, body: str) -> None:
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("Referrer-Policy", "no-referrer")
            self.send_header(
                "Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'"
            )
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:  # nothing of a request is written anywhere
            pass

    return Handler


def _page(body: str) -> str:
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>webagent: card details</title>"
        "<style>body{font:16px system-ui;max-width:34em;margin:2em auto}label{display:block;margin:.8em 0}"
        "input{display:block;font-size:1em;padding:.3em;width:100%}</style></head>"
        f"<body>{body}</body></html>"
    )


def _form(desk: Desk) -> str:
    rows = []
    for field in desk.fields:
        auto = AUTOCOMPLETE.get(field.kind, "off")
        label = html.escape(field.label or field.kind)
        name = f"f{field.index}"
        if field.select and field.options:
            options = "".join(f"<option>{html.escape(o)}</option>" for o in field.options if o)
            rows.append(
                f"<label>{label}<select name='{name}' autocomplete='{auto}'>{options}</select></label>"
            )
        else:
            rows.append(f"<label>{label}<input name='{name}' autocomplete='{auto}'></label>")
    question = html.escape(desk.question).replace("\n", "<br>")
    return _page(
        "<h1>Card details for this payment</h1>"
        f"<p>{question}</p>"
        "<p>What you type here goes only into the shop page's card fields in webagent's browser; the agent's "
        "model and your MCP client never see it.</p>"
        f"<form method='post'>{''.join(rows)}"
        "<button name='go' value='pay'>Enter the card and pay</button> "
        "<button name='go' value='decline' formnovalidate>Don't pay</button></form>"
    )
