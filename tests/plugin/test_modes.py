"""The plugin gives identical diagnostics in every way mypy runs: cold, warm after edits,
parallel workers, the daemon and the legacy parser.

A small project in a temp dir: ``model.py`` defines a static class, ``solver.py`` nests it in
other jaxtypes classes and calls its constructor, ``variants.py`` subclasses it. Editing
``model.py`` to add a ``Dynamic`` field must surface the error where ``solver.py`` nests the
class, and reverting must clear it. The jit projects (``jax.jit`` and ``jaxtypes.jit``) check
calls of a function jitted in another module.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import NamedTuple

import mypy.api
import pytest

from tests.plugin.mypy_runner import Diagnostic, for_installed_jax, parse, run_dmypy, run_mypy, write_config

MODEL = """\
from jaxtypes import Dynamic, static_dataclass

@static_dataclass
class Model:
    size: int
"""

DYNAMIC_FIELD = "    weights: Dynamic[int] = 0\n"

SOLVER = """\
from typing import Callable
from jaxtypes import Static, pytree_dataclass, static_dataclass
from model import Model

@static_dataclass
class Solver:
    model: Model
    step: Callable[[], int]

@pytree_dataclass
class State:
    model: Static[Model]

class Owner:
    def run(self) -> int:
        return 0

solver = Solver(Model(1), Owner().run)
"""

VARIANTS = """\
from model import Model

class Bigger(Model):
    pass
"""

FILES = ["solver.py", "model.py", "variants.py"]

CLEAN = [
    ("solver.py", 18, "static-bound-method"),
    ("variants.py", 3, "static-subclass"),
]
BROKEN = sorted(
    [*CLEAN, ("model.py", 6, "marker-misuse"), ("solver.py", 7, "marker-misuse"), ("solver.py", 12, "marker-misuse")]
)


def codes(diagnostics: list[Diagnostic]) -> list[tuple[str, int, str]]:
    return [(d.file, d.line, d.code) for d in diagnostics]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "model.py").write_text(MODEL)
    (tmp_path / "solver.py").write_text(SOLVER)
    (tmp_path / "variants.py").write_text(VARIANTS)
    write_config(tmp_path)
    return tmp_path


def set_model(project: Path, broken: bool) -> None:
    """Rewrite ``model.py`` with or without the dynamic field, with a new mtime."""
    time.sleep(1.1)
    (project / "model.py").write_text(MODEL + (DYNAMIC_FIELD if broken else ""))


def test_cold_then_warm_after_editing_dependency_and_caller(project: Path) -> None:
    cold = run_mypy(project, *FILES)
    assert codes(cold) == CLEAN
    set_model(project, broken=True)
    broken = run_mypy(project, *FILES)
    assert codes(broken) == BROKEN
    time.sleep(1.1)
    (project / "solver.py").write_text(SOLVER + "other = Model(2)\n")
    assert run_mypy(project, *FILES) == broken
    set_model(project, broken=False)
    assert run_mypy(project, *FILES) == cold


@pytest.mark.parametrize("flags", [["-n", "2"], ["--no-native-parser"]], ids=["parallel", "legacy-parser"])
def test_other_modes_match_plain_mypy(project: Path, flags: list[str]) -> None:
    set_model(project, broken=True)
    reference = run_mypy(project, "--no-incremental", *FILES)
    assert codes(reference) == BROKEN
    assert run_mypy(project, *flags, *FILES) == reference
    assert run_mypy(project, *flags, *FILES) == reference


def test_daemon_follows_edits(project: Path) -> None:
    status = project / "dmypy.json"
    try:
        clean = run_dmypy(project, status, "run", "--", *FILES)
        assert codes(clean) == CLEAN
        set_model(project, broken=True)
        assert codes(run_dmypy(project, status, "run", "--", *FILES)) == BROKEN
        set_model(project, broken=False)
        assert run_dmypy(project, status, "run", "--", *FILES) == clean
    finally:
        run_dmypy(project, status, "stop")


# jax.jit and jaxtypes.jit: the static positions travel in the jitted function's type, so a call
# in another module is checked from the cache, in workers, in the daemon and with the legacy
# parser, and follows edits of the function's module and of the argument's class.

VEHICLE = """\
class Vehicle:
    def __init__(self, num_wheels: int) -> None:
        self.num_wheels = num_wheels

    def retune(self) -> None:  # called in another module, the evidence that an instance changes
        self.num_wheels += 1
"""

BY_VALUE = """\
    def __hash__(self) -> int:
        return hash(self.num_wheels)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Vehicle) and other.num_wheels == self.num_wheels
"""

PLAIN_JITTED = for_installed_jax("""\
import functools
import jax

@jax.jit(static_argnums={static})
def f(x):
    return x.num_wheels
""")

PLAIN_CALLER = """\
from jitted import f
from vehicle import Vehicle

vehicle = Vehicle(2)
f(vehicle)
vehicle.retune()
"""

JAXTYPES_JITTED = """\
import jax
import jaxtypes
from jaxtypes import Static, static_dataclass
from vehicle import Vehicle

@jaxtypes.jit
def f(x: jax.Array, n: {static}) -> jax.Array:
    return x

@jaxtypes.jit
def drive(x: jax.Array, vehicle: Static[Vehicle]) -> jax.Array:
    return x

@static_dataclass
class Config:
    k: int

    @jaxtypes.jit
    def scale(self, x: jax.Array, n: {static}) -> jax.Array:
        return x
"""

JAXTYPES_CALLER = """\
import jax
from jitted import Config, f
from vehicle import Vehicle

class Counter:
    def step(self) -> int:
        return 0

x = jax.numpy.ones(2)
f(x, Vehicle(2))
Config(1).scale(x, Vehicle(2))
f(x, Counter().step)
"""


class JitProject(NamedTuple):
    """A jitted function, a caller in another module, and the caller's findings."""

    jitted: str
    caller: str
    static: str
    """What to put in ``jitted`` for a static parameter (``traced`` for a traced one)."""
    traced: str
    stale: list[tuple[str, int, str]]
    """Findings with ``Vehicle`` hashed by identity; with it hashed by value only ``by_value`` remain,
    with ``f``'s parameter traced only ``when_traced``."""
    by_value: list[tuple[str, int, str]]
    when_traced: list[tuple[str, int, str]]


JIT_PROJECTS = {
    "jax.jit": JitProject(
        PLAIN_JITTED,
        PLAIN_CALLER,
        "0",
        "()",
        [("caller.py", 5, "static-identity-hash")],
        [("caller.py", 5, "static-not-frozen")],  # hashed by value, and vehicle.retune() changes it
        [],
    ),
    "jaxtypes.jit": JitProject(
        JAXTYPES_JITTED,
        JAXTYPES_CALLER,
        "Static[object]",
        "object",
        [
            ("caller.py", 10, "static-identity-hash"),
            ("caller.py", 11, "static-identity-hash"),
            ("caller.py", 12, "static-bound-method"),
            ("jitted.py", 11, "static-identity-hash"),
        ],
        [("caller.py", 12, "static-bound-method")],
        [("jitted.py", 11, "static-identity-hash")],
    ),
}

JIT_FILES = ["caller.py", "jitted.py", "vehicle.py"]


@pytest.fixture(params=sorted(JIT_PROJECTS))
def jit_project(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, JitProject]:
    spec = JIT_PROJECTS[request.param]
    (tmp_path / "vehicle.py").write_text(VEHICLE)
    (tmp_path / "jitted.py").write_text(spec.jitted.format(static=spec.static))
    (tmp_path / "caller.py").write_text(spec.caller)
    write_config(tmp_path)
    return tmp_path, spec


def edit(project: Path, name: str, text: str) -> None:
    """Rewrite ``name`` with a new mtime."""
    time.sleep(1.1)
    (project / name).write_text(text)


def test_jit_call_across_modules_follows_edits(jit_project: tuple[Path, JitProject]) -> None:
    project, spec = jit_project
    cold = run_mypy(project, *JIT_FILES)
    assert codes(cold) == spec.stale
    assert run_mypy(project, *JIT_FILES) == cold
    edit(project, "vehicle.py", VEHICLE + BY_VALUE)
    assert codes(run_mypy(project, *JIT_FILES)) == spec.by_value
    edit(project, "vehicle.py", VEHICLE)
    assert run_mypy(project, *JIT_FILES) == cold
    edit(project, "jitted.py", spec.jitted.format(static=spec.traced))
    assert codes(run_mypy(project, *JIT_FILES)) == spec.when_traced
    assert codes(run_mypy(project, "-n", "2", "--no-incremental", *JIT_FILES)) == spec.when_traced
    edit(project, "jitted.py", spec.jitted.format(static=spec.static))
    assert run_mypy(project, "-n", "2", *JIT_FILES) == cold
    assert run_mypy(project, "--no-native-parser", *JIT_FILES) == cold
    assert run_mypy(project, "--no-native-parser", "--no-incremental", *JIT_FILES) == cold


def test_jit_call_across_modules_in_the_daemon(jit_project: tuple[Path, JitProject]) -> None:
    project, spec = jit_project
    status = project / "dmypy.json"
    try:
        cold = run_dmypy(project, status, "run", "--", *JIT_FILES)
        assert codes(cold) == spec.stale
        edit(project, "vehicle.py", VEHICLE + BY_VALUE)
        assert codes(run_dmypy(project, status, "run", "--", *JIT_FILES)) == spec.by_value
        edit(project, "vehicle.py", VEHICLE)
        assert run_dmypy(project, status, "run", "--", *JIT_FILES) == cold
        edit(project, "jitted.py", spec.jitted.format(static=spec.traced))
        assert codes(run_dmypy(project, status, "run", "--", *JIT_FILES)) == spec.when_traced
        edit(project, "jitted.py", spec.jitted.format(static=spec.static))
        assert run_dmypy(project, status, "run", "--", *JIT_FILES) == cold
    finally:
        run_dmypy(project, status, "stop")


# Evidence and trust recorded in a class's metadata reach a module that uses the class, and follow
# edits: a method that changes the instances, called after jax.jit(engine.run), makes it a bug;
# dropping @jaxtypes.trusted_static makes Backend an identity-hashed static field.

ENGINE = """\
import jaxtypes

class Engine:
    def __init__(self, k: int) -> None:
        self.k = k

    def run(self, x: int) -> int:
        return x * self.k
{tune}
{trusted}
class Backend:
    pass
"""

TUNE = """
    def tune(self) -> None:
        {body}
"""

USER = """\
import jax
import jaxtypes
from engine import Backend, Engine

@jaxtypes.static_dataclass
class Config:
    backend: Backend

engine = Engine(2)
run = jax.jit(engine.run)
engine.tune()
"""

UNSAFE = [("user.py", 7, "static-identity-hash"), ("user.py", 10, "jit-bound-method")]


# Static fields declared with another library's marker: which fields are static is recorded in
# the class's metadata and read where the class is built, in another module.

FLAX_STATE = """\
from typing import Callable
import jax
from flax import struct

@struct.dataclass
class State:
    x: jax.Array
    names: {names} = struct.field(pytree_node=False)
    fn: Callable = struct.field({fn_static}default=None)

    def rename(self) -> None:
        self.names.append("b")  # type: ignore[attr-defined]
"""

FLAX_USER = """\
from typing import Any
import jax.numpy as jnp
from state import State

names: Any = ("a",)
states = [State(jnp.ones(2), names=names, fn=lambda x: x) for _ in range(2)]
"""

FLAX_BROKEN = [("state.py", 8, "static-unhashable"), ("user.py", 6, "static-fresh-callable")]


# What a class's construction makes anew is recorded in its metadata: a Sequence field that
# __post_init__ makes a tuple holds no list, in a module that jits over the class too.

STREAMS = """\
import dataclasses
from typing import Sequence


@dataclasses.dataclass(frozen=True)
class Streams:
    names: Sequence[str] = ()
{normalise}"""

NORMALISE = """
    def __post_init__(self) -> None:
        object.__setattr__(self, "names", tuple(self.names))
"""

STREAMS_USER = """\
import functools
import jax
from streams import Streams


@functools.partial(jax.jit, static_argnums=0)
def step(streams: Streams, x: jax.Array) -> jax.Array:
    return x
"""

STREAMS_BROKEN = [("user.py", 6, "static-unhashable")]


# What a class's methods show is part of the class as the daemon compares it: an edit inside a
# method body of another module (no name added or removed) changes the verdicts in every mode.

TUNED_BROKEN = [("user.py", 10, "jit-bound-method")]


# What each method reads through self is recorded in its class's metadata: a static self's
# method that reaches a property of a base in another module counts only the changes to what
# that property reads (here, made by a call of the base's method).

OPERATOR = """\
class Operator:
    def __init__(self, k: int) -> None:
        self.k = k
        self.cache = 0

    @property
    def dtype(self) -> str:
        return {dtype}

    def init_aux(self) -> None:
        self.cache = 1
"""

CHILD = """\
import functools
import jax
from operator_base import Operator


class Child(Operator):
    @functools.partial(jax.jit, static_argnums=0)
    def step(self, x: jax.Array) -> jax.Array:
        return x * self.k if self.dtype and self.__class__ else x


def refresh(child: Child) -> None:
    child.init_aux()
"""

OPERATOR_BROKEN = [("user.py", 7, "static-identity-hash")]

CLIP = """\
import functools
import jax

@functools.partial(jax.custom_vjp, nondiff_argnums={nondiff})
def clip_gradient(lo: float, hi: float, x: jax.Array) -> jax.Array:
    return x
"""

CLIP_USER = """\
import jax
from clip import clip_gradient

@jax.jit
def loss(x: jax.Array, lo: float, hi: float) -> jax.Array:
    return clip_gradient(lo, hi, x)
"""

CLIP_BROKEN = [("user.py", 6, "static-dynamic-child")]


# Which fields a dataclass leaves out of its hash (``field(compare=False)``) is recorded with the
# class: a list there is no part of a static argument's key, until an edit puts it back.

LABELS = """\
import dataclasses


@dataclasses.dataclass(frozen=True)
class Labels:
    size: int
    names: list = dataclasses.field(default_factory=list{compare})
"""

LABELS_USER = """\
import functools
import jax
from labels import Labels


@functools.partial(jax.jit, static_argnums=0)
def step(labels: Labels, x: jax.Array) -> jax.Array:
    return x * labels.size
"""

LABELS_BROKEN = [("user.py", 6, "static-unhashable")]


# What a base's flatten method returns as aux data, and that its ``__init_subclass__`` registers
# the classes derived from it, are recorded with the base: an edit that moves the attributes
# from the children to the aux data reaches a derived class of another module.

REGISTERING = """\
from typing import Any
import jax


class Registering:
    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        jax.tree_util.register_pytree_node_class(cls)

    def tree_flatten(self) -> Any:
        return {flattened}

    @classmethod
    def tree_unflatten(cls, aux: Any, children: Any) -> Any:
        return object.__new__(cls)
"""

REGISTERED_USER = """\
from typing import Any
import jax
import jax.numpy as jnp
from registering import Registering

class Weighing(Registering):
    def __init__(self, weights: Any) -> None:
        self.table = {"weights": weights}

jax.jit(lambda weighing: weighing)(Weighing(jnp.ones(2)))
"""

REGISTERED_BROKEN = [("user.py", 10, "static-dynamic-child")]

# The fields a base's flatten function selects by their metadata, and the metadata each function
# of its module declares a field with (``static_field()``), are recorded with the base: an edit of
# that function reaches a derived class of another module that declares a field with it.

PYTREE_BASE = """\
import dataclasses
from typing import Any
import jax


def static_field(**kwargs: Any) -> Any:
    return dataclasses.field(metadata={{"pytree_node": {node}}}, **kwargs)


class Node:
    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)

        def flatten(node: Any) -> Any:
            fields = dataclasses.fields(node)
            data = tuple(getattr(node, f.name) for f in fields if f.metadata.get("pytree_node", True))
            meta = tuple(getattr(node, f.name) for f in fields if not f.metadata.get("pytree_node", True))
            return data, meta

        jax.tree_util.register_pytree_node(cls, flatten, lambda meta, data: cls())
"""

KERNEL_USER = """\
import dataclasses
import jax
from pytree_base import Node, static_field


@dataclasses.dataclass
class Kernel(Node):
    scale: jax.Array
    key: jax.Array = static_field(default_factory=lambda: jax.random.PRNGKey(0))


@jax.jit
def gram(kernel: Kernel, x: jax.Array) -> jax.Array:
    return kernel.scale * x
"""

KERNEL_BROKEN = [("user.py", 9, "static-dynamic-child")]

HOLDING = """\
from functools import partial
from typing import Any
import jax


class BatchEnv:
    def __init__(self) -> None:
        self.step = jax.vmap(self._step)

    @partial(jax.jit, static_argnums={statics})
    def _step(self, state: Any, mode: Any) -> Any:
        return state
"""

HOLDING_USER = """\
import jax.numpy as jnp
from holding import BatchEnv

BatchEnv().step(jnp.ones(2), "sum")
"""

HOLDING_BROKEN = [("user.py", 4, "jit-unsupported-argument"), ("user.py", 4, "static-dynamic-child")]


class EditedProject(NamedTuple):
    """Two modules: ``user.py`` (``user``) uses a class of ``edited``, whose text an edit takes
    from ``clean`` to ``broken``, where ``found`` are the findings."""

    user: str
    edited: str
    clean: str
    broken: str
    found: list[tuple[str, int, str]]


EDITED_PROJECTS = {
    "evidence and trust": EditedProject(
        USER,
        "engine.py",
        ENGINE.format(tune=TUNE.format(body="pass"), trusted="@jaxtypes.trusted_static"),
        ENGINE.format(tune=TUNE.format(body="self.k += 1"), trusted=""),
        UNSAFE,
    ),
    "another library's static fields": EditedProject(
        FLAX_USER,
        "state.py",
        FLAX_STATE.format(names="tuple[str, ...]", fn_static=""),
        FLAX_STATE.format(names="list[str]", fn_static="pytree_node=False, "),
        FLAX_BROKEN,
    ),
    "what construction makes anew": EditedProject(
        STREAMS_USER, "streams.py", STREAMS.format(normalise=NORMALISE), STREAMS.format(normalise=""), STREAMS_BROKEN
    ),
    "an edit inside a method body": EditedProject(
        USER,
        "engine.py",
        ENGINE.format(tune=TUNE.format(body="pass"), trusted="@jaxtypes.trusted_static"),
        ENGINE.format(tune=TUNE.format(body="self.k += 1"), trusted="@jaxtypes.trusted_static"),
        TUNED_BROKEN,
    ),
    "what a base method reads": EditedProject(
        CHILD,
        "operator_base.py",
        OPERATOR.format(dtype='"f32"'),
        OPERATOR.format(dtype='"f32" if self.cache else "f16"'),
        OPERATOR_BROKEN,
    ),
    "positions a custom derivative rule closes over": EditedProject(
        CLIP_USER, "clip.py", CLIP.format(nondiff="()"), CLIP.format(nondiff="(0,)"), CLIP_BROKEN
    ),
    "fields a dataclass leaves out of its hash": EditedProject(
        LABELS_USER, "labels.py", LABELS.format(compare=", compare=False"), LABELS.format(compare=""), LABELS_BROKEN
    ),
    "the aux data of a flatten method a base registers its derived classes with": EditedProject(
        REGISTERED_USER,
        "registering.py",
        REGISTERING.format(flattened="(vars(self),), None"),
        REGISTERING.format(flattened="(), vars(self)"),
        REGISTERED_BROKEN,
    ),
    "the metadata a field helper of a registering base's module declares": EditedProject(
        KERNEL_USER,
        "pytree_base.py",
        PYTREE_BASE.format(node="True"),
        PYTREE_BASE.format(node="False"),
        KERNEL_BROKEN,
    ),
    "a jitted method another class's construction keeps bound": EditedProject(
        HOLDING_USER,
        "holding.py",
        HOLDING.format(statics="(0, 2)"),
        HOLDING.format(statics="(0, 1)"),
        HOLDING_BROKEN,
    ),
}


@pytest.fixture(params=list(EDITED_PROJECTS))
def edited_project(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, EditedProject]:
    project = EDITED_PROJECTS[request.param]
    (tmp_path / project.edited).write_text(project.clean)
    (tmp_path / "user.py").write_text(project.user)
    write_config(tmp_path)
    return tmp_path, project


def test_edits_of_another_module_follow_in_every_mode(edited_project: tuple[Path, EditedProject]) -> None:
    """Clean, then broken after an edit (warm, and cold under ``-n 2`` and the legacy parser),
    then clean again after the edit is undone (warm, and ``-n 2`` from the cache)."""
    path, project = edited_project
    files = ["user.py", project.edited]
    assert run_mypy(path, *files) == []
    edit(path, project.edited, project.broken)
    found = run_mypy(path, *files)
    assert codes(found) == project.found
    assert run_mypy(path, "-n", "2", "--no-incremental", *files) == found
    assert run_mypy(path, "--no-native-parser", "--no-incremental", *files) == found
    edit(path, project.edited, project.clean)
    assert run_mypy(path, *files) == []
    assert run_mypy(path, "-n", "2", *files) == []


def test_edits_of_another_module_follow_in_the_daemon(edited_project: tuple[Path, EditedProject]) -> None:
    """The same edits, one daemon run after each."""
    path, project = edited_project
    files = ["user.py", project.edited]
    status = path / "dmypy.json"
    try:
        assert run_dmypy(path, status, "run", "--", *files) == []
        edit(path, project.edited, project.broken)
        assert codes(run_dmypy(path, status, "run", "--", *files)) == project.found
        edit(path, project.edited, project.clean)
        assert run_dmypy(path, status, "run", "--", *files) == []
    finally:
        run_dmypy(path, status, "stop")


# The class attribute that carries a class's recorded facts to the daemon is invisible to mypy's
# own checks: bases with other facts, a protocol whose method writes to self, a class matched
# against a protocol and an override give the errors mypy gives without the plugin, and no more.

PLAIN_CLASSES = """\
from typing import Protocol


class Sized(Protocol):
    def grow(self) -> None:
        self.n = 1


class Left:
    def __init__(self) -> None:
        self.n = 0

    def grow(self) -> None:
        self.n += 1


class Right:
    def __init__(self) -> None:
        self.m = 0

    def shrink(self) -> None:
        self.m -= 1

    def __hash__(self) -> int:
        return hash(self.m)


class Both(Left, Right):
    def grow(self) -> None:
        self.m = 2


def use(sized: Sized) -> None:
    sized.grow()


use(Left())
use(Both())
use(Right())
"""


def test_the_recorded_facts_add_no_error_of_their_own(tmp_path: Path) -> None:
    (tmp_path / "plain.py").write_text(PLAIN_CLASSES)
    without = tmp_path / "without.ini"
    without.write_text("[mypy]\n")
    write_config(tmp_path)
    output, _, _ = mypy.api.run(
        ["--config-file", str(without), "--cache-dir", str(tmp_path / "a"), str(tmp_path / "plain.py")]
    )
    plain = sorted((d.line, d.code) for d in parse(output))
    assert plain == [(6, "attr-defined"), (6, "misc"), (39, "arg-type")]
    assert sorted((d.line, d.code) for d in run_mypy(tmp_path, "plain.py")) == plain
