"""A class that jits its methods with a static ``self`` and offers a method that changes what they
read: the class alone shows no stale result, its callers do. A call in another module is reported
where it is made, unless it is a step of the object's construction (made in the same function by
calling the class, and changed before anything else mentions it but calls of its methods that run
no jitted code); the class's own module reports at the jitted method, with the call as evidence;
a change nothing calls is the opt-in twin there.

Checked in process as a package of two modules, and as one project in every mode, following an
edit of the class's module that makes the method change nothing.
"""

from __future__ import annotations

import time
from pathlib import Path

from jaxtypes._vocabulary.rules import RULES_BY_CODE
from tests.plugin.mypy_runner import check_in_process, expected, run_dmypy, run_mypy, write_config

RENDERER = """\
import functools

import jax


class Renderer:
    def __init__(self, size: int) -> None:
        self.size = size
        self.transparent = 0

    def load_frame(self, path: str) -> int:
        return len(path) + self.size

    def load_assets(self, count: int) -> None:
        {change}

    @functools.partial(jax.jit, static_argnums=0)  # S: static-identity-hash-strict
    def render(self, x: jax.Array) -> jax.Array:
        return x + self.transparent

    def draw(self, x: jax.Array) -> jax.Array:
        return self.render(x)
"""

CHANGES = "self.transparent = count + 1"

GAME = """\
import jax
import jax.numpy as jnp

from renderer import Renderer


class Game:
    def __init__(self) -> None:
        self.renderer = Renderer(2)
        frames = self.renderer.load_frame("a.npy")  # runs no jitted code
        self.renderer.load_assets(frames)  # a step of construction

    def reload(self, count: int) -> None:
        self.renderer.load_assets(count)  # E: static-identity-hash


def play(x: jax.Array) -> jax.Array:
    renderer = Renderer(3)
    renderer.load_assets(1)  # a step of construction
    y = renderer.render(x)
    renderer.load_assets(2)  # E: static-identity-hash
    return y


def drawn(x: jax.Array) -> jax.Array:
    renderer = Renderer(3)
    y = renderer.draw(x)  # draw runs render
    renderer.load_assets(2)  # E: static-identity-hash
    return y


def replaced(renderer: Renderer) -> None:
    renderer.load_assets(4)  # E: static-identity-hash


def per_round(x: jax.Array) -> None:
    renderer = Renderer(3)
    for count in range(3):
        renderer.load_assets(count)  # E: static-identity-hash
        renderer.render(x)
"""

SAME_MODULE = """

def retint(renderer: Renderer) -> None:
    renderer.load_assets(5)
"""


def findings(diagnostics: list) -> list[tuple[str, int, str]]:
    return sorted((d.file, d.line, d.code) for d in diagnostics if d.code in RULES_BY_CODE)


def marks(source: str, file: str, kind: str = "E") -> list[tuple[str, int, str]]:
    """The ``# E:`` (default) or ``# S:`` (opt-in) marks of ``source``."""
    text = source.replace("# S:", "# E:") if kind == "S" else source.replace("# S:", "#")
    return [(file, line, code) for line, code in expected(text)]


def project(path: Path, renderer: str) -> Path:
    (path / "renderer.py").write_text(renderer)
    (path / "game.py").write_text(GAME)
    return path


def test_a_call_in_another_module_is_reported_where_it_is_made(tmp_path: Path, cache_dir: Path) -> None:
    renderer = RENDERER.format(change=CHANGES)
    found = check_in_process(project(tmp_path, renderer), cache_dir)
    assert findings(found) == marks(GAME, "game.py")
    headline = next(
        d.message.splitlines()[0]
        for d in found
        if d.line == GAME.splitlines().index("        self.renderer.load_assets(count)  # E: static-identity-hash") + 1
    )
    assert headline.startswith(
        "self.renderer.load_assets() changes self.transparent of a Renderer, which Renderer.render reads with a"
        " static self"
    )


def test_a_change_nothing_calls_is_the_opt_in_twin(tmp_path: Path, cache_dir: Path) -> None:
    (tmp_path / "renderer.py").write_text(RENDERER.format(change=CHANGES))
    found = check_in_process(
        tmp_path / "renderer.py", cache_dir, extra_config="enable_error_code = static-identity-hash-strict\n"
    )
    assert findings(found) == marks(RENDERER, "renderer.py", "S")


def test_a_call_in_the_class_module_is_the_evidence_at_the_jitted_method(tmp_path: Path, cache_dir: Path) -> None:
    source = RENDERER.format(change=CHANGES) + SAME_MODULE
    (tmp_path / "renderer.py").write_text(source)
    found = check_in_process(tmp_path / "renderer.py", cache_dir)
    decorator = (
        source.splitlines().index("    @functools.partial(jax.jit, static_argnums=0)  # S: static-identity-hash-strict")
        + 1
    )
    call = source.splitlines().index("    renderer.load_assets(5)") + 1
    assert [(d.line, d.code) for d in found if d.code in RULES_BY_CODE] == [(decorator, "static-identity-hash")]
    assert found[0].message.splitlines()[0].endswith(f"renderer.load_assets() assigns self.transparent at line {call}")


def test_every_mode_gives_the_same_findings_and_follows_the_edit(tmp_path: Path) -> None:
    """Cold, warm, ``-n 2``, the legacy parser and the daemon agree; an edit that makes the method
    change nothing clears the findings, and undoing it brings them back."""
    changing, inert = RENDERER.format(change=CHANGES), RENDERER.format(change="pass")
    files = ["game.py", "renderer.py"]
    write_config(project(tmp_path, changing))
    cold = run_mypy(tmp_path, *files)
    assert findings(cold) == marks(GAME, "game.py")
    assert run_mypy(tmp_path, *files) == cold
    assert run_mypy(tmp_path, "-n", "2", "--no-incremental", *files) == cold
    assert run_mypy(tmp_path, "--no-native-parser", "--no-incremental", *files) == cold
    time.sleep(1.1)
    (tmp_path / "renderer.py").write_text(inert)
    assert findings(run_mypy(tmp_path, *files)) == []
    status = tmp_path / "dmypy.json"
    try:
        assert findings(run_dmypy(tmp_path, status, "run", "--", *files)) == []
        time.sleep(1.1)
        (tmp_path / "renderer.py").write_text(changing)
        assert run_dmypy(tmp_path, status, "run", "--", *files) == cold
        time.sleep(1.1)
        (tmp_path / "renderer.py").write_text(inert)
        assert findings(run_dmypy(tmp_path, status, "run", "--", *files)) == []
    finally:
        run_dmypy(tmp_path, status, "stop")
