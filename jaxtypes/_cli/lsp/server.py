"""The language server: pygls over stdio, publishing only jaxtypes' findings.

Open and saved documents of the workspace are analysed together (``analysis.Analyser``), one run
at a time in a worker thread, so the editor stays answered; the analyser and the build it keeps
are that thread's, and a saved configuration file has it build afresh. A save during a run marks
the project changed: the run's results are dropped and it runs again, so the last state wins. A
problem that stops a run (a broken configuration, a syntax error) is one diagnostic on its file;
a mypy crash is shown to the user once, and the server goes on serving.
"""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NoReturn

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from jaxtypes._cli.check.baseline import entry, read_baseline, write_baseline
from jaxtypes._cli.lsp.analysis import Analyser, Analysis, in_project
from jaxtypes._cli.lsp.code_actions import ADD_TO_BASELINE, code_actions
from jaxtypes._cli.lsp.diagnostics import SOURCE, diagnostic, hover_text, trouble_diagnostic, uri_of
from jaxtypes._vocabulary.release import release


class JaxtypesServer(LanguageServer):
    """The server's state: the workspace root, the documents to analyse, the last analysis."""

    def __init__(self) -> None:
        super().__init__("jaxtypes", release(), text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.root = Path.cwd().resolve()
        self.documents: set[Path] = set()
        self.saved: set[Path] = set()
        """The documents opened or saved since the last analysis began: read afresh by it."""
        self.latest = Analysis({}, None)
        self.shown: set[str] = set()
        self.crashes: set[str] = set()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jaxtypes-analysis")
        self._analyser = Analyser()
        self._changed = False
        self._running = False

    def path_of(self, uri: str) -> Path | None:
        """The project file at ``uri``, or None for one outside the workspace (or not a file)."""
        path = to_fs_path(uri)
        return Path(path).resolve() if path is not None and in_project(self.root, Path(path)) else None

    async def analyse_documents(self) -> None:
        """Analyse the open documents, again while they changed during a run; publish the last."""
        self._changed = True
        if self._running:
            return
        self._running = True
        try:
            while self._changed:
                self._changed = False
                documents, saved = sorted(self.documents), self.saved
                self.saved = set()
                analysis = await asyncio.get_running_loop().run_in_executor(
                    self._worker, self._analyser.analyse, self.root, documents, saved
                )
                if not self._changed:
                    self.publish(analysis)
        finally:
            self._running = False

    def reconfigured(self) -> None:
        """Have the next analysis start from scratch (queued in the worker, after the running one)."""
        self._worker.submit(self._analyser.forget)

    def publish(self, analysis: Analysis) -> None:
        """Each analysed file's diagnostics; empty ones where findings went away."""
        self.latest = analysis
        published: dict[str, list[types.Diagnostic]] = {
            uri_of(path): [diagnostic(finding, uri_of(path)) for finding in findings]
            for path, findings in analysis.findings.items()
        }
        trouble = analysis.trouble
        if trouble is not None and trouble.path is None and trouble.message not in self.crashes:
            self.crashes.add(trouble.message)
            self.window_show_message(types.ShowMessageParams(types.MessageType.Error, f"jaxtypes: {trouble.message}"))
        elif trouble is not None and trouble.path is not None:
            published.setdefault(uri_of(trouble.path), []).append(trouble_diagnostic(trouble.message, trouble.line))
        if trouble is not None and trouble.path is None:
            return  # keep what was shown: nothing was checked
        for uri in self.shown - published.keys():
            published[uri] = []
        for uri, diagnostics in published.items():
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, diagnostics))
        self.shown = {uri for uri, diagnostics in published.items() if diagnostics}

    def add_to_baseline(self, uri: str, line: int, code: str) -> None:
        """Record the finding of ``code`` at ``line`` of ``uri`` in the project's baseline."""
        path, baseline = self.path_of(uri), self.latest.baseline
        if path is None or baseline is None:
            return
        found = [
            finding for finding in self.latest.findings.get(path, []) if finding.line == line and finding.code == code
        ]
        entries = read_baseline(baseline) if baseline.exists() else []
        write_baseline(baseline, [*entries, *(entry(finding, baseline.resolve().parent) for finding in found[:1])])


server = JaxtypesServer()


@server.feature(types.INITIALIZE)
def initialize(ls: JaxtypesServer, params: types.InitializeParams) -> None:
    """Work in the workspace's root folder, where mypy finds the project's configuration."""
    folders = params.workspace_folders or []
    root = folders[0].uri if folders else params.root_uri
    path = to_fs_path(root) if root else None
    if path is not None and Path(path).is_dir():
        ls.root = Path(path).resolve()
        os.chdir(ls.root)


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: JaxtypesServer, params: types.DidOpenTextDocumentParams) -> None:
    path = ls.path_of(params.text_document.uri)
    if path is not None:
        ls.documents.add(path)
        ls.saved.add(path)
        await ls.analyse_documents()


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: JaxtypesServer, params: types.DidSaveTextDocumentParams) -> None:
    path = ls.path_of(params.text_document.uri)
    if path is not None:
        ls.documents.add(path)
        ls.saved.add(path)
    elif params.text_document.uri.endswith(("mypy.ini", ".toml", ".cfg")):
        ls.reconfigured()
    else:
        return
    await ls.analyse_documents()


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: JaxtypesServer, params: types.DidCloseTextDocumentParams) -> None:
    path = ls.path_of(params.text_document.uri)
    if path is not None:
        ls.documents.discard(path)


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: JaxtypesServer, params: types.HoverParams) -> types.Hover | None:
    """Why the finding under the cursor matters, and its fix."""
    found = [d for d in _diagnostics_at(ls, params.text_document.uri, params.position) if d.code]
    if not found:
        return None
    contents = types.MarkupContent(types.MarkupKind.Markdown, "\n\n---\n\n".join(map(hover_text, found)))
    return types.Hover(contents=contents, range=found[0].range)


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
)
def code_action(ls: JaxtypesServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    source = ls.workspace.get_text_document(uri).source
    baseline = ls.latest.baseline is not None
    return [
        action
        for found in params.context.diagnostics
        if found.source == SOURCE and found.code
        for action in code_actions(found, source, uri, baseline)
    ]


@server.command(ADD_TO_BASELINE)
async def add_to_baseline(ls: JaxtypesServer, uri: str, line: int, code: str) -> None:
    ls.add_to_baseline(uri, line, code)
    await ls.analyse_documents()


def _diagnostics_at(ls: JaxtypesServer, uri: str, position: types.Position) -> list[types.Diagnostic]:
    path = ls.path_of(uri)
    findings = ls.latest.findings.get(path, []) if path is not None else []
    diagnostics = [diagnostic(finding, uri) for finding in findings]
    return [d for d in diagnostics if d.range.start.line <= position.line <= d.range.end.line]


def serve() -> NoReturn:
    """Serve the editor over standard input and output until it says exit (pygls then closes
    them), and end the process at once, as mypy ends its own: freeing the live build object by
    object takes seconds."""
    server.start_io()
    os._exit(0)
