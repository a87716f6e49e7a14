"""Verdicts that follow how values of a type behave, on code shaped like the wrong verdicts found
on real codebases: classes that are pytrees by any means (named tuples, another library's pytree
dataclass), classes another library makes frozen, the interpreter's own function type, the bound
``self`` of ``super().method(...)``, a static ``self`` reported only with evidence that it goes
wrong (arrays it holds are no such evidence: compiled in as constants, they are right) (the stricter verdict is the opt-in ``static-identity-hash-strict``), and equinox modules,
which hash over their fields, judged by what their fields hold (given to ``jax.jit``, or static);
an undecorated subclass of a frozen dataclass, which inherits its value hash (also used before
either class is defined), and an abstract base whose subclasses hash by value; a module's static
field typed as a module defined later; the aux data of hand-written flatten functions (declared
types, and what constructors give attributes with none, also inside a display; a flatten method
inherited, by a decorated class or one a base's ``__init_subclass__`` registers, and
``vars(self)`` there); collection interfaces declared for
static parameters (also beside a computed ``static_argnums``; a private function's at the calls
that pass one, and a module-private function's parameter passed on to it by what the module's
calls of that function pass), and for a static class's fields unless its construction makes them anew (a
tuple, or by a function it hands the field's name); a value a constructor converts before storing
it (a hand-written ``__init__``, an attrs converter); attrs classes, hashed as attrs makes them
(a frozen one over its fields, where a list is unhashable; a mutable one not at all); jitted class methods; a static
``self`` bound by calling the instance; a dataclass that hashes its fields (``unsafe_hash``),
judged by them and by evidence that it changes; a class method jitted with its class static,
called on the class or an instance; a field typed as an abstract base (``abc.ABC``); and a flax
module's jitted ``apply`` stored on it (flax's ``__setattr__`` is no evidence that it changes);
a class with its own ``__hash__``, judged by what that hashes as it is (an array there makes
hashing fail; ``hash(tuple(a.tolist()))`` hashes a value made from it); and values whose type
does not show what they hold, judged where the module makes them: a list a caller passes for a
parameter without annotation, a name rebound to an array, a dict on one side of ``or``, an array
given to a field typed ``Any`` or to a static field declared ``int`` (mypy's own error, which
``jaxtypes check`` does not show), an array a module's ``__post_init__`` assigns to a static field
declared ``float`` (while a value converted before the call, a loop's own target and a float
computed there stay silent), and a static field declared an array that construction always
replaces by a tuple (silent: it holds the tuple; one it replaces only on some paths is reported); values jit cannot trace passed to it, a name judged by what its reaching bindings make (a
parameter declared ``str`` rebound to an array before the call stays silent) (an instance of a plain class
nothing can make a pytree, where a class decorated by a function of code that can import jax,
which may register it, is not judged a plain class, nor its jitted methods' ``self``; a named
tuple of functions, an equinox module given a lambda for a
data field, a pytree with a data field declared ``str`` or ``bytes``; a registered dataclass, a
text field declared static, a text field of another library's dataclass transform, which may
declare static fields its own way, a function in a static field, and a function given to a
hand-written ``__init__``'s parameter that is no field, stay silent); a
lambda jitted inside a loop; a tuple of a jax array's items, which are arrays (``tuple(a)``,
also row by row; ``tuple(a.tolist())`` and a shape stay silent); a traced parameter of a function jitted by a call (``jax.jit(fit)``)
passed on into a static position, and so is one of a loop's body that ``jax.lax.fori_loop`` traces
(its index too: a tracer), and one of a function, or a lambda, that ``jax.vmap`` maps or
``jax.grad`` differentiates by (not one ``in_axes`` gives None, nor one ``argnums`` leaves out,
nor one with a default that the transformed function's call does not give), while one passed on into a traced position stays silent; a list
given to a named tuple's or frozen dataclass's field declared ``Sequence`` in a static position
(a tuple there stays silent, and so does a list or a lambda in a field declared
``compare=False``, attrs' ``eq=False``, which ``__eq__`` and ``__hash__`` leave out, and a list in
a frozen dataclass declared ``eq=False``,
which hashes by identity: made once, the opt-in ``static-identity-hash-strict``); a call of a jitted function's name that the module has since
defined again (mypy keeps the first type; the call runs the second: silent); and a class whose ``__hash__`` keeps the hash it computed
(``self._hash = ...``, as flax's ``FrozenDict`` does), which is no change of its value; the
function jax.lax's control flow is given, which it hashes to cache its trace as jit does its
function: an ``eqx.Partial`` (its keywords are a dict), an equinox module's method bound to an
instance given an array (one given a float where the field is declared an array, a
``jax.tree_util.Partial`` and a lambda stay silent), as under ``jax.jit``; and a named tuple or
an equinox module whose class writes its own ``__hash__`` (``id(self)``), judged by that, not by
its fields; aux data a flatten function selects by a rule its class fills in (the names the class
lists, read over ``__dict__`` or gathered over the bases by a class method; the fields a base's
``__init_subclass__`` flatten or a decorator's selects by their metadata, declared in
``field(metadata=...)`` or by the module's ``static_field()``), an attribute there that only
construction assigns (also through a method ``__init__`` calls), a value construction builds anew
where its owner is built in a loop, and an instance a class method builds (``cls(...)``) meeting
jit.

Checked in process, and as one project in every mode: cold, warm, after an edit that adds the
evidence, ``-n 2`` and the daemon.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from jaxtypes._vocabulary.rules import RULES_BY_CODE
from tests.plugin.mypy_runner import BIN, check_in_process, environment, expected, run_dmypy, run_mypy, write_config

SHAPES = """\
import abc
import collections
import attr
import attrs
import dataclasses
import enum
import functools
import math
import types
from typing import Any, Callable, Mapping, NamedTuple, Optional, Sequence, Union

import equinox as eqx
import flax.linen as nn
import jax
import jax.numpy as jnp
import jax_dataclasses as jdc
import numpy as np
import typing_extensions
from flax import struct
from jax_dataclasses import pytree_dataclass


class State(NamedTuple):
    x: jax.Array

    @jax.jit
    def step(self) -> "State":
        return State(self.x + 1)


@jdc.pytree_dataclass
class Params:
    w: jax.Array

    @jax.jit
    def apply(self, x: jax.Array) -> jax.Array:
        return self.w * x


@pytree_dataclass
class Inner:
    n: int


@struct.dataclass
class Holder:
    inner: Inner = struct.field(pytree_node=False)
    fn: types.FunctionType = struct.field(pytree_node=False)


class Base:
    @functools.partial(jax.jit, static_argnums=(0, 2))
    def f(self, x: jax.Array, n: int) -> jax.Array:
        return x * n


class Child(Base):
    def f(self, x: jax.Array, n: int) -> jax.Array:
        return super().f(x, n)


class Model:
    def __init__(self, k: int) -> None:
        self.k = k

    @functools.partial(jax.jit, static_argnames=("self",))
    def run(self, x: jax.Array) -> jax.Array:
        return x * self.k
{model_change}

class Counter:
    def __init__(self) -> None:
        self.n = 0

    @functools.partial(jax.jit, static_argnums=0)  # E: static-identity-hash
    def run(self, x: jax.Array) -> jax.Array:
        return x * self.n

    def bump(self) -> None:
        self.n += 1


def tick(counter: Counter) -> None:  # any counter, one jit may have seen
    counter.bump()


class Scaled:
    def __init__(self, scale: jax.Array) -> None:
        self.scale = scale

    @functools.partial(jax.jit, static_argnums=0)
    def run(self, x: jax.Array) -> jax.Array:
        return x * self.scale


class Rebuilt:
    @functools.partial(jax.jit, static_argnums=0)  # E: static-identity-hash
    def run(self, x: jax.Array) -> jax.Array:
        return x


def loop(x: jax.Array) -> None:
    for _ in range(3):
        Rebuilt().run(x)


class Weights(eqx.Module):
    w: jax.Array

    def __call__(self, x: jax.Array) -> jax.Array:
        return self.w * x


class Knobs(eqx.Module):
    n: int = 2

    def __call__(self, x: jax.Array) -> jax.Array:
        return x * self.n


weighted = jax.jit(Weights(jnp.ones(2)))  # E: static-dynamic-child
knobbed = jax.jit(Knobs())


@functools.partial(jax.jit, static_argnums=1)  # E: static-dynamic-child
def scaled(x: jax.Array, module: Weights) -> jax.Array:
    return module(x)


@functools.partial(jax.jit, static_argnums=1)
def counted(x: jax.Array, module: Knobs) -> jax.Array:
    return module(x)


@functools.partial(jax.jit, static_argnames=("rate", "shape"))
def decayed(x: jax.Array, rate: "Halved", shape: "Area") -> jax.Array:
    return x * rate.k * shape.area()


@struct.dataclass
class Schedule:
    rate: "Halved" = struct.field(pytree_node=False)


class Halved(Rate):
    def half(self) -> float:
        return self.k / 2


@dataclasses.dataclass(frozen=True)
class Rate:
    k: float


class Area(abc.ABC):
    @abc.abstractmethod
    def area(self) -> float: ...


@dataclasses.dataclass(frozen=True)
class Square(Area):
    side: float

    def area(self) -> float:
        return self.side**2


class Controller(eqx.Module):
    plan: "Plan" = eqx.field(static=True)  # E: static-dynamic-child


class Plan(eqx.Module):
    steps: jax.Array


@dataclasses.dataclass(frozen=True)
class Labels:
    names: tuple[str, ...]

    def sort(self) -> "Labels":
        return Labels(tuple(sorted(self.names)))


@jax.tree_util.register_pytree_node_class
class Tagged:
    labels: Labels

    def __init__(self, labels: Union[Labels, list[str]], x: jax.Array) -> None:
        # what the parameter admits, converted before it is stored
        self.labels = labels if isinstance(labels, Labels) else Labels(tuple(labels))
        self.x = x

    def tree_flatten(self) -> tuple[tuple[jax.Array], Labels]:
        return (self.x,), self.labels

    @classmethod
    def tree_unflatten(cls, labels: Labels, children: tuple[jax.Array]) -> "Tagged":
        return cls(labels, children[0])

    def sort(self) -> "Tagged":
        return Tagged(self.labels.sort(), self.x)


tagged = Tagged(["a"], jnp.ones(1))


def to_labels(names: Union[Labels, list[str]]) -> Labels:
    return names if isinstance(names, Labels) else Labels(tuple(names))


@attr.s(frozen=True)
class Converted:
    labels: Labels = attr.ib(converter=to_labels)
    x: jax.Array = attr.ib()

    def sort(self) -> "Converted":
        return Converted(self.labels.sort(), self.x)


jax.tree_util.register_pytree_node(
    Converted, lambda c: ((c.x,), c.labels), lambda labels, children: Converted(labels, children[0])
)


def converted(numbers: list[int]) -> Converted:
    return Converted(numbers, jnp.ones(1))  # type: ignore[arg-type]  # converted by attrs, not stored


@attrs.frozen
class AttrsConfig:
    names: Sequence[str] = attrs.field(converter=tuple)
    depth: int = 1


@attrs.frozen
class AttrsHolder:
    names: list[str]


@attrs.define
class AttrsMutable:
    depth: int


@functools.partial(jax.jit, static_argnums=(0,))
def attrs_configured(config: AttrsConfig, x: jax.Array) -> jax.Array:
    return x * config.depth


@functools.partial(jax.jit, static_argnames="holder")  # E: static-unhashable
def attrs_held(holder: AttrsHolder, x: jax.Array) -> jax.Array:
    return x


@functools.partial(jax.jit, static_argnames="holder")  # E: static-not-frozen
def attrs_mutable(holder: AttrsMutable, x: jax.Array) -> jax.Array:
    return x * holder.depth


def freeze(obj: object, names: list[str]) -> None:
    for name in names:
        object.__setattr__(obj, name, tuple(getattr(obj, name)))


@dataclasses.dataclass(frozen=True)
class Streams:
    overwrites: Sequence[str] = ()
    losses: Mapping[str, int] = dataclasses.field(default_factory=dict)
    names: Sequence[str] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "overwrites", tuple(self.overwrites))  # construction makes a tuple
        freeze(self, ["losses"])  # or hands the field, by name, to a function that may


@functools.partial(jax.jit, static_argnums=(0,))  # E: static-unhashable
def streamed(streams: Streams, x: jax.Array) -> jax.Array:
    return x


@dataclasses.dataclass(frozen=True)
class Stage:
    width: int


@dataclasses.dataclass(frozen=True)
class Stages:
    stages: Stage | Sequence[Stage]  # a tuple once built, in either branch
    kept: Stage | Sequence[Stage] = ()  # what it was given, in one branch
    depth: int = 1

    def __post_init__(self) -> None:
        given = self.stages
        if isinstance(given, Stage):
            stages = (given,) * self.depth
        else:
            stages = tuple(given)
        object.__setattr__(self, "stages", stages)
        kept = self.kept if isinstance(self.kept, Stage) else self.kept
        object.__setattr__(self, "kept", kept)


@functools.partial(jax.jit, static_argnames=("stages",))  # E: static-unhashable
def staged(x: jax.Array, stages: Stages) -> jax.Array:
    return x


class Factory:
    @classmethod
    @jax.jit  # E: jit-method-self
    def zeros(cls, n: int) -> jax.Array:
        return jnp.zeros(n)

    @classmethod
    @functools.partial(jax.jit, static_argnums=(0, 1))
    def ones(cls, n: int) -> jax.Array:
        return jnp.ones(n)


@dataclasses.dataclass(frozen=True)
class Stepper:
    rate: float

    @functools.partial(jax.jit, static_argnames=("self",))
    def __call__(self, x: jax.Array) -> jax.Array:
        return x * self.rate


stepped = Stepper(0.5)(jnp.ones(2))


@dataclasses.dataclass(unsafe_hash=True)
class Options:
    depth: int


@functools.partial(jax.jit, static_argnums=1)
def deepened(x: jax.Array, options: Options) -> jax.Array:
    return x * options.depth


deepened(jnp.ones(2), Options(3))


class Batch(NamedTuple):
    x: jax.Array


class Learner:
    @classmethod
    @functools.partial(jax.jit, static_argnames=["cls", "steps"])
    def train(cls, data: Batch, steps: int) -> jax.Array:
        return data.x * steps

    def run(self, data: Batch) -> None:
        self.train(data, 3)
        Learner.train(data, steps=3)


class Terrain(abc.ABC):
    def height(self) -> float:
        return 0.0


@dataclasses.dataclass(frozen=True)
class World:
    terrain: Terrain


@functools.partial(jax.jit, static_argnames=("world",))
def simulated(x: jax.Array, world: World) -> jax.Array:
    return x


class Dense(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x: jax.Array) -> jax.Array:
        return nn.Dense(self.features)(x)


class Policy:
    def __init__(self) -> None:
        self.actor = Dense(3)
        self.actor.apply = jax.jit(self.actor.apply)  # type: ignore[method-assign]


@jdc.pytree_dataclass
class Axis:
    direction: jax.Array

    def __hash__(self) -> int:
        return hash(tuple(self.direction.tolist()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Axis) and hash(self) == hash(other)


@jdc.pytree_dataclass
class Joint:
    axes: jdc.Static[tuple[Axis, ...]]
    angle: jax.Array


class Weighted:
    def __init__(self, weights: jax.Array, name: str) -> None:
        self.weights = weights
        self.name = name

    def __hash__(self) -> int:
        key = (self.weights, self.name)
        return hash(key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Weighted) and self.name == other.name


@functools.partial(jax.jit, static_argnums=1)  # E: static-dynamic-child
def weighed(x: jax.Array, by: Weighted) -> jax.Array:
    return x * by.weights


@functools.partial(jax.jit, static_argnums=1)
def reshaped(x, shape):
    return x.reshape(shape)


class Tables(NamedTuple):
    names: tuple[str, ...]
    table: dict[str, float]


@functools.partial(jax.jit, static_argnums=1)  # E: static-unhashable
def tabled(x: jax.Array, tables: Tables) -> jax.Array:
    return x * tables.table["a"]


@functools.partial(jax.jit, static_argnames=("bins",))  # E: static-unhashable
def histogram(x: jax.Array, bins: Union[int, list[int]] = 10) -> jax.Array:
    return jnp.histogramdd(x, bins=bins)[0]


@functools.partial(jax.jit, static_argnames=("bins",))
def histogram_of(x: jax.Array, bins: Optional[Union[int, tuple[int, ...]]] = None) -> jax.Array:
    return jnp.histogramdd(x, bins=bins or 10)[0]


@functools.partial(jax.jit, static_argnames=("bins",))
def _binned(x: jax.Array, bins: Union[int, tuple[int, ...]]) -> jax.Array:
    return jnp.histogramdd(x, bins=bins)[0]


def binned(x: jax.Array, bins: Union[int, list[int], tuple[int, ...]]) -> jax.Array:
    if isinstance(bins, list):
        bins = tuple(bins)
    return _binned(x, bins=bins)  # converted first: the argument's declared type is wider


@functools.partial(jax.jit, static_argnums=(1,))
def _solved(x: jax.Array, matrix: Sequence[Sequence[int]]) -> jax.Array:
    return x * len(matrix)


def _solved_via(x: jax.Array, matrix: Sequence[Sequence[int]]) -> jax.Array:
    return _solved(x, matrix)  # passed on: judged by what the module's calls pass, tuples


def solved(x: jax.Array, rows: tuple[tuple[int, ...], ...]) -> jax.Array:
    return _solved_via(x, rows)


def _listed_via(x: jax.Array, matrix: Sequence[Sequence[int]]) -> jax.Array:
    return _solved(x, matrix)  # E: static-unhashable


listed = _listed_via(jnp.ones(1), [[1, 2]])


def solved_by(x: jax.Array, matrix: Sequence[Sequence[int]]) -> jax.Array:
    return _solved(x, matrix)  # E: static-unhashable


def reshape_via(x: jax.Array, shape):
    return reshaped(x, shape)  # E: static-unhashable


def reshape_converted(x, dims):
    return reshaped(x, tuple(dims))


reshape_via(jnp.ones(4), [2, 2])
reshape_converted(jnp.ones(4), [2, 2])
count = 3
count = jnp.array(3)  # type: ignore[assignment]
reshaped(jnp.ones(3), count)  # E: static-dynamic-child
dims = [2, 2]
dims = tuple(dims)  # type: ignore[assignment]
reshaped(jnp.ones(4), dims)
for dims in ((4,), (2, 2)):
    reshaped(jnp.ones(4), dims)


def load(path: str):
    return None


def configured(x: jax.Array, path: str) -> jax.Array:
    options = load(path) or {{}}
    return reshaped(x, options)  # E: static-unhashable


@dataclasses.dataclass(unsafe_hash=True)
class Loose:
    value: Any


scale = jnp.zeros(2)
loose = Loose(scale)
jax.jit(lambda x, c: x, static_argnums=1)(jnp.ones(2), loose)  # E: static-dynamic-child
jax.jit(lambda x, c: x, static_argnums=1)(jnp.ones(2), Loose(2.0))


class Segment(eqx.Module):
    a: float
    b: float
    length: float = eqx.field(init=False, static=True)  # E: static-dynamic-child
    norm: float = eqx.field(init=False, static=True)

    def __post_init__(self) -> None:
        self.length = jnp.sqrt(self.a**2 + self.b**2)  # type: ignore[assignment]
        self.norm = math.sqrt(self.a**2 + self.b**2)


class Spread(eqx.Module):
    psf: jax.Array
    width: float = eqx.field(static=True)  # E: static-dynamic-child
    height: float = eqx.field(static=True)

    def __init__(self, psf: jax.Array) -> None:
        self.psf = psf
        across = jnp.sqrt(psf.sum())
        self.width = 0.5 * (across + 1.0)  # type: ignore[assignment]
        self.height = 2.0 * float(across)


class Tabled(eqx.Module):
    table: np.ndarray = eqx.field(static=True)
    given: np.ndarray = eqx.field(static=True)  # E: static-dynamic-child

    def __init__(self, table: np.ndarray) -> None:
        self.table = tuple(int(v) for v in table)  # type: ignore[assignment]
        if table.ndim == 1:
            self.given = tuple(int(v) for v in table)  # type: ignore[assignment]
        else:
            self.given = table


@eqx.filter_jit
def render(controller: Controller, segment: Segment, spread: Spread, tabled: Tabled) -> jax.Array:
    return spread.psf.sum()


class Plain:
    pass


class Solvers(NamedTuple):
    init: Callable[[float], float]


@dataclasses.dataclass
class Registered:
    x: jax.Array


jax.tree_util.register_dataclass(Registered, data_fields=["x"], meta_fields=[])
identity = jax.jit(lambda value: value)
identity(Plain())  # E: jit-unsupported-argument
identity(Solvers(float))  # E: jit-unsupported-argument
identity(Registered(jnp.ones(2)))


class Activated(eqx.Module):
    scale: jax.Array
    fn: Callable[[jax.Array], jax.Array] = eqx.field(static=True)


wrapped = eqx.nn.Lambda(lambda x: x)
identity(wrapped)  # E: jit-unsupported-argument
identity(Activated(jnp.ones(2), jnp.tanh))


class Interpolator(eqx.Module):
    x: jax.Array
    method: str


class Labelled(eqx.Module):
    x: jax.Array
    label: str = eqx.field(static=True)


class Coded(NamedTuple):
    x: jax.Array
    code: bytes


identity(Interpolator(jnp.ones(2), "cubic"))  # E: jit-unsupported-argument
identity(Labelled(jnp.ones(2), "cubic"))


def polarized(polarization: str) -> jax.Array:
    if polarization == "s":
        polarization = jnp.array([False])  # type: ignore[assignment]
    else:
        polarization = jnp.array([True])  # type: ignore[assignment]
    return identity(polarization)


def labelled(label: str) -> jax.Array:
    return identity(label)  # E: jit-unsupported-argument
identity(Coded(jnp.ones(2), b"a"))  # E: jit-unsupported-argument


@typing_extensions.dataclass_transform()
class Struct:
    def __init_subclass__(cls) -> None:
        jax.tree_util.register_dataclass(dataclasses.dataclass(cls))


class Handled(Struct):
    x: jax.Array
    handler: str = dataclasses.field(metadata={{"pytree_node": False}})


identity(Handled(jnp.ones(2), "a"))


def registered(cls):
    jax.tree_util.register_pytree_node(cls, lambda v: ((v.x,), None), lambda _, c: cls(*c))
    return cls


@registered
class RegisteredSolver:
    def __init__(self, x: jax.Array) -> None:
        self.x = x

    @jax.jit
    def solve(self, y: jax.Array) -> jax.Array:
        return self.x * y


class Registrar:
    def __init__(self, data_fields: list) -> None:
        self.data_fields = data_fields

    def __call__(self, cls: Any) -> Any:
        jax.tree_util.register_dataclass(cls, data_fields=self.data_fields, meta_fields=[])
        return cls


@Registrar(data_fields=["x"])  # an instance that decorates: may register, as a function may
@dataclasses.dataclass
class RegistrarSolver:
    x: jax.Array

    @jax.jit
    def solve(self, y: jax.Array) -> jax.Array:
        return self.x * y


def register_node(cls: Any) -> None:
    jax.tree_util.register_pytree_node(cls, lambda v: ((v.x,), None), lambda _, c: cls(*c))


class HelperSolver:  # registered below by a helper called on it, as a decorator would be
    def __init__(self, x: jax.Array) -> None:
        self.x = x

    @jax.jit
    def solve(self, y: jax.Array) -> jax.Array:
        return self.x * y


register_node(HelperSolver)


@functools.total_ordering
class OrderedPlain:
    def __init__(self, x: jax.Array) -> None:
        self.x = x

    def __lt__(self, other: "OrderedPlain") -> bool:
        return False

    @jax.jit  # E: jit-method-self
    def solve(self, y: jax.Array) -> jax.Array:
        return self.x * y


identity(RegisteredSolver(jnp.ones(2)))
identity(RegistrarSolver(jnp.ones(2)))
identity(HelperSolver(jnp.ones(2)))
identity(OrderedPlain(jnp.ones(2)))  # E: jit-unsupported-argument


class Gate(eqx.Module):
    weight: jax.Array
    gate: Callable[[jax.Array], jax.Array] = eqx.field(static=True)

    def __init__(self, make: Callable[[], Callable[[jax.Array], jax.Array]]) -> None:
        self.weight = jnp.ones(2)
        self.gate = make()


identity(Gate(lambda: jax.nn.relu))
for step in range(3):
    jax.jit(lambda x: x + step)(jnp.ones(2))  # E: jit-fresh-function
    identity(jnp.ones(2))


def fit(x: jax.Array, n):
    return reshaped(x, n)  # E: static-dynamic-child


jax.jit(fit)(jnp.ones(4), 2)


def looped(x: jax.Array) -> jax.Array:
    def body(i: int, carry: jax.Array) -> jax.Array:
        return reshaped(carry, i)  # E: static-dynamic-child

    def scanned(carry: jax.Array, row: jax.Array) -> tuple[jax.Array, jax.Array]:
        return carry + reshaped(row, (4,)), row

    jax.lax.scan(scanned, x, jnp.ones((2, 4)))
    return jax.lax.fori_loop(0, 3, body, x)


def mapped(x: jax.Array, n: jax.Array) -> jax.Array:
    return reshaped(x, n)  # E: static-dynamic-child


def rescaled(n: int, x: jax.Array) -> jax.Array:
    return reshaped(x, n).sum()  # argnums=1: n is passed as it is


def blocked(x: jax.Array, *, block: int = 4, size: int = 4) -> jax.Array:
    y = reshaped(x, block)  # block is its default under jax.vmap: no tracer
    return y + reshaped(x, size)  # E: static-dynamic-child


jax.vmap(mapped)(jnp.ones((2, 4)), jnp.full(2, 4))
jax.vmap(blocked)(jnp.ones((2, 4)), size=jnp.full(2, 4))
jax.grad(rescaled, argnums=1)(4, jnp.ones(4))
jax.vmap(lambda row, n: reshaped(row, n), in_axes=(0, None))(jnp.ones((2, 4)), 4)  # n is not mapped
jax.grad(lambda w: reshaped(jnp.ones(4), w).sum())(4.0)  # E: static-dynamic-child


@functools.partial(jax.jit, static_argnums=1)
def passed_on(x: jax.Array, n: int) -> jax.Array:
    return reshaped(x, n)  # static here: jit's own positions are checked where vmap calls it


jax.vmap(passed_on)(jnp.ones((2, 4)), jnp.full(2, 4))  # E: static-dynamic-child


class Dims(NamedTuple):
    dims: Sequence[int]


@dataclasses.dataclass(frozen=True)
class FrozenDims:
    dims: Sequence[int]


reshaped(jnp.ones(4), Dims([4]))  # E: static-unhashable
reshaped(jnp.ones(4), Dims((4,)))
reshaped(jnp.ones(4), FrozenDims([4]))  # E: static-unhashable
reshaped(jnp.ones(4), FrozenDims((4,)))


@dataclasses.dataclass(frozen=True, eq=False)
class IdentityDims:
    dims: Sequence[int]


reshaped(jnp.ones(4), IdentityDims([4]))


@dataclasses.dataclass(frozen=True)
class LabelledDims:
    dims: tuple[int, ...]
    names: list = dataclasses.field(default_factory=list, compare=False)  # not hashed nor compared
    act: Callable = dataclasses.field(default=jax.nn.relu, compare=False)


@attrs.frozen
class AttrsDims:
    dims: tuple[int, ...]
    names: list = attrs.field(factory=list, eq=False)


@functools.partial(jax.jit, static_argnums=(1, 2))
def relabelled(x: jax.Array, dims: LabelledDims, more: AttrsDims) -> jax.Array:
    return x.reshape(dims.dims)


relabelled(jnp.ones(4), LabelledDims((4,), ["a"], lambda x: x), AttrsDims((4,), ["a"]))


@functools.partial(jax.jit, static_argnums=1)
def redone(x: jax.Array, n):
    return x * n


redone(jnp.ones(2), jnp.ones(2))  # E: static-dynamic-child


@eqx.filter_jit
def redone(x: jax.Array, n):  # type: ignore[no-redef]
    return x * n


redone(jnp.ones(2), jnp.ones(2))


class Cached:
    def __init__(self, items: tuple[int, ...]) -> None:
        self._items = items
        self._hash: Optional[int] = None

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._items)
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cached) and self._items == other._items


reshaped(jnp.ones(4), Cached((2, 2)))
grid = jnp.ones((2, 2))
reshaped(jnp.ones(4), tuple(grid))  # E: static-dynamic-child
rows = tuple(tuple(row) for row in grid)
reshaped(jnp.ones(4), rows)  # E: static-dynamic-child
reshaped(jnp.ones(4), tuple(grid.tolist()))
reshaped(jnp.ones(4), tuple(grid.shape))
identity("cubic")  # E: jit-unsupported-argument
identity({{1, 2}})  # E: jit-unsupported-argument
identity(np.random.default_rng(0))  # E: jit-unsupported-argument
identity(np.str_("a"))  # E: jit-unsupported-argument
identity(np.float32(1.0))
identity(functools.partial(math.sqrt, 2.0))  # E: jit-unsupported-argument
identity(jax.tree_util.Partial(math.sqrt, 2.0))


def accelerate(gravity: str | Callable[[float], float]) -> None:
    identity(gravity)  # a union with a callable, which may be a pytree (a Partial): no verdict


def acceleration() -> Callable[[float], float]:
    return jax.tree_util.Partial(math.sqrt)


class Orbit:
    def __init__(self, keplerian: bool) -> None:
        self.spec = "keplerian"
        self.keplerian = keplerian
        if keplerian:
            self.gravity = "keplerian"  # mypy types the attribute str, from this first assignment
        else:
            self.gravity = acceleration()  # type: ignore[assignment]

    def step(self) -> None:
        if not self.keplerian:
            identity(self.gravity)  # holds the Partial here: its type says str, construction says more
        identity(self.spec)  # E: jit-unsupported-argument


identity(fit)  # E: jit-unsupported-argument
identity(lambda x: x)  # E: jit-unsupported-argument
identity(reshaped)
names: list[str] = ["a"]
assert not isinstance(names, str)  # str given to a call registers nothing
identity(names)  # E: jit-unsupported-argument
identity((jnp.ones(2), "a"))  # E: jit-unsupported-argument
identity({{"a": jnp.ones(2), "b": None}})
identity(collections.deque([1.0]))


class Level(enum.IntEnum):
    LOW = 1


class Shade(enum.Enum):
    DARK = 1


identity(Level.LOW)
identity(Shade.DARK)  # E: jit-unsupported-argument
jax.tree_util.register_pytree_node(collections.deque, lambda d: (tuple(d), None), lambda _, c: collections.deque(c))


def named(name: Optional[str], scale: Union[float, jax.Array], apply: Callable[[jax.Array], jax.Array]) -> None:
    identity(name)
    identity(scale)
    identity(apply)


class Cell(eqx.Module):
    w: jax.Array

    def update(self, state: jax.Array, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        return state, x * self.w


def carry_on(carry: int, x: None, step: int) -> tuple[int, int]:
    return carry + step, carry


celled = Cell(w=jnp.array([2.0]))
scalar_cell = Cell(w=2.0)  # type: ignore[arg-type]
jax.lax.scan(celled.update, jnp.zeros(1), jnp.ones(3))  # E: static-dynamic-child
jax.jit(celled.update)(jnp.zeros(1), jnp.ones(3))  # E: static-dynamic-child
jax.lax.scan(scalar_cell.update, jnp.zeros(1), jnp.ones(3))
jax.lax.scan(eqx.Partial(carry_on, step=1), 0, None, length=3)  # E: static-unhashable
jax.lax.scan(jax.tree_util.Partial(carry_on, step=1), 0, None, length=3)
jax.lax.fori_loop(0, 3, lambda i, c: c + i, 0)


class Lattice(NamedTuple):
    sites: np.ndarray

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other


class Sites(NamedTuple):
    sites: np.ndarray


class Walkers(struct.PyTreeNode):
    x: jax.Array
    lattice: Lattice = struct.field(pytree_node=False)
    sites: Sites = struct.field(pytree_node=False)  # E: static-dynamic-child


@jax.jit
def advance(walkers: Walkers) -> jax.Array:
    return walkers.x + 1


class Distribution(eqx.Module):
    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other


class Copula(Distribution):
    params: dict

    def density(self, x: jax.Array) -> jax.Array:
        return x


jax.jit(Copula({{}}).density)(jnp.ones(1))


class Registering:
    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        jax.tree_util.register_pytree_node_class(cls)

    def tree_flatten(self) -> tuple[tuple[()], dict[str, Any]]:
        return (), vars(self)

    @classmethod
    def tree_unflatten(cls, aux: dict[str, Any], children: tuple[()]) -> Any:
        made = object.__new__(cls)
        made.__dict__.update(aux)
        return made


class Weighing(Registering):  # registered by its base, flattened by the method it inherits
    def __init__(self, weights: Any, name: str) -> None:
        self.name = name
        self.table = {{"weights": weights}}


identity(Weighing(jnp.ones(2), "a"))  # E: static-dynamic-child
identity(Weighing(2.0, "a"))


class FlattensMark:
    def tree_flatten(self) -> tuple[tuple[jax.Array], jax.Array]:
        return (self.x,), self.mark

    @classmethod
    def tree_unflatten(cls, mark: jax.Array, children: tuple[jax.Array]) -> Any:
        return cls(children[0], mark)


@jax.tree_util.register_pytree_node_class
class Marked(FlattensMark):
    mark: jax.Array  # E: static-dynamic-child

    def __init__(self, x: jax.Array, mark: jax.Array) -> None:
        self.x = x
        self.mark = mark


identity(Marked(jnp.ones(2), jnp.ones(2)))


class Resolution:
    def __init__(self, degree: int) -> None:
        self.degree = degree


class Surface:
    _static_attrs = ["basis", "label"]

    def __init__(self, degree: int) -> None:
        self.basis = Resolution(degree)  # E: static-identity-hash
        self.label = "surface"
        self.coefficients = jnp.ones(degree)


def flatten_listed(obj: Any) -> tuple[Any, Any]:
    children = {{}}
    aux: list[tuple[str, Any]] = []
    static_attrs = getattr(obj, "_static_attrs", [])
    for key, val in obj.__dict__.items():
        if key in static_attrs:
            aux += [(key, val)]
        else:
            children[key] = val
    return (children,), aux


jax.tree_util.register_pytree_node(Surface, flatten_listed, lambda aux, children: Surface(1))


@jax.jit
def surface_area(surface: Surface) -> jax.Array:
    return jnp.sum(surface.coefficients)


for _ in range(2):
    surface_area(Surface(3))


def static_field(**kwargs: Any) -> Any:
    return dataclasses.field(metadata={{"pytree_node": False}}, **kwargs)


class Node:
    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)

        def flatten(node: Any) -> tuple[Any, Any]:
            fields = dataclasses.fields(node)
            data = tuple(getattr(node, f.name) for f in fields if f.metadata.get("pytree_node", True))
            meta = tuple((f.name, getattr(node, f.name)) for f in fields if not f.metadata.get("pytree_node", True))
            return data, meta

        jax.tree_util.register_pytree_node(cls, flatten, lambda meta, data: cls())


@dataclasses.dataclass
class Kernel(Node):
    scale: jax.Array
    key: jax.Array = static_field(default_factory=lambda: jax.random.PRNGKey(0))  # E: static-dynamic-child
    name: str = static_field(default="rbf")


@jax.jit
def gram(kernel: Kernel, x: jax.Array) -> jax.Array:
    return kernel.scale * x


def cells_dataclass(cls: Any) -> Any:
    made = dataclasses.dataclass(frozen=True)(cls)
    meta_fields: list[str] = []
    data_fields: list[str] = []
    for name, info in made.__dataclass_fields__.items():
        is_static = info.metadata.get("static", False)
        if is_static:
            meta_fields.append(name)
        else:
            data_fields.append(name)

    def flatten(x: Any) -> tuple[Any, Any]:
        return tuple(getattr(x, n) for n in data_fields), tuple(getattr(x, n) for n in meta_fields)

    jax.tree_util.register_pytree_node(made, flatten, lambda meta, data: made(*data, *meta))
    return made


@cells_dataclass
class Cells:
    positions: jax.Array
    size: jax.Array = dataclasses.field(metadata={{"static": True}})  # E: static-dynamic-child
    capacity: int = dataclasses.field(metadata={{"static": True}})


@jax.jit
def occupancy(cells: Cells) -> jax.Array:
    return cells.positions * cells.capacity


class Family:
    pytree_aux_fields: tuple[str, ...] = ("_shape",)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        jax.tree_util.register_pytree_node(cls, cls.tree_flatten, cls.tree_unflatten)

    def __init__(self, shape: tuple[int, ...] = ()) -> None:
        self._shape = shape

    @classmethod
    def gather_aux_fields(cls) -> tuple[str, ...]:
        names: tuple[str, ...] = ()
        for base in cls.__mro__:
            names += base.__dict__.get("pytree_aux_fields", ())
        return tuple(set(names))

    def tree_flatten(self) -> tuple[Any, Any]:
        names = type(self).gather_aux_fields()
        return (), tuple(self.__dict__.get(name) for name in names)

    @classmethod
    def tree_unflatten(cls, aux: Any, children: Any) -> "Family":
        return cls.__new__(cls)


class NormalisedFamily(Family):
    pytree_aux_fields = ("_log_z", "_steps")

    def __init__(self, scale: jax.Array) -> None:
        self.scale = scale
        self._steps = 10
        super().__init__()
        self._normalise()

    def _normalise(self) -> None:
        self._log_z = jnp.log(self.scale)  # E: static-dynamic-child


@jax.jit
def log_density(d: NormalisedFamily, x: jax.Array) -> jax.Array:
    return x - d._log_z


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Pattern:
    values: jax.Array
    rows: np.ndarray = dataclasses.field(metadata=dict(static=True))  # E: static-dynamic-child

    @classmethod
    def from_rows(cls, rows: list[int]) -> "Pattern":
        return cls(jnp.ones(len(rows)), np.array(rows))


@jax.jit
def pattern_total(p):  # type: ignore[no-untyped-def]
    return jnp.sum(p.values)


pattern_total(Pattern.from_rows([1, 2]))
"""

UNCHANGED = SHAPES.format(model_change="")
MUTATED = SHAPES.format(
    model_change="\n    def grow(self, x: jax.Array) -> jax.Array:\n        self.k += 1\n        return self.run(x)\n"
)
MODEL_RUN = UNCHANGED.splitlines().index('    @functools.partial(jax.jit, static_argnames=("self",))') + 1
BASE_F = UNCHANGED.splitlines().index("    @functools.partial(jax.jit, static_argnums=(0, 2))") + 1


def findings(diagnostics: list) -> list[tuple[int, str]]:
    return sorted((d.line, d.code) for d in diagnostics if d.code in RULES_BY_CODE)


def test_each_verdict_follows_how_the_values_behave(tmp_path: Path, cache_dir: Path) -> None:
    path = tmp_path / "shapes.py"
    path.write_text(UNCHANGED)
    assert findings(check_in_process(path, cache_dir)) == expected(UNCHANGED)


def test_a_field_construction_makes_anew_is_judged_by_what_it_makes(tmp_path: Path, cache_dir: Path) -> None:
    path = tmp_path / "shapes.py"
    path.write_text(UNCHANGED)
    headlines = {d.line: d.message.splitlines()[0] for d in check_in_process(path, cache_dir)}
    streamed = UNCHANGED.splitlines().index("@functools.partial(jax.jit, static_argnums=(0,))  # E: static-unhashable")
    assert "Streams.names is typed typing.Sequence[str], which admits a list" in headlines[streamed + 1]
    staged = UNCHANGED.splitlines().index("def staged(x: jax.Array, stages: Stages) -> jax.Array:")
    assert "Stages.kept is typed " in headlines[staged]
    tabled = UNCHANGED.splitlines().index("def tabled(x: jax.Array, tables: Tables) -> jax.Array:")
    assert headlines[tabled].startswith(
        "parameter 'tables' of tabled is typed Tables, and Tables.table is typed dict[str, float], which is unhashable"
    )
    histogram = UNCHANGED.splitlines().index(
        '@functools.partial(jax.jit, static_argnames=("bins",))  # E: static-unhashable'
    )
    assert headlines[histogram + 1].startswith(
        "parameter 'bins' of histogram is typed int | list[int], which admits a list (unhashable)"
    )


def test_the_evidence_names_what_makes_a_static_self_go_wrong(tmp_path: Path, cache_dir: Path) -> None:
    path = tmp_path / "shapes.py"
    path.write_text(UNCHANGED)
    headlines = {d.line: d.message.splitlines()[0] for d in check_in_process(path, cache_dir)}
    counter, rebuilt, basis = [line for line, code in expected(UNCHANGED) if code == "static-identity-hash"]
    tick = UNCHANGED.splitlines().index("    counter.bump()") + 1
    assert headlines[counter].endswith(f"which hashes by identity, and counter.bump() assigns self.n at line {tick}")
    loop_line = UNCHANGED.splitlines().index("        Rebuilt().run(x)") + 1
    assert headlines[rebuilt].endswith(
        f"and a Rebuilt is built inside a loop at line {loop_line}, so every copy compiles again"
    )
    surfaces = UNCHANGED.splitlines().index("    surface_area(Surface(3))") + 1
    assert headlines[basis].endswith(
        "and each Surface builds a new Resolution, and a Surface is built inside a loop at line "
        f"{surfaces}, so every copy compiles again"
    )


def test_the_stricter_verdict_is_opt_in(tmp_path: Path, cache_dir: Path) -> None:
    path = tmp_path / "shapes.py"
    path.write_text(UNCHANGED)
    strict = check_in_process(path, cache_dir, extra_config="enable_error_code = static-identity-hash-strict\n")
    opted = [(line, code) for line, code in findings(strict) if code == "static-identity-hash-strict"]
    scaled = UNCHANGED.splitlines().index("class Scaled:") + 5
    by_identity = UNCHANGED.splitlines().index("reshaped(jnp.ones(4), IdentityDims([4]))") + 1
    lines = (BASE_F, MODEL_RUN, scaled, by_identity)
    assert opted == [(line, "static-identity-hash-strict") for line in lines]
    assert sorted(set(findings(strict)) - set(opted)) == expected(UNCHANGED)


def test_jaxtypes_check_select_turns_the_opt_in_code_on(tmp_path: Path) -> None:
    (tmp_path / "shapes.py").write_text(UNCHANGED)
    write_config(tmp_path)
    command = [str(BIN / "jaxtypes"), "check", "--quiet", "shapes.py"]
    default = subprocess.run(command, cwd=tmp_path, env=environment(), capture_output=True, text=True, timeout=300)
    selected = subprocess.run(
        [*command, "--select", "static-identity-hash-strict"],
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "static-identity-hash-strict" not in default.stdout
    assert "checked): static-identity-hash-strict 4;" in selected.stdout.splitlines()[-1], selected.stdout


def test_every_mode_gives_the_same_findings_and_follows_the_evidence(tmp_path: Path) -> None:
    (tmp_path / "shapes.py").write_text(UNCHANGED)
    write_config(tmp_path)
    cold = run_mypy(tmp_path, "shapes.py")
    assert findings(cold) == expected(UNCHANGED)
    assert run_mypy(tmp_path, "shapes.py") == cold
    time.sleep(1.1)
    (tmp_path / "shapes.py").write_text(MUTATED)
    mutated = run_mypy(tmp_path, "shapes.py")
    assert (MODEL_RUN, "static-identity-hash") in findings(mutated)
    assert run_mypy(tmp_path, "-n", "2", "--no-incremental", "shapes.py") == mutated
    time.sleep(1.1)
    (tmp_path / "shapes.py").write_text(UNCHANGED)
    assert run_mypy(tmp_path, "shapes.py") == cold
    status = tmp_path / "dmypy.json"
    try:
        assert run_dmypy(tmp_path, status, "run", "--", "shapes.py") == cold
        time.sleep(1.1)
        (tmp_path / "shapes.py").write_text(MUTATED)
        assert run_dmypy(tmp_path, status, "run", "--", "shapes.py") == mutated
    finally:
        run_dmypy(tmp_path, status, "stop")
