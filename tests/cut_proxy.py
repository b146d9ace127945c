"""A TCP proxy in front of a real Solr that cuts one update request in the middle, for fault tests: the
client's request number `cut_request` (0-based, counting POSTs to an /update handler) reaches Solr with
only its first `cut_at` bytes (an int, or a float: that fraction of the body), then both connections
close without an answer -- what Solr sees when the client dies or the network drops mid-request.
Every other request passes through unchanged (one upstream connection per request, `Connection: close`),
after `delay` seconds (a slow Solr; settable while the proxy runs), an update request after `update_delay` more
(a slow write while the reads are answered)."""

from __future__ import annotations

import socket
import threading
import time
from types import TracebackType


def _read_request(conn: socket.socket) -> tuple[bytes, bytes] | None:
    """One HTTP/1.1 request from `conn`: (head, body), by Content-Length; None at end of stream."""
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        buf += chunk
    head, _, body = buf.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
        elif name.strip().lower() == b"transfer-encoding":
            raise ValueError("cut_proxy: chunked request bodies are not supported")
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        body += chunk
    return head, body


def _close_header(head: bytes) -> bytes:
    """`head` with `Connection: close` (so the answer ends when the upstream connection does)."""
    lines = [line for line in head.split(b"\r\n") if not line.lower().startswith(b"connection:")]
    return b"\r\n".join([*lines, b"Connection: close"]) + b"\r\n\r\n"


class CutProxy:
    """Proxy 127.0.0.1:port -> the Solr at `upstream` (a base URL); `url(path)` is the proxied URL."""

    def __init__(self, upstream: str, cut_request: int | None = None, cut_at: int | float = 0.5) -> None:
        hostport = upstream.split("://", 1)[1].split("/", 1)[0]
        host, _, port = hostport.partition(":")
        self.upstream = (host, int(port or 80))
        self.prefix = upstream.split(hostport, 1)[1]  # /solr
        self.cut_request, self.cut_at = cut_request, cut_at
        self.delay = 0.0  # seconds each request waits before it is passed on
        self.update_delay = 0.0  # ... and each update request more
        self.updates = 0  # update requests seen
        self.cut: bytes | None = None  # the body of the request that was cut, when one was
        self._lock = threading.Lock()
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def url(self, path: str = "") -> str:
        """The proxied form of the upstream base URL, plus `path`."""
        return f"http://127.0.0.1:{self.port}{self.prefix}{path}"

    def __enter__(self) -> CutProxy:
        self._thread.start()
        return self

    def __exit__(self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self._server.close()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self._server.accept()
            except OSError:
                return
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _answer(self, head: bytes, body: bytes) -> bytes | None:
        """A whole HTTP response the proxy gives itself instead of passing the request on; None passes it on
        (subclasses answer some requests as a failing Solr would)."""
        return None

    def _handle(self, conn: socket.socket) -> None:
        with conn:
            req = _read_request(conn)
            if req is None:
                return
            head, body = req
            if (own := self._answer(head, body)) is not None:
                conn.sendall(own)
                return
            method, path = head.split(b" ", 2)[:2]
            cut = None
            if method == b"POST" and b"/update" in path:
                with self._lock:
                    n, self.updates = self.updates, self.updates + 1
                if n == self.cut_request:
                    cut = self.cut_at if isinstance(self.cut_at, int) else int(len(body) * self.cut_at)
                    self.cut = body
            if self.delay:
                time.sleep(self.delay)
            if self.update_delay and method == b"POST" and b"/update" in path:
                time.sleep(self.update_delay)
            with socket.create_connection(self.upstream) as up:
                up.sendall(_close_header(head) + (body if cut is None else body[:cut]))
                if cut is not None:  # the rest never comes: both sides see the connection drop
                    up.shutdown(socket.SHUT_RDWR)
                    conn.shutdown(socket.SHUT_RDWR)
                    return
                while chunk := up.recv(65536):
                    conn.sendall(chunk)
