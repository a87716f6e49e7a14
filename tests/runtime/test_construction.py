"""Construction of static and pytree instances: the compiled constructors behave like the
dataclass ``__init__`` they replace, every way into an instance validates its static fields,
and metadata coming back from this library's own flatten is not walked again."""

from __future__ import annotations

import copy
import dataclasses
import gc
import inspect
import pickle
import weakref
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import pytest

import jaxtypes as jt
import jaxtypes._classes.constructors
from jaxtypes import Static, pytree_dataclass, static_dataclass
from jaxtypes._classes.constructors import rebuild

STATIC_DECORATORS = [static_dataclass, static_dataclass(intern=False)]
DECORATORS = pytest.mark.parametrize(
    "decorate", [*STATIC_DECORATORS, pytree_dataclass], ids=["static", "static-uninterned", "pytree"]
)


@static_dataclass
class Settings:
    order: int = 2


@pytree_dataclass
class Layer:
    weights: jax.Array
    width: Static[int]
    axes: Static[tuple[int, ...]] = (0, 1)
    settings: Settings = Settings()


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The values the compiled constructors hand to ``static_key`` from now on."""
    walked: list[object] = []
    original = jaxtypes._classes.constructors.static_key

    def spy(value: Any) -> Any:
        walked.append(value)
        return original(value)

    monkeypatch.setattr(jaxtypes._classes.constructors, "static_key", spy)
    return walked


def layer() -> Layer:
    return Layer(jnp.ones(3), 4)


def with_metadata(treedef: Any, metadata: tuple[Any, ...]) -> Any:
    """A treedef like ``treedef`` (a ``Layer``'s) whose root holds ``metadata``: one this library's
    constructors never saw, flattened from an instance built without them (every jax version
    can do that; ``PyTreeDef.from_node_data_and_children`` is younger)."""
    (node_type, _), (weights,) = treedef.node_data(), treedef.children()
    names = [name for name, _ in node_type.__jaxtypes_pytree__.meta_fields]
    bypassed = bypassing_validation(node_type, weights=jnp.ones(3), **dict(zip(names, metadata)))
    built = jax.tree_util.tree_structure(bypassed)
    assert built.children() == [weights]
    return built


# -- the library's own flatten ---------------------------------------------------------------


def test_unflattening_our_own_flatten_walks_no_metadata_again(walks: list[object]) -> None:
    axes = (2, 3)
    built = Layer(jnp.ones(3), 4, axes)
    assert walks == [axes]  # walked once, when the instance was built
    leaves, treedef = jax.tree_util.tree_flatten(built)
    for _ in range(3):
        rebuilt = jax.tree_util.tree_unflatten(treedef, leaves)
        mapped = jax.tree_util.tree_map(lambda leaf: leaf * 2, rebuilt)
    assert walks == [axes]
    assert mapped.axes is axes and mapped.width == 4 and mapped.settings is Settings()
    assert jnp.array_equal(mapped.weights, jnp.full(3, 2.0))


def test_jit_scan_and_grad_rebuild_without_walking_metadata(walks: list[object]) -> None:
    built = layer()
    walks.clear()

    @jax.jit
    def run(start: Layer) -> Layer:
        def step(carry: Layer, _: None) -> tuple[Layer, None]:
            return dataclasses.replace(carry, weights=carry.weights + 1), None

        return jax.lax.scan(step, start, None, length=5)[0]

    assert jnp.array_equal(run(built).weights, jnp.full(3, 6.0))
    assert jnp.array_equal(jax.grad(lambda p: (p.weights**2).sum())(built).weights, jnp.full(3, 2.0))
    assert walks == []


# -- every other way in ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("metadata", "message"),
    [
        ((4, [0, 1], Settings()), r"Layer.axes holds a list"),
        ((4, (0, [1]), Settings()), r"Layer.axes\[1\] holds a list"),
        ((jnp.ones(2), (0, 1), Settings()), r"Layer.width holds an array"),
        ((4, (0, 1), lambda: None), r"Layer.settings holds a lambda"),
    ],
)
def test_a_treedef_with_bad_metadata_is_refused_at_unflatten(metadata: tuple[Any, ...], message: str) -> None:
    leaves, treedef = jax.tree_util.tree_flatten(layer())
    with pytest.raises(jt.StaticValueError, match=message):
        jax.tree_util.tree_unflatten(with_metadata(treedef, metadata), leaves)


def test_metadata_built_elsewhere_is_walked_even_when_equal(walks: list[object]) -> None:
    leaves, treedef = jax.tree_util.tree_flatten(layer())
    walks.clear()
    fresh = tuple([0, 1])  # equal to the default, but another object
    rebuilt = jax.tree_util.tree_unflatten(with_metadata(treedef, (4, fresh, Settings())), leaves)
    assert rebuilt.axes == (0, 1) and walks == [fresh]
    unpickled = pickle.loads(pickle.dumps(treedef))
    jax.tree_util.tree_unflatten(unpickled, leaves)
    assert len(walks) == 2 and walks[1] == (0, 1) and walks[1] is not fresh


def bypassing_validation(cls: type, **values: Any) -> Any:
    """An instance built without its constructor, as a corrupted pickle would describe it."""
    instance = object.__new__(cls)
    for name, value in values.items():
        object.__setattr__(instance, name, value)
    return instance


@pytest.mark.parametrize(
    "way_in",
    [pickle.loads, copy.copy, copy.deepcopy],
    ids=["unpickling", "copy", "deepcopy"],
)
def test_unpickling_and_copies_validate(way_in: Callable[[Any], Any]) -> None:
    bad_layer = bypassing_validation(Layer, weights=jnp.ones(2), width=[4], axes=(0,), settings=Settings())
    bad_settings = bypassing_validation(Settings, order=[2])
    for bad, field in ((bad_layer, "Layer.width"), (bad_settings, "Settings.order")):
        argument = pickle.dumps(bad) if way_in is pickle.loads else bad
        with pytest.raises(jt.StaticValueError, match=rf"^{field} holds a list"):
            way_in(argument)


def test_pytree_instances_pickle_and_copy_through_their_constructor() -> None:
    built = layer()
    assert built.__reduce__()[0] is rebuild
    for twin in (pickle.loads(pickle.dumps(built)), copy.deepcopy(built), copy.copy(built)):
        assert type(twin) is Layer and twin.width == 4 and twin.settings is Settings()
        assert jnp.array_equal(twin.weights, built.weights)


@DECORATORS
def test_the_constructor_and_replace_validate(decorate: Callable[[type], type]) -> None:
    @decorate
    class Config:
        n: Static[int] = 1

    with pytest.raises(jt.StaticValueError, match="Config.n holds a list"):
        Config([1])
    with pytest.raises(jt.StaticValueError, match="Config.n holds a list"):
        dataclasses.replace(Config(), n=[1])


# -- what the compiled constructors keep from the dataclass ---------------------------------


class Doubled:
    """A data descriptor as a field's default: the dataclass stores through its ``__set__``."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = "_" + name

    def __get__(self, instance: object, owner: type) -> int:
        return 1 if instance is None else getattr(instance, self.name)  # type: ignore[no-any-return]

    def __set__(self, instance: object, value: int) -> None:
        object.__setattr__(instance, self.name, 2 * value)


def config_body() -> type:
    class Config:
        type: Static[str]
        shape: Static[tuple[int, ...]] = dataclasses.field(default_factory=lambda: (1, 2))
        _: dataclasses.KW_ONLY
        scale: Static[float] = 1.0

    return Config


@DECORATORS
def test_defaults_factories_keyword_only_fields_and_signature(decorate: Callable[[type], type]) -> None:
    Config = decorate(config_body())
    config = Config("a", scale=2.0)
    assert (config.type, config.shape, config.scale) == ("a", (1, 2), 2.0)
    plain = dataclasses.dataclass(frozen=True)(config_body())
    assert str(inspect.signature(Config)) == str(inspect.signature(plain))
    with pytest.raises(TypeError, match="positional arguments but 4 were given"):
        Config("a", (1,), 2.0)
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'type'"):
        Config()
    with pytest.raises(TypeError, match="unexpected keyword argument 'other'"):
        Config("a", other=1)


@DECORATORS
def test_each_construction_calls_the_default_factory(decorate: Callable[[type], type]) -> None:
    calls: list[int] = []

    def factory() -> tuple[int, ...]:
        calls.append(1)
        return (len(calls),)

    @decorate
    class Config:
        made: Static[tuple[int, ...]] = dataclasses.field(default_factory=factory)

    assert Config().made == (1,) and Config().made == (2,) and Config((7,)).made == (7,)
    assert len(calls) == 2


@pytest.mark.parametrize("decorate", STATIC_DECORATORS, ids=["static", "static-uninterned"])
def test_post_init_init_vars_and_init_false_fields(decorate: Callable[[type], type]) -> None:
    @decorate
    class Config:
        n: int
        scale: dataclasses.InitVar[int] = 1
        scaled: int = dataclasses.field(init=False, default=0)
        label: str = dataclasses.field(init=False, default="fixed")

        def __post_init__(self, scale: int) -> None:
            object.__setattr__(self, "scaled", self.n * scale)

    config = Config(2, 3)
    assert (config.n, config.scaled, config.label) == (2, 6, "fixed")
    assert dataclasses.replace(config, n=5, scale=2).scaled == 10
    assert Config(2, 3) == config and Config(2, 2) != config


def test_a_pytree_post_init_runs_at_every_construction_and_unflatten() -> None:
    seen: list[int] = []

    @pytree_dataclass
    class State:
        x: jax.Array
        n: Static[int]
        offset: dataclasses.InitVar[int] = 0

        def __post_init__(self, offset: int) -> None:
            seen.append(self.n + offset)

    leaves, treedef = jax.tree_util.tree_flatten(State(jnp.ones(1), 2, 1))
    jax.tree_util.tree_unflatten(treedef, leaves)
    assert seen == [3, 2]


def test_post_init_results_are_part_of_a_static_key_and_validated() -> None:
    @static_dataclass
    class Config:
        n: int
        derived: Any = dataclasses.field(init=False, default=None)

        def __post_init__(self) -> None:
            object.__setattr__(self, "derived", [self.n] if self.n < 0 else self.n * 2)

    assert Config(2) is Config(2) and Config(2).derived == 4 and Config(2) is not Config(3)
    with pytest.raises(jt.StaticValueError, match="Config.derived holds a list"):
        Config(-1)


@DECORATORS
def test_a_descriptor_field_is_stored_through_the_descriptor(decorate: Callable[[type], type]) -> None:
    @decorate
    class Config:
        n: Static[int] = Doubled()  # type: ignore[assignment]

    assert Config(3).n == 6 and Config().n == 2
    if decorate is static_dataclass:
        assert Config(3) is Config(3) and Config(3) is not Config(6)


@DECORATORS
def test_fields_named_like_the_constructors_own_names(decorate: Callable[[type], type]) -> None:
    @decorate
    class Config:
        self: Static[int] = 1
        cls: Static[int] = 2
        type: Static[str] = "t"
        hash: Static[float] = 0.5

    config = Config(3, 4, "u", 1.5)
    assert (config.self, config.cls, config.type, config.hash) == (3, 4, "u", 1.5)


@DECORATORS
def test_an_init_the_class_wrote_is_kept_and_what_it_stores_is_validated(decorate: Callable[[type], type]) -> None:
    @decorate
    class Config:
        n: Static[Any]
        label: Static[str] = dataclasses.field(default_factory=lambda: "default")

        def __init__(self, half: Any, *, label: str = "own") -> None:
            object.__setattr__(self, "n", [half] if half is None else 2 * half)
            object.__setattr__(self, "label", label)

    assert (Config(3).n, Config(3).label, Config(3, label="x").label) == (6, "own", "x")
    assert str(inspect.signature(Config)) == "(half: 'Any', *, label: 'str' = 'own') -> 'None'"
    if decorate is static_dataclass:
        assert Config(3) is Config(3) and Config(3) is not Config(4)
    with pytest.raises(jt.StaticValueError, match="Config.n holds a list"):
        Config(None)


# -- what a static instance keeps alive --------------------------------------------------------


@static_dataclass
class Part:
    name: str


@static_dataclass
class Whole:
    part: Part
    parts: tuple[Part, ...] = ()


@pytree_dataclass
class Carrier:
    x: jax.Array
    part: Part


def test_configs_held_only_by_a_freed_parent_or_pytree_are_freed() -> None:
    part, carried = Part("only in a whole"), Part("in a pytree")
    whole = Whole(part, (Part("in a tuple"),))
    carrier = Carrier(jnp.ones(1), carried)
    leaves, treedef = jax.tree_util.tree_flatten(carrier)
    assert treedef.node_data()[1] == (carried,)
    jax.tree_util.tree_unflatten(treedef, leaves)
    refs = [weakref.ref(part), weakref.ref(carried)]
    del part, carried, whole, carrier, treedef
    gc.collect()
    assert [ref() for ref in refs] == [None, None]
