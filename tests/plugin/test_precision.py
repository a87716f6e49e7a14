"""No findings on correct code shaped like real JAX code; trusted static types; the evidence that
``jax.jit(obj.method)`` goes wrong, in the words the plugin reports it.

Each module is checked in process (``# E: <code>`` marks the expected findings); the settings are
read from the ``mypy.ini`` or ``pyproject.toml`` mypy reads.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from jaxtypes._vocabulary.rules import JIT_BOUND_METHOD, JITTED_IN_LOOP_FIX, RULES_BY_CODE
from tests.plugin.mypy_runner import BIN, CONFIG, check_in_process, environment, expected, plugin_words, run_mypy

SHARDED = """\
from functools import partial
from typing import Any, Optional

import flax.linen as nn
import jax
import jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

import jaxtypes as jt
from jaxtypes import Static


@jt.static_dataclass
class Model:
    mesh: Optional[jax.sharding.Mesh] = None
    spec: jax.sharding.PartitionSpec = jax.sharding.PartitionSpec()
    device: Optional[jax.Device] = None
    abstract: Optional[jax.sharding.AbstractMesh] = None
    sharding: Optional[NamedSharding] = None


class Dense(nn.Module):
    features: int

    def __call__(self, x: jax.Array) -> jax.Array:
        return x


@partial(jax.jit, static_argnames="model")
def forward(x: jax.Array, model: Model) -> jax.Array:
    return x


@jt.jit
def step(x: jax.Array, model: Model, spec: Static[P], mesh: Static[Mesh]) -> jax.Array:
    return x


@partial(jax.jit, static_argnums=0)
def apply(module: Dense, x: jax.Array) -> jax.Array:
    return module(x)


@partial(jax.jit, static_argnames=("spec", "mesh"))
def reshard(x: jax.Array, spec: P, mesh: Mesh) -> jax.Array:
    return jax.lax.with_sharding_constraint(x, NamedSharding(mesh, spec))


mesh = jax.make_mesh((2, 2), ("x", "y"))
model = Model(mesh, P("x"), jax.devices()[0])
x = jnp.ones(4)
forward(x, model)
step(x, model, P("x"), mesh)
apply(Dense(3), x)
reshard(x, spec=P("x"), mesh=mesh)
"""

VOUCHED = """\
from typing import Optional
import jaxtypes as jt
from handles import Handle


@jt.trusted_static
class Backend:
    pass


class GpuBackend(Backend):
    pass


class Plain:
    pass


@jt.static_dataclass
class Config:
    backend: Backend
    gpu: Optional[GpuBackend]
    plain: Plain  # E: static-identity-hash
    handle: Handle  # E: static-identity-hash
"""

HANDLES = """\
class Handle:
    pass
"""

BRAX_SHAPED = """\
import abc
from typing import Any

import jax


class State:
    def __init__(self, obs: jax.Array) -> None:
        self.obs = obs
        self.info: dict[str, Any] = {}


class Env(abc.ABC):
    @abc.abstractmethod
    def reset(self, rng: jax.Array) -> State: ...

    @abc.abstractmethod
    def step(self, state: State, action: jax.Array) -> State: ...


class Wrapper(Env):
    def __init__(self, env: Env) -> None:
        self.env = env

    def reset(self, rng: jax.Array) -> State:
        return self.env.reset(rng)

    def step(self, state: State, action: jax.Array) -> State:
        return self.env.step(state, action)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.env, name)


class EvalWrapper(Wrapper):
    def reset(self, rng: jax.Array) -> State:
        state = self.env.reset(rng)
        state.info["eval_metrics"] = 0
        return state


class Evaluator:
    def __init__(self, eval_env: Env, num_eval_envs: int, key: jax.Array) -> None:
        self._key = key
        self._eval_walltime = 0.0
        eval_env = EvalWrapper(eval_env)
        self._eval_state = jax.jit(eval_env.reset)(jax.random.split(key, num_eval_envs))

    def run_evaluation(self) -> None:
        self._eval_walltime += 1.0


def train(env: Env, num_envs: int, key: jax.Array) -> State:
    key, key_reset = jax.random.split(key)
    reset_fn = jax.jit(env.reset)
    step_fn = jax.jit(env.step)
    env_state = reset_fn(jax.random.split(key_reset, num_envs))
    for _ in range(10):
        env_state = step_fn(env_state, env_state.obs)
    env_state.info["steps"] = 0
    return env_state
"""


PLAIN_FIELD = [(line, code) for line, code in expected(VOUCHED) if "plain" in VOUCHED.splitlines()[line - 1]]
"""The finding left when ``handles.Handle`` is trusted by the setting."""


def check(tmp_path: Path, cache_dir: Path, source: str, extra_config: str = "") -> list[tuple[int, str]]:
    (tmp_path / "handles.py").write_text(HANDLES)
    path = tmp_path / "checked.py"
    path.write_text(source)
    found = check_in_process(path, cache_dir, extra_config=extra_config)
    return [(d.line, d.code) for d in found if d.code in RULES_BY_CODE]


@pytest.mark.parametrize("source", [SHARDED, BRAX_SHAPED, VOUCHED], ids=["sharded", "brax", "vouched"])
def test_correct_code_gets_no_finding(source: str, tmp_path: Path, cache_dir: Path) -> None:
    assert check(tmp_path, cache_dir, source) == expected(source)


def test_the_setting_trusts_a_third_party_class(tmp_path: Path, cache_dir: Path) -> None:
    setting = "[jaxtypes]\ntrusted_static_types = handles.Handle\n"
    assert check(tmp_path, cache_dir, VOUCHED, setting) == PLAIN_FIELD


def test_the_setting_is_read_from_pyproject(tmp_path: Path) -> None:
    (tmp_path / "handles.py").write_text(HANDLES)
    (tmp_path / "checked.py").write_text(VOUCHED)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.mypy]\nplugins = ["mypy_plugin"]\n\n[tool.jaxtypes]\ntrusted-static-types = ["handles.Handle"]\n'
    )
    found = run_mypy(tmp_path, "checked.py")
    assert [(d.line, d.code) for d in found] == PLAIN_FIELD


@pytest.mark.parametrize(
    ("section", "message"),
    [
        (
            "trusted_types = handles.Handle",
            "unknown key 'trusted_types' (jaxtypes knows: trusted_static_types, select, ignore, baseline, sanitize)",
        ),
        ("trusted_static_types = handles.Handle, not-a-name", "'not-a-name' is not a qualified class name"),
    ],
)
def test_a_bad_setting_stops_mypy_with_status_2(tmp_path: Path, section: str, message: str) -> None:
    (tmp_path / "checked.py").write_text("x = 1\n")
    (tmp_path / "mypy.ini").write_text(f"{CONFIG}[jaxtypes]\n{section}\n")
    result = subprocess.run(
        [str(BIN / "mypy"), "checked.py"], cwd=tmp_path, env=environment(), capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "mypy.ini: [jaxtypes]: " in result.stderr and message in result.stderr
    assert "Traceback" not in result.stderr


EVIDENCE = """\
import jax


class Calculator:
    def __init__(self, k: int) -> None:
        self.k = k

    def calc(self, x: int) -> int:
        return x * self.k


class Counter:
    def __init__(self) -> None:
        self.count = 0

    def step(self, x: int) -> int:
        self.count += 1
        return x * self.count


class Scaler:
    def __init__(self, k: int) -> None:
        self.k = k

    def scale(self, x: int) -> int:
        return x * self.k


c = Calculator(2)
jitted = jax.jit(c.calc)
c.k = 3
jax.jit(Counter().step)
for i in range(3):
    jax.jit(Scaler(i).scale)(i)
"""


def test_each_kind_of_evidence_is_named(tmp_path: Path, cache_dir: Path) -> None:
    path = tmp_path / "evidence.py"
    path.write_text(EVIDENCE)
    found = [(d.line, d.message) for d in check_in_process(path, cache_dir) if d.code == JIT_BOUND_METHOD.code]
    stale = "would compile that {} instance's current attributes into the code, and {}"
    assert found == [
        (line, plugin_words(message))
        for line, message in (
            (
                30,
                JIT_BOUND_METHOD.message(
                    "jax.jit(Calculator.calc bound to an instance)",
                    stale.format("Calculator", "c.k is assigned at line 31"),
                ),
            ),
            (
                32,
                JIT_BOUND_METHOD.message(
                    "jax.jit(Counter.step bound to an instance)",
                    stale.format(
                        "Counter", "Counter.step assigns self.count, which runs only while jit traces Counter.step"
                    ),
                ),
            ),
            (
                34,
                JIT_BOUND_METHOD.message(
                    "jax.jit(Scaler.scale bound to an instance)",
                    "runs inside a loop at line 34, so each run jits a new bound-method object",
                    JITTED_IN_LOOP_FIX,
                ),
            ),
        )
    ]
