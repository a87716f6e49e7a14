"""The plugin's findings reach an editor: python-lsp-server with pylsp-mypy, driven over stdio
like an editor drives it, publishes ``static-dynamic-child`` at the field, and clears it once the
file is fixed and saved. Once with mypy on the unsaved buffer (live mode), once through the mypy
daemon (pylsp-mypy's ``dmypy`` mode, which checks saved files).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from tests.editor.lsp_client import LspClient
from tests.plugin.mypy_runner import BIN, REPO, run_dmypy, write_config

BROKEN = """\
import jax
from jaxtypes import static_dataclass

@static_dataclass
class Config:
    weights: jax.Array
"""

FIXED = BROKEN.replace("weights: jax.Array", "size: int")
CODE = "static-dynamic-child"
OTHER_LINTERS = ["pyflakes", "pycodestyle", "mccabe", "pydocstyle", "pylint", "flake8"]


def settings(mypy: dict[str, Any]) -> dict[str, Any]:
    """pylsp settings: only pylsp-mypy lints, with ``mypy`` as its options."""
    plugins: dict[str, Any] = {name: {"enabled": False} for name in OTHER_LINTERS}
    plugins["pylsp_mypy"] = {"enabled": True, "report_progress": False, **mypy}
    return {"pylsp": {"plugins": plugins}}


def start(project: Path, mypy: dict[str, Any]) -> LspClient:
    """pylsp on ``project`` (whose mypy.ini enables the plugin), initialized and configured."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(BIN), env.get("PATH", "")])  # pylsp-mypy runs mypy from PATH
    env["PYTHONPATH"] = str(REPO)
    client = LspClient([sys.executable, "-m", "pylsp"], project, env)
    client.request("initialize", {"processId": os.getpid(), "rootUri": project.as_uri(), "capabilities": {}})
    client.notify("initialized", {})
    client.notify("workspace/didChangeConfiguration", {"settings": settings(mypy)})
    return client


def has_code(diagnostics: list[dict[str, Any]]) -> bool:
    return any(d.get("code") == CODE for d in diagnostics)


def edit_and_save(client: LspClient, path: Path, text: str) -> None:
    """What an editor sends when the user types ``text`` and saves."""
    uri = path.as_uri()
    client.notify(
        "textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text}]}
    )
    path.write_text(text)
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})


def follow_fix(project: Path, mypy: dict[str, Any]) -> None:
    """Open the broken file, see the finding at the field, fix and save, see it cleared."""
    path = project / "config.py"
    path.write_text(BROKEN)
    write_config(project)
    client = start(project, mypy)
    try:
        uri = path.as_uri()
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": BROKEN}},
        )
        published = client.wait_for(lambda m: is_publish(m, uri) and has_code(m["params"]["diagnostics"]), 180)
        [finding] = [d for d in published["params"]["diagnostics"] if d.get("code") == CODE]
        assert finding["range"]["start"] == {"line": 5, "character": 4}
        assert finding["severity"] == 1
        assert "Config.weights" in finding["message"]
        edit_and_save(client, path, FIXED)
        client.wait_for(lambda m: is_publish(m, uri) and not has_code(m["params"]["diagnostics"]), 180)
    finally:
        client.close()


def is_publish(message: dict[str, Any], uri: str) -> bool:
    return message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri


def test_live_mode_reports_and_clears(tmp_path: Path) -> None:
    follow_fix(tmp_path, {"live_mode": True})


def test_dmypy_mode_reports_and_clears(tmp_path: Path) -> None:
    status = tmp_path / "dmypy.json"
    try:
        follow_fix(tmp_path, {"live_mode": False, "dmypy": True, "dmypy_status_file": str(status)})
    finally:
        if status.exists():
            run_dmypy(tmp_path, status, "stop")
