"""An HTTP server on loopback that records the POSTs it is sent, as a player's notices URL would take them."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Hook:
    """An HTTP server on loopback that records every POST it is sent (and may hold its answers back)."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, str, dict]] = []
        self.open = threading.Event()
        self.open.set()
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                data = self.rfile.read(int(self.headers["Content-Length"]))
                hook.open.wait(30)
                hook.posts.append((self.path, self.headers["Content-Type"], json.loads(data)))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/lagoon/token-1234"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.open.set()
        self.server.shutdown()
        self.server.server_close()
