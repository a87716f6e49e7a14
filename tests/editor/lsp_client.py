"""A minimal Language Server Protocol client over stdio: Content-Length framed JSON-RPC.

Enough to drive a real server the way an editor does (initialize, open, change, save, wait for
diagnostics, shut down). Every wait has a deadline, so a hung server fails the test.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from pathlib import Path
from typing import IO, Any


class LspClient:
    """Talks to a language server started with ``command`` in ``root``."""

    def __init__(self, command: list[str], root: Path, env: dict[str, str]) -> None:
        self.root = root
        self._process = subprocess.Popen(
            command, cwd=root, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self._inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self._next_id = 0
        assert self._process.stdout is not None
        threading.Thread(target=self._read, args=(self._process.stdout,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        while True:
            headers = {}
            while (line := stream.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode().partition(":")
                headers[name.strip().lower()] = value.strip()
            if not headers:
                return
            self._inbox.put(json.loads(stream.read(int(headers["content-length"]))))

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self._process.stdin is not None
        self._process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self._process.stdin.flush()

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self._send({"method": method, "params": params})

    def request(self, method: str, params: dict[str, Any], timeout: float = 60) -> Any:
        """Send a request and return its result, answering nothing else meanwhile."""
        self._next_id += 1
        self._send({"id": self._next_id, "method": method, "params": params})
        reply = self.wait_for(lambda m: m.get("id") == self._next_id and "method" not in m, timeout)
        assert "error" not in reply, reply
        return reply.get("result")

    def wait_for(self, accept: Any, timeout: float) -> dict[str, Any]:
        """The first message from now on for which ``accept(message)`` is true."""
        while True:
            try:
                message = self._inbox.get(timeout=timeout)
            except queue.Empty:
                raise TimeoutError(f"no matching message from the language server in {timeout} s") from None
            if "method" in message and "id" in message:  # a server request: accept it
                self._send({"id": message["id"], "result": None})
            if accept(message):
                return message

    def close(self) -> None:
        """Shut the server down politely, then make sure it is gone."""
        try:
            self.request("shutdown", {}, timeout=30)
            self.notify("exit", {})
            self._process.wait(timeout=30)
        finally:
            if self._process.poll() is None:
                self._process.kill()
                self._process.wait()
