"""Findings that need evidence, on shapes from code the rules were not written from: what jit only
compares (pytree metadata) or keys on by identity is right as long as it is built once and never
changed, so a list or dict in another library's static field, an identity-hashed value there or
in a plain jitted function's static position, and a lambda stored in a static field are reported
only where the code changes them in place, changes their instances, or builds them in a loop;
without that, each is its opt-in ``-strict`` twin. A callable made afresh (a lambda, a local
function, a function ``jax.jit`` or ``jax.grad`` makes, or a tuple, named tuple or factory's
result holding one, a list it is appended to and ``tuple(...)`` of that, or a bundle of functions a library's factory makes, such as
``optimizers.sgd(0.1)``, also through a name bound to the factory) in a static position, and ``jax.jit`` of one, are reported where the
code that makes it runs again and again (by ``jax.jit``, ``jax.pmap`` (through a project's
``functools.partial`` of it too), ``nnx.jit`` or ``eqx.filter_jit``, each keying compiled code on
the function; a list in ``jax.pmap``'s ``static_broadcasted_argnums`` fails as in jit's; not
inside a function the module jits, which runs only while jit traces it; ``jax.jit(jax.vmap(lambda ...))`` too): in a loop, or in a
function a loop calls (``f(...)``, ``self.f(...)``, ``obj.f(...)``, ``jax.vmap(partial(f, ...))(x)``),
directly or through another function, or in a function the
top level runs twice (by name, or handed to a function that calls it: ``timed(iterate, x)``); a
function's name bound again to ``jax.jit`` of it (``f = jax.jit(f, static_argnums=0)``) is
that jitted function where the binding is in force; so is an
identity-hashed value built there and passed in a static position, and one whose equal copy,
made by the same call with the same arguments, meets the same static position; not where each
jitted function made is kept for later (not on ``self``, a class or a module, where the next
run replaces it or a new instance holds a new one; appended to a list, stored under a key, an item of a
comprehension's list or dict or of a tuple so kept, also once compiled ahead of time:
``.lower(...).compile()``), nor a value
built in a loop and handed straight to a function that is not jitted, nor a bound method in a
``Partial`` handed straight to one, unless its object changes after construction; a local
function defined before a loop is one object in it. One a loop makes (``f = jax.vmap(f, ...)`` per swept
argument) that meets jit only after the loop is one object there too. A name bound again to another class's instance
(``argparse.Namespace``, then a named tuple) is judged by what it holds, not by its first type.

A local function jitted at each run counts what the local functions it calls capture too (a
loss given to the function that makes the step): where that differs at each run, so does the
program; and so does a local function given to a static position, made by a function a loop
calls with another objective at each iteration. A static ``self`` whose jitted method assigns an attribute of it is reported whatever
the method reads: the assignment runs only while jit traces, and stores a tracer; but a counter or a flag only literals feed
stores none, and counts traces only where something reads it.

A field of pytree metadata declared an array, which JAX code declares scalars with, is judged by
what its default (or its ``default_factory``'s lambda) makes, and what a construction gives it
by what it gives: a tuple there stays silent, one of lists is judged as lists are, and a
default of None (a placeholder) decides nothing. A 0-d array made from a number (``jnp.array(n)``) in pytree metadata compares as the number
does: it is reported only where it is compared while jit traces (made inside a jitted function,
read inside one that passes it on to another, or given to one that compares that field); an
array of another shape is reported where an instance of its class meets jit in the module (an
argument of a jitted call, a parameter of a jitted function declared as the class, its
structure taken by ``tree_structure``; an instance is a call of the class or of a function of
the module that returns one, or a variable assigned one, also unpacked), an equinox module's as
any other's (a module only called is never compared), but not where the instance given it goes
nowhere but into calls that key nothing (a function of the module that only reads its fields;
a class's call whose instance goes nowhere else: one a jitted function takes meets jit), nor
by an argument its class's construction always converts before it stores it (``tuple(names)`` in
``__init__``, or in a dataclass's ``__post_init__``; one that replaces only a default keeps what
it is given).

A module-level call of a jitted function after the module rebinds a global the function reads,
which an earlier call traced, runs the old value's code.

A pytree given to a traced position is compared by its static fields: a lambda a subclass's
``__init__`` hands to its base's, which stores it in one, is reported where it is made when the
instances are built in a loop.

Construction is not change: ``__init__`` and the methods only it calls, class methods that build
an instance, and a method that changes the metadata together with a data field (the structure
changes with it, so jit compiles anew). A static parameter (``self`` or another) counts only
changes to what the jitted function reads through it, the methods it calls on it included (an
abstract one: the overrides the module shows; a function of the module given the instance:
what it reads through that parameter). Nor
is a later initialisation: an attribute that only a method run later sets (nothing in
construction or a class body does), or that a method sets only while it is None (inside
``if self.x is None:``, after ``if self.x is not None: return ...``, or in a private method
called only there: a lazy cache), always to what the instance's unchanged state makes; nor a
memo's fill, what a method does only while a key is missing from a dict of the instance and
that sets the key (a dict only tested, never filled, changes at every call). A jitted method's
own lazy cache of what the unchanged state makes, by functions other than jax's, is no evidence
either (a value jax computes there is a tracer, kept). A tracer given to pytree metadata (a
parameter ``jax.grad`` differentiates by, in the values of a hand-written flatten function's dict)
is reported where such an instance meets jit. Nothing made inside a function a jit compiles
(``eqx.filter_jit`` too) is made again and again: that code runs while it traces. Nor is a copy that is another value: a construction, or
a static argument of a function jitted and called right there, given what differs at each
iteration compiles anew whatever it hashes by. Also: a traced parameter passed on into a static
position is a tracer, whatever its declared type, where a call gives it a value (jit does not
trace a default: else the opt-in twin), but for one declared as what holds no leaf (None, a
class register_static registers), which jit hands through as it is; a loop is no evidence where it makes the value only
on some iterations and calls the one kept on the others (a solve remade with its
preconditioner), where it lies in a function a later definition of the same name replaces, or
where its call gives what keeps the function from the code that makes the value
(``include_hessian=False`` before ``if not include_hessian: return``), or where it changes the
attribute of an object that what the object's method makes is computed from before each call of
the method (a model placed on each device), or where the function making it keeps what it returns
for equal arguments (``functools.lru_cache``); a function held in a variable shapes the program
made of it, as a captured one does (a comprehension over a function and its derivative); a value
of unknown type
that the function it lives in compares with a string, or reads an attribute of that no array,
number or container has (``op.get_rates``), is a Python value, another program when it differs,
and so is the object a method given to a transformation is bound to; an expression the checker evaluates again while it checks a nested function is judged
where it is; a class whose base mypy cannot follow is not
judged by the bases it can see, and a concrete class of an abstract base (``abc.ABC``) is judged
as itself; a function in a private module is judged at its calls; a
function a project's own decorator from another of its modules may jit runs only while it traces;
a call made only where a memo written by hand lacks what it makes, which stores it there, makes
nothing again (an attribute looked up by name too: ``getattr(self, "_f", None) is None``,
``not hasattr(self, "_f")``); a jitted function only lowered, to read its cost, compiles nothing.

Checked in process, with the opt-in codes turned on, and as one project in every mode: cold,
warm, after an edit that adds the evidence, ``-n 2`` and the daemon.
"""

from __future__ import annotations

import time
from pathlib import Path

from jaxtypes._vocabulary.rules import OPT_IN_CODES, RULES_BY_CODE
from tests.plugin.mypy_runner import Diagnostic, check_in_process, expected, run_dmypy, run_mypy, write_config

SHAPES = """\
import abc
import argparse
import dataclasses
import functools
from typing import Any, Callable, NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx, struct
from jax import export
from jax.example_libraries import optimizers
from not_installed import BaseModel  # type: ignore[import-not-found]


@struct.dataclass
class Options:
    x: jax.Array
    names: list = struct.field(pytree_node=False)  # S: static-unhashable-strict
    table: dict = struct.field(pytree_node=False)  # E: static-unhashable


options = Options(jnp.ones(1), ["a"], {{}})
options.table["k"] = 1


class Screen(struct.PyTreeNode):
    x: jax.Array
    width: jax.Array = struct.field(pytree_node=False, default_factory=lambda: jnp.array(160))  # S: static-dynamic-child-strict
    sizes: jax.Array = struct.field(pytree_node=False, default_factory=lambda: ((1, 2), (3, 4)))
    offsets: jax.Array = struct.field(pytree_node=False, default_factory=lambda: jnp.array([1, 2]))  # S: static-dynamic-child-strict
    later: jax.Array = struct.field(pytree_node=False, default=None)  # S: static-dynamic-child-strict
    speeds: jax.Array = struct.field(pytree_node=False, default_factory=lambda: ([1, 2], [3]))  # S: static-unhashable-strict
    score: jax.Array = struct.field(pytree_node=False, default_factory=lambda: jnp.array(2).astype(int))  # S: static-dynamic-child-strict


Screen(jnp.ones(1), width=jnp.array(320))
Screen(jnp.ones(1), width=jnp.array([320, 240]))  # S: static-dynamic-child-strict


class Frame(struct.PyTreeNode):
    x: jax.Array
    mask: jax.Array = struct.field(pytree_node=False)  # E: static-dynamic-child


@struct.dataclass
class Tile:
    x: jax.Array
    mask: jax.Array = struct.field(pytree_node=False)  # E: static-dynamic-child


class Weights(eqx.Module):
    x: jax.Array
    mask: jax.Array = eqx.field(static=True)  # S: static-dynamic-child-strict

    def __call__(self, y: jax.Array) -> jax.Array:
        return self.x * y * self.mask


class Kernel(eqx.Module):
    x: jax.Array
    mask: jax.Array = eqx.field(static=True)  # E: static-dynamic-child


class Stencil(eqx.Module):
    x: jax.Array
    mask: jax.Array = eqx.field(static=True)  # E: static-dynamic-child


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Updates:
    values: list
    keys: list = dataclasses.field(metadata=dict(static=True))  # S: static-unhashable-strict
    log: list = dataclasses.field(metadata=dict(static=True))  # E: static-unhashable
    seen: list = dataclasses.field(metadata=dict(static=True))  # S: static-unhashable-strict

    def __post_init__(self) -> None:
        self._fill()

    def _fill(self) -> None:
        self.seen.append(0)

    def append(self, key: str, value: jax.Array) -> None:
        self.keys.append(key)
        self.values.append(value)

    def note(self, entry: str) -> None:
        self.log.append(entry)


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class VarMap:
    ids: dict = dataclasses.field(default_factory=dict, metadata=dict(static=True))  # S: static-unhashable-strict

    def update(self, items: dict) -> None:
        self.ids.update(items)

    @classmethod
    def create(cls, items: dict) -> "VarMap":
        made = cls()
        made.update(items)
        return made


class Engine:
    def gram(self, x: jax.Array) -> jax.Array:
        return x @ x.T


@dataclasses.dataclass(frozen=True, eq=False)
class Axis:
    size: int


class Counter:
    def __init__(self) -> None:
        self.n = 0

    def bump(self) -> None:
        self.n += 1{counter_change}


class Kernel(eqx.Module):
    w: jax.Array
    engine: Engine = eqx.field(static=True)  # S: static-identity-hash-strict
    axes: tuple[Axis, ...] = eqx.field(static=True)  # S: static-identity-hash-strict
    counter: Counter = eqx.field(static=True)  # E: static-identity-hash


def tick(counter: Counter) -> None:  # any counter, one jit has seen too
    counter.bump()


@struct.dataclass
class Potentials:
    x: jax.Array
    f: Callable = struct.field(pytree_node=False)


def potentials(scale: float) -> Potentials:
    return Potentials(jnp.ones(1), lambda y: y * scale)  # S: static-fresh-callable-strict


many = [Potentials(jnp.ones(1), lambda y: y) for _ in range(3)]  # E: static-fresh-callable


def mapped(potentials: Potentials) -> jax.Array:
    return jax.vmap(potentials.f)(potentials.x)


for _ in range(3):  # handed straight to a function that is not jitted
    mapped(Potentials(jnp.ones(1), lambda y: y))  # S: static-fresh-callable-strict


@functools.partial(jax.jit, static_argnums=1)  # S: static-identity-hash-strict
def fit(x: jax.Array, engine: Engine) -> jax.Array:
    return engine.gram(x)


@functools.partial(jax.jit, static_argnums=1)  # E: static-identity-hash
def count(x: jax.Array, counter: Counter) -> jax.Array:
    return x * counter.n


class Config(BaseModel):
    steps: int

    def __hash__(self) -> int:
        return hash(repr(self))


@functools.partial(jax.jit, static_argnums=1)
def train(x: jax.Array, config: Config) -> jax.Array:
    return x * config.steps


@functools.partial(jax.jit, static_argnums=(0,))
def inner(n: int, x: jax.Array) -> jax.Array:
    return x * n


@functools.partial(jax.jit, static_argnums=(1,))
def outer(i: int, k: int, x: jax.Array) -> jax.Array:
    return inner(i, x) + inner(k, x)  # E: static-dynamic-child


def plain(i: int, x: jax.Array) -> jax.Array:
    return inner(i, x)


@functools.partial(jax.jit, static_argnums=0)
def keyed(key: Any, x: jax.Array) -> jax.Array:
    return x


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


def make_optimizer(rate: float):
    def init(p):
        return p

    def update(g):
        return g * rate

    return Optimizer(init, update)


class OptimizerWithArgs(Optimizer):  # a tuple of the same fields, as optax's optimizers are
    pass


def make_optimizer_with_args(rate: float) -> OptimizerWithArgs:
    def init(p):
        return p

    def update(g, *args):
        return g * rate

    return OptimizerWithArgs(init, update)


def total(x: jax.Array) -> jax.Array:
    return jnp.sum(x)


def per_call(x: jax.Array) -> jax.Array:
    return keyed(lambda y: y * 2, x)  # E: static-fresh-callable


def once(x: jax.Array) -> jax.Array:
    return keyed(lambda y: y, x)  # S: static-fresh-callable-strict


class Meter:
    def __init__(self, unit: float) -> None:
        self.unit = unit


def meter_per_call(x: jax.Array) -> jax.Array:
    return keyed(Meter(1.0), x)  # E: static-identity-hash


def meter_once(x: jax.Array) -> jax.Array:
    return keyed(Meter(2.0), x)  # S: static-identity-hash-strict


def gradient_per_call(x: jax.Array) -> jax.Array:
    return jax.jit(jax.grad(total))(x)  # E: jit-fresh-function


class Agent:
    def act(self, x: jax.Array) -> jax.Array:
        @jax.jit  # E: jit-fresh-function
        def scaled(y: jax.Array) -> jax.Array:
            return y * 2

        return scaled(x)


class Solver:
    def _build(self) -> Any:
        def objective(y: jax.Array) -> jax.Array:
            return y * 2

        return jax.jit(objective)  # E: jit-fresh-function

    def solve(self, x: jax.Array) -> jax.Array:
        return self._build()(x)


def other_jits(x: jax.Array) -> jax.Array:
    def local(y: jax.Array) -> jax.Array:
        return y * 2

    nnx.jit(total)(x)
    eqx.filter_jit(total)(x)
    eqx.filter_jit(local)(x)  # E: jit-fresh-function
    jax.pmap(total)(x[None])
    pmap_named(local)(x[None])  # E: jit-fresh-function
    jax.pmap(lambda y: y * 2)(x[None])  # E: jit-fresh-function
    return nnx.jit(local)(x)  # E: jit-fresh-function


pmap_named = functools.partial(jax.pmap, axis_name="i")


@functools.partial(jax.jit, static_argnums=1)
def traced_steps(x: jax.Array, n: int) -> jax.Array:
    for _ in range(n):

        def body(y: jax.Array) -> jax.Array:
            return y * 2

        x = jax.pmap(body)(x)
    return x


agent = Agent()
stepper = optimizers.sgd
settings = argparse.Namespace(steps=2)
settings = Optimizer(**vars(settings))
for _ in range(2):
    keyed(make_optimizer(0.1), jnp.ones(1))  # E: static-fresh-callable
    keyed(make_optimizer_with_args(0.1), jnp.ones(1))  # E: static-fresh-callable
    keyed((total, lambda y: y), jnp.ones(1))  # E: static-fresh-callable
    keyed(jax.jit(total), jnp.ones(1))  # E: static-fresh-callable
    keyed(total, jnp.ones(1))
    keyed(settings, jnp.ones(1))
    per_call(jnp.ones(1))
    meter_per_call(jnp.ones(1))
    gradient_per_call(jnp.ones(1))
    agent.act(jnp.ones(1))
    Solver().solve(jnp.ones(1))
    other_jits(jnp.ones(1))
    keyed(optimizers.sgd(0.1), jnp.ones(1))  # E: static-fresh-callable
    keyed(stepper(0.1), jnp.ones(1))  # E: static-fresh-callable
keyed(jax.jit(jnp.mean), jnp.ones(1))  # S: static-fresh-callable-strict
keyed(jax.jit(total), jnp.ones(2))  # E: static-fresh-callable
keyed(optimizers.sgd(0.2), jnp.ones(1))  # S: static-fresh-callable-strict
keyed(jax.tree_util.Partial(total), jnp.ones(1))  # E: static-identity-hash
keyed(jax.tree_util.Partial(total), jnp.ones(1))  # E: static-identity-hash
shared = jax.tree_util.Partial(jnp.sum)
keyed(shared, jnp.ones(1))  # S: static-identity-hash-strict
keyed(shared, jnp.ones(2))  # S: static-identity-hash-strict
once(jnp.ones(1))
meter_once(jnp.ones(1))
gradient = jax.jit(jax.grad(total))


def jitted_per_scale() -> dict:
    kept_jits = []
    table = {{}}
    for scale in (1.0, 2.0):  # one jitted function per scale, each kept and called again later

        def scaled(y: jax.Array, scale: float = scale) -> jax.Array:
            return y * scale

        kept_jits.append(jax.jit(scaled))
        fast = jax.jit(scaled)
        fast(jnp.ones(1))
        table[scale] = fast
        table[-scale] = jax.jit(scaled).trace(jnp.ones(1)).lower().compile()  # compiled ahead, kept
    return table


def shard_all(arrays: list) -> list:
    def _shard(y: jax.Array) -> jax.Array:
        return y

    return [jax.jit(_shard)(a) for a in arrays]  # one function object: jax finds its trace again


def scale_all(arrays: list) -> None:
    def scale(y: jax.Array) -> jax.Array:
        return y * 3

    for a in arrays:
        keyed(scale, a)  # S: static-fresh-callable-strict


@eqx.filter_jit
def traced_core(x: jax.Array, scale: jax.Array) -> jax.Array:
    def residual(y: jax.Array) -> jax.Array:
        return y * scale

    return keyed(residual, x)  # made while filter_jit traces: traced into its program, once per trace


for _ in range(2):
    traced_core(jnp.ones(1), jnp.ones(1))


def make_branches(scales: tuple) -> list:
    branches = []
    for scale in scales:

        def branch(x: jax.Array, factor: float = scale) -> jax.Array:
            return x * factor

        branches.append(branch)
    return branches


def fit_all(x: jax.Array) -> jax.Array:
    return keyed(tuple(make_branches((1.0, 2.0))), x)  # E: static-fresh-callable


for _ in range(2):
    fit_all(jnp.ones(1))


@jax.tree_util.register_pytree_node_class
class Labelled:
    def __init__(self, labels: Any, x: jax.Array) -> None:
        self.labels = labels
        self.x = x

    def tree_flatten(self) -> tuple:
        return (self.x,), self.labels

    @classmethod
    def tree_unflatten(cls, labels: Any, children: tuple) -> "Labelled":
        return cls(labels, children[0])

    def resorted(self) -> "Labelled":
        return Labelled(self.labels.sort(), self.x)  # a value's own sort, its result used


class SortedInPlace(Labelled):
    def sort(self) -> None:
        self.labels.sort()


@jax.tree_util.register_pytree_node_class
class Weighted:
    def __init__(self, x: jax.Array, weight: Any = 1.0, names: Any = ()) -> None:
        self._weight = weight
        self.names = names
        self.x = x

    @property
    def weight(self) -> Any:
        return self._weight

    def tree_flatten(self) -> tuple:
        aux = dict(weight=self.weight, names=self.names)  # the values of a dict: aux data
        return (self.x,), aux

    @classmethod
    def tree_unflatten(cls, aux: dict, children: tuple) -> "Weighted":
        return cls(children[0], **aux)


@jax.tree_util.register_pytree_node_class
class Kept:
    def __init__(self, x: jax.Array, config: Any = None) -> None:
        self.x = x
        self._config = config  # the parameter, kept under another name: what it is given

    def tree_flatten(self) -> tuple:
        return (self.x,), self._config

    @classmethod
    def tree_unflatten(cls, config: Any, children: tuple) -> "Kept":
        return cls(children[0], config)


@jax.tree_util.register_pytree_node_class
class Normalised:
    def __init__(self, x: jax.Array, names: Any = ()) -> None:
        self.x = x
        self.names = tuple(names)  # a value made of the parameter: what the field holds

    def tree_flatten(self) -> tuple:
        return (self.x,), self.names

    @classmethod
    def tree_unflatten(cls, names: Any, children: tuple) -> "Normalised":
        return cls(children[0], names)


@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass(frozen=True)
class Sized:
    x: jax.Array
    sizes: Any = ()

    def __post_init__(self) -> None:
        sizes = tuple(int(size) for size in self.sizes)  # always made anew: what the field holds
        object.__setattr__(self, "sizes", sizes)

    def tree_flatten(self) -> tuple:
        return (self.x,), self.sizes

    @classmethod
    def tree_unflatten(cls, sizes: Any, children: tuple) -> "Sized":
        return cls(children[0], sizes)


@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass(frozen=True)
class Defaulted:
    x: jax.Array
    sizes: Any = None

    def __post_init__(self) -> None:
        if self.sizes is None:  # only the default is replaced: a value given is kept as given
            object.__setattr__(self, "sizes", ())

    def tree_flatten(self) -> tuple:
        return (self.x,), self.sizes

    @classmethod
    def tree_unflatten(cls, sizes: Any, children: tuple) -> "Defaulted":
        return cls(children[0], sizes)


@jax.tree_util.register_pytree_node_class
class Configured:
    def __init__(self, x: jax.Array, config: Any = None) -> None:
        self.x = x
        self._config = config

    def tree_flatten(self) -> tuple:
        return (self.x,), self._config

    @classmethod
    def tree_unflatten(cls, config: Any, children: tuple) -> "Configured":
        made = cls(children[0])
        made._config.update(config)  # an instance cls(...) makes, changed in place
        return made


@jax.jit
def weigh(w: Weighted) -> jax.Array:
    return w.x


@jax.jit
def weigh_normalised(n: Normalised) -> jax.Array:
    return n.x


@jax.jit
def weigh_sized(s: Sized, d: Defaulted) -> jax.Array:
    return s.x + d.x


labelled = Labelled(["b", "a"], jnp.ones(1))  # S: static-unhashable-strict
weighed = weigh(Weighted(jnp.ones(1), weight=jnp.ones(3)))  # E: static-dynamic-child
named = Weighted(jnp.ones(1), names=["a"])  # S: static-unhashable-strict
slope = jax.grad(lambda w: weigh(Weighted(jnp.ones(1), weight=w)).sum())(0.5)  # E: static-dynamic-child
in_place = SortedInPlace(["b", "a"], jnp.ones(1))  # E: static-unhashable
configured = Configured(jnp.ones(1), {{"a": 1}})  # E: static-unhashable
kept = Kept(jnp.ones(1), {{"a": 1}})  # S: static-unhashable-strict
normalised = weigh_normalised(Normalised(jnp.ones(1), names=["a"]))  # kept as a tuple of its items
sized = weigh_sized(Sized(jnp.ones(1), jnp.array([1, 2])), Defaulted(jnp.ones(1)))  # kept as a tuple of ints
defaulted = weigh_sized(Sized(jnp.ones(1)), Defaulted(jnp.ones(1), jnp.array([1, 2])))  # E: static-dynamic-child


def total(w: Weighted) -> jax.Array:  # reads a field, hands the instance to no jit
    return w.x.sum() * 2


def weighed_again(w: Weighted) -> jax.Array:
    return weigh(w)


def spread(weights: jax.Array) -> jax.Array:
    alone = Weighted(jnp.ones(1), weight=weights)  # S: static-dynamic-child-strict
    return total(alone)


def spread_jitted(weights: jax.Array) -> jax.Array:
    handed = Weighted(jnp.ones(1), weight=weights)  # E: static-dynamic-child
    return weighed_again(handed)


@jax.tree_util.register_pytree_node_class
class Holder:
    def __init__(self, inner: Weighted) -> None:
        self.inner = inner

    def tree_flatten(self) -> tuple:
        return (self.inner,), None

    @classmethod
    def tree_unflatten(cls, aux: Any, children: tuple) -> "Holder":
        return cls(children[0])


@jax.jit
def held(h: Holder) -> jax.Array:
    return h.inner.x


def spread_held(weights: jax.Array) -> jax.Array:
    holder = Holder(Weighted(jnp.ones(1), weight=weights))  # E: static-dynamic-child
    return held(holder)


class Probe:
    def __init__(self) -> None:
        self.k = 1
        self.seen = 0

    def mark(self) -> None:
        self.seen += 1  # not read by scaled: no evidence against it

    @functools.partial(jax.jit, static_argnums=0)  # S: static-identity-hash-strict
    def scaled(self, x: jax.Array) -> jax.Array:
        return x * self.k if self.__class__ else x


def network(update: Callable) -> Callable:
    return lambda x: update(x)


class Layer:
    def __init__(self, k: float) -> None:
        self.k = k

    def message(self, x: jax.Array) -> jax.Array:
        return x * self.k

    def __call__(self, x: jax.Array) -> jax.Array:
        return network(jax.tree_util.Partial(self.message))(x)  # handed to a call that is not jitted


class TunedLayer(Layer):
    def tune(self) -> None:
        self.k += 1

    def __call__(self, x: jax.Array) -> jax.Array:
        return network(jax.tree_util.Partial(self.message))(x)  # E: static-bound-method


def retune(layer: TunedLayer) -> None:
    layer.tune()


def double_each(arrays: list) -> None:
    for a in arrays:

        def double(y: jax.Array) -> jax.Array:
            return y * 2

        jax.jit(double)(a)  # E: jit-fresh-function
        keyed(double, a)  # E: static-fresh-callable


class Operator:
    def __init__(self, scale: float) -> None:
        self.scale = scale
        self._adjoint: Any = None

    def adjoint(self) -> Any:
        if self._adjoint is None:
            self._adjoint = lambda y: y  # a lazy cache: filled once, the same function then
        return self._adjoint

    def set_adjoint(self, adjoint: Callable) -> None:
        self._adjoint = adjoint

    def __call__(self, x: jax.Array) -> jax.Array:
        return x * self.scale


@functools.partial(jax.jit, static_argnums=0)  # S: static-identity-hash-strict
def apply_operator(op: Operator, x: jax.Array) -> jax.Array:
    return op(x)  # reads what __call__ reads: scale, never changed


@functools.partial(jax.jit, static_argnums=0)  # E: static-identity-hash
def apply_adjoint(op: Operator, x: jax.Array) -> jax.Array:
    return op.adjoint()(x)


class Noise:
    def __init__(self, level: float) -> None:
        self.level = level
        self.data: Any = None

    def set_data(self, data: jax.Array) -> None:
        self.data = data  # not read by scaled

    @staticmethod
    def doubled(x: jax.Array) -> jax.Array:
        return x * 2

    @functools.partial(jax.jit, static_argnums=0)  # S: static-identity-hash-strict
    def scaled(self, x: jax.Array) -> jax.Array:
        return self.doubled(x) * self.level  # a static method reads no state of the instance


class Boundary:
    def __init__(self, value: float) -> None:
        self.ready = False
        self.profile = lambda: jnp.full(2, value)

    def initialise(self) -> None:
        self.values = self.profile()  # read before, it fails; written again, it is equal
        self.ready = True

    @functools.partial(jax.jit, static_argnums=0)  # S: static-identity-hash-strict
    def apply(self, x: jax.Array) -> jax.Array:
        return x * self.values


class Cached:
    def __init__(self, size: int) -> None:
        self.values: Any = None
        self.size = size

    def clear(self) -> None:
        del self.values

    def initialise(self) -> None:
        self.values = jnp.ones(self.size)

    @functools.partial(jax.jit, static_argnums=0)  # E: static-identity-hash
    def apply(self, x: jax.Array) -> jax.Array:
        return x * self.values


def refill(cached: Cached) -> None:
    cached.initialise()


class Offered:  # what changes it is offered, never called: the opt-in twin
    def __init__(self) -> None:
        self.k = 1

    def tune(self) -> None:
        self.k += 1

    @functools.partial(jax.jit, static_argnums=0)  # S: static-identity-hash-strict
    def apply(self, x: jax.Array) -> jax.Array:
        return x * self.k


class Driven:  # its own method runs the jitted one, then changes what it read
    def __init__(self) -> None:
        self.k = 1

    def fit(self, x: jax.Array) -> jax.Array:
        y = self.apply(x)
        self.k += 1
        return y

    @functools.partial(jax.jit, static_argnums=0)  # E: static-identity-hash
    def apply(self, x: jax.Array) -> jax.Array:
        return x * self.k


class Stepper:  # its own method runs the jitted one through the attribute holding it
    def __init__(self) -> None:
        self.x = jnp.zeros(3)
        self.advance = jax.jit(self.step)  # E: jit-bound-method

    def step(self) -> jax.Array:
        return self.x + 1

    def run(self, n: int) -> None:
        for _ in range(n):
            self.x = self.advance()


class LazyAdjoint:  # a lazy cache, filled once from what construction left: one value for jit
    def __init__(self, scale: float, adjoint: Any = None) -> None:
        self.scale = scale
        self._adjoint = adjoint

    def _fill_adjoint(self) -> None:
        transposed = jax.linear_transpose(self.__call__, jnp.zeros(1))
        self._adjoint = lambda y: transposed(y)[0]

    def adjoint(self, y: jax.Array) -> jax.Array:
        if self._adjoint is None:
            self._fill_adjoint()
        return self._adjoint(y)

    def __call__(self, x: jax.Array) -> jax.Array:
        return self.scale * x

    @functools.partial(jax.jit, static_argnums=0)  # S: static-identity-hash-strict
    def normal(self, x: jax.Array) -> jax.Array:
        return self.adjoint(self(x))


class LazyFromArgument:
    def __init__(self) -> None:
        self._weights: Any = None

    def load(self, weights: jax.Array) -> None:
        if self._weights is None:
            self._weights = weights

    @functools.partial(jax.jit, static_argnums=0)  # E: static-identity-hash
    def apply(self, x: jax.Array) -> jax.Array:
        return x * self._weights


def reload(lazy: LazyFromArgument, weights: jax.Array) -> None:
    lazy.load(weights)


def solve_with(step: Callable, x: jax.Array) -> jax.Array:
    return step(x)


solve_with = jax.jit(solve_with, static_argnums=(0,))  # type: ignore[assignment]


def tiled(x: jax.Array, shape: tuple) -> jax.Array:
    return jnp.broadcast_to(x, shape)


tiled = jax.pmap(tiled, static_broadcasted_argnums=1)
tiled(jnp.ones((1, 2)), (1, 2))
tiled(jnp.ones((1, 2)), [1, 2])  # E: static-unhashable


@jax.jit
def shade(frame: Frame) -> jax.Array:
    return frame.x * 2


tiles = jax.tree_util.tree_structure(Tile(jnp.ones(1), jnp.ones(2)))
weighed = Weights(jnp.ones(2), jnp.ones(2))(jnp.ones(2))


def make_kernel(n: int):
    return Kernel(jnp.ones(n), jnp.ones(n))


@eqx.filter_jit
def convolve(operator, x: jax.Array) -> jax.Array:
    return operator.x * x


convolve(make_kernel(2), jnp.ones(2))
left, right = Stencil(jnp.ones(2), jnp.ones(2)), Stencil(jnp.ones(2), jnp.ones(2))
convolve(left, jnp.ones(2))


def iterate(x: jax.Array) -> jax.Array:
    return solve_with(lambda y: y * x, x)  # E: static-fresh-callable


def iterate_once(x: jax.Array) -> jax.Array:
    return solve_with(lambda y: y + x, x)  # S: static-fresh-callable-strict


def timed(algorithm: Callable, x: jax.Array) -> jax.Array:
    return algorithm(x)


iterate(jnp.ones(1))
timed(iterate, jnp.ones(1))  # runs iterate again: a second lambda, a second compile
timed(iterate_once, jnp.ones(1))


@functools.partial(jax.jit, static_argnums=(0,))
def solve_by(step: Callable, x: jax.Array) -> jax.Array:
    return step(x)


def shifted_by(x: jax.Array) -> Callable[[jax.Array], jax.Array]:
    return lambda y: y - x


def prepared(x: jax.Array) -> tuple[Callable[[jax.Array], jax.Array], jax.Array]:
    return shifted_by(x), x * 2


def fit_shifted(x: jax.Array) -> jax.Array:
    step, y = prepared(x)
    return solve_by(step, y)  # E: static-fresh-callable


def warm_shifted(x: jax.Array) -> None:
    step, y = prepared(x)
    solve_by.lower(step, y).compile()  # E: static-fresh-callable


def fit_shifted_once(x: jax.Array) -> jax.Array:
    return solve_by(shifted_by(x), x)  # S: static-fresh-callable-strict


def retried(x: jax.Array) -> jax.Array:
    while True:  # goes round again only where the jitted call raised: a retry, not a loop of calls
        try:
            result = jax.jit(lambda y: y * 2)(x)  # S: jit-fresh-function-strict
            break
        except MemoryError:
            continue
    return result


def polled(xs: list[jax.Array]) -> None:
    for x in xs:
        while True:  # left at once, but the loop around it runs it at every item
            jax.jit(lambda y: y * 2)(x)  # E: jit-fresh-function
            break


warm_shifted(jnp.ones(1))  # runs prepared through another function: its cache entry is never hit
fit_shifted(jnp.ones(1))
fit_shifted_once(jnp.ones(1))


operator = Operator(2.0)
apply_operator(operator, jnp.ones(1))  # S: static-identity-hash-strict
apply_adjoint(operator, jnp.ones(1))  # E: static-identity-hash


class Recurrence(eqx.Module):
    weight: Callable = eqx.field(static=True)
    domain: jax.Array

    def __init__(self, weight: Callable, domain: jax.Array) -> None:
        self.weight = weight
        self.domain = domain


class Legendre(Recurrence):
    def __init__(self) -> None:
        super().__init__(weight=lambda y: jnp.ones_like(y), domain=jnp.ones(2))  # E: static-fresh-callable


class Laguerre(Recurrence):
    def __init__(self) -> None:
        super().__init__(lambda y: jnp.exp(-y), jnp.ones(2))  # S: static-fresh-callable-strict


class Hermite(Recurrence):
    def __init__(self) -> None:
        super().__init__(total, jnp.ones(2))


@jax.jit
def evaluate(x: jax.Array, recurrence: Recurrence) -> jax.Array:
    return recurrence.weight(x) * recurrence.domain


for _ in range(2):
    evaluate(jnp.ones(2), Legendre())
    evaluate(jnp.ones(2), Hermite())
evaluate(jnp.ones(2), Laguerre())


def episodes(key: jax.Array, scale: float) -> jax.Array:
    run = jax.jit(jax.vmap(lambda r: r * scale))  # E: jit-fresh-function
    return run(key)


def tournament(key: jax.Array, scales: list[float]) -> list[jax.Array]:
    def against(key_for_ego: jax.Array, scale: float) -> jax.Array:
        return episodes(key_for_ego, scale)

    results = []
    for scale in scales:
        play = functools.partial(against, scale=scale)
        results.append(jax.vmap(play)(key))
    return results


def samplers(scales: list[float]) -> dict[float, Callable]:
    return {{scale: jax.jit(jax.vmap(total)) for scale in scales}}


compiled: dict[int, tuple[int, Any]] = {{}}


def cached(x: jax.Array, key: int) -> jax.Array:
    entry = compiled.get(key)
    if entry is None:
        def run(y: jax.Array) -> jax.Array:
            return y * key

        jitted = jax.jit(run)
        entry = (key, jitted)
        compiled[key] = entry
    return entry[1](x)


for key in range(3):
    cached(jnp.ones(2), key)


@functools.partial(jax.jit, static_argnums=0)
def root(objective: Callable[[jax.Array], jax.Array], x: jax.Array) -> jax.Array:
    return objective(x)


def limit(objective: Callable[[jax.Array], jax.Array], level: float) -> jax.Array:
    def shifted(x: jax.Array) -> jax.Array:
        return objective(x) - level

    return root(shifted, jnp.ones(()))  # S: static-fresh-callable-strict


def limits(objectives: list[Callable[[jax.Array], jax.Array]]) -> list[jax.Array]:
    return [limit(objective, 0.5) for objective in objectives]  # another objective, another program


def steady_limit(objective: Callable[[jax.Array], jax.Array], level: float) -> jax.Array:
    def shifted(x: jax.Array) -> jax.Array:
        return objective(x) - level

    return root(shifted, jnp.ones(()))  # E: static-fresh-callable


def steady(n: int) -> list[jax.Array]:
    return [steady_limit(jnp.sin, 0.5) for _ in range(n)]


class Posterior:
    def __init__(self, scale: float) -> None:
        self.scale = scale

    def predictor(self) -> Callable:
        if getattr(self, "_predict", None) is None:  # made once, kept on the instance
            self._predict = jax.jit(jax.vmap(lambda th: th * self.scale))
        return self._predict

    def shifter(self) -> Callable:
        if not hasattr(self, "_shift"):
            self._shift = jax.jit(lambda th: th + self.scale)
        return self._shift

    def scaler(self) -> Callable:
        fn = self.__dict__.get("_scale")
        if fn is None:  # looked up in the instance's own attributes
            fn = self._scale = jax.jit(lambda th: th * self.scale)
        return fn

    def batches(self, xs: list[jax.Array]) -> list[jax.Array]:
        return [self.predictor()(x) + self.shifter()(x) + self.scaler()(x) for x in xs]


class Field:
    def __init__(self, fn: Callable, p: jax.Array) -> None:
        self._fn = fn
        self._p = p
        self._vjp: tuple | None = None

    def pullback(self) -> tuple:
        if self._vjp is None:  # filled once per instance: the jit below runs once
            fn = self._fn
            data, pull = jax.jit(lambda p: jax.vjp(fn, p))(self._p)
            self._vjp = (data, jax.jit(pull))
        return self._vjp


class Network:
    def __init__(self, depth: int) -> None:
        self.depth = depth

    def __call__(self, x: jax.Array) -> jax.Array:
        return x * self.depth


def forward(network: Network, x: jax.Array) -> jax.Array:
    apply = jax.jit(lambda y: network(y))  # E: jit-fresh-function
    return apply(x)


def heads(x: jax.Array) -> dict[str, jax.Array]:
    return {{"mean": x, "log_std": -x}}


def readout(x: jax.Array, name, weight) -> jax.Array:
    @jax.jit  # S: jit-fresh-function-strict
    def head(y: jax.Array) -> jax.Array:
        return heads(y)[name]

    scaled = jax.jit(lambda y: y * weight)  # E: jit-fresh-function
    return head(x) + scaled(x)


def staged(loss: Callable[[jax.Array], jax.Array]) -> Callable[[jax.Array], jax.Array]:
    def gradient(y: jax.Array) -> jax.Array:
        return jax.grad(loss)(y)

    @jax.jit  # E: jit-fresh-function
    def step(y: jax.Array) -> jax.Array:
        return y - gradient(y)

    return step


def sweep(x: jax.Array, depths: list[int], weights: list[jax.Array]) -> None:
    for loss in [jnp.sum, jnp.mean]:
        staged(loss)(x)
    for _ in range(2):
        staged(jnp.sum)(x)
    for depth in depths:
        forward(Network(depth), x)
    for name, weight in zip(["mean", "log_std"], weights):
        readout(x, name, weight)
    for network in [Network(depth) for depth in depths]:
        jax.jit(lambda y: network(y))(x)
    network = Network(2)
    for _ in range(2):
        forward(network, x)

class Trainer:
    def __init__(self, rate: float) -> None:
        self.rate = rate

    @functools.partial(jax.jit, static_argnums=0)  # E: static-identity-hash
    def fit(self, x: jax.Array) -> jax.Array:
        self.last = x * self.rate
        return self.last


class Objective(abc.ABC):
    def __init__(self, target: float) -> None:
        self._target = target
        self.calls = 0

    def build(self) -> None:
        self.compute = jax.jit(self.compute)  # type: ignore[method-assign]  # E: jit-bound-method

    def count(self) -> None:
        self.calls += 1

    @abc.abstractmethod
    def compute(self, x: jax.Array) -> jax.Array: ...

    @property
    def target(self) -> float:
        return self._target

    @target.setter
    def target(self, target: float) -> None:
        self._target = target


class Distance(Objective):
    def compute(self, x: jax.Array) -> jax.Array:
        return x - self.target


def retarget(objective: Objective) -> None:
    objective.target = 2.0


@jax.tree_util.register_static  # S: static-not-frozen-strict
@dataclasses.dataclass
class Projection:
    pixels: tuple[int, int]


@jax.tree_util.register_static  # E: static-not-frozen
@dataclasses.dataclass
class Window:
    width: int

    def widen(self) -> None:
        self.width += 1


def widen(window: Window) -> None:
    window.widen()


@struct.dataclass
class Sampling:
    step: jax.Array
    tokens: int = struct.field(pytree_node=False)


def start(ids: jax.Array) -> Sampling:
    return Sampling(jnp.zeros(()), jnp.array(ids.shape[1]))  # S: static-dynamic-child-strict


def last(ids: jax.Array) -> Sampling:
    return Sampling(jnp.zeros(()), jnp.asarray(ids.shape[1]) - 1)  # S: static-dynamic-child-strict


def shaped(ids: jax.Array) -> Sampling:
    return Sampling(jnp.zeros(()), jnp.array([ids.shape[1]]))  # E: static-dynamic-child


@jax.jit
def sample_step(s: Sampling) -> jax.Array:
    return s.step


def sampler() -> Callable[[jax.Array], jax.Array]:
    sampling = Sampling(jnp.zeros(()), jnp.array(3))  # E: static-dynamic-child

    @jax.jit
    def inner(x: jax.Array) -> jax.Array:
        return sample_step(sampling) + x

    return inner


@jax.jit
def traced_start(x: jax.Array) -> jax.Array:
    return sample_step(Sampling(x, jnp.array(2)))  # E: static-dynamic-child


@jax.jit
def first_token(s: Sampling) -> jax.Array:
    return s.step if s.tokens == 1 else s.step + 1


first_token(Sampling(jnp.zeros(()), jnp.array(1)))  # E: static-dynamic-child


class Exporter(abc.ABC):
    def __init__(self) -> None:
        self.symbols: list[str] = []

    @abc.abstractmethod
    def energy(self, x: jax.Array) -> jax.Array: ...

    def export(self) -> jax.Array:
        self.symbols = ["n"]
        export.export(jax.jit(self.energy))(jax.ShapeDtypeStruct((), jnp.float32))
        return jax.jit(self.energy)(jnp.ones(()))  # S: jit-fresh-function-strict


class Scale(abc.ABC):
    def __init__(self, factor: float) -> None:
        self.factor = factor
        self.calls = 0

    def build(self) -> None:
        self.apply = jax.jit(self.apply)  # type: ignore[method-assign]

    def count(self) -> None:
        self.calls += 1

    @abc.abstractmethod
    def apply(self, x: jax.Array) -> jax.Array: ...


class Doubled(Scale):
    def apply(self, x: jax.Array) -> jax.Array:
        return x * self.factor


class Surrogate(abc.ABC):
    def __init__(self) -> None:
        self.filters = ("g",)

    def add_filters(self, names: tuple[str, ...]) -> None:
        self.filters = self.filters + names

    @abc.abstractmethod
    def bands(self) -> int: ...


class Analytical(Surrogate):  # a concrete class of an abstract base: judged as itself
    def bands(self) -> int:
        return len(self.filters)

    @functools.partial(jax.jit, static_argnums=0)  # E: static-identity-hash
    def predict(self, x: jax.Array) -> jax.Array:
        return x * len(self.filters)


surrogate = Analytical()
surrogate.predict(jnp.ones(1))
surrogate.add_filters(("r",))


gain = 2.0


@jax.jit
def amplified(x: jax.Array) -> jax.Array:
    return x * gain


amplified(jnp.ones(1))
gain = 3.0
amplified(jnp.ones(1))  # E: jit-stale-global


class Summary:
    def __init__(self, data: jax.Array) -> None:
        self.data = data
        self.prepare()

    def prepare(self) -> None:
        self.helper = jax.jit(lambda d: d * 2)  # E: jit-fresh-function

    def mean(self) -> jax.Array:
        return self.helper(self.data)


class Model:
    def __init__(self) -> None:
        self.step = jax.jit(lambda d: d + 1)  # built once: compiled once


def summaries(batches: list[jax.Array]) -> None:
    model = Model()
    for batch in batches:
        Summary(batch).mean()  # a new instance, and a new jitted function, for every batch
        model.step(batch)


class Span:
    def __init__(self, size: int) -> None:
        self.size = size


@functools.partial(jax.jit, static_argnums=1)  # S: static-identity-hash-strict
def spanned(x: jax.Array, span: Span) -> jax.Array:
    return x[: span.size]


def powered(x: jax.Array, power: int) -> jax.Array:
    return x**power


def per_size(x: jax.Array, size: int) -> jax.Array:
    span = Span(size)
    return spanned(x, span)  # S: static-identity-hash-strict


def per_power(x: jax.Array, power: int) -> jax.Array:
    return jax.jit(jax.vmap(powered, in_axes=(0, None)), static_argnums=1)(x, power)  # S: jit-fresh-function-strict


def per_round(x: jax.Array) -> jax.Array:
    return jax.jit(jax.vmap(powered, in_axes=(0, None)), static_argnums=1)(x, 2)  # E: jit-fresh-function


for size in (1, 2, 3):  # each round another span and power: each compiles anew whatever it hashes by
    per_size(jnp.ones(4), size)
    per_power(jnp.ones((2, 2)), size)
    per_round(jnp.ones((2, 2)))


@functools.partial(jax.jit, static_argnames="p")
def thinned(x: jax.Array, p: float = 0.5) -> jax.Array:
    return x * p


@jax.jit
def propose(x: jax.Array, p: float = 0.5) -> jax.Array:
    return thinned(x, p)  # S: static-dynamic-child-strict


@jax.jit
def propose_given(x: jax.Array, p: float = 0.5) -> jax.Array:
    return thinned(x, p)  # E: static-dynamic-child


@jax.jit
def propose_keyword(x: jax.Array, *, p: float = 0.5) -> jax.Array:
    return thinned(x, p)  # S: static-dynamic-child-strict


def grid_of(model: "Recorder") -> int:
    return model.grid


def described(model: "Recorder") -> dict[str, int]:
    return {{"grid": model.grid}}


class Recorder:
    def __init__(self, grid: int) -> None:
        self.grid = grid
        self.history: list[int] = []
        self.description: dict[str, int] | None = None
        self.counted: int | None = None
        self.captured_grid: int | None = None
        self.steps: jax.Array | None = None

    @functools.partial(jax.jit, static_argnums=0)  # S: static-identity-hash-strict
    def step(self, x: jax.Array) -> jax.Array:
        return x * grid_of(self)  # reads grid, through a function of the module

    @functools.partial(jax.jit, static_argnums=0)  # S: static-identity-hash-strict
    def labelled(self, x: jax.Array) -> jax.Array:
        return x * len(self.describe())

    def describe(self) -> dict[str, int]:
        if self.description is None:  # a lazy cache of what the unchanged state makes
            self.description = described(self)
        return self.description

    def log(self) -> None:
        self.history = [1]  # what no jitted method reads

    @functools.partial(jax.jit, static_argnums=0)  # S: static-identity-hash-strict
    def sized(self, x: jax.Array) -> jax.Array:
        return x * self.size()

    @functools.partial(jax.jit, static_argnums=0)  # S: static-identity-hash-strict
    def captured(self, x: jax.Array) -> jax.Array:
        if self.captured_grid is None:  # captured once, while tracing, from the unchanged state
            self.captured_grid = grid_of(self)
        return x * self.grid

    @functools.partial(jax.jit, static_argnums=0)  # E: static-identity-hash
    def ramp(self, x: jax.Array) -> jax.Array:
        if self.steps is None:  # what jax computes while tracing is a tracer, kept
            self.steps = jnp.arange(self.grid)
        return x * self.steps

    def size(self) -> int:
        if self.counted is not None:  # the same lazy cache, returned early once full
            return self.counted
        self.counted = len(described(self))
        return self.counted


class Palette:
    def __init__(self) -> None:
        self.colours = np.zeros((1, 3))
        self.ids: dict[tuple[int, int, int], int] = {{}}
        self.added = 0

    def colour_id(self, colour: tuple[int, int, int]) -> int:
        if colour in self.ids:  # a memo: each key is filled once, and nothing read is changed
            return self.ids[colour]
        self.colours = np.concatenate([self.colours, np.asarray([colour])])
        self.ids[colour] = len(self.colours) - 1
        return self.ids[colour]

    def tally(self, colour: tuple[int, int, int]) -> None:
        if colour in self.ids:  # tested, never filled: runs at every call
            return
        self.added += 1

    @functools.partial(jax.jit, static_argnums=0)  # S: static-identity-hash-strict
    def paint(self, raster: jax.Array) -> jax.Array:
        return jnp.asarray(self.colours)[raster * self.colour_id((1, 2, 3))]

    @functools.partial(jax.jit, static_argnums=0)  # E: static-identity-hash
    def counted(self, x: jax.Array) -> jax.Array:
        self.tally((1, 2, 3))
        return x * self.added


def make_solve(scale: float):
    @jax.jit  # E: jit-fresh-function
    def solve(b: jax.Array) -> jax.Array:
        return b * scale

    return solve


def newton(steps: int) -> jax.Array:
    solve = None
    x = jnp.ones(3)
    for i in range(steps):
        if solve is None or i % 10 == 0:
            solve = make_solve(2.0)  # remade now and then, kept for the other iterations
        x = solve(x)
    for i in range(steps):
        if i % 2:
            step = make_solve(3.0)  # remade, called and dropped: the only evidence
            x = step(x)
    return x


def make_kept(scale: float):
    @jax.jit  # made once per key of a memo: no evidence
    def solve(b: jax.Array) -> jax.Array:
        return b * scale

    return solve


def make_filled(scale: float):
    @jax.jit  # E: jit-fresh-function
    def solve(b: jax.Array) -> jax.Array:
        return b * scale

    return solve


def memoised(sizes: list[int]) -> None:
    solves: dict[int, Any] = {{}}
    for n in sizes:
        solve = solves.get(n)
        if solve is None:  # made only where the memo lacks it, and kept there
            solve = make_kept(float(n))
            solves[n] = solve
        solve(jnp.ones(n))
        if n not in solves:
            solves[n] = make_kept(1.0)
        solves[n] = make_filled(1.0)  # filled again at every iteration: a new jit each time
        solve_for(n, solves)


def make_flagged(scale: float):
    @jax.jit  # E: jit-fresh-function
    def solve(b: jax.Array) -> jax.Array:
        return b * scale

    return solve


def refill(sizes: list[int], solves: dict[int, Any], done: bool) -> None:
    for n in sizes:
        if done:  # tests a flag, not the place it stores in: no memo
            continue
        solves[n] = make_flagged(2.0)


def solve_for(n: int, solves: dict[int, Any]) -> Any:
    if n in solves:  # made only after this leaves where the memo holds it
        return solves[n]
    solve = make_kept(float(n))
    solves[n] = solve
    return solve


def costs(x: jax.Array) -> list[Any]:
    found = []
    for _ in range(3):
        lowered = jax.jit(lambda v: v * 2).lower(x)  # only lowered, to read its cost: nothing compiles
        found.append(lowered.cost_analysis())
        found.append(jax.jit(lambda v: v + 1).trace(x).lower().as_text())
        compiled = jax.jit(lambda v: v - 1).lower(x).compile()  # E: jit-fresh-function
        compiled(x)
    return found


class Executor:
    def __init__(self) -> None:
        self._compiled: Any = None

    def kernel(self) -> Any:
        if self._compiled is not None:  # made once per executor, kept on it
            return self._compiled

        def step(x: jax.Array) -> jax.Array:
            return x * 2

        self._compiled = jax.jit(step)
        return self._compiled

    def trace_all(self, xs: list[jax.Array]) -> None:
        for x in xs:
            self.kernel()(x)


def hessian_at(objective, x: jax.Array) -> jax.Array:
    return jax.jit(jax.hessian(objective))(x)  # E: jit-fresh-function


def hessian_once(objective, x: jax.Array) -> jax.Array:
    return jax.jit(jax.hessian(objective))(x)  # S: jit-fresh-function-strict; only a replaced def's loop runs it


def summarise(objective, x: jax.Array) -> None:
    for _ in range(3):
        summarise(objective, x)  # this definition is replaced below: its loop never runs
        print(hessian_once(objective, x))
    print(hessian_at(objective, x))


def summarise_all(objective, x: jax.Array) -> None:  # reads summarise when called: the later one
    summarise(objective, x)


def summarise(objective, x: jax.Array) -> None:
    print(hessian_at(objective, x))


def diagnose(objective, x: jax.Array, include_hessian=True) -> dict:
    report = dict(x=x)
    if not include_hessian:
        return report
    report["h"] = jax.jit(jax.hessian(objective))(x)  # E: jit-fresh-function
    return report


def fit_diagnosed(objective, x: jax.Array) -> None:
    for _ in range(3):
        diagnose(objective, x, include_hessian=False)  # returns before the jit
        if objective is not None:
            hessian_at(objective, x)


def refit(objective, x: jax.Array) -> None:
    for _ in range(3):
        diagnose(objective, x)


def fit_one(y: jax.Array, scale: float | None = None) -> dict:
    ll = jax.jit(lambda p: jnp.sum(y * p))  # E: jit-fresh-function
    alpha = float(ll(jnp.ones(3)))
    if scale is None:
        return {{"alpha": alpha, "scale": None}}
    return {{"alpha": alpha, "scale": scale}}


def first_fit(y: jax.Array) -> float:
    return float(jax.jit(lambda p: jnp.sum(y * p))(1.0))  # S: jit-fresh-function-strict; no loop's call gets here


def fit_pair(y: jax.Array, alpha=None, scale=None, first=None) -> float:
    if first is None:
        first = first_fit(y)
    if alpha is None:
        alpha = fit_one(y)["alpha"]
    if scale is None:
        scale = fit_one(y)["scale"]
    return alpha * 2


def instrument(f: Callable, table: dict) -> Callable:
    def do_vjp(*args: Any) -> Any:
        primals, f_vjp = jax.vjp(f, *args)
        return f_vjp(primals)

    def wrapper(x: jax.Array) -> jax.Array:
        table[x.shape] = jax.jit(do_vjp)(x)  # do_vjp is made where f is given: another for each
        return f(x)

    return wrapper


def instrument_all(methods: dict, table: dict) -> dict:
    return {{name: instrument(method, table) for name, method in methods.items()}}


def pipeline(x: jax.Array) -> jax.Array:
    def step(y: jax.Array) -> jax.Array:
        return y * 2

    def run(z: jax.Array) -> jax.Array:
        return jax.jit(step)(z)  # E: jit-fresh-function

    return run(x)


def pipelines(x: jax.Array) -> None:
    for _ in range(3):
        pipeline(x)


def gathered(leaf: jax.Array) -> np.ndarray:
    return np.asarray(jax.jit(lambda y: y)(leaf))  # E: jit-fresh-function


def gather(tree: dict, tiled: bool = False) -> dict:
    def one(leaf: jax.Array) -> np.ndarray:
        return gathered(leaf)

    return jax.tree_util.tree_map(one, tree)


def summed(leaf: jax.Array) -> float:
    return float(jax.jit(lambda y: y.sum())(leaf))  # S: jit-fresh-function-strict; one tree_map, run once


for _ in range(3):
    gather({{"loss": jnp.ones(())}})


BUILT: dict = {{}}


def memo(key: str, build: Callable) -> Callable:
    entry = BUILT.get(key)
    if entry is None:
        entry = BUILT[key] = {{}}
    if "fn" not in entry:  # the entry looked up is where it stores
        entry["fn"] = build()
    return entry["fn"]


def run_now(build: Callable) -> Callable:
    return build()


def solve_memo(key: str, x: jax.Array) -> jax.Array:
    def rows(y: jax.Array) -> jax.Array:
        return y * 2

    return memo(key, lambda: jax.jit(rows))(x)  # built once per key, where the memo calls it


def solve_each(x: jax.Array) -> jax.Array:
    def rows(y: jax.Array) -> jax.Array:
        return y * 3

    return run_now(lambda: jax.jit(rows))(x)  # E: jit-fresh-function


for key in ["a", "b", "a"]:
    solve_memo(key, jnp.ones(1))
    solve_each(jnp.ones(1))


def train_run(data: dict, steps: int) -> float:
    weights = jnp.asarray(data["weights"])

    @jax.jit  # S: jit-fresh-function-strict; each data set is another program
    def step(p: float) -> float:
        return p - 0.1 * float(weights.sum())

    p = 1.0
    for _ in range(steps):
        p = step(p)
    return p


def train_epoch(data: jax.Array, steps: int) -> float:
    @jax.jit  # E: jit-fresh-function
    def step(p: float, x: jax.Array) -> float:
        return p - 0.1 * float(x.sum())

    p = 1.0
    for _ in range(steps):
        p = step(p, data)
    return p


def train_all(files: list, data: jax.Array) -> None:
    for name in files:
        train_run(dict(np.load(name)), 100)  # each file's weights captured: a program per file
    for _ in range(10):
        train_epoch(data, 100)  # the same program every epoch
print(list(jax.tree.map(summed, {{"loss": jnp.ones(2)}})))


@functools.partial(jax.jit, static_argnames=["limit"])
def blocked(x: jax.Array, limit: float = 1.0) -> jax.Array:
    return x * limit


def autotune(x: jax.Array) -> None:
    for limit in (1.0, 2.0, 4.0):  # each candidate another program: limit is static in blocked
        jax.jit(lambda limit=limit: blocked(x, limit=limit))()
        jax.jit(lambda: blocked(x, limit))()


def autotune_again(x: jax.Array) -> None:
    for _ in range(3):
        jax.jit(lambda scale=2.0: blocked(x, limit=scale))()  # E: jit-fresh-function


class Driver:
    def __init__(self) -> None:
        self.generation = 0

    def gradient(self, x: jax.Array) -> None:
        state = {{"gen": -1, "vg": None}}
        flagged = {{"gen": -1, "vg": None}}

        def make() -> Any:
            return jax.jit(jax.grad(lambda y: jnp.sum(y * x)))

        def make_again() -> Any:
            return jax.jit(jax.grad(lambda y: jnp.sum(y * x)))  # E: jit-fresh-function

        for _ in range(3):
            if state["gen"] != self.generation:  # refilled only for a new generation
                state["vg"] = make()
                state["gen"] = self.generation
            if flagged["gen"] != self.generation:  # never records its generation: made every time
                flagged["vg"] = make_again()
            state["vg"](x)
            flagged["vg"](x)


def fit_pairs(y: jax.Array) -> None:
    base = fit_one(y)
    for _ in range(3):  # first and alpha are never None, scale may be
        fit_pair(y, alpha=base["alpha"], scale=base["scale"], first=base["alpha"] * 2)


@functools.lru_cache(maxsize=None)
def cached_runner(scale: float) -> Callable:
    @jax.jit
    def run(x: jax.Array) -> jax.Array:
        return x * scale

    return run


def fresh_runner(scale: float) -> Callable:
    @jax.jit  # E: jit-fresh-function
    def run(x: jax.Array) -> jax.Array:
        return x * scale

    return run


def run_all(x: jax.Array) -> None:
    for _ in range(3):
        cached_runner(2.0)(x)  # equal calls return the first call's function
        fresh_runner(2.0)(x)


def derivatives(f: Callable, x: jax.Array) -> dict:
    df = jax.grad(f)
    return {{name: jax.jit(jax.vmap(fn))(x) for name, fn in (("f", f), ("df", df))}}  # another each time


class Scaler:
    def __init__(self, k: float) -> None:
        self.k = k

    def apply(self, x: jax.Array) -> jax.Array:
        return x * self.k


class PerDevice:
    def __init__(self, scaler: Scaler) -> None:
        self._scaler = scaler

    def _setup(self) -> Callable:
        scaler = self._scaler

        def step(x: jax.Array) -> jax.Array:
            return scaler.apply(x)

        return jax.jit(step)

    def build(self) -> dict:
        steps = {{}}
        for device in jax.local_devices():
            self._scaler = Scaler(2.0)  # another scaler before each call: another program
            steps[device] = self._setup()
        return steps


class Rebuilt(PerDevice):
    def _setup(self) -> Callable:
        scaler = self._scaler

        def step(x: jax.Array) -> jax.Array:
            return scaler.apply(x)

        return jax.jit(step)  # E: jit-fresh-function

    def build(self) -> dict:
        return {{device: self._setup() for device in jax.local_devices()}}


def loglik(p: jax.Array, family: str = "frank") -> jax.Array:
    return p.sum() if family == "frank" else p.mean()


def fit_family(y: jax.Array, family: str = "frank", method: str = "scipy") -> jax.Array:
    @jax.jit
    def neg_ll(p: jax.Array) -> jax.Array:
        return -loglik(p, family=family)

    if method == "scipy":
        g = jax.jit(jax.grad(neg_ll))  # checked again with objective, which reads g: judged here

        def objective(p: jax.Array) -> tuple[float, jax.Array]:
            return float(neg_ll(p)), g(p)

        return objective(y)[1]
    return y


def fit_mode(y: jax.Array, mode, scale: float):
    if mode not in ("sum", "mean"):  # compared with strings: a Python value, whatever its type
        raise ValueError(mode)
    return jax.jit(lambda p: loglik(p * scale, family=mode))(y)  # E: jit-fresh-function


def fit_families(y: jax.Array) -> None:
    for family in ("frank", "normal"):
        fit_family(y, family=family)  # another program for each family
    for mode in ("sum", "mean"):
        fit_mode(y, mode, 2.0)


def fit_again(y: jax.Array) -> None:
    for _ in range(3):
        fit_mode(y, "sum", 2.0)


def diagonal(op: Any, x: jax.Array) -> jax.Array:
    return jax.jit(jax.vmap(op.weight))(x)  # S: jit-fresh-function-strict; op is part of the program


def rates(op: Any, x: jax.Array) -> jax.Array:
    def one(c):
        return op.get_rates(c)  # no array, number or container has get_rates: op is a Python object

    return jax.jit(jax.vmap(one))(x)  # E: jit-fresh-function


def observables(operators: dict, x: jax.Array) -> None:
    for name, op in operators.items():
        diagonal(op, x)  # another operator, another program
        rates(op, x)


def observe_again(op: Any, x: jax.Array) -> None:
    for _ in range(3):
        rates(op, x)  # the same operator each time


recorder = Recorder(2)
recorder.step(jnp.ones(1))
recorder.labelled(jnp.ones(1))
recorder.log()
recorder.sized(jnp.ones(1))
recorder.captured(jnp.ones(1))
recorder.ramp(jnp.ones(1))
palette = Palette()
palette.paint(jnp.ones(1, dtype=int))
palette.counted(jnp.ones(1))
propose(jnp.ones(2))
propose_given(jnp.ones(2), p=0.3)
propose_keyword(*[jnp.ones(2)])  # no position fills a keyword-only parameter


def swept(a: jax.Array, b: jax.Array) -> jax.Array:
    return a + b


def sweep_then_jit(x: jax.Array) -> jax.Array:
    mapped = swept
    for axis in range(2):  # one vmap per swept argument, then one jit of the last
        mapped = jax.vmap(mapped, in_axes=axis)
    return jax.jit(mapped)(x, x)  # S: jit-fresh-function-strict


def sweep_and_jit_each(x: jax.Array) -> None:
    mapped = swept
    for _ in range(2):
        mapped = jax.vmap(mapped)
        jax.jit(mapped)(x, x)  # E: jit-fresh-function


top_mapped = swept
for top_axis in range(2):  # at the module's top level too
    top_mapped = jax.vmap(top_mapped, in_axes=top_axis)
jax.jit(top_mapped)(jnp.ones(2), jnp.ones(2))


def keep_last(x: jax.Array) -> jax.Array:
    for factor in (1.0, 2.0):
        scaler = lambda y: y * 2.0  # noqa: E731
    return keyed(scaler, x)  # S: static-fresh-callable-strict (only the last one meets jit)


def keep_each(x: jax.Array) -> None:
    for factor in (1.0, 2.0):
        scaler = lambda y: y * 2.0  # noqa: E731
        keyed(scaler, x)  # E: static-fresh-callable


def estimate_field(params: jax.Array, fibers: jax.Array) -> jax.Array:
    solve = jax.jit(jax.vmap(lambda f: f * params))  # S: jit-fresh-function-strict
    return solve(fibers) + solve(fibers + 1)


def train_steps(batches: list, rate: float) -> float:
    step = jax.jit(lambda p, b: p - rate * b)  # jitted once for every batch of this call
    p = 0.0
    for batch in batches:
        p = step(p, batch)
    return p


def predict_mapped(xs: jax.Array, scale: float) -> jax.Array:
    one = jax.jit(lambda x: x * scale)  # S: jit-fresh-function-strict; jax.vmap(one)(xs) calls it
    return jax.vmap(one)(xs)


def _mapped_lookup(xs: jax.Array, scale: float) -> jax.Array:
    one = jax.jit(lambda x: x * scale)  # only its jitted caller runs it: traced into that program
    return jax.vmap(one)(xs)


@jax.jit
def lookup_table(xs: jax.Array) -> jax.Array:
    return _mapped_lookup(xs, 2.0)


def mapped_lookup(xs: jax.Array, scale: float) -> jax.Array:
    one = jax.jit(lambda x: x * scale)  # S: jit-fresh-function-strict; public: another module may call it eagerly
    return jax.vmap(one)(xs)


@jax.jit
def public_lookup_table(xs: jax.Array) -> jax.Array:
    return mapped_lookup(xs, 2.0)


def predict_batches(batches: list, scale: float) -> None:
    one = jax.jit(lambda x: x * scale)  # jitted once for every batch of this call, through jax.vmap
    for batch in batches:
        jax.vmap(jax.grad(one))(batch)


def make_scaled(scale: float) -> Callable:
    return jax.jit(lambda y: y * scale)  # the caller keeps it


class Assembler:
    def __init__(self, h: float) -> None:
        self.h = h

    def operator(self, x: jax.Array) -> jax.Array:
        return jax.jit(self.assemble)(x)  # S: jit-fresh-function-strict

    def assemble(self, x: jax.Array) -> jax.Array:
        return x * self.h


class Runner:
    def __init__(self) -> None:
        self.scale = 2.0

    def reset(self) -> None:
        self.scale = 1.0

    @functools.partial(jax.jit, static_argnums=(0,))  # E: static-identity-hash
    def run(self, x: jax.Array) -> jax.Array:
        self.scale = self.scale * 2
        return x * self.scale


class Replay(Runner):
    @functools.partial(jax.jit, static_argnums=(0,))  # S: static-identity-hash-strict (its own run writes nothing)
    def run(self, x: jax.Array) -> jax.Array:
        return x * self.scale


Replay().run(jnp.ones(2))


class Updater:  # counts traces, and nothing reads the count
    def __init__(self) -> None:
        self.n_updates = 0

    def reset(self) -> None:
        self.n_updates = 0

    @functools.partial(jax.jit, static_argnums=0)  # S: static-identity-hash-strict
    def run(self, x: jax.Array) -> jax.Array:
        self.n_updates += 1
        return x * 2


class Tally:  # the count is read: it counts traces, not calls
    def __init__(self) -> None:
        self.calls = 0

    @functools.partial(jax.jit, static_argnums=0)  # E: static-identity-hash
    def run(self, x: jax.Array) -> jax.Array:
        self.calls = self.calls + 1
        return x * 2

    def seen(self) -> int:
        return self.calls


class Flag:  # set while tracing, read by the module
    def __init__(self) -> None:
        self.ran = False

    @functools.partial(jax.jit, static_argnums=0)  # E: static-identity-hash
    def run(self, x: jax.Array) -> jax.Array:
        self.ran = True
        return x * 2


def ran(flag: Flag) -> bool:
    return flag.ran


@jax.tree_util.register_static
@dataclasses.dataclass(frozen=True)
class KernelSet:  # no leaf: jit hands it through a traced position as it is
    name: str = "gaussian"


@functools.partial(jax.tree_util.register_dataclass, data_fields=["value"], meta_fields=["kernels"])
@dataclasses.dataclass(frozen=True)
class Selection:
    value: jax.Array
    kernels: KernelSet


@jax.jit
def select_bandwidth(x: jax.Array, kernels: KernelSet | None = None) -> Selection:
    kernels = KernelSet() if kernels is None else kernels
    return Selection(x, kernels)


@jax.jit
def rescaled(x: jax.Array, scale: jax.Array) -> Selection:
    return Selection(x, scale)  # type: ignore[arg-type]  # S: static-dynamic-child-strict


class EvalEnv:
    def __init__(self, name: str) -> None:
        self.name = name


@functools.partial(jax.jit, static_argnums=1)  # S: static-identity-hash-strict
def evaluate_env(x: jax.Array, env: EvalEnv) -> jax.Array:
    return x


class EvalRunner:
    def __init__(self, names: list[str]) -> None:
        self.envs = []
        for name in names:  # one environment per name, each kept: built once, another value each
            env = EvalEnv(name)
            self.envs.append(env)

    def run(self, x: jax.Array) -> None:
        for env in self.envs:
            evaluate_env(x, env)  # S: static-identity-hash-strict
"""

UNCHANGED = SHAPES.format(counter_change="")
CHANGED = SHAPES.format(counter_change="\n\n\nspare = Engine()\nfor _ in range(2):\n    spare = Engine()\n")


def marked(source: str, kind: str) -> list[tuple[int, str]]:
    """The ``# E:`` (default) or ``# S:`` (opt-in) marks of ``source``."""
    return expected(source.replace("# S:", "# E:") if kind == "S" else source.replace("# S:", "#"))


def findings(diagnostics: list) -> list[tuple[int, str]]:
    return sorted((d.line, d.code) for d in diagnostics if d.code in RULES_BY_CODE)


def strict_headlines(path: Path, cache_dir: Path) -> dict[int, str]:
    """The first line of each finding at ``path`` with every opt-in code on, by line."""
    codes = ", ".join(sorted(OPT_IN_CODES))
    found = check_in_process(path, cache_dir, extra_config=f"enable_error_code = {codes}\n")
    return {d.line: d.message.splitlines()[0] for d in found}


def test_without_evidence_nothing_is_reported_by_default(tmp_path: Path, cache_dir: Path) -> None:
    path = tmp_path / "shapes.py"
    path.write_text(UNCHANGED)
    assert findings(check_in_process(path, cache_dir)) == marked(UNCHANGED, "E")


def test_the_opt_in_twins_report_the_rest(tmp_path: Path, cache_dir: Path) -> None:
    path = tmp_path / "shapes.py"
    path.write_text(UNCHANGED)
    codes = ", ".join(sorted(OPT_IN_CODES))
    found = findings(check_in_process(path, cache_dir, extra_config=f"enable_error_code = {codes}\n"))
    assert found == marked(UNCHANGED, "S")


def test_the_evidence_is_named(tmp_path: Path, cache_dir: Path) -> None:
    path = tmp_path / "shapes.py"
    path.write_text(UNCHANGED)
    headlines = {d.line: d.message.splitlines()[0] for d in check_in_process(path, cache_dir)}
    lines = UNCHANGED.splitlines()
    table = lines.index('options.table["k"] = 1') + 1
    assert headlines[
        lines.index("    table: dict = struct.field(pytree_node=False)  # E: static-unhashable") + 1
    ].endswith(f"which is unhashable, and options.table is changed in place at line {table}")
    log = lines.index("    log: list = dataclasses.field(metadata=dict(static=True))  # E: static-unhashable") + 1
    assert headlines[log].endswith("and Updates.note changes self.log in place")
    made = lines.index("many = [Potentials(jnp.ones(1), lambda y: y) for _ in range(3)]  # E: static-fresh-callable")
    assert headlines[made + 1].endswith(f"it is made inside a loop at line {made + 1}, so every copy compiles again")
    calls = lines.index("    per_call(jnp.ones(1))") + 1
    per_call = lines.index("    return keyed(lambda y: y * 2, x)  # E: static-fresh-callable") + 1
    assert headlines[per_call].endswith(
        f"made by every call of per_call, which runs inside a loop at line {calls}, so every copy compiles again"
    )
    factory = lines.index("    keyed(make_optimizer(0.1), jnp.ones(1))  # E: static-fresh-callable") + 1
    assert (
        "holds what make_optimizer returns, an Optimizer whose init is the local function make_optimizer.<locals>.init"
        in headlines[factory]
    )
    meter = lines.index("    return keyed(Meter(1.0), x)  # E: static-identity-hash") + 1
    assert "a Meter is built by every call of meter_per_call, which runs inside a loop at line" in headlines[meter]
    act = lines.index("        @jax.jit  # E: jit-fresh-function") + 1
    assert "jits the local function Agent.act.<locals>.scaled, and it is made by every call of act" in headlines[act]
    trained = lines.index("    @jax.jit  # S: jit-fresh-function-strict; each data set is another program") + 1
    steps = lines.index("    for _ in range(steps):", trained) + 1
    assert strict_headlines(path, cache_dir)[trained].endswith(
        f"so every copy compiles again, once for all the calls of the loop at line {steps}"
    )
    gathered = lines.index("    return np.asarray(jax.jit(lambda y: y)(leaf))  # E: jit-fresh-function") + 1
    assert "made by every call of gathered, from one, from gather, which runs inside a loop" in headlines[gathered]
    nested = lines.index("        return jax.jit(step)(z)  # E: jit-fresh-function") + 1
    assert (
        "jits the local function pipeline.<locals>.step, and it is made by every call of pipeline" in headlines[nested]
    )
    build = lines.index("        return jax.jit(objective)  # E: jit-fresh-function") + 1
    solves = lines.index("    Solver().solve(jnp.ones(1))") + 1
    solve = lines.index("def make_solve(scale: float):") + 2
    dropped = lines.index("            step = make_solve(3.0)  # remade, called and dropped: the only evidence") + 1
    assert headlines[solve].endswith(f"which runs inside a loop at line {dropped}, so every copy compiles again")
    hessian = lines.index("    return jax.jit(jax.hessian(objective))(x)  # E: jit-fresh-function") + 1
    guarded = lines.index("            hessian_at(objective, x)") + 1
    assert f"every call of hessian_at, which runs inside a loop at line {guarded}," in headlines[hessian]
    diagnosed = lines.index('    report["h"] = jax.jit(jax.hessian(objective))(x)  # E: jit-fresh-function') + 1
    refits = lines.index("        diagnose(objective, x)") + 1
    assert f"every call of diagnose, which runs inside a loop at line {refits}," in headlines[diagnosed]
    moded = lines.index("    return jax.jit(lambda p: loglik(p * scale, family=mode))(y)  # E: jit-fresh-function") + 1
    again = lines.index('        fit_mode(y, "sum", 2.0)') + 1
    assert f"every call of fit_mode, which runs inside a loop at line {again}," in headlines[moded]
    assert f"by every call of _build, from solve, which runs inside a loop at line {solves}" in headlines[build]
    sgd = lines.index("    keyed(optimizers.sgd(0.1), jnp.ones(1))  # E: static-fresh-callable") + 1
    made_by = "holds an Optimizer whose init_fn is a function made by optimizers.sgd, and it is made inside a loop"
    assert made_by in headlines[sgd]
    first = lines.index("keyed(jax.tree_util.Partial(total), jnp.ones(1))  # E: static-identity-hash") + 1
    assert headlines[first].endswith(
        f"a Partial is built again at line {first + 1} with the same arguments, so every copy compiles again"
    )
    cached = lines.index("class Cached:") + 12
    refill = lines.index("    cached.initialise()") + 1
    assert headlines[cached].endswith(
        f"which hashes by identity, and cached.initialise() assigns self.values at line {refill}"
    )
    driven = lines.index("class Driven:  # its own method runs the jitted one, then changes what it read") + 10
    assert headlines[driven].endswith("and Driven.fit calls self.apply and changes self.k, which it reads")
    stepper = lines.index("class Stepper:  # its own method runs the jitted one through the attribute holding it") + 4
    assert headlines[stepper].endswith("and Stepper.run calls self.advance and changes self.x, which it reads")
    legendre = lines.index("class Legendre(Recurrence):") + 3
    assert headlines[legendre].startswith("argument 1 of the jitted call at line ")
    assert "holds a Legendre whose weight is a lambda, and it is made inside a loop" in headlines[legendre]
    iterate = lines.index("def iterate(x: jax.Array) -> jax.Array:") + 2
    assert "made by every call of iterate, which runs at lines" in headlines[iterate]
    warmed = lines.index(
        "warm_shifted(jnp.ones(1))  # runs prepared through another function: its cache entry is never hit"
    )
    for fresh in ("def fit_shifted(x: jax.Array) -> jax.Array:", "def warm_shifted(x: jax.Array) -> None:"):
        assert headlines[lines.index(fresh) + 3].endswith(
            f"made by every call of prepared, which runs at lines {warmed + 1} and {warmed + 2}, so every copy compiles again"
        )
    objective = (
        lines.index(
            "        self.compute = jax.jit(self.compute)  # type: ignore[method-assign]  # E: jit-bound-method"
        )
        + 1
    )
    retarget = lines.index("    objective.target = 2.0") + 1
    assert headlines[objective].endswith(f"and objective.target is assigned at line {retarget}")
    fit = lines.index("class Trainer:") + 5
    assert headlines[fit].endswith(
        "Trainer.fit, which jit traces, assigns self.last, which runs only while tracing and stores a tracer"
    )
    tally = lines.index("class Tally:  # the count is read: it counts traces, not calls") + 5
    seen = lines.index("    def seen(self) -> int:") + 2
    assert headlines[tally].endswith(
        f"Tally.run, which jit traces, sets self.calls only while tracing, not at each call, and it is read at line {seen}"
    )
    staged = lines.index("    @jax.jit  # E: jit-fresh-function") + 1
    again = lines.index("        staged(jnp.sum)(x)") + 1
    assert f"made by every call of staged, which runs inside a loop at line {again}" in headlines[staged]
    sampling = lines.index("    sampling = Sampling(jnp.zeros(()), jnp.array(3))  # E: static-dynamic-child") + 1
    assert headlines[sampling].endswith(
        "and it is compared inside inner, which jit traces, where the comparison is traced and fails"
    )


def test_every_mode_gives_the_same_findings_and_follows_the_evidence(tmp_path: Path) -> None:
    (tmp_path / "shapes.py").write_text(UNCHANGED)
    write_config(tmp_path)
    cold = run_mypy(tmp_path, "shapes.py")
    assert findings(cold) == marked(UNCHANGED, "E")
    assert run_mypy(tmp_path, "shapes.py") == cold
    time.sleep(1.1)
    (tmp_path / "shapes.py").write_text(CHANGED)  # Engines now built in a loop
    changed = run_mypy(tmp_path, "shapes.py")
    lines = CHANGED.splitlines()
    engines = [number for number, line in enumerate(lines, 1) if "Engine = eqx" in line or "engine: Engine)" in line]
    fit = engines[1] - 1  # the decorator of fit, where its parameters are judged
    assert findings(changed) == sorted(
        [*marked(CHANGED, "E"), (engines[0], "static-identity-hash"), (fit, "static-identity-hash")]
    )
    assert run_mypy(tmp_path, "-n", "2", "--no-incremental", "shapes.py") == changed
    status = tmp_path / "dmypy.json"
    try:
        time.sleep(1.1)
        (tmp_path / "shapes.py").write_text(UNCHANGED)
        assert run_dmypy(tmp_path, status, "run", "--", "shapes.py") == cold
        time.sleep(1.1)
        (tmp_path / "shapes.py").write_text(CHANGED)
        assert run_dmypy(tmp_path, status, "run", "--", "shapes.py") == changed
    finally:
        run_dmypy(tmp_path, status, "stop")


PRIVATE = """\
import functools
from typing import Sequence

import jax


@functools.partial(jax.jit, static_argnames="names")
def lookup(x: jax.Array, names: Sequence[str]) -> jax.Array:
    return x


def caller(x: jax.Array) -> None:
    lookup(x, names=("a", "b"))
    lookup(x, names=["a"])  # E: static-unhashable
"""


def test_a_function_in_a_private_module_is_judged_at_its_calls(tmp_path: Path, cache_dir: Path) -> None:
    """``pkg._src.lookup`` is called only from code the checker reads: its declaration is no
    finding, the call that passes a list is; a public module's declaration is one too."""
    private = tmp_path / "_src.py"
    private.write_text(PRIVATE)
    public = tmp_path / "api.py"
    public.write_text(PRIVATE)
    assert findings(check_in_process(private, cache_dir)) == expected(PRIVATE)
    declaration = PRIVATE.splitlines().index('@functools.partial(jax.jit, static_argnames="names")') + 1
    assert findings(check_in_process(public, cache_dir)) == sorted(
        [(declaration, "static-unhashable"), *expected(PRIVATE)]
    )


# A project's own decorator that jits what it decorates, from another of its modules (autopdex's
# jit_with_docstring, which caches a jit per set of static names): the decorated function's body
# may run only while that jit traces it, so a jit it makes there is no compile per call. The
# plugin cannot read that module's body where it comes from mypy's cache: every such decorator
# of the project counts, in every mode; one of the same module counts where its body calls a jit.
PROJECT_DECORATOR = {
    "proj/__init__.py": "",
    "proj/utility.py": """\
import jax


def jit_with_docstring(static_argnames=None):
    def decorator(fun):
        cache = {}

        def wrapper(*args, **kwargs):
            key = frozenset(static_argnames or ())
            if key not in cache:
                cache[key] = jax.jit(fun, static_argnames=static_argnames)
            return cache[key](*args, **kwargs)

        return wrapper

    return decorator
""",
    "proj/solve.py": """\
import jax

from proj.utility import jit_with_docstring


def local_jit(static_argnames=None):
    def decorator(fun):
        return lambda *args: jax.jit(fun, static_argnames=static_argnames)(*args)

    return decorator


def timed(fun):
    return fun


@jit_with_docstring(static_argnames=["n"])
def inner(x: jax.Array, n: int) -> jax.Array:
    return jax.jit(jax.vmap(lambda v: v * n))(x)


@local_jit(static_argnames=["n"])
def inner_local(x: jax.Array, n: int) -> jax.Array:
    return jax.jit(jax.vmap(lambda v: v * n))(x)


@timed
def plain(x: jax.Array, n: int) -> jax.Array:
    return jax.jit(jax.vmap(lambda v: v * n))(x)  # E: jit-fresh-function


def loop(x: jax.Array) -> None:
    for _ in range(3):
        inner(x, 2)
        inner_local(x, 2)
        plain(x, 2)
""",
}


def test_a_project_decorator_that_may_jit_leaves_its_function_to_tracing(tmp_path: Path) -> None:
    cold = in_every_mode(tmp_path, PROJECT_DECORATOR, "proj/solve.py")  # utility.py from the cache
    assert findings(cold) == [(line, code) for line, code in expected(PROJECT_DECORATOR["proj/solve.py"])]


def in_every_mode(project: Path, files: dict[str, str], edited: str) -> list[Diagnostic]:
    """The findings of a cold run over the package ``proj`` made of ``files``, after checking that
    a warm run, one after an edit of ``edited`` (the others from the cache), ``-n 2`` and the
    daemon give the same."""
    for name, text in files.items():
        (project / name).parent.mkdir(exist_ok=True)
        (project / name).write_text(text)
    write_config(project)
    cold = run_mypy(project, "proj")
    assert run_mypy(project, "proj") == cold
    time.sleep(1.1)
    (project / edited).write_text(files[edited] + "\n")
    assert run_mypy(project, "proj") == cold
    assert run_mypy(project, "-n", "2", "--no-incremental", "proj") == cold
    status = project / "dmypy.json"
    try:
        assert run_dmypy(project, status, "run", "--", "proj") == cold
    finally:
        run_dmypy(project, status, "stop")
    return cold


# A function that returns a function it jits (mcx's longest_batch_before_turn): what a call of it
# returns carries that jit's static positions in its type, which mypy's cache keeps, so a module
# that imports the result checks its calls in every mode. The factory's body is read only in its
# own module: a call of it from another module returns what it declares, in every mode.
JITTED_FACTORY = {
    "proj/__init__.py": "",
    "proj/make.py": """\
from functools import partial
from typing import Callable

import jax


def make(scale: float) -> Callable[..., jax.Array]:
    @partial(jax.jit, static_argnums=1)
    def run(x: jax.Array, opts: tuple[int, ...]) -> jax.Array:
        return x * scale

    return run


run = make(2.0)
run(jax.numpy.ones(2), [1])  # E: static-unhashable
""",
    "proj/use.py": """\
import jax

from proj.make import make, run

run(jax.numpy.ones(2), [1])  # E: static-unhashable
make(1.0)(jax.numpy.ones(2), [1])  # another module's factory: its body is not read
""",
}


def test_what_a_jitted_factory_returns_is_checked_in_every_mode(tmp_path: Path) -> None:
    cold = in_every_mode(tmp_path, JITTED_FACTORY, "proj/use.py")  # make.py from the cache
    assert [(d.file, d.line, d.code) for d in cold] == [
        (f"{name}.py", line, code)
        for name in ("make", "use")
        for line, code in expected(JITTED_FACTORY[f"proj/{name}.py"])
    ]
