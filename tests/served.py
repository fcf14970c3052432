"""A page written in a test, served on 127.0.0.1, and the record of what its site would have received:
every form the page sends (posted, or put in the URL by a GET form) and every page asked for. The card
tests' pay pages, the any-page adapter's wizard and the MCP server's page are served by it."""

from __future__ import annotations

import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

PAID = "<!doctype html><body><main><h1>Paid, thank you</h1></main></body>"


class Served:
    """Serves ``page`` at ``path`` (and ``after`` once a form is sent); records ``forms`` and ``gets``."""

    def __init__(self, page: str, after: str = PAID, path: str = "/pay") -> None:
        self.page, self.after = page, after
        self.forms: list[dict[str, list[str]]] = []
        self.gets: list[str] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                owner.gets.append(self.path)
                if "?" in self.path:
                    owner.forms.append(urllib.parse.parse_qs(self.path.split("?", 1)[1]))
                    self._send(owner.after)
                else:
                    self._send(owner.page)

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
                owner.forms.append(urllib.parse.parse_qs(body))
                self._send(owner.after)

            def _send(self, body: str) -> None:
                data = body.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{path}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def holding(folder: Path, secret: str) -> list[str]:
    """The files of ``folder`` that hold ``secret`` (as text)."""
    return [str(p) for p in folder.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]
