"""Headless Chromium driven over the DevTools protocol, for the editors that run in a browser
(VS Code as code-server serves it): open a page, evaluate JavaScript in it, close.

The protocol runs over the pipe Chromium opens with ``--remote-debugging-pipe`` (it reads
commands on its descriptor 3 and writes replies on 4, each a JSON text ending in a NUL byte), so
no port and no websocket client is needed.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

# What Runtime.evaluate answers while the page is between two documents (it has navigated, as
# code-server's page does while it loads the workbench, and the new document has no script
# context yet): a poll then sees nothing yet, as one made before the page showed anything.
BETWEEN_DOCUMENTS = ("Cannot find default execution context", "Execution context was destroyed")


class DevToolsError(Exception):
    """The browser's error reply to a command."""

    def __init__(self, method: str, error: dict[str, Any]) -> None:
        super().__init__(f"{method}: {error}")
        self.message = str(error.get("message", ""))


class Chromium:
    """A headless Chromium showing ``url``, with a profile of its own in ``profile``."""

    def __init__(self, executable: str, url: str, profile: Path) -> None:
        commands_read, self._commands = os.pipe()
        self._replies, replies_write = os.pipe()
        # Chromium's descriptors 3 and 4 must be the pipe's ends: bash puts them there and execs it
        # (a preexec_fn would make Python fork the whole process, JAX's threads and all). The ends
        # are moved above 9 first, so that putting one on 3 or 4 cannot close the other (bash, not
        # sh: dash redirects only descriptors 0 to 9).
        ends = [fcntl.fcntl(end, fcntl.F_DUPFD, 10) for end in (commands_read, replies_write)]
        for end in (commands_read, replies_write):
            os.close(end)
        self._process = subprocess.Popen(
            [
                "bash", "-c", 'exec "$0" "$@" 3<&"$COMMANDS" 4>&"$REPLIES"', executable, "--headless=new",
                "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
                f"--user-data-dir={profile}", url,
            ],
            env={**os.environ, "COMMANDS": str(ends[0]), "REPLIES": str(ends[1])},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=ends,
        )  # fmt: skip
        for end in ends:
            os.close(end)
        self._next_id = 0
        self._buffer = b""
        self._session = self._attach()

    def evaluate(self, expression: str) -> Any:
        """The value of the JavaScript ``expression`` in the page."""
        reply = self._call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, self._session)
        return reply.get("result", {}).get("value")

    def wait_for(self, expression: str, deadline_s: float) -> Any:
        """The first truthy value of ``expression``, polled until ``deadline_s`` seconds pass; the
        last value otherwise."""
        end = time.monotonic() + deadline_s
        value = self._poll(expression)
        while not value and time.monotonic() < end:
            time.sleep(0.5)
            value = self._poll(expression)
        return value

    def _poll(self, expression: str) -> Any:
        """The value of ``expression``, or None while the page is between two documents."""
        try:
            return self.evaluate(expression)
        except DevToolsError as error:
            if not error.message.startswith(BETWEEN_DOCUMENTS):
                raise
            return None

    def close(self) -> None:
        try:
            self._call("Browser.close", {})
        except OSError:  # already gone
            pass
        try:
            self._process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        os.close(self._commands)
        os.close(self._replies)

    def _attach(self) -> str:
        """The session of the page the browser opened with its URL."""
        deadline = time.monotonic() + 60
        while True:
            targets = self._call("Target.getTargets", {})["targetInfos"]
            pages = [target for target in targets if target["type"] == "page"]
            if pages or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert pages, f"Chromium opened no page: {targets}"
        attached = self._call("Target.attachToTarget", {"targetId": pages[0]["targetId"], "flatten": True})
        return str(attached["sessionId"])

    def _call(self, method: str, params: dict[str, Any], session: str | None = None) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise DevToolsError(method, reply["error"])
                return dict(reply.get("result", {}))

    def _read(self) -> dict[str, Any]:
        """The next message from the browser (a reply or an event)."""
        while b"\0" not in self._buffer:
            chunk = os.read(self._replies, 1 << 16)
            if not chunk:
                raise OSError("Chromium closed its DevTools pipe")
            self._buffer += chunk
        text, _, self._buffer = self._buffer.partition(b"\0")
        return dict(json.loads(text))
