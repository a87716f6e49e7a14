"""The plugin's checks on plain ``jax.jit`` (no jaxtypes), one case per check, through real mypy.

Cases are written like ``test_class_rules.py``'s (``# E: <code>`` marks, one shared cache dir),
on top of its header.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxtypes._vocabulary.rules import RULES_BY_CODE
from tests.plugin.mypy_runner import check_in_process, expected, for_installed_jax
from tests.plugin.test_class_rules import HEADER as CLASS_RULES_HEADER

HEADER = (
    CLASS_RULES_HEADER
    + """
import functools
from functools import partial
from typing import Any
from jax import jit, tree_util


class ByValue:
    def __hash__(self) -> int:
        return 0

    def __eq__(self, other: object) -> bool:
        return True


@dataclasses.dataclass
class Mutable:
    n: int


@dataclasses.dataclass(frozen=True)
class Frozen:
    n: int
"""
)

CASES = {
    "method_self_decorator": """
class Plain:
    @jax.jit  # E: jit-method-self
    def a(self, y: int) -> int:
        return y

    @jit  # E: jit-method-self
    def b(self, y: int) -> int:
        return y

    def c(self, y: int) -> int:
        return y

    c_jitted = jax.jit(c)  # E: jit-method-self

    @staticmethod
    @jax.jit
    def d(y: int) -> int:
        return y
""",
    # A function of a class body whose first parameter is neither named self nor declared as the
    # class is called through the class, as a plain function (a @staticmethod left out: JaxSSO's
    # Quad.K_quad); one declared as the class, or as Self, takes self whatever its name.
    "method_without_self": """
from typing_extensions import Self


class Quad:
    @jax.jit
    def t_quad(crds, cnct):
        return crds[cnct]

    @functools.partial(jax.jit, static_argnums=(3,))
    def k_quad(crds, prop, cnct, ndof):
        return crds * ndof

    @jax.jit
    def scaled(x: jax.Array, k: float) -> jax.Array:
        return x * k

    @jax.jit  # E: jit-method-self
    def named_otherwise(this: "Quad", y: int) -> int:
        return y

    @jax.jit  # E: jit-method-self
    def declared_self(model: Self, y: int) -> int:
        return y


k = Quad.k_quad(jnp.ones(3), None, 0, 2)
""",
    "method_self_pytrees": """
@tree_util.register_pytree_node_class
class Decorated:
    @jax.jit
    def a(self, y: int) -> int:
        return y


class Registered:
    @jax.jit
    def a(self, y: int) -> int:
        return y


tree_util.register_pytree_node(Registered, lambda r: ((), None), lambda aux, children: Registered())


def register_each(cls: Any) -> Any:
    return tree_util.register_dataclass(cls, data_fields=["x"], meta_fields=[])


@dataclasses.dataclass(frozen=True)
class Carried:
    x: jax.Array

    @jax.jit
    def a(self, y: int) -> int:
        return y


for each in (Carried,):  # a helper registers each class of the tuple
    register_each(each)


import equinox as eqx


class LinearAndActivation(eqx.Module):  # an equinox module is a pytree (equinox issue 154)
    apply_act: bool = eqx.field(static=True)

    @jax.jit
    def __call__(self, x: jax.Array) -> jax.Array:
        return jax.nn.relu(x) if self.apply_act else x


@pytree_dataclass
class Tree:
    x: jax.Array

    @jax.jit
    def a(self, y: int) -> int:
        return y


from not_installed_pytrees import dataclass as unseen  # type: ignore[import-not-found]


@unseen(frozen=True)  # a decorator mypy cannot read (chex's, without py.typed) may register it
class Unseen:
    x: jax.Array

    @jax.jit
    def a(self, y: int) -> int:
        return y


import not_installed_structs  # type: ignore[import-not-found]


@not_installed_structs.struct  # an attribute of a module mypy cannot read (tree_math's struct)
class UnseenAttribute:
    x: jax.Array

    @jax.jit
    def a(self, y: int) -> int:
        return y


@jax.jit
def traced_unseen(y: int, unseen: UnseenAttribute) -> int:
    return y


traced_unseen(1, UnseenAttribute())


class TreeOps:  # a mixin: the module builds only the pytrees derived from it
    @jax.jit
    def doubled(self) -> Any:
        return jax.tree_util.tree_map(lambda x: x * 2, self)


@pytree_dataclass
class Pair(TreeOps):
    a: jax.Array
    b: jax.Array


@pytree_dataclass
class Single(TreeOps):
    a: jax.Array


Pair(jnp.ones(1), jnp.ones(1)).doubled()


class BuiltOps:  # built itself below: a plain instance reaches the jitted method
    @jax.jit  # E: jit-method-self
    def doubled(self) -> Any:
        return jax.tree_util.tree_map(lambda x: x * 2, self)


@pytree_dataclass
class Built(BuiltOps):
    a: jax.Array


BuiltOps()


@static_dataclass
class Settings:
    n: int

    @jax.jit  # E: jit-method-self
    def traced_self(self, y: int) -> int:
        return y

    @partial(jax.jit, static_argnums=0)
    def static_self(self, y: int) -> int:
        return y


@jax.jit
def traced_settings(y: int, settings: Settings) -> int:
    return y


traced_settings(1, Settings(1))  # E: jit-unsupported-argument


class Owner:
    def run(self, tree: Decorated, registered: Registered, tree2: Tree, settings: Settings) -> None:
        jax.jit(tree.a)
        jax.jit(registered.a)
        jax.jit(tree2.a)
        jax.jit(settings.static_self)
        jax.jit(self.run)  # an Owner never changes: no evidence of a bug
""",
    "static_self": """
class Plain:
    def __init__(self) -> None:
        self.k = 1
        self.window: object = None

    @partial(jit, static_argnums=0)  # E: static-identity-hash
    def a(self, y: int) -> int:
        return y + self.k

    @partial(jax.jit, static_argnames="self")  # E: static-identity-hash
    def b(self, y: int) -> int:
        return self.scaled(y)

    @partial(jax.jit, static_argnames="self")  # what tune and show change, c never reads
    def c(self, y: int) -> int:
        return y

    def scaled(self, y: int) -> int:
        return y * self.k

    def tune(self) -> None:
        self.k = 2

    def show(self) -> None:
        self.window = "open"


class Unchanged:  # built once and never changed: reported only under the opt-in code
    @partial(jax.jit, static_argnames="self")
    def b(self, y: int) -> int:
        return y


class Hashed(ByValue):
    @partial(jit, static_argnums=0)
    def a(self, y: int) -> int:
        return y


class HashOnly:  # hashes by value, compares by identity (jax issue 28418)
    def __init__(self) -> None:
        self.a = 1

    @partial(jax.jit, static_argnums=0)  # E: static-identity-hash
    def f(self) -> int:
        return self.a + 1

    def __hash__(self) -> int:
        return hash(self.a)


plain = Plain()
plain.tune()  # a step of its construction: nothing was jitted for it yet
plain.a(1)
plain.tune()
only = HashOnly()
only.f()
only.a = 2


def on_ring(theta: int) -> int:
    ring = Unchanged()
    return ring.b(theta)  # E: static-identity-hash


def scan_rings() -> list[int]:
    return [on_ring(t) for t in range(5)]  # each new ring compiles b again


def ring_value(ring: Unchanged, theta: int) -> int:  # the first parameter of a function, no self
    return ring.b(theta)  # E: static-identity-hash


def new_ring(theta: int) -> int:
    ring = Unchanged()
    return ring_value(ring, theta)


def sweep_rings() -> list[int]:
    return [new_ring(t) for t in range(5)]


shared = Unchanged()


def on_shared(theta: int) -> int:
    return shared.b(theta)


def scan_shared() -> list[int]:
    return [on_shared(t) for t in range(5)]
""",
    "static_parameters": """
@jax.jit(static_argnums=0)  # E: static-identity-hash
def a(v: Vehicle) -> int:
    return v.num_wheels


def retune(v: Vehicle) -> None:
    v.num_wheels = 3


class Engine:
    pass


@jax.jit(static_argnums=0)  # built once, never changed: right (the opt-in static-identity-hash-strict)
def e(engine: Engine) -> int:
    return 0


@partial(jax.jit, static_argnames=("m",))  # E: static-not-frozen
def b(x: int, m: Mutable) -> int:
    return x


def c(x: int, items: list[int]) -> int:
    return x


c_jitted = jax.jit(c, static_argnums=-1)  # E: static-unhashable


@jax.jit(static_argnums=(0, 1, 2, 3))
def fine(a: ByValue, b: Frozen, c: Any, d) -> int:
    return 0


@jax.jit
def not_static(v: Vehicle) -> int:
    return 0
""",
    "call_site": """
@jax.jit(static_argnums=0)
def f(x):
    return x.num_wheels


@partial(jax.jit, static_argnames="x")
def g(x, y):
    return y + x.num_wheels


h = jax.jit(lambda x, y: y, static_argnums=0)
v = Vehicle(2)
f(v)  # E: static-identity-hash
f(ByValue())
f(Frozen(1))
f(v.wheels)  # v never changes: no evidence of a bug
f(Vehicle.wheels)
tuned = Vehicle(3)
f(tuned.wheels)  # E: static-bound-method
tuned.num_wheels = 4
g(v, 1)  # E: static-identity-hash
g(x=v, y=1)  # E: static-identity-hash
g(1, y=v)  # E: jit-unsupported-argument
h(v, 1)  # E: static-identity-hash
h([1], 1)  # E: static-unhashable
jax.jit(f)(3)
# the ahead-of-time stages take the call's arguments, hashed the same
g.lower(v, 1)  # E: static-identity-hash
h.trace([1], 1)  # E: static-unhashable
h.eval_shape((1,), 1)
g.trace(1, y=v)  # E: jit-unsupported-argument


class Stepper:
    def __init__(self, n: int) -> None:
        self.n = n

    @partial(jax.jit, static_argnames=("self", "k"))
    def step(self, x: jax.Array, k: int) -> jax.Array:
        return x * self.n * k

    def warm(self, x: jax.Array) -> None:
        self.step.lower(self, x, k=[2]).compile()  # E: static-unhashable
        self.step.lower(self, x, k=2).compile()  # a stage of a method binds nothing: self is static
""",
    "traced_through_transformations": """
def add(x: int, y: int) -> int:
    return x + y


by_name = jax.jit(add, static_argnames={"y"})  # a set of names is read as a tuple
axes = (0, None)
nums = (1,)
jax.make_jaxpr(by_name)(1, 2)  # E: static-dynamic-child
jax.make_jaxpr(by_name)(1, y=2)  # E: static-dynamic-child
jax.make_jaxpr(by_name, static_argnums=1)(1, 2)  # static in make_jaxpr too
jax.make_jaxpr(by_name, static_argnums=nums)(1, 2)  # static_argnums not read: no verdict
jax.eval_shape(by_name, 1, 2)  # E: static-dynamic-child
jax.make_jaxpr(jax.jit(add))(1, 2)
by_name(1, [2])  # E: static-unhashable
jax.vmap(by_name)(jnp.ones(3), y=jnp.ones(3))  # E: static-dynamic-child
jax.vmap(by_name, in_axes=(0, 0))(jnp.ones(3), jnp.ones(3))  # E: static-dynamic-child
jax.vmap(by_name, in_axes=(0, None))(jnp.ones(3), 2)  # not mapped: passed on as it is
jax.vmap(by_name, in_axes=axes)(jnp.ones(3), 2)  # in_axes not read: no verdict


class Scaler:
    def __init__(self, k: int) -> None:
        self.k = k

    @partial(jax.jit, static_argnums=(0, 2))
    def apply(self, x: jax.Array, n: int) -> jax.Array:
        return x * self.k * n


scaler = Scaler(2)
jax.vmap(scaler.apply, in_axes=(0, None))(jnp.ones(3), 2)  # self is bound: n is not mapped
jax.vmap(scaler.apply)(jnp.ones(3), jnp.ones(3))  # E: static-dynamic-child
""",
    "bound_method_never_changed": """
v = Vehicle(2)
wheels = jax.jit(v.wheels)
unbound = jax.jit(Vehicle.wheels)


def train(vehicle: Vehicle) -> None:
    step = jax.jit(vehicle.wheels)
    for _ in range(3):
        step()
    first = [w for w in [jax.jit(vehicle.wheels)]]


def in_a_loop(vehicles: list[Vehicle]) -> None:
    for vehicle in vehicles:
        def later() -> None:
            jax.jit(vehicle.wheels)


class Network:
    def apply(self, x: int) -> int:
        return x

    def compile(self) -> None:
        self.apply = jax.jit(self.apply)  # type: ignore[method-assign]


network = Network()
network.apply = jax.jit(network.apply)  # type: ignore[method-assign]
network.compile()
""",
    "bound_method_changed": """
class Counter:
    def __init__(self) -> None:
        self.count = 0

    def step(self, x: int) -> int:
        self.count += 1
        return x


class Subcounter(Counter):
    def other(self, x: int) -> int:
        return x + self.count


class Guarded:
    def __setattr__(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)

    def run(self, x: int) -> int:
        return x


class Sealed:
    def __init__(self, scale: int) -> None:
        self.scale = scale
        self._sealed = True

    def __setattr__(self, name: str, value: object) -> None:
        if getattr(self, "_sealed", False):
            raise AttributeError("Sealed is frozen after construction")
        object.__setattr__(self, name, value)

    def run(self, x: int) -> int:
        return x * self.scale


class Lazy:
    def run(self, x: int) -> int:
        return x + getattr(self, "k", 0)

    def load(self) -> None:
        setattr(self, "k", 2)


class Windowed:
    def __init__(self) -> None:
        self.scale = 2
        self.window: object = None

    def run(self, x: int) -> int:
        return x * self.scale

    def show(self) -> None:
        self.window = "open"


class Settled:
    def __init__(self) -> None:
        object.__setattr__(self, "k", 1)

    def __post_init__(self) -> None:
        self.j = 2

    def run(self, x: int) -> int:
        return x


jax.jit(Counter().step)  # E: jit-bound-method
jax.jit(jax.vmap(Counter().step))  # E: jit-bound-method
jax.jit(jax.grad(jax.vmap(Windowed().run)))  # wrapped as deep, by a method nothing changes
jax.jit(Subcounter().other)  # step, which changes what other reads, is never called on it
jax.jit(Guarded().run)  # E: jit-bound-method
jax.jit(Sealed(2).run)  # a __setattr__ that raises guards it: no change
jax.jit(Lazy().run)  # nothing calls load
sub = Subcounter()
jax.jit(sub.other)  # E: jit-bound-method
sub.step(1)
lazy = Lazy()
lazy.load()  # a step of its construction: nothing was jitted for it yet
jax.jit(lazy.run)
jax.jit(Windowed().run)  # show changes nothing run reads
jax.jit(Settled().run)
v = Vehicle(2)
wheels = jax.jit(v.wheels)  # E: jit-bound-method
v.num_wheels = 3
w = Vehicle(2)
other = jax.jit(w.wheels)  # E: jit-bound-method
tuned = Vehicle(2)
tuned.wheels = jax.jit(tuned.wheels)  # type: ignore[method-assign]  # E: jit-bound-method
tuned.num_wheels = 4


def retune(vehicle: Vehicle) -> None:
    vehicle.num_wheels += 1


def count_once(counter: Counter) -> int:
    counter.count = 0
    return jax.jit(counter.step)(1)  # made and called at once: a later call jits anew
""",
    "recursive_alias_captured": """
from typing import Union

Tree = Union[jax.Array, dict[str, "Tree"], list["Tree"]]  # looked through once, where it recurs


def fit_all(trees: list[Tree], x: jax.Array) -> None:
    for tree in trees:
        jax.jit(lambda y: y * 2 if tree is None else y)(x)  # E: jit-fresh-function
""",
    "identity_built_by_helpers": """
@dataclasses.dataclass(eq=False)
class Solver:  # eq=False keeps object's __eq__ and __hash__, frozen or not: identity
    lower: float

    def run(self, x: jax.Array) -> jax.Array:
        return x + self.lower


def _project(solver, x):  # unannotated: what it is given is judged by what the module builds
    return solver.run(x)


project = jax.jit(_project, static_argnums=0)


def setup(scale):
    return Solver(lower=1.0)


def setup_from(value):
    return Solver(lower=value)


for step in range(3):
    solver = setup(2.0)
    project(solver, jnp.ones(3))  # E: static-identity-hash
    shifted = setup_from(float(step))
    project(shifted, jnp.ones(3))  # another lower each step: another program whatever it hashes by

again = setup(2.0)
project(again, jnp.ones(3))  # E: static-identity-hash (equal to the loop's copies: compiles again)
""",
    "value_bound_methods": """
import equinox as eqx
from jax.experimental import sparse


class Reservoir(eqx.Module):
    weights: sparse.BCOO

    def forecast(self, x: jax.Array) -> jax.Array:
        return self.weights @ x


class Scaled(eqx.Module):
    factor: jax.Array

    def apply(self, x: jax.Array) -> jax.Array:
        return x * self.factor


def forecast(reservoir: Reservoir, scaled: Scaled, x: jax.Array) -> None:
    jax.jit(reservoir.forecast)(x)  # E: static-unhashable
    jax.jit(scaled.apply)(x)  # a field declared an array may hold a float
""",
    "bound_through_vmap_and_type_variables": """
from typing import Generic, NamedTuple, TypeVar


class Space:
    @partial(jax.jit, static_argnums=0)
    def count(self, states: jax.Array) -> jax.Array:
        return states


SpaceT = TypeVar("SpaceT", bound=Space)


class Operator(Generic[SpaceT]):
    def __init__(self, space: SpaceT) -> None:
        self.space = space

    def numbers(self, x: jax.Array) -> jax.Array:
        return self.space.count(x) + jax.vmap(self.space.count)(x)


class Pair(NamedTuple):
    a: int

    @partial(jax.jit, static_argnums=0)
    def total(self, x: jax.Array) -> jax.Array:
        return x + self.a


space = Space()
jax.vmap(space.count)(jnp.ones(3))
mapped = jax.vmap(space.count, in_axes=0)
mapped(jnp.ones(3))
Pair(1).total(jnp.ones(2))
h = jax.jit(lambda x, y: y, static_argnums=0)
jax.vmap(h)([1], jnp.ones(2))  # E: static-dynamic-child


class Tuner:
    def __init__(self) -> None:
        self.grid = jax.numpy.ones(3)
        self.mapped = jax.vmap(self.gain, in_axes=0)  # self is bound: the array is position 1

    @partial(jax.jit, static_argnums=0)
    def gain(self, s: jax.Array) -> jax.Array:
        return s * 2.0

    def response(self) -> jax.Array:
        return self.mapped(self.grid)
""",
    "private_function_judged_by_its_callers": """
@partial(jax.jit, static_argnames=("tsave",))
def _solve(y: jax.Array, tsave: jax.Array) -> jax.Array:
    return y


def solve(y: jax.Array, tsave: jax.Array) -> jax.Array:
    return _solve(y, tuple(tsave.tolist()))  # type: ignore[arg-type]


def solve_badly(y: jax.Array, tsave: jax.Array) -> jax.Array:
    return _solve(y, tsave)  # E: static-dynamic-child


@partial(jax.jit, static_argnames=("tsave",))  # E: static-dynamic-child
def public_solve(y: jax.Array, tsave: jax.Array) -> jax.Array:
    return y
""",
    "names_behind_a_wrapper": """
from typing import Callable


def mapped(fn: Callable[..., jax.Array]) -> Callable[..., jax.Array]:
    return fn


@partial(jax.jit, static_argnames=["method"])
@mapped
def update(array: jax.Array, method: str) -> jax.Array:
    return array


@partial(jax.jit, static_argnames=["method"])
def plain_update(array: jax.Array, values: jax.Array, method: str) -> jax.Array:
    return array


update(jnp.ones(2), "set")  # jax finds method's position through the wrapper's __wrapped__
plain_update(jnp.ones(2), "set", "add")  # E: jit-unsupported-argument
""",
    "callable_objects": """
class Step:  # compares by identity: each instance is one entry of the cache its function keys
    def __init__(self, k: int) -> None:
        self.k = k

    def __call__(self, carry: int, x: jax.Array) -> tuple[int, jax.Array]:
        return carry, x * self.k


once = Step(1)
jax.lax.scan(once, 0, jnp.ones(3))  # built once, never changed: the opt-in twin
jax.jit(once)


def per_call(x: jax.Array) -> None:
    jax.lax.scan(Step(2), 0, x)  # E: static-identity-hash


for _ in range(3):
    per_call(jnp.ones(3))
    jax.lax.scan(Step(3), 0, jnp.ones(3))  # E: static-identity-hash

first, second = Step(4), Step(4)
jax.lax.scan(first, 0, jnp.ones(3))  # E: static-identity-hash
jax.lax.scan(second, 0, jnp.ones(3))  # E: static-identity-hash


def loop_body(carry: int, x: jax.Array) -> tuple[int, jax.Array]:
    return carry, x


for _ in range(3):
    jax.lax.scan(partial(loop_body), 0, jnp.ones(3))  # E: jit-fresh-function (outside jit, scan compiles it)


class Loss:  # calling an instance runs its jitted __call__, bound to it: arguments start after self
    @partial(jax.jit, static_argnums=(0, 2))
    def __call__(self, args: list, scale: Any = ()) -> jax.Array:
        return jnp.asarray(args[0])


class Fit:
    def __init__(self) -> None:
        self.loss = Loss()

    def run(self, x: float) -> None:
        self.loss([x, x])  # traced: position 1 of __call__
        self.loss([x], [x])  # E: static-unhashable


def fit(loss: Loss, x: float) -> None:
    loss([x, x])
    loss([x], [x])  # E: static-unhashable
""",
    "bound_method_in_loops": """
def train(vehicle: Vehicle, vehicles: list[Vehicle]) -> None:
    for _ in range(3):
        jax.jit(vehicle.wheels)()  # E: jit-bound-method
    while vehicle.num_wheels:
        print(jax.jit(vehicle.wheels)())  # E: jit-bound-method
    steps = [jax.jit(v.wheels) for v in vehicles]  # E: jit-bound-method
    table = {v: jax.jit(v.wheels) for v in vehicles}  # E: jit-bound-method
""",
    "traced_through_plain_helpers": """
@partial(jit, static_argnums=(1,))
def masked(x: jax.Array, f_number: float) -> jax.Array:
    return x * f_number


def pixel(x: jax.Array, f_number: float) -> jax.Array:
    return masked(x, f_number)  # E: static-dynamic-child


def pixel_static(x: jax.Array, f_number: float) -> jax.Array:
    return masked(x, f_number)  # its jitted caller keeps f_number static


def pixel_unused(x: jax.Array, f_number: float) -> jax.Array:
    return masked(x, f_number)  # no jitted caller: called with concrete numbers


@jit
def beamform(xs: jax.Array, f_number: float) -> jax.Array:
    return jax.vmap(pixel, in_axes=(0, None))(xs, f_number)


@partial(jit, static_argnums=(1,))
def beamform_static(xs: jax.Array, f_number: float) -> jax.Array:
    return jax.vmap(pixel_static, in_axes=(0, None))(xs, f_number)


pixel_unused(jnp.ones(1), 1.5)


def loss(x: jax.Array, f_number: float) -> jax.Array:
    return masked(x, f_number)  # E: static-dynamic-child


jax.jit(jax.grad(loss))(jnp.ones(()), 1.5)  # jit traces what grad passes on
""",
    "project_jit_wrappers": """
def cond_jit(fn, static_argnums=None):  # a project's own jit, switched off where jax is missing
    if not HAS_JAX:
        return fn
    if static_argnums is None:
        return jax.jit(fn)
    return jax.jit(fn, static_argnums=static_argnums)


def fixed_jit(fn):
    return jax.jit(fn, static_argnums=(1,))


def logged(fn, static_argnums=None):  # returns the function it is given: no jit
    return fn


HAS_JAX = True


def scaled(x: jax.Array, sizes: list[int]) -> jax.Array:
    return x


cond_jit(scaled, static_argnums=(1,))  # E: static-unhashable
fixed_jit(scaled)  # E: static-unhashable
cond_jit(scaled)  # nothing static
logged(scaled, static_argnums=(1,))


class Model:
    def __init__(self) -> None:
        self.k = 1

    def build(self, **params: int) -> None:
        for key, value in params.items():
            setattr(self, key, value)

    @partial(cond_jit, static_argnums=[0])  # E: static-identity-hash
    def apply(self, x: jax.Array) -> jax.Array:
        return x * self.k

    @partial(cond_jit, static_argnums=[0])  # reads only a method of its class, never the state
    def twice(self, x: jax.Array) -> jax.Array:
        return self.double(x)

    def double(self, x: jax.Array) -> jax.Array:
        return 2 * x


model = Model()
model.apply(jax.numpy.ones(2))
model.twice(jax.numpy.ones(2))
model.build(k=2)
""",
    "jitted_factories": """
def make(scale):  # returns a function it jits: what it returns has that jit's static positions
    @partial(jax.jit, static_argnums=1)
    def run(x, opts):
        return x * scale

    return run


def make_typed(scale: float) -> Callable[[jax.Array, tuple[int, ...]], jax.Array]:
    def step(x: jax.Array, opts: tuple[int, ...]) -> jax.Array:
        return x * scale

    return jax.jit(step, static_argnums=1)  # typed as declared, carrying the positions


def make_named():
    def step(x, kernel, name):
        return x

    return partial(jax.jit, static_argnames=["kernel", "name"])(step)


def make_either(debug: bool):  # one return gives the function unjitted: no positions known
    def step(x, opts):
        return x

    jitted = jax.jit(step, static_argnums=1)
    return step if debug else jitted


def unjitted():  # jit is called on the local function, but the function itself is returned
    def step(x, opts):
        return x

    jax.jit(step, static_argnums=1)
    return step


x = jax.numpy.ones(3)
run = make(2.0)
run(x, [1, 2])  # E: static-unhashable
run(x, (1, 2))
run.lower(x, (1, 2))  # what jax.jit returns, where the factory declares nothing
typed = make_typed(2.0)
typed(x, [1, 2])  # E: static-unhashable
named = make_named()
named(x, Vehicle(2), "a")  # a plain class built once, and a string: nothing changes them
named(x, {"k": 1}, "a")  # E: static-unhashable
make_either(False)(x, [1])
unjitted()(x, [1])


def main() -> None:
    local = make(3.0)
    local(x, {"a": 1})  # E: static-unhashable


class Holder:
    def __init__(self) -> None:
        self.fn = make_typed(1.0)

    def go(self, y: jax.Array) -> jax.Array:
        return self.fn(y, (3,))
""",
    "held_bound_methods": """
class Storage:
    def __init__(self, carry: bool) -> None:
        if carry:  # either branch keeps a bound jitted method: self is its static position 0
            self.append = jax.vmap(self._append_with_carry)
        else:
            self.append = jax.vmap(self._append_without_carry)
        self.mode = jax.vmap(self._moded)

    @partial(jax.jit, static_argnums=0)
    def _append_with_carry(self, buffer: jax.Array, obs: jax.Array) -> jax.Array:
        return buffer

    @partial(jax.jit, static_argnums=0)
    def _append_without_carry(self, buffer: jax.Array, obs: jax.Array) -> jax.Array:
        return buffer

    @partial(jax.jit, static_argnums=(0, 2))
    def _moded(self, buffer: jax.Array, mode: Any) -> jax.Array:
        return buffer


class Runner:
    def __init__(self) -> None:
        self.storage = Storage(True)

    def go(self, buffer: jax.Array) -> jax.Array:
        self.storage.mode(buffer, "sum")
        self.storage.mode(buffer, [1])  # E: static-unhashable
        return self.storage.append(buffer, jnp.ones(2))


class Likelihood:
    def _set_up(self, jitted: bool) -> None:  # what a subclass's construction runs
        if jitted:  # a branch that keeps a method no jit wraps passes its arguments as written
            self.normalize = self._normalize_jax
        else:
            self.normalize = self._normalize_numpy

    @partial(jax.jit, static_argnums=0)
    def _normalize_jax(self, cls: jax.Array) -> jax.Array:
        return cls

    def _normalize_numpy(self, cls: jax.Array) -> jax.Array:
        return cls

    def evaluate(self, cls: jax.Array) -> jax.Array:
        return self.normalize(cls)  # position 1 of _normalize_jax: traced


class Planck(Likelihood):
    def __init__(self) -> None:
        self._set_up(True)
""",
    "class_objects_bind": """
class Distribution:
    @classmethod
    @partial(jax.jit, static_argnums=(0, 2))
    def density(cls, params: jax.Array, order: Any) -> jax.Array:
        return params

    @classmethod
    def evaluate(cls, params: jax.Array) -> jax.Array:
        cls.density(params, 1)  # cls, the class, is static position 0: params goes to 1, traced
        return cls.density(params, [1])  # E: static-unhashable

    def sample(self, params: jax.Array) -> jax.Array:
        return type(self).density(params, 2)


Distribution.density(jnp.ones(2), 3)
""",
    "eager_control_flow": """
def smooth(x: jax.Array, steps: int) -> jax.Array:
    return jax.lax.fori_loop(0, steps, lambda i, y: y * 0.5, x)  # E: jit-fresh-function


def advance(x: jax.Array) -> jax.Array:
    return smooth(x, 3)


@jax.jit
def traced_step(x: jax.Array) -> jax.Array:
    for _ in range(3):  # unrolled while jit traces: one program
        x = jax.lax.cond(x > 0, lambda y: y - 1, lambda y: y, x)
    return x


def library_step(x: jax.Array) -> jax.Array:
    return jax.lax.cond(x > 0, lambda y: y - 1, lambda y: y, x)


def sweep(xs: list[jax.Array]) -> None:
    for x in xs:  # a loop in a function, which another module's jit may trace: no evidence
        library_step(x)


def body(carry: jax.Array, x: jax.Array) -> tuple[jax.Array, jax.Array]:
    return carry + x, x


@dataclasses.dataclass(frozen=True)
class Scaled:  # hashed over its fields: the array in it cannot hash
    weight: jax.Array

    def __call__(self, carry: jax.Array, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        return carry, x * self.weight


class Accumulator:
    def step(self, carry: jax.Array, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        return carry + x, x


def zeroed(x: jax.Array) -> jax.Array:
    return x * 0


def kept(x: jax.Array) -> jax.Array:
    return x


accumulator = Accumulator()
accumulate = accumulator.step
for step in range(3):
    advance(jax.numpy.ones(()))
    traced_step(jax.numpy.ones(()))
    jax.lax.scan(body, jax.numpy.zeros(()), jax.numpy.ones(3))  # one function object: scan finds its trace again
    jax.lax.scan(Scaled(jax.numpy.ones(())), jax.numpy.zeros(()), jax.numpy.ones(3))  # E: static-dynamic-child
    # lax.map hands scan a lambda of its own at every call: nothing it is given is hashed or keyed on
    jax.lax.map(lambda y: y * 2, jax.numpy.ones(3))
    jax.lax.map(functools.partial(Scaled(jax.numpy.ones(())), jax.numpy.zeros(())), jax.numpy.ones(3))
    # switch keys each branch's trace on the function, as cond does
    jax.lax.switch(step, [body, body], jax.numpy.zeros(()), jax.numpy.ones(()))
    jax.lax.switch(step, [lambda c, x: (c, x), body], jax.numpy.zeros(()), jax.numpy.ones(()))  # E: jit-fresh-function
    # obj.method is a new function object at every run, which scan keys its trace on: the trace
    # is kept only while that object lives, so each run traces and compiles again
    jax.lax.scan(Accumulator().step, jax.numpy.zeros(()), jax.numpy.ones(3))  # E: jit-bound-method
    jax.lax.scan(accumulator.step, jax.numpy.zeros(()), jax.numpy.ones(3))  # E: jit-bound-method
    jax.lax.scan(accumulate, jax.numpy.zeros(()), jax.numpy.ones(3))  # bound once: one trace
    # the old form jax still accepts, cond(pred, true_operand, true_fun, false_operand, false_fun):
    # jax wraps both functions in lambdas of its own at every call, as lax.map does
    velocity = jax.numpy.ones(1)
    jax.lax.cond(velocity[0] < 0, velocity, zeroed, velocity, kept)
    jax.lax.cond(velocity[0] < 0, velocity, lambda y: y - 1, velocity, kept)
""",
    "unpacked_returns": """
def init(n: int) -> Any:
    settings = {"size": n}
    state = jnp.zeros(n)
    return settings, state


def init_frozen(n: int) -> Any:
    return (n, "sum"), jnp.zeros(n)


def step(state, settings):
    return state


stepped = jax.jit(step, static_argnums=1)


def search(state, settings, rounds: int) -> Any:
    for _ in range(rounds):
        state = stepped(state, settings)  # E: static-unhashable
    return state


settings, state = init(3)
search(state, settings, 2)
first = init(3)[0]
stepped(state, first)  # E: static-unhashable
frozen, state = init_frozen(3)
stepped(state, frozen)  # the first item is a tuple of a number and a string
stepped(state, init_frozen(3)[0])
""",
    "library_jitted_functions": """
from jax.experimental.ode import odeint


def decay(y: jax.Array, t: jax.Array) -> jax.Array:
    return -y


y0, ts = jax.numpy.ones(()), jax.numpy.linspace(0.0, 1.0, 4)
for _ in range(3):
    odeint(lambda y, t: -y, y0, ts)  # E: static-fresh-callable
    odeint(decay, y0, ts)  # one function: compiled once
    rhs = lambda y, t: -2 * y
    odeint(rhs, y0, ts, rtol=1e-6)  # E: static-fresh-callable
odeint(lambda y, t: -y, y0, ts)  # made once
odeint(decay, y0, ts, atol=[1e-6])  # E: static-unhashable
odeint(decay, "y0", ts)  # E: jit-unsupported-argument
""",
    "partials_in_traced_positions": """
@partial(jax.jit, static_argnums=(0,))
def tiled(p: int, x: jax.Array) -> jax.Array:
    return jax.numpy.tile(x, (p,))


@jax.jit
def power(p: int, x: jax.Array) -> jax.Array:
    return x**p


@jax.jit
def twice(x: jax.Array, fn: Any) -> jax.Array:
    return fn(fn(x))


x = jax.numpy.arange(3)
twice(x, tree_util.Partial(power, 2))
twice(x, tree_util.Partial(tiled, 2))  # E: static-dynamic-child
twice(x, tree_util.Partial(tiled))  # binds nothing: the caller passes the static argument
twice(x, partial(tiled, 2))  # E: jit-unsupported-argument
""",
    "custom_derivative_nondiff_positions": """
@partial(jax.custom_vjp, nondiff_argnums=(0, 1))
def clip_gradient(lo: float, hi: float, x: jax.Array) -> jax.Array:
    return x


def clip_forward(lo: float, hi: float, x: jax.Array) -> tuple[jax.Array, None]:
    return x, None


def clip_backward(lo: float, hi: float, _: None, g: jax.Array) -> tuple[jax.Array]:
    return (jax.numpy.clip(g, lo, hi),)


clip_gradient.defvjp(clip_forward, clip_backward)
masked = jax.custom_jvp(lambda x, mask: x * mask, nondiff_argnums=(1,))


def loss(x: jax.Array, lo: float, hi: float) -> jax.Array:
    return 3.0 * clip_gradient(lo, hi, x)  # E: static-dynamic-child, static-dynamic-child


@jax.jit
def clipped(x: jax.Array, bounds: list[float]) -> jax.Array:
    return clip_gradient(-1.0, 1.0, x) + clip_gradient(bounds, 1.0, x)  # E: static-dynamic-child


def step(carry: tuple[jax.Array, jax.Array], _: None) -> tuple[tuple[jax.Array, jax.Array], None]:
    return (masked(*carry), carry[1]), None  # E: static-dynamic-child


jax.jit(jax.grad(loss))(2.0, -1.0, 1.0)
jax.grad(clip_gradient, argnums=2)(-1.0, 1.0, 2.0)  # concrete bounds: a Python value in the rule
jax.lax.scan(step, (jax.numpy.ones(3), jax.numpy.ones(3) > 0), None, length=2)
clip_gradient([-1.0], 1.0, jax.numpy.ones(()))  # a rule never hashes what it closes over
""",
    "forwarded_arguments": """
class Results(Any):  # a base mypy cannot follow
    @classmethod
    def scanned(cls, *args, **kwargs):  # which argument is scan's function is not known here
        return jax.lax.scan(*args, **kwargs)

    @classmethod
    def jitted(cls, *args, **kwargs):
        return jax.jit(*args, **kwargs)
""",
    "stale_globals": """
scale = 2.0
offset = 1.0
calls = 0


@jax.jit
def scaled(x: jax.Array) -> jax.Array:
    global calls
    calls += 1
    return x * scale + offset


def shifted(x: jax.Array) -> jax.Array:
    return x + offset


offset = 0.5  # before any call: the first trace reads this value
scaled(jnp.ones(1))
scale = 3.0
scaled(jnp.ones(1))  # E: jit-stale-global
scaled(jnp.ones(1))  # the same stale code: reported once, at the first call after the change
calls = 5  # assigned by the function itself: its side effect, not a value compiled in
scaled(jnp.ones(1))


class Settings:
    scale = 4.0  # a class attribute, not the global
    traces = 0


@jax.jit
def configured(x: jax.Array) -> jax.Array:
    Settings.traces += 1
    return x * Settings.scale


scaled(jnp.ones(1))
configured(jnp.ones(1))
Settings.traces = 0  # assigned by the function itself: its side effect
configured(jnp.ones(1))
Settings.scale = 5.0
configured(jnp.ones(1))  # E: jit-stale-global
jit(shifted)(jnp.ones(1))
for offset in (1.0, 2.0):
    jit(shifted)(jnp.ones(1))  # E: jit-stale-global


def later() -> jax.Array:
    return scaled(jnp.ones(1))  # runs whenever called: left to the sanitizer
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_case(name: str, tmp_path: Path, cache_dir: Path) -> None:
    source = for_installed_jax(HEADER + CASES[name])
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    found = [(d.line, d.code) for d in check_in_process(path, cache_dir) if d.code in RULES_BY_CODE]
    assert found == expected(source)
