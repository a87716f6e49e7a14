"""Jitted[P, R] keeps the wrapped signature for mypy, including binding as a method."""

import textwrap
from pathlib import Path

import pytest
from mypy import api

REPO = Path(__file__).resolve().parents[2]

SOURCE = """
import jax
import jaxtypes
from jaxtypes import Static, static_dataclass

@jaxtypes.jit
def f(x: jax.Array, n: Static[int]) -> jax.Array:
    return x * n

@jaxtypes.jit(donate_argnames="x")
def g(x: jax.Array, *, k: Static[int] = 1) -> jax.Array:
    return x * k

@static_dataclass
class Cfg:
    k: int

    @jaxtypes.jit
    def calc(self, y: jax.Array) -> jax.Array:
        return y * self.k

x = jax.numpy.ones(2)
reveal_type(f(x, 3))
reveal_type(g(x, k=2))
reveal_type(Cfg(2).calc(x))
reveal_type(Cfg.calc(Cfg(2), x))
f.lower(x, 3)
len(f.compiles)
f(x, "three")  # E1
g(x, 2)  # E2
Cfg(2).calc(x, x)  # E3
"""


def test_mypy_sees_the_wrapped_signature(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = tmp_path / "typed_use.py"
    module.write_text(textwrap.dedent(SOURCE))
    monkeypatch.setenv("MYPYPATH", str(REPO))
    out, err, status = api.run(
        [str(module), "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), "--no-error-summary"]
    )
    lines = [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith(str(module))]
    assert lines[:4] == ['note: Revealed type is "jax._src.basearray.Array"'] * 4, out
    errors = [line for line in lines if line.startswith("error")]
    assert len(errors) == 3, out
    assert 'incompatible type "str"; expected "int"' in errors[0]
    assert "Too many positional arguments" in errors[1]
    assert 'Too many arguments for "__call__" of "Jitted"' in errors[2]
