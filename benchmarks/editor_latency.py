"""Latency of ``jaxtypes lsp`` on a real codebase, driven by a real client (pytest-lsp's).

The package's sources (default: optax, installed from the index if missing) are copied into a
scratch project with a mypy configuration naming the plugin and a cold mypy cache. Printed, in
one run:

- a cold ``jaxtypes check`` of the whole project (the reference for the first diagnostics);
- the time from starting the server to the first diagnostics of an opened leaf module;
- the time from ``didSave`` to ``publishDiagnostics`` after an edit of the leaf module, and after
  an edit of a core module many others import (both opened), each a new function at the end;
- the server's peak memory (resident set).

Goals: first diagnostics no slower than the cold check; after an edit, 1 s in a leaf module and
3 s in a core one.

    python benchmarks/editor_latency.py [--package optax] [--leaf optax/contrib/_sam.py] [--core optax/_src/base.py]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

REPO = Path(__file__).resolve().parents[1]
CONFIG = "[mypy]\nignore_missing_imports = True\nplugins = mypy_plugin\n"
EDIT = "\n\ndef _edited_{n}(x: int) -> int:\n    return x + {n}\n"


def install(package: str) -> Path:
    """The package's installed source folder, installed first if missing."""
    if importlib.util.find_spec(package) is None:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", package], check=True)
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.origin is not None, package
    return Path(spec.origin).parent


def cold_check(project: Path, package: str) -> float:
    """Seconds of a cold ``jaxtypes check`` of the whole package."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "jaxtypes", "check", "--quiet", "--cache-dir", str(project / ".cold-cache"), package],
        cwd=project,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        check=False,
    )
    return time.perf_counter() - start


class Publications(dict[str, object]):
    """A client's diagnostics by file, counting the publications for each (an empty one is the
    same empty tuple every time)."""

    def __init__(self) -> None:
        super().__init__()
        self.count: Counter[str] = Counter()

    def __setitem__(self, uri: str, diagnostics: object) -> None:
        super().__setitem__(uri, diagnostics)
        self.count[uri] += 1


async def published(client: LanguageClient, uri: str, before: int) -> None:
    """Until the client has received more than ``before`` publications for ``uri``."""
    while client.diagnostics.count[uri] <= before:
        await asyncio.sleep(0.005)


async def edited(client: LanguageClient, path: Path, n: int) -> float:
    """Seconds from saving an edit of ``path`` to its diagnostics."""
    uri = path.as_uri()
    path.write_text(path.read_text() + EDIT.format(n=n))
    before = client.diagnostics.count[uri]
    start = time.perf_counter()
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))
    await published(client, uri, before)
    return time.perf_counter() - start


def opened(client: LanguageClient, path: Path) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(path.as_uri(), "python", 1, path.read_text()))
    )


def peak_memory_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def measure(project: Path, leaf: Path, core: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "MYPY_CACHE_DIR": str(project / ".mypy_cache")}
    start = time.perf_counter()
    client = await ClientServerConfig(server_command=[sys.executable, "-m", "jaxtypes", "lsp"], server_env=env).start()
    client.diagnostics = Publications()
    try:
        await client.initialize_session(
            types.InitializeParams(capabilities=client_capabilities("visual-studio-code"), root_uri=project.as_uri())
        )
        opened(client, leaf)
        await published(client, leaf.as_uri(), 0)
        print(f"first diagnostics of {leaf.relative_to(project)}: {time.perf_counter() - start:.1f} s", flush=True)
        opened(client, core)
        await published(client, core.as_uri(), 0)
        for n in range(3):
            print(f"edit {n + 1} of the leaf module: {await edited(client, leaf, n):.2f} s", flush=True)
        for n in range(3):
            print(f"edit {n + 1} of the core module: {await edited(client, core, 10 + n):.2f} s", flush=True)
        server = client._server
        assert server is not None
        print(f"server peak memory: {peak_memory_mb(server.pid):.0f} MB", flush=True)
        await client.shutdown_session()
    finally:
        await client.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--package", default="optax")
    parser.add_argument("--leaf", default="optax/contrib/_sam.py")
    parser.add_argument("--core", default="optax/_src/base.py")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        project = Path(scratch)
        shutil.copytree(install(options.package), project / options.package)
        (project / "mypy.ini").write_text(CONFIG)
        files = len(list((project / options.package).rglob("*.py")))
        print(f"{options.package}: {files} files")
        print(f"cold jaxtypes check of the whole project: {cold_check(project, options.package):.1f} s", flush=True)
        asyncio.run(measure(project, project / options.leaf, project / options.core))


if __name__ == "__main__":
    main()
