"""``jaxtypes lsp`` end to end: the real server process, driven by pytest-lsp's real client as an
editor drives it. A module with ordinary mypy errors and one jit bug shows exactly one
diagnostic; fixing it clears it; hover gives why and fix; each code action applies and its
finding goes away; and the server survives what editors throw at it (a syntax error, a file
outside the project, a broken configuration, a mypy crash, saves in quick succession, a save
that keeps the file's size and second) and leaves no process behind.
"""

from __future__ import annotations

import ast
import asyncio
import os
import sys
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.plugin.mypy_runner import REPO

pytestmark = pytest.mark.asyncio

PUBLISHED = types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS

BUG = """\
import dataclasses
from typing import Sequence

import jax
from jaxtypes import static_dataclass

count: int = "three"  # mypy's own error, not jaxtypes'


@static_dataclass
class Config:
    weights: jax.Array
"""

FIXED = BUG.replace("weights: jax.Array", "size: int")

ACTIONS = """\
import dataclasses
import functools
from typing import Sequence

import jax
from jaxtypes import static_dataclass


@dataclasses.dataclass
class Mutable:
    n: int


@static_dataclass
class Config:
    layers: list[int]
    mutable: Mutable


@functools.partial(jax.jit, static_argnames="shape")
def zeros(shape: Sequence[int]) -> jax.Array:
    return jax.numpy.zeros(shape)
"""

CRASHING_PLUGIN = """\
from mypy.plugin import Plugin


class Crash(Plugin):
    def get_function_hook(self, fullname):
        if fullname.endswith("crash_here"):
            raise RuntimeError("a plugin that crashes")
        return None


def plugin(version):
    return Crash
"""


SERVER_ENV = {**os.environ, "PYTHONPATH": str(REPO), "MYPY_CACHE_DIR": str(REPO / ".pytest-lsp-mypy-cache")}


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "jaxtypes", "lsp"], server_env=SERVER_ENV)
)
async def client(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    params = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=project.as_uri(),
        workspace_folders=[types.WorkspaceFolder(project.as_uri(), "project")],
    )
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


DEADLINE_S = 120


async def notified(client: LanguageClient, method: str) -> Any:
    """The next notification of ``method``; a server that sends none fails the test."""
    return await asyncio.wait_for(client.wait_for_notification(method), DEADLINE_S)


class Publications(dict[str, Sequence[types.Diagnostic]]):
    """A client's diagnostics by file, counting the publications for each (an empty one is an
    empty tuple, the same object every time: only a count tells two of them apart)."""

    def __init__(self, held: dict[str, Sequence[types.Diagnostic]]) -> None:
        super().__init__(held)
        self.count: Counter[str] = Counter()

    def __setitem__(self, uri: str, diagnostics: Sequence[types.Diagnostic]) -> None:
        super().__setitem__(uri, diagnostics)
        self.count[uri] += 1


class Published:
    """The diagnostics a client holds for one file, each publication seen once."""

    def __init__(self, client: LanguageClient, path: Path) -> None:
        if not isinstance(client.diagnostics, Publications):
            client.diagnostics = Publications(client.diagnostics)
        self.held: Publications = client.diagnostics
        self.uri = path.as_uri()
        self.seen = self.held.count[self.uri]

    async def next(self) -> list[types.Diagnostic]:
        """The diagnostics of the next publication for the file (polled: notifications can
        arrive before a wait for them starts); none within the deadline fails the test."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DEADLINE_S
        while self.held.count[self.uri] == self.seen:
            assert loop.time() < deadline, f"no diagnostics published for {self.uri}"
            await asyncio.sleep(0.02)
        self.seen = self.held.count[self.uri]
        return list(self.held[self.uri])


def open_file(client: LanguageClient, path: Path, text: str) -> None:
    path.write_text(text)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(path.as_uri(), "python", 1, text))
    )


def save_file(client: LanguageClient, path: Path, text: str, mtime_ns: int | None = None) -> None:
    """Write ``text`` to ``path`` (its time set to ``mtime_ns``, where given) and tell the server."""
    path.write_text(text)
    if mtime_ns is not None:
        os.utime(path, ns=(mtime_ns, mtime_ns))
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(path.as_uri())))


def applied(text: str, edit: types.WorkspaceEdit, uri: str) -> str:
    """``text`` with the edit's changes for ``uri`` applied, as an editor applies them."""
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    changes = (edit.changes or {}).get(uri, [])
    for change in sorted(changes, key=lambda c: (c.range.start.line, c.range.start.character), reverse=True):
        start = offsets[change.range.start.line] + change.range.start.character
        end = offsets[change.range.end.line] + change.range.end.character
        text = text[:start] + change.new_text + text[end:]
    return text


async def test_one_jit_bug_among_mypy_errors_is_one_diagnostic_and_fixing_it_clears_it(
    client: LanguageClient, project: Path
) -> None:
    module = project / "module.py"
    in_module = Published(client, module)
    open_file(client, module, BUG)
    [found] = await in_module.next()
    assert (found.code, found.source, found.range.start.line) == ("static-dynamic-child", "jaxtypes", 11)
    assert found.message == "Config.weights is typed jax.Array, an array type"
    assert found.code_description is not None and found.code_description.href.endswith("#static-dynamic-child")
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(module.as_uri()), types.Position(11, 6))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "**Why:** jit hashes static arguments and compares pytree metadata" in hover.contents.value
    assert "**Fix:** move it into a @jaxtypes.pytree_dataclass data field" in hover.contents.value
    save_file(client, module, FIXED)
    assert await in_module.next() == []


async def test_each_code_action_applies_and_its_finding_goes_away(client: LanguageClient, project: Path) -> None:
    module = project / "actions.py"
    in_module = Published(client, module)
    text = ACTIONS
    open_file(client, module, text)
    found = await in_module.next()
    assert sorted(d.code for d in found) == ["static-not-frozen", "static-unhashable", "static-unhashable"]
    titles = []
    while found:
        first = found[0]
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(
                types.TextDocumentIdentifier(module.as_uri()), first.range, types.CodeActionContext([first])
            )
        )
        assert actions, first
        action = actions[0]
        assert isinstance(action, types.CodeAction) and action.edit is not None
        titles.append(action.title)
        text = applied(text, action.edit, module.as_uri())
        save_file(client, module, text)
        remaining = await in_module.next()
        assert len(remaining) == len(found) - 1, (action.title, remaining)
        found = remaining
    assert titles == ["Use tuple instead (tuple[int, ...])", "Make Mutable frozen", "Declare shape: tuple[int, ...]"]
    assert "layers: tuple[int, ...]" in text and "@dataclasses.dataclass(frozen=True)" in text


async def test_the_ignore_comment_and_the_baseline_actions(client: LanguageClient, project: Path) -> None:
    (project / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n\n[jaxtypes]\nbaseline = baseline.json\n")
    module = project / "module.py"
    in_module = Published(client, module)
    text = BUG + "\n\n@static_dataclass\nclass Other:\n    more: jax.Array\n"
    open_file(client, module, text)
    first, second = await in_module.next()
    context = types.CodeActionContext([first])
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(types.TextDocumentIdentifier(module.as_uri()), first.range, context)
    )
    ignore = next(a for a in actions or [] if isinstance(a, types.CodeAction) and a.title.startswith("Ignore"))
    assert ignore.edit is not None
    text = applied(text, ignore.edit, module.as_uri())
    assert "weights: jax.Array  # type: ignore[static-dynamic-child]\n" in text
    save_file(client, module, text)
    [left] = await in_module.next()
    assert left.message == second.message
    context = types.CodeActionContext([left])
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(types.TextDocumentIdentifier(module.as_uri()), left.range, context)
    )
    # A code action that only runs a command reads back as the Command itself.
    baseline = next(a for a in actions or [] if a.title.startswith("Add this finding to the jaxtypes baseline"))
    command = baseline if isinstance(baseline, types.Command) else baseline.command
    if isinstance(command, types.Command) and command.command.startswith("{"):
        # lsprotocol's client reads a code action that carries a command as a Command whose
        # command is the nested one, written out; an editor reads the JSON as sent.
        command = types.Command(**ast.literal_eval(command.command))
    assert command is not None
    # The command answers once the baseline is written and the diagnostics are published again.
    await client.workspace_execute_command_async(types.ExecuteCommandParams(command.command, command.arguments))
    assert list(client.diagnostics[module.as_uri()]) == []
    assert '"code": "static-dynamic-child"' in (project / "baseline.json").read_text()


async def test_a_syntax_error_and_a_file_outside_the_project_are_survived(
    client: LanguageClient, project: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.py"
    open_file(client, outside, BUG)
    module = project / "module.py"
    in_module = Published(client, module)
    open_file(client, module, "def broken(:\n")
    [trouble] = await in_module.next()
    assert trouble.message.startswith("mypy stopped: ") and trouble.code is None
    save_file(client, module, BUG)
    [found] = await in_module.next()
    assert found.code == "static-dynamic-child"
    assert outside.as_uri() not in client.diagnostics


async def test_a_broken_configuration_is_one_diagnostic_on_it(client: LanguageClient, project: Path) -> None:
    config = project / "mypy.ini"
    in_config = Published(client, config)
    config.write_text("[mypy]\nplugins = mypy_plugin\n\n[jaxtypes]\nslect = static-unhashable\n")
    module = project / "module.py"
    open_file(client, module, BUG)
    [trouble] = await in_config.next()
    assert "unknown key 'slect'" in trouble.message
    config.write_text("[mypy]\nplugins = mypy_plugin\n")
    save_file(client, module, BUG)
    assert await in_config.next() == []


async def test_a_mypy_crash_is_shown_once_and_the_server_goes_on(client: LanguageClient, project: Path) -> None:
    (project / "crash_plugin.py").write_text(CRASHING_PLUGIN)
    (project / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin, crash_plugin.py\n")
    module = project / "module.py"
    in_module = Published(client, module)
    open_file(client, module, BUG + "\ndef crash_here() -> None: ...\ncrash_here()\n")
    message = await notified(client, types.WINDOW_SHOW_MESSAGE)
    assert message.type == types.MessageType.Error and "mypy crashed" in message.message
    save_file(client, module, BUG + "\ndef crash_here() -> None: ...\ncrash_here()\n")
    (project / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n")
    save_file(client, module, BUG)
    [found] = await in_module.next()
    assert found.code == "static-dynamic-child"
    assert len(client.messages) == 1


async def test_saves_in_quick_succession_end_in_the_last_state(client: LanguageClient, project: Path) -> None:
    module = project / "module.py"
    in_module = Published(client, module)
    open_file(client, module, BUG)
    assert len(await in_module.next()) == 1
    for text in (FIXED, BUG, FIXED, BUG, FIXED):
        save_file(client, module, text)
    while await in_module.next():
        pass  # an earlier state may be published first; the last one is clean
    assert list(client.diagnostics[module.as_uri()]) == []


async def test_a_save_that_keeps_the_size_within_the_second_is_checked(client: LanguageClient, project: Path) -> None:
    """mypy's daemon compares a file's time to the second: a save within the second of the last
    check that keeps the file's size (one name for another of its length) is checked all the same."""
    module = project / "module.py"
    in_module = Published(client, module)
    open_file(client, module, BUG)
    assert len(await in_module.next()) == 1
    same_size = BUG.replace("weights: jax.Array", "weights: int      ")
    assert len(same_size) == len(BUG)
    save_file(client, module, same_size, mtime_ns=module.stat().st_mtime_ns)
    assert await in_module.next() == []


@pytest.mark.parametrize("editor", ["visual-studio-code", "neovim", "emacs"])
async def test_each_editors_client_gets_the_finding_its_hover_and_its_fix(editor: str, project: Path) -> None:
    """The capabilities each editor's client declares (as pytest-lsp recorded them) are enough."""
    config = ClientServerConfig(server_command=[sys.executable, "-m", "jaxtypes", "lsp"], server_env=SERVER_ENV)
    client = await config.start()
    try:
        await client.initialize_session(
            types.InitializeParams(capabilities=client_capabilities(editor), root_uri=project.as_uri())
        )
        module = project / "module.py"
        in_module = Published(client, module)
        open_file(client, module, ACTIONS)
        unhashable = next(d for d in await in_module.next() if d.code == "static-unhashable")
        uri = module.as_uri()
        hover = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri), unhashable.range.start)
        )
        assert hover is not None and "**Fix:**" in str(hover.contents)
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(
                types.TextDocumentIdentifier(uri), unhashable.range, types.CodeActionContext([unhashable])
            )
        )
        assert any(isinstance(action, types.CodeAction) and action.edit is not None for action in actions or [])
    finally:
        await client.shutdown_session()
        await client.stop()


async def test_exit_leaves_no_process_behind(project: Path) -> None:
    config = ClientServerConfig(server_command=[sys.executable, "-m", "jaxtypes", "lsp"], server_env=SERVER_ENV)
    client = await config.start()
    try:
        await client.initialize_session(
            types.InitializeParams(capabilities=client_capabilities("neovim"), root_uri=project.as_uri())
        )
        module = project / "module.py"
        in_module = Published(client, module)
        open_file(client, module, BUG)
        await in_module.next()
        server = client._server
        assert server is not None
        children = Path(f"/proc/{server.pid}/task/{server.pid}/children")
        spawned = children.read_text().split() if children.exists() else []
        await client.shutdown_session()
        assert server.returncode == 0
        assert not [pid for pid in spawned if Path(f"/proc/{pid}").exists()]
    finally:
        await client.stop()
