"""The dev server: static files with cross-origin isolation headers, rebuilt when sources change.

Under `build.py serve` every HTML page also gets a small script (builder/live_reload.js, served
from here, never written into _site/) that reloads the page after each successful rebuild and
shows the mistakes of a failed one in a banner.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import io
import json
import os
import sys
import threading
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, BinaryIO, cast

from builder.paths import CODE_ROOT

# Pyodide's worker, wasm streaming compilation and module scripts all care about these types.
MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "application/javascript",
    ".mjs": "application/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".tar": "application/x-tar",
    ".svg": "image/svg+xml",
}


# Text and wasm shrink to a third or less; wheels and zips are compressed already.
COMPRESSIBLE_SUFFIXES = {".html", ".js", ".mjs", ".css", ".json", ".svg", ".wasm", ".txt", ".map"}


LIVE_PREFIX = "/__werkplaats__/"
LIVE_SCRIPT = Path(__file__).with_name("live_reload.js")
# Under `build.py serve`, /sw.js is this instead of the built site's service worker: it replaces
# one that an earlier static serve on the same address registered, drops its caches, unregisters
# itself and reloads the pages it had, so no page of the dev server comes from an offline copy.
RETIRING_SERVICE_WORKER = b"""self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil((async () => {
  for (const name of await caches.keys()) if (name.startsWith("werkplaats-")) await caches.delete(name);
  await self.registration.unregister();
  for (const client of await self.clients.matchAll({ type: "window" })) client.navigate(client.url).catch(() => {});
})()));
"""


@dataclass
class BuildStatus:
    """The dev server's last build: a generation number that grows with every rebuild, and the
    mistakes of that rebuild (none when it succeeded). Pages ask for it once a second."""

    generation: int = 0
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def publish(self, errors: list[str]) -> None:
        with self.lock:
            self.generation += 1
            self.errors = list(errors)

    def state(self) -> dict[str, Any]:
        with self.lock:
            return {"generation": self.generation, "errors": list(self.errors)}


@functools.lru_cache(maxsize=256)
def gzipped(path: str, mtime_ns: int, size: int) -> bytes:
    """The gzip body of a file, cached per version of it (mtime and size are the cache key)."""
    with open(path, "rb") as file:
        return gzip.compress(file.read(), compresslevel=6, mtime=0)


class SiteRequestHandler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    isolated = True
    build_status: BuildStatus | None = None  # set by serve: live reload on

    def send_head(self) -> io.BytesIO | BinaryIO | None:
        """Like the standard handler, but gzip compressible files when the browser accepts it,
        as any real static host does (the page-weight benchmark counts bytes on the wire)."""
        if self.build_status is not None and self.path.startswith(LIVE_PREFIX):
            return self.send_live()
        if self.build_status is not None and urllib.parse.urlsplit(self.path).path == "/sw.js":
            return self.send_body(RETIRING_SERVICE_WORKER, "application/javascript")
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            index = os.path.join(path, "index.html")
            if not self.path.split("?", 1)[0].endswith("/") or not os.path.isfile(index):
                return super().send_head()  # redirects and listings stay standard
            path = index
        suffix = os.path.splitext(path)[1].lower()
        if self.build_status is not None and suffix == ".html" and os.path.isfile(path):
            with open(path, "rb") as file:
                page = file.read()
            generation = self.build_status.state()["generation"]
            tag = f'<script src="{LIVE_PREFIX}live_reload.js" data-generation="{generation}"></script>'.encode()
            return self.send_body(page.replace(b"</body>", tag + b"</body>", 1), "text/html; charset=utf-8")
        accepts_gzip = "gzip" in self.headers.get("Accept-Encoding", "")
        if suffix not in COMPRESSIBLE_SUFFIXES or not accepts_gzip or not os.path.isfile(path):
            return super().send_head()
        status = os.stat(path)
        body = gzipped(path, status.st_mtime_ns, status.st_size)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def send_live(self) -> io.BytesIO | None:
        """The live-reload script, or the last build's state."""
        path = urllib.parse.urlsplit(self.path).path
        if path == LIVE_PREFIX + "live_reload.js":
            return self.send_body(LIVE_SCRIPT.read_bytes(), "application/javascript")
        if path == LIVE_PREFIX + "build" and self.build_status is not None:
            return self.send_body(json.dumps(self.build_status.state()).encode(), "application/json")
        self.send_error(404)
        return None

    def send_body(self, body: bytes, content_type: str) -> io.BytesIO:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def end_headers(self) -> None:
        if self.isolated:
            # Cross-origin isolation unlocks SharedArrayBuffer (Pyodide's interrupt buffer).
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-store")  # a rebuilt page must never look stale
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass  # one line per request would drown the rebuild messages

    def handle(self) -> None:
        try:
            super().handle()
        except (ConnectionResetError, BrokenPipeError):
            pass  # the browser went away mid-response; nothing to report


@dataclass
class ServerHandle:
    url: str
    server: ThreadingHTTPServer
    thread: threading.Thread

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


def start_server(directory: Path | str, host: str = "127.0.0.1", port: int = 0,
                 isolated: bool = True, build_status: BuildStatus | None = None) -> ServerHandle:
    """Serve `directory` in a background thread; port 0 picks a free port (see `.url`).
    With a build_status, pages reload after each rebuild (see the module docstring)."""
    handler_class = type("Handler", (SiteRequestHandler,), {"isolated": isolated, "build_status": build_status})
    handler = functools.partial(handler_class, directory=str(directory))
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2},
                              name="site-server", daemon=True)
    thread.start()
    bound_host, bound_port = cast(tuple[str, int], server.server_address[:2])  # an IPv4/IPv6 server
    return ServerHandle(f"http://{bound_host}:{bound_port}/", server, thread)


def serve_and_rebuild(arguments: argparse.Namespace, rebuild: Callable[[], list[str]]) -> int:
    """Build, serve, and rebuild on every change; a failed rebuild keeps the last good site.
    `rebuild()` returns the build's error lines (none when it succeeded)."""
    import watchfiles

    status = BuildStatus()
    status.publish(rebuild())
    try:
        handle = start_server(arguments.out, port=arguments.port, build_status=status)
    except OSError as error:
        print(f"cannot serve on 127.0.0.1:{arguments.port}: {error.strerror}", file=sys.stderr)
        return 1
    # The runner too: it grades in the page (its archive is part of the site) and runs the gate.
    watched = [path for path in (arguments.root / "lessons", arguments.root / "checkpoints",
                                 arguments.root / "widgets", CODE_ROOT / "site", CODE_ROOT / "runner")
               if path.is_dir()]
    print(f"serving {handle.url} (Ctrl+C stops); watching {', '.join(str(path) for path in watched)}")
    try:
        for _changes in watchfiles.watch(*watched, raise_interrupt=False):
            status.publish(rebuild())
    finally:
        handle.close()
    return 0
