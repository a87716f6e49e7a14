"""jaxtypes.jit: static arguments from annotations, checks at decoration, methods, and the reported bugs of ``examples/seeds``: jit on methods, a pytree with a static field, a plain class as a static argument."""

from __future__ import annotations

import dataclasses
import enum
import gc
import textwrap
import weakref
from typing import Any, Optional

import attrs
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxtypes
from jaxtypes import (
    JitDefinitionError,
    MarkerError,
    Static,
    StaticClassError,
    pytree_dataclass,
    static_dataclass,
)
from tests.source_modules import import_path


def class_creation_error(excinfo: pytest.ExceptionInfo[BaseException]) -> BaseException:
    """The jaxtypes error raised from ``__set_name__`` (Python < 3.12 wraps it in RuntimeError)."""
    error = excinfo.value
    return error.__cause__ if isinstance(error, RuntimeError) and error.__cause__ else error


def load_module(tmp_path: Any, name: str, source: str) -> Any:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    return import_path(path, name)


# --- static parameters from annotations -------------------------------------------------------


def test_static_parameter_positional_and_keyword_calls() -> None:
    @jaxtypes.jit
    def power(x: jax.Array, n: Static[int]) -> jax.Array:
        out = x
        for _ in range(n - 1):  # a Python loop: fails unless n is static
            out = out * x
        return out

    x = jnp.array([2.0, 3.0])
    assert power(x, 3).tolist() == [8.0, 27.0]
    assert power(x, n=2).tolist() == [4.0, 9.0]
    assert power(x=x, n=2).tolist() == [4.0, 9.0]


def test_defaults_keyword_only_and_positional_only_static_parameters() -> None:
    @jaxtypes.jit
    def f(mode: Static[str], x: jax.Array, /, *, k: Static[int] = 2) -> jax.Array:
        return x * k if mode == "mul" else x + k

    x = jnp.ones(2)
    assert f("mul", x).tolist() == [2.0, 2.0]
    assert f("add", x, k=5).tolist() == [6.0, 6.0]
    info = f.trace("mul", x, k=3)
    assert info.out_info.shape == (2,)


def test_static_dataclass_typed_parameter_is_static_without_marker() -> None:
    @static_dataclass
    class Config:
        steps: int

    @jaxtypes.jit
    def run(x: jax.Array, config: Config) -> jax.Array:
        for _ in range(config.steps):
            x = x + 1
        return x

    assert run(jnp.zeros(1), Config(3)).tolist() == [3.0]
    assert run(jnp.zeros(1), Config(3)).tolist() == [3.0]
    assert len(run.compiles) == 1
    assert run(jnp.zeros(1), Config(4)).tolist() == [4.0]
    assert len(run.compiles) == 2


def test_donate_argnames_passes_through() -> None:
    @jaxtypes.jit(donate_argnames="x")
    def add(x: jax.Array, k: Static[int]) -> jax.Array:
        return x + k

    lowered = add.lower(jnp.ones(3), 1)
    assert "tf.aliasing_output" in lowered.as_text() or "jax.buffer_donor" in lowered.as_text()
    assert add(jnp.ones(3), 1).tolist() == [2.0, 2.0, 2.0]


def test_wraps_metadata_and_jax_stages() -> None:
    def scale(x: jax.Array, k: Static[float]) -> jax.Array:
        """Multiply by k."""
        return x * k

    jitted = jaxtypes.jit(scale)
    assert jitted.__name__ == "scale"
    assert jitted.__doc__ == "Multiply by k."
    assert jitted.__wrapped__ is scale
    assert jitted.eval_shape(jnp.ones((2, 3)), 2.0).shape == (2, 3)
    assert "mul" in jitted.lower(jnp.ones(2), 2.0).as_text()
    jitted(jnp.ones(2), 2.0)  # reuses the trace made by lower()
    assert len(jitted.compiles) == 2  # eval_shape's (2, 3) and lower's (2,)
    jitted.clear_cache()
    jitted(jnp.ones(2), 2.0)
    assert len(jitted.compiles) == 3
    assert "no argument changed" in jitted.compiles[2].reasons[0]


def test_jitting_again_in_a_loop_traces_once_as_jax_jit_does() -> None:
    traces = []

    def scale(x: jax.Array, k: Static[int]) -> jax.Array:
        traces.append(k)
        return x * k

    def plain(x: jax.Array, k: int) -> jax.Array:
        traces.append(k)
        return x * k

    for _ in range(3):
        jaxtypes.jit(scale)(jnp.ones(2), 2)
    assert traces == [2]
    assert len(jaxtypes.jit(scale).compiles) == 1
    traces.clear()
    for _ in range(3):
        jax.jit(plain, static_argnames="k")(jnp.ones(2), 2)
    assert traces == [2]  # the behaviour matched

    jaxtypes.jit(scale, warn_on_recompile=True)(jnp.ones(2), 2)
    jaxtypes.jit(scale, donate_argnames="x")(jnp.ones(2), 2)
    assert traces == [2, 2, 2]  # other settings or jax options: a jitted function of its own


def test_jitted_functions_made_in_a_loop_are_not_kept_alive() -> None:
    def jit_and_call(k: int) -> weakref.ref[Any]:
        def scale(x: jax.Array, k: Static[int]) -> jax.Array:
            return x * k

        jaxtypes.jit(scale)(jnp.ones(2), k)
        return weakref.ref(scale)

    references = [jit_and_call(k) for k in range(3)]
    gc.collect()
    assert [reference() for reference in references] == [None, None, None]


def test_postponed_annotations_alias_and_forward_reference(tmp_path: Any) -> None:
    module = load_module(
        tmp_path,
        "jit_future_annotations",
        """
        from __future__ import annotations
        from typing import Optional
        import jax
        import jaxtypes
        from jaxtypes import Static

        Scale = Static[int]

        @jaxtypes.jit
        def scaled(x: jax.Array, factor: Scale, offset: Optional[jax.Array] = None) -> jax.Array:
            out = x
            for _ in range(factor - 1):
                out = out + x
            return out if offset is None else out + offset

        @jaxtypes.jit
        def with_later_config(x: jax.Array, config: LaterConfig) -> jax.Array:
            for _ in range(config.steps):
                x = x + 1
            return x

        @jaxtypes.jit
        def with_missing_name(x: jax.Array, config: NeverDefined) -> jax.Array:
            return x

        @jaxtypes.static_dataclass
        class LaterConfig:
            steps: int
        """,
    )
    assert module.scaled(jnp.ones(2), 3).tolist() == [3.0, 3.0]
    assert module.scaled(jnp.ones(2), 3, jnp.ones(2)).tolist() == [4.0, 4.0]
    # LaterConfig did not exist at decoration; at first call it resolves to a static class.
    assert module.with_later_config(jnp.zeros(1), module.LaterConfig(2)).tolist() == [2.0]
    assert module.with_later_config(jnp.zeros(1), module.LaterConfig(5)).tolist() == [5.0]
    with pytest.raises(JitDefinitionError, match="NeverDefined") as excinfo:
        module.with_missing_name(jnp.zeros(1), None)
    assert excinfo.value.code == "jit-unresolved-annotation"


# --- refused at decoration ---------------------------------------------------------------------


def test_identity_hashed_class_as_static_is_refused() -> None:
    class Vehicle:
        def __init__(self, num_wheels: int) -> None:
            self.num_wheels = num_wheels

    with pytest.raises(StaticClassError, match="Vehicle, which hashes by identity") as excinfo:

        @jaxtypes.jit
        def f(x: Static[Vehicle]) -> int:
            return x.num_wheels

    assert excinfo.value.code == "static-identity-hash"


def test_attrs_classes_are_judged_as_attrs_makes_them() -> None:
    """A frozen attrs class hashes and compares its fields; a mutable one is a dataclass that is
    not frozen (attrs makes it unhashable); ``eq=False`` keeps identity."""

    @attrs.frozen
    class Frozen:
        n: int

    @jaxtypes.jit
    def scaled(config: Static[Frozen], x: jax.Array) -> jax.Array:
        return x * config.n

    assert scaled(Frozen(3), jnp.ones(1)).tolist() == [3.0]
    assert scaled(Frozen(4), jnp.ones(1)).tolist() == [4.0]
    for decorator, code in [(attrs.define, "static-not-frozen"), (attrs.frozen(eq=False), "static-identity-hash")]:
        declared = decorator(type("Declared", (), {"__annotations__": {"n": int}}))
        with pytest.raises(StaticClassError, match=r"config' of .*f is typed Declared") as excinfo:

            @jaxtypes.jit
            def f(config: Static[declared], x: jax.Array) -> jax.Array:  # type: ignore[valid-type]
                return x

        assert excinfo.value.code == code


@pytest.mark.parametrize(
    ("annotation", "code"),
    [
        ("Static[jax.Array]", "static-dynamic-child"),
        ("Static[list[int]]", "static-unhashable"),
        ("Static[Points]", "static-dynamic-child"),
    ],
)
def test_static_types_jit_cannot_hash_are_refused(annotation: str, code: str) -> None:
    @pytree_dataclass
    class Points:
        xs: jax.Array

    namespace = {"jax": jax, "Static": Static, "Points": Points, "jaxtypes": jaxtypes}
    source = f"@jaxtypes.jit\ndef f(x, s: {annotation}):\n    return x\n"
    with pytest.raises(StaticClassError) as excinfo:
        exec(source, namespace)
    assert excinfo.value.code == code
    assert "parameter 's' of f" in str(excinfo.value)


def test_numpy_text_as_traced_argument_is_refused_and_numbers_are_not() -> None:
    with pytest.raises(JitDefinitionError, match="numpy.str_, which is not a JAX type") as excinfo:

        @jaxtypes.jit
        def f(x: jax.Array, label: np.str_) -> jax.Array:
            return x

    assert excinfo.value.code == "jit-unsupported-argument"

    class Level(enum.IntEnum):
        LOW = 2

    @jaxtypes.jit
    def g(x: jax.Array, scale: np.float32, level: Level) -> jax.Array:
        return x * scale * level

    assert float(g(jnp.ones(()), np.float32(2.0), Level.LOW)) == 4.0


def test_plain_class_as_traced_argument_is_refused() -> None:
    class Settings:
        pass

    with pytest.raises(JitDefinitionError, match="Settings, which is not a JAX type") as excinfo:

        @jaxtypes.jit
        def f(x: jax.Array, settings: Settings) -> jax.Array:
            return x

    assert excinfo.value.code == "jit-unsupported-argument"


def test_str_as_traced_argument_is_refused_with_static_fix() -> None:
    with pytest.raises(JitDefinitionError, match=r"annotate the parameter Static\[str\]"):

        @jaxtypes.jit
        def f(x: jax.Array, mode: str) -> jax.Array:
            return x


def test_traced_arguments_jit_accepts_are_not_refused() -> None:
    @pytree_dataclass
    class State:
        x: jax.Array

    @jaxtypes.jit
    def f(a: jax.Array, b: float, c: State, d: tuple[jax.Array, ...], e: jax.Array | None = None) -> jax.Array:
        return a * b + c.x + d[0]

    assert f(jnp.ones(1), 2.0, State(jnp.ones(1)), (jnp.ones(1),)).tolist() == [4.0]


def test_static_on_variadic_parameters_is_marker_misuse() -> None:
    with pytest.raises(MarkerError, match=r"\*args") as excinfo:

        @jaxtypes.jit
        def f(*args: Static[int]) -> int:
            return 0

    assert excinfo.value.code == "marker-misuse"
    with pytest.raises(MarkerError, match=r"\*\*kwargs"):

        @jaxtypes.jit
        def g(**kwargs: Static[int]) -> int:
            return 0


def test_a_nested_marker_on_a_parameter_says_where_the_function_is() -> None:
    with pytest.raises(MarkerError, match=r"^parameter 'n' of .*nested inside") as excinfo:

        @jaxtypes.jit
        def f(x: jax.Array, n: Optional[Static[int]]) -> jax.Array:
            return x

    assert f"defined at: {__file__}:" in str(excinfo.value)


# --- methods and bound methods (jit on a method of a plain class, and of a bound method) ------


def test_jit_on_method_of_plain_class_fails_at_class_creation() -> None:
    with pytest.raises((JitDefinitionError, RuntimeError)) as excinfo:

        class CustomClass:
            def __init__(self, x: jax.Array, mul: bool) -> None:
                self.x = x
                self.mul = mul

            @jaxtypes.jit
            def calc(self, y: jax.Array) -> jax.Array:
                return self.x * y if self.mul else y

    error = class_creation_error(excinfo)
    assert isinstance(error, JitDefinitionError)
    assert error.code == "jit-method-self"
    assert "static_dataclass" in str(error) and "pytree_dataclass" in str(error)


def test_method_of_undecorated_class_with_fields_fails_at_first_use() -> None:
    class Undecided:
        mul: bool

        @jaxtypes.jit
        def calc(self, y: jax.Array) -> jax.Array:
            return y

    with pytest.raises(JitDefinitionError, match="Undecided is a plain class"):
        Undecided().calc(jnp.ones(1))


class Calculator:
    """The CustomClass of the jit-on-a-method question, without jit: the subject of the bound-method and Static tests."""

    def __init__(self, x: int, mul: bool) -> None:
        self.x = x
        self.mul = mul

    def calc(self, y: jax.Array) -> jax.Array:
        return self.x * y if self.mul else y


def test_jit_of_bound_method_of_mutable_object_is_refused() -> None:
    c = Calculator(2, True)
    with pytest.raises(JitDefinitionError, match="stale results") as excinfo:
        jaxtypes.jit(c.calc)
    assert excinfo.value.code == "jit-bound-method"
    assert "Calculator.calc" in str(excinfo.value)


def test_static_self_of_plain_class_is_refused() -> None:
    with pytest.raises(StaticClassError) as excinfo:

        @jaxtypes.jit
        def calc(self: Static[Calculator], y: jax.Array) -> jax.Array:
            return y

    assert excinfo.value.code == "static-identity-hash"


def test_static_dataclass_method_sees_replaced_values() -> None:
    @static_dataclass
    class Custom:
        x: int
        mul: bool

        @jaxtypes.jit
        def calc(self, y: jax.Array) -> jax.Array:
            return self.x * y if self.mul else y

    c = Custom(2, True)
    assert c.calc(jnp.array(3)).item() == 6
    assert Custom.calc(c, jnp.array(3)).item() == 6
    c = dataclasses.replace(c, mul=False)
    assert c.calc(jnp.array(3)).item() == 3
    assert len(Custom.calc.compiles) == 2
    # A bound method of an immutable, value-hashed instance may be jitted directly.
    assert jaxtypes.jit(Custom(5, True).calc)(jnp.array(2)).item() == 10


def test_pytree_dataclass_method_sees_replaced_values() -> None:
    @pytree_dataclass
    class Custom:
        x: jax.Array
        mul: Static[bool]

        @jaxtypes.jit
        def calc(self, y: jax.Array) -> jax.Array:
            return self.x * y if self.mul else y

    c = Custom(jnp.array(2.0), True)
    assert c.calc(jnp.array(3.0)).item() == 6.0
    c = dataclasses.replace(c, x=jnp.array(4.0))
    assert c.calc(jnp.array(3.0)).item() == 12.0
    assert len(Custom.calc.compiles) == 1  # new array values reuse the code
    c = dataclasses.replace(c, mul=False)
    assert Custom.calc(c, jnp.array(3.0)).item() == 3.0
    assert len(Custom.calc.compiles) == 2


def test_method_descriptor_is_replaced_by_jax_function_after_first_access() -> None:
    @static_dataclass
    class Model:
        k: int

        @jaxtypes.jit
        def apply(self, y: jax.Array) -> jax.Array:
            return y * self.k

    Model(2).apply(jnp.ones(1))
    assert type(Model.__dict__["apply"]) is type(jax.jit(lambda x: x))


# --- a pytree with a static field (new arrays reuse the code, a new static value recompiles) ---


@pytree_dataclass
class Params:
    x_array: jax.Array
    a: Static[int]

    def one_step(self, state: jax.Array, inp: jax.Array) -> tuple[jax.Array, jax.Array]:
        new = (self.x_array + state + jnp.ones(self.a)) * inp
        return new, new


@jaxtypes.jit
def scan_example(params: Params) -> tuple[jax.Array, jax.Array]:
    return jax.lax.scan(params.one_step, jnp.array([0.0, 1.0]), jnp.array([1.0, 2.0, 3.0]))


def test_new_array_values_reuse_code_new_static_field_recompiles() -> None:
    scan_example.clear_cache()
    before = len(scan_example.compiles)
    last, _ = scan_example(Params(jnp.array([1.0, 2.0]), 2))
    assert last.tolist() == [30.0, 51.0]
    last, _ = scan_example(Params(jnp.array([3.0, 4.0]), 2))
    assert last.tolist() == [60.0, 81.0]
    assert len(scan_example.compiles) == before + 1
    scan_example(Params(jnp.array([3.0]), 1))
    assert len(scan_example.compiles) == before + 2
    assert "static argument" not in " ".join(scan_example.compiles[-1].reasons)
    assert "argument 'params' changed" in scan_example.compiles[-1].reasons[0]
