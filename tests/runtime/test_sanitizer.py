"""The jit sanitizer on real jax: stale results, needless compiles and metadata problems found as
the program runs, with the user's lines; and no finding where the cache behaves as it should."""

from __future__ import annotations

import dataclasses
import functools
import gc
import importlib
import weakref
from collections.abc import Callable
from typing import Any

import equinox as eqx
import equinox.internal as eqxi
import numpy as np
from flax import struct
from flax import nnx
import jax
import jax.numpy as jnp
import optax
import pytest

import jaxtypes
from jaxtypes import StaleResultError, sanitize
from jaxtypes._observe.reads import reads_of


class Switch:
    def __init__(self, mul: bool) -> None:
        self.mul = mul

    @functools.partial(jax.jit, static_argnums=0)  # made before any sanitizer: never watched
    def unwatched(self, y: jax.Array) -> jax.Array:
        return y * 2 if self.mul else y


def codes(report: Any) -> list[str]:
    return [finding.code for finding in report.findings]


def line_of(text: str) -> int:
    """The line of this file holding ``text``."""
    lines = open(__file__).read().splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


def test_a_static_self_changed_in_place_is_stale_at_the_users_call() -> None:
    with sanitize() as report:

        class Calc:
            def __init__(self, mul: bool) -> None:
                self.mul = mul

            @functools.partial(jax.jit, static_argnums=0)  # jit of Calc.calc
            def calc(self, y: float) -> jax.Array:
                return y * 2 if self.mul else jnp.asarray(y)

        c = Calc(True)
        assert c.calc(3.0) == 6.0
        c.mul = False
        assert c.calc(3.0) == 6.0  # the stale call: jit returns the old code's result
    (finding,) = report.findings
    assert finding.code == "jit-stale-static"
    assert finding.message.headline == (
        "Calc.calc: static argument 'self' changed since jit compiled for it (self.mul: True -> False)"
    )
    assert finding.place.line == line_of("# the stale call")
    assert finding.place.path.endswith("test_sanitizer.py")
    assert finding.related == (("jitted at", finding.related[0][1]),)
    assert finding.related[0][1].line == line_of("# jit of Calc.calc")


def test_strict_raises_before_the_stale_result_is_returned() -> None:
    class Scale:
        def __init__(self, k: float) -> None:
            self.k = k

    results = []
    with pytest.raises(StaleResultError, match=r"static argument 'scale' changed .*scale.k: 2.0 -> 3.0") as info:
        with sanitize(strict=True):
            f = jax.jit(lambda x, scale: x * scale.k, static_argnums=1)
            s = Scale(2.0)
            results.append(f(1.0, s))
            s.k = 3.0
            results.append(f(1.0, s))
    assert info.value.code == "jit-stale-static"
    assert results == [2.0]


@pytest.mark.parametrize(
    ("wrap", "shape"), [(lambda f: f, ()), (jax.vmap, (2,)), (jax.grad, ())], ids=["bound", "vmapped", "differentiated"]
)
def test_the_object_behind_a_jitted_bound_method_is_watched(wrap: Callable[[Any], Any], shape: tuple[int, ...]) -> None:
    class Counter:  # a transformation of the bound method calls it, and jit compiles it in the same
        def __init__(self) -> None:
            self.step = 1

        def add(self, x: jax.Array) -> jax.Array:
            return x + self.step

    with sanitize() as report:
        counter = Counter()
        add = jax.jit(wrap(counter.add))
        add(jnp.zeros(shape))
        counter.step = 2
        add(jnp.zeros(shape))
    (finding,) = report.findings
    assert (
        finding.message.headline
        == "Counter.add: its Counter object changed since jit compiled for it (self.step: 1 -> 2)"
    )


SCALE = 2.0
HISTORY: list[float] = [1.0]
TRACES = 0


def scaled(x: jax.Array) -> jax.Array:
    return x * SCALE


def weighted(x: jax.Array) -> jax.Array:
    return x * HISTORY[-1]


def counted(x: jax.Array) -> jax.Array:
    global TRACES
    TRACES += 1
    return x


class Reference:
    images = [1.0]
    traces = 0


def from_reference(x: jax.Array) -> jax.Array:
    Reference.traces += 1  # the traced code's own side effect, not a value compiled in
    return x * Reference.images[0] * jnp.pi


def test_a_global_rebound_or_changed_in_place_after_tracing_is_stale() -> None:
    global SCALE
    with sanitize() as report:
        f, g = jax.jit(scaled), jax.jit(weighted)
        f(1.0), g(1.0)
        SCALE = 3.0
        HISTORY.append(5.0)
        assert f(1.0) == 2.0 and g(1.0) == 1.0  # both stale
    SCALE = 2.0
    del HISTORY[1:]
    headlines = [finding.message.headline for finding in report.findings]
    assert headlines == [
        "scaled: global 'SCALE' changed since jit traced it (SCALE: 2.0 -> 3.0)",
        "weighted: global 'HISTORY' changed since jit traced it (HISTORY: [1.0] -> [1.0, 5.0])",
    ]


def test_an_attribute_of_a_class_or_module_of_yours_is_watched(tmp_path: Any, monkeypatch: Any) -> None:
    (tmp_path / "settings.py").write_text("GAIN = 2.0\n")
    (tmp_path / "tuning.py").write_text("import settings\n\ndef tuned(x):\n    return x * settings.GAIN\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    tuning, settings = importlib.import_module("tuning"), importlib.import_module("settings")
    assert sorted(read.label for read in reads_of(from_reference)) == ["Reference.images"]
    with sanitize() as report:
        f, g = jax.jit(from_reference), jax.jit(tuning.tuned)
        f(1.0), g(1.0)
        Reference.images = [3.0]
        settings.GAIN = 5.0
        assert f(1.0) == 1.0 * jnp.pi and g(1.0) == 2.0  # both stale
    Reference.images = [1.0]
    headlines = [finding.message.headline for finding in report.findings]
    assert headlines == [
        "from_reference: class attribute 'Reference.images' changed since jit traced it "
        "(Reference.images[0]: 1.0 -> 3.0)",
        "tuned: module attribute 'settings.GAIN' changed since jit traced it (settings.GAIN: 2.0 -> 5.0)",
    ]


def test_a_closure_variable_and_a_helper_function_are_followed() -> None:
    def make() -> Any:
        table = {"k": 1.0}

        def helper(x: jax.Array) -> jax.Array:
            return x * table["k"]

        return jax.jit(lambda x: helper(x) + 1), table

    with sanitize() as report:
        f, table = make()
        f(1.0)
        table["k"] = 4.0
        f(1.0)
    (finding,) = report.findings
    assert finding.code == "jit-stale-global"
    assert "closure variable 'table' changed since jit traced it (table['k']: 1.0 -> 4.0)" in finding.message.headline


def test_no_finding_where_the_cache_is_right() -> None:
    weights = jnp.ones(3)
    trace_log: list[int] = []

    def uses_weights(x: jax.Array) -> jax.Array:
        trace_log.append(1)  # a side effect of tracing, not a value compiled in
        return x * weights

    @dataclasses.dataclass(frozen=True)
    class Options:
        depth: int

    with sanitize() as report:
        f = jax.jit(uses_weights)
        for _ in range(3):
            f(jnp.ones(3))
        f(jnp.ones(4)[:3])
        jax.jit(counted)(1.0)
        jax.jit(counted)(1.0)  # a module-level function wrapped again: jax reuses its trace
        g = jax.jit(lambda x, o: x * o.depth, static_argnums=1)
        for depth in (1, 2, 1, 2):
            g(1.0, Options(depth))
        h = jax.jit(lambda x: x + 1)
        for n in (1, 2, 3):
            h(jnp.ones(n))  # new shapes really are new
        for k in (1.0, 2.0, 3.0):
            jax.jit(lambda x, k=k: x * k)(1.0)  # closures that differ in value: each compile is needed
    assert report.findings == []
    assert report.compiles["uses_weights"] == 1


def test_an_equal_identity_hashed_config_recompiles() -> None:
    class Config:
        def __init__(self, k: int) -> None:
            self.k = k

    with sanitize() as report:
        f = jax.jit(lambda x, c: x * c.k, static_argnums=1)
        for _ in range(3):
            f(1.0, Config(2))
    (finding,) = report.findings
    assert finding.code == "jit-recompile"
    assert finding.message.headline.startswith("<lambda> compiled again (compile #2): static argument 'c' has")
    assert "Config compares and hashes by identity" in finding.message.headline


def test_jit_inside_a_loop_is_a_fresh_function_each_time() -> None:
    with sanitize() as report:
        for _ in range(4):
            jax.jit(lambda x: x + 1)(1.0)  # the loop's jit
    (finding,) = report.findings
    assert finding.code == "jit-fresh-function"
    assert finding.message.headline == "<lambda> was jitted as 4 new function objects, equal in value, each compiling"
    assert finding.place.line == line_of("# the loop's jit")


def test_functions_freed_in_turn_are_counted_each_on_its_own() -> None:
    def scaled_by(k: float) -> Callable[[jax.Array], jax.Array]:
        def scale(x: jax.Array) -> jax.Array:
            return x * k

        return scale

    with sanitize(max_compiles=1) as report:
        for k in range(2, 32):  # each freed before the next: its id is soon another's
            jax.jit(scaled_by(float(k)))(jnp.ones(()))
        for _ in range(30):
            jax.jit(scaled_by(1.0))(jnp.ones(()))  # equal closures, each compiling
    (finding,) = report.findings
    assert finding.message.headline == "scale was jitted as 30 new function objects, equal in value, each compiling"


GAIN = 1.0


def gained(x: jax.Array) -> jax.Array:
    return x * GAIN


def test_new_function_objects_that_compile_other_programs_are_no_finding() -> None:
    class Scaled:
        def __init__(self, fn: Callable[[jax.Array], jax.Array], k: float) -> None:
            functools.update_wrapper(self, fn)
            self.k = k

        def __call__(self, x: jax.Array) -> jax.Array:
            return self.__wrapped__(x) * self.k  # type: ignore[attr-defined]

    with sanitize() as report:
        for dtype in (jnp.float32, jnp.int32, jnp.int8):
            jax.jit(optax.safe_increment)(jnp.zeros((), dtype))  # a new dtype: compiled anyway
        for k in (1.0, 2.0, 3.0):
            jax.jit(Scaled(jnp.sin, k))(jnp.ones(()))  # a wrapper with other settings
        for keepdims in (True, False):
            jax.jit(functools.partial(jnp.sum, keepdims=keepdims))(jnp.ones(2))
        global GAIN
        for gain in (1.0, 2.0, 3.0):
            GAIN = gain  # read by the function: each compile bakes in another value
            jax.jit(gained)(jnp.ones(()))
    assert report.findings == []


def test_functions_jitted_and_freed_while_watched_are_freed() -> None:
    def scaled_by(k: jax.Array) -> Callable[[jax.Array], jax.Array]:
        return lambda x: x * k

    with sanitize():
        weights = [jnp.full(3, float(k)) for k in range(5)]
        functions = [scaled_by(weight) for weight in weights]
        for function in functions:
            jax.jit(function)(jnp.ones(3))
        freed = [weakref.ref(value) for value in [*functions, *weights]]
        del functions, function, weights
        gc.collect()
        assert [ref() for ref in freed] == [None] * 10  # with jax's code for them, and the arrays


def test_a_compile_budget_names_each_compile_and_its_reason() -> None:
    with sanitize(max_compiles={"grow": 2}) as report:

        def grow(x: jax.Array) -> jax.Array:
            return x

        f = jax.jit(grow)
        for n in (1, 2, 3):
            f(jnp.ones(n))
    (finding,) = report.findings
    assert finding.code == "jit-compile-budget"
    assert finding.message.headline == "grow compiled 3 times, over its budget of 2"
    assert "#3: argument 'x' changed: f32[2] -> f32[3]" in "\n".join(finding.notes)


def test_an_array_in_pytree_metadata_is_reported_at_the_first_call() -> None:
    @functools.partial(jax.tree_util.register_dataclass, data_fields=["x"], meta_fields=["table"])
    @dataclasses.dataclass
    class State:
        x: jax.Array
        table: Any

    with sanitize() as report:
        jax.jit(lambda s: s.x)(State(jnp.ones(2), jnp.arange(2)))
    assert codes(report) == ["static-dynamic-child"]
    assert report.findings[0].message.headline.startswith("s.table (a meta field of")


@functools.partial(jax.tree_util.register_dataclass, data_fields=["x"], meta_fields=["sizes"])
@dataclasses.dataclass
class Sized:
    x: jax.Array
    sizes: list[int]


class Node:
    """A pytree with hand-written flattening, whose aux data is a dict."""

    def __init__(self, x: jax.Array, aux: dict[str, float]) -> None:
        self.x, self.aux = x, aux


jax.tree_util.register_pytree_node(Node, lambda n: ((n.x,), n.aux), lambda aux, children: Node(children[0], aux))


def test_pytree_metadata_changed_in_place_after_a_compile_is_stale() -> None:
    with sanitize() as report:
        f = jax.jit(lambda s: s.x * len(s.sizes))
        g = jax.jit(lambda n: n.x * n.aux["k"])
        sized, node = Sized(jnp.ones(2), [1, 2]), Node(jnp.ones(2), {"k": 2.0})
        f(sized), g(node)
        f(Sized(jnp.ones(2), [1, 2, 4]))  # other metadata: compiled for it
        sized.sizes.append(3)
        node.aux["k"] = 5.0
        assert (f(sized) == 2.0).all()  # the stale metadata: the code compiled for [1, 2]
        assert (g(node) == 2.0).all()
    headlines = [finding.message.headline for finding in report.findings]
    assert headlines == [
        "<lambda>: pytree metadata of argument 's' changed since jit compiled for it (s.sizes: [1, 2] -> [1, 2, 3])",
        "<lambda>: pytree metadata of argument 'n' changed since jit compiled for it (n['k']: 2.0 -> 5.0)",
    ]
    assert report.findings[0].place.line == line_of("# the stale metadata")


def test_equal_metadata_in_a_new_object_is_no_finding() -> None:
    with sanitize() as report:
        g = jax.jit(lambda n: n.x * n.aux["k"])
        for k in (2.0, 2.0, 3.0, 2.0):
            g(Node(jnp.ones(2), {"k": k}))  # equal dicts match, a new value compiles
    assert report.findings == []
    assert report.compiles["<lambda>"] == 2


class Valued:
    """Hashed and compared by its value, which can change in place (jax issue 13992)."""

    def __init__(self, val: int) -> None:
        self.val = val

    def __hash__(self) -> int:
        return hash(self.val)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Valued) and self.val == other.val


def test_a_value_hashed_static_changed_in_place_is_stale_though_jit_compiles_again() -> None:
    with sanitize() as report:
        add = jax.jit(lambda v, y: y + v.val, static_argnums=0)
        v = Valued(100)
        add(v, 1)
        v.val = 0
        add(v, 1)  # the changed object: jit compiles, with the trace made for val=100
    (finding,) = report.findings
    assert (
        finding.message.headline == "<lambda>: static argument 'v' changed since jit compiled for it (v.val: 100 -> 0)"
    )
    assert finding.place.line == line_of("# the changed object")


def twice(x: jax.Array) -> jax.Array:
    return x * 2


def thrice(x: jax.Array) -> jax.Array:
    return x * 3


def scaling(k: float) -> Any:
    def scale(x: jax.Array) -> jax.Array:
        return x * k

    return scale


def test_functions_are_one_value_by_their_code_and_what_they_close_over() -> None:
    with sanitize() as report:
        apply = jax.jit(lambda x, f: f(x), static_argnums=1)
        apply(1.0, twice), apply(1.0, thrice)  # two functions: each compile is needed
        apply(1.0, scaling(2.0)), apply(1.0, scaling(3.0))  # closures over other values: the same
        apply(1.0, scaling(2.0))  # the same code and value made again
    (finding,) = report.findings
    assert finding.code == "jit-recompile"
    assert "has the same value as in compile #3, but it is a function made again" in finding.message.headline


def test_a_closure_over_a_tracer_of_grad_or_vmap_is_one_value_by_its_shape() -> None:
    with sanitize() as report:
        apply = jax.jit(lambda f, x: f(x), static_argnums=0)

        def solve(a: jax.Array) -> jax.Array:
            return apply(lambda x: a * x, 1.0)  # a new closure over grad's (or vmap's) tracer

        grad = jax.grad(solve)
        grad(1.0), grad(2.0)
        jax.vmap(solve)(jnp.ones(3)), jax.vmap(solve)(jnp.ones(3))
        jax.vmap(solve)(jnp.ones(4))  # another batch: compiled for anew, whatever the function
    assert [bool(compiled.recompiled) for compiled in apply.compile_log] == [False, True, False, True, False]
    (finding,) = report.findings
    assert finding.code == "jit-recompile"
    assert "compile #1, but it is a function made again from the same code and values" in finding.message.headline
    assert finding.message.fix.startswith("define the function with `def` at module level")


@pytest.mark.skipif(
    "lower" in vars(jax.jit(abs)),
    reason="this jax keeps a jitted function's lower/trace helpers on it, closing over state of each "
    "jit object, so two jits of one function are two values to the sanitizer",
)
def test_a_function_jitted_afresh_inside_a_static_value_is_the_same_value() -> None:
    with sanitize() as report:
        apply = jax.jit(lambda fs, x: fs[0](x), static_argnums=0)
        for _ in range(3):
            apply((jax.jit(lambda x: x + 1),), 1.0)  # jitted anew and held in a static tuple
    assert codes(report) == ["jit-recompile"]
    assert "the functions it holds are made again" in report.findings[0].message.headline


@struct.dataclass
class WithLoss:
    x: jax.Array
    loss: Any = struct.field(pytree_node=False)


@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass
class AsBytes:
    """A dataclass whose own flatten keeps an array field as its bytes (as MJX does)."""

    x: jax.Array
    table: np.ndarray

    def tree_flatten(self) -> tuple[tuple[jax.Array], tuple[bytes, tuple[int, ...]]]:
        return (self.x,), (self.table.tobytes(), self.table.shape)

    @classmethod
    def tree_unflatten(cls, aux: tuple[bytes, tuple[int, ...]], children: tuple[jax.Array]) -> AsBytes:
        return cls(children[0], np.frombuffer(aux[0]).reshape(aux[1]))


def test_metadata_is_what_the_flatten_function_returns() -> None:
    with sanitize() as report:
        state = WithLoss(jnp.ones(2), jax.jit(twice))  # a jitted function's identity is its value
        f = jax.jit(lambda s: s.loss(s.x))
        f(state), f(state)
        g = jax.jit(lambda t: t.x * t.table.sum())
        g(AsBytes(jnp.ones(2), np.ones(3))), g(AsBytes(jnp.ones(2), np.ones(3)))
    assert report.findings == []


def test_an_equal_static_made_afresh_for_each_call_is_no_finding() -> None:
    with sanitize() as report:
        # equinox builds its static half afresh at every call, a new PyTreeDef in it
        apply = eqx.filter_jit(lambda model, x: model["w"] * x)
        for n in (2, 2, 3, 3):
            apply({"w": jnp.ones(n)}, jnp.ones(n))
        unflatten = jax.jit(lambda leaves, treedef: jax.tree.unflatten(treedef, leaves), static_argnums=1)
        for n in (2, 2, 3):
            unflatten([jnp.ones(n)], jax.tree.structure({"a": 0}))
    assert report.findings == []
    assert report.compiles["<lambda>"] == 4  # each new shape, and no equal static, compiled


def test_an_array_in_the_static_half_of_filter_jit_is_reported_at_the_first_call() -> None:
    class Policies(eqx.Module):
        table: jax.Array

    class Agent(eqx.Module):
        policies: Policies = eqx.field(static=True)  # pymdp issue 346

    with sanitize() as report, pytest.warns(UserWarning, match="JAX array is being set as static"):
        apply = eqx.filter_jit(lambda agent: agent.policies.table.sum())
        apply(Agent(Policies(jnp.ones(2)))), apply(Agent(Policies(jnp.ones(2))))
    assert codes(report) == ["static-dynamic-child"]
    assert ".policies (eqx.field(static=True)).table holds an array" in report.findings[0].message.headline


def test_a_static_equal_by_its_own_eq_is_the_same_value() -> None:
    def make(learning_rate: float) -> Any:
        # equinox compares each function in it by its code: the optimiser's numbers are leaves
        return eqxi.closure_to_pytree(optax.chain(optax.adam(jnp.asarray(learning_rate)), optax.scale(2.0)))

    def step(optimiser: Any, params: dict[str, jax.Array]) -> Any:
        return optimiser.update(params, optimiser.init(params))[0]

    params = {"w": jnp.array([1.0, 2.0])}
    with sanitize() as report:
        jitted = eqx.filter_jit(step)
        jitted(make(1e-3), params)
        reused = jitted(make(1e-2), params)  # the same code, a new learning rate among its leaves
    assert report.findings == []
    assert report.compiles["step"] == 1
    assert jnp.allclose(reused["w"], step(make(1e-2), params)["w"])


DEVICES = np.array(jax.devices()[:1], dtype=object)


def test_an_object_array_read_while_tracing_is_compared_without_error() -> None:
    with sanitize() as report:
        f = jax.jit(lambda x: x * DEVICES.size)
        f(jnp.ones(2)), f(jnp.ones(2))
    assert report.findings == []


def test_equinox_filter_jit_is_watched_through_jax_jit() -> None:
    class Gain:
        def __init__(self) -> None:
            self.k = 1.0

    class Model(eqx.Module):
        weight: jax.Array
        gain: Gain

    with sanitize() as report:

        @eqx.filter_jit
        def apply(model: Model, x: jax.Array) -> jax.Array:
            return model.weight * x * model.gain.k

        model = Model(jnp.ones(2), Gain())
        apply(model, jnp.ones(2))
        model.gain.k = 3.0  # in the static half of the partition, changed in place
        apply(model, jnp.ones(2))
    assert codes(report) == ["jit-stale-static"]


def test_flax_nnx_jit_is_watched_through_jax_jit() -> None:
    class Gain:
        def __init__(self) -> None:
            self.k = 1.0

    class Model(nnx.Module):
        def __init__(self) -> None:
            self.w = nnx.Param(jnp.ones(2))
            self.gain = Gain()  # no nnx Variable: kept in the static graph definition

    with sanitize() as report:

        @nnx.jit
        def apply(model: Model, x: jax.Array) -> jax.Array:
            return model.w[...] * x * model.gain.k

        model = Model()
        apply(model, jnp.ones(2))
        apply(model, jnp.ones(2))
        assert report.findings == []
        model.gain.k = 3.0  # in the graph definition nnx.jit keys code on, changed in place
        assert (apply(model, jnp.ones(2)) == 1.0).all()  # stale
    (finding,) = report.findings
    assert finding.code == "jit-stale-static"
    assert (
        finding.message.headline.endswith("gain'].value.k: 1.0 -> 3.0)")
        or ".k: 1.0 -> 3.0)" in finding.message.headline
    )


def test_jaxtypes_jit_is_watched_too() -> None:
    class Box:
        def __init__(self) -> None:
            self.k = 1.0

    box = Box()

    with sanitize() as report:

        @jaxtypes.jit
        def f(x: jax.Array) -> jax.Array:
            return x * box.k

        f(jnp.ones(2))
        box.k = 2.0
        f(jnp.ones(2))
    assert codes(report) == ["jit-stale-global"]


def test_off_it_patches_nothing_and_sees_nothing() -> None:
    original = jax.jit
    with sanitize():
        assert jax.jit is not original
    assert jax.jit is original
    s = Switch(True)
    with sanitize() as report:
        s.unwatched(jnp.ones(1))
        s.mul = False
        s.unwatched(jnp.ones(1))
    assert report.findings == []


def test_as_a_decorator_each_call_is_watched() -> None:
    seen = []

    @sanitize()
    def body() -> None:
        seen.append(jax.jit is not original)

    original = jax.jit
    body()
    body()
    assert seen == [True, True] and jax.jit is original
