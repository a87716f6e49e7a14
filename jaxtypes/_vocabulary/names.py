"""The full names both halves refer to: what the mypy plugin hooks, and the classes trusted as
static values.

mypy resolves a function or class to the module that defines it, not to where users import it
from: jaxtypes' own public names are defined in its private subpackages, and jax's in
``jax._src``. Every such name the plugin hooks is written here once, as a string, so a move on
either side changes one file; ``tests/packaging/test_hooked_names.py`` checks that each
resolves to the object it names in the installed jax and jaxtypes.

Imports nothing but ``typing``.
"""

from __future__ import annotations

from typing import NamedTuple

# --- jaxtypes' own, where they are defined ----------------------------------------------------

STATIC_MARKER = "jaxtypes._classes.markers.Static"
DYNAMIC_MARKER = "jaxtypes._classes.markers.Dynamic"
STATIC_DECORATOR = "jaxtypes._classes.static.static_dataclass"
PYTREE_DECORATOR = "jaxtypes._classes.pytree.pytree_dataclass"
FIELD = "jaxtypes._classes.fields.field"
TRUSTED_DECORATOR = "jaxtypes._classes.trusted_types.trusted_static"
JAXTYPES_JIT = "jaxtypes._jit.jaxtypes_jit.jit"
JAXTYPES_JITTED = "jaxtypes._jit.jaxtypes_jit.Jitted"
"""What ``jaxtypes.jit`` returns; the plugin hooks its ``__call__`` and ``__get__``."""

# --- the standard library's -----------------------------------------------------------------------

PARTIAL = "functools.partial"
"""``functools.partial``: calling what it makes calls the function it was given."""

MEMOISERS = frozenset({"functools.lru_cache", "functools.cache", "functools.cached_property"})
"""Decorators that keep what a function returns for its arguments: equal calls return the first
call's object, not a new one."""

# --- jax's, where jax defines them ---------------------------------------------------------------

JAX_JIT = "jax._src.api.jit"
"""``jax.jit``."""

JITS = {
    JAX_JIT: "jax.jit",
    "jax._src.pmap.pmap": "jax.pmap",
    "jax._src.api.pmap": "jax.pmap",
}
"""jax's transformations that compile the function they are given once per function object and
per value of its static positions (hashed, compared): ``jax.jit``, and ``jax.pmap`` with its
``static_broadcasted_argnums`` (defined in ``jax._src.pmap`` by newer jax, ``jax._src.api`` by
older), by where jax defines them, with their public names."""

JITTED_LIBRARY_FUNCTIONS: dict[str, tuple[str, tuple[int, ...], tuple[str, ...]]] = {
    "jax.experimental.ode.odeint": ("odeint", (0,), ("func", "rtol", "atol", "mxstep", "hmax")),
}
"""Library functions that hand parameters, as given, to a jit's static positions, with the name
calls use and those positions and names: ``odeint`` gives ``func`` (closure-converted, cached by its identity) and its tolerances to
its jitted ``_odeint_wrapper``. A call of one is checked as a call of a jitted function: a new
``func`` at each call compiles again."""

_CUSTOM_DERIVATIVES = "jax._src.custom_derivatives"
CUSTOM_DERIVATIVES = {
    f"{_CUSTOM_DERIVATIVES}.custom_jvp": "jax.custom_jvp",
    f"{_CUSTOM_DERIVATIVES}.custom_vjp": "jax.custom_vjp",
}
"""jax's functions with a custom derivative rule, whose ``nondiff_argnums`` positions the rule
closes over as Python values: a tracer there fails (``custom_vjp``) or escapes its trace
(``custom_jvp``). By where jax defines them, with their public names; the plugin hooks their
construction and their ``__call__``."""

TREE_PARTIAL = "jax._src.tree_util.Partial"
"""``jax.tree_util.Partial``: a pytree whose children are the arguments it binds."""

JAX_JITTED = "jax._src.pjit.JitWrapped"
"""What ``jax.jit`` returns."""

JAX_JITTED_CALL = f"{JAX_JITTED}.__call__"
"""Calling what ``jax.jit`` returns."""

JAX_JITTED_STAGES = tuple(f"{JAX_JITTED}.{stage}" for stage in ("trace", "lower", "eval_shape"))
"""The methods of what ``jax.jit`` returns that take the arguments of its call and trace them as
the call does (``jitted.lower(x, n)``): the same static positions, hashed the same."""

JAX_MAKE_JAXPR = "jax._src.api.make_jaxpr"
"""``jax.make_jaxpr``: what it returns takes the arguments it traces."""

JAX_VMAP = "jax._src.api.vmap"
"""``jax.vmap``: what it returns maps its arguments (those ``in_axes`` does not give None)."""

_LOOPS = "jax._src.lax.control_flow.loops"
_CONDITIONALS = "jax._src.lax.control_flow.conditionals"


class LaxControlFlow(NamedTuple):
    """A function of jax.lax's control flow: its public name, the places (positions, keywords) of
    the functions it traces, whose parameters are all tracers there (a loop's index too), and
    whether it caches each trace keyed on the function it is given, hashed as ``jax.jit``'s is
    (``jax.lax.map`` wraps the function in a lambda of its own at every call: it keys on
    nothing the caller gives, and traces again at every call whatever it is given); ``many``:
    what is given at the places is a sequence of such functions (``jax.lax.switch``'s branches);
    ``old_form``: a number of positional arguments and the positions of the functions where a
    call of that many reads as a deprecated signature jax still accepts (``jax.lax.cond(pred,
    true_operand, true_fun, false_operand, false_fun)``), whose functions jax wraps in lambdas of
    its own at every call: keyed on nothing the caller gives, as ``jax.lax.map``."""

    public: str
    places: frozenset[int | str]
    keyed: bool = True
    many: bool = False
    old_form: tuple[int, frozenset[int]] | None = None


LAX_TRACED_FUNCTIONS: dict[str, LaxControlFlow] = {
    f"{_LOOPS}.fori_loop": LaxControlFlow("jax.lax.fori_loop", frozenset({2, "body_fun"})),
    f"{_LOOPS}.while_loop": LaxControlFlow("jax.lax.while_loop", frozenset({0, 1, "cond_fun", "body_fun"})),
    f"{_LOOPS}.scan": LaxControlFlow("jax.lax.scan", frozenset({0, "f"})),
    f"{_LOOPS}.map": LaxControlFlow("jax.lax.map", frozenset({0, "f"}), keyed=False),
    f"{_CONDITIONALS}.cond": LaxControlFlow(
        "jax.lax.cond", frozenset({1, 2, "true_fun", "false_fun"}), old_form=(5, frozenset({2, 4}))
    ),
    f"{_CONDITIONALS}.switch": LaxControlFlow("jax.lax.switch", frozenset({1, "branches"}), many=True),
}
"""jax.lax's control flow, by where it is defined."""

TRACING_TRANSFORMS = {
    JAX_MAKE_JAXPR: "jax.make_jaxpr",
    "jax._src.api.eval_shape": "jax.eval_shape",
    JAX_VMAP: "jax.vmap",
}
"""jax's transformations that trace the arguments they pass on to the function they are given
(``jax.make_jaxpr`` but its own ``static_argnums``, ``jax.vmap`` but where ``in_axes`` gives
None), by where jax defines them."""

DIFFERENTIATING_TRANSFORMS = {
    f"jax._src.api.{name}": f"jax.{name}"
    for name in ("grad", "value_and_grad", "jacfwd", "jacrev", "jacobian", "hessian")
}
"""jax's differentiating transformations, by where jax defines them: each traces the parameters
of the function it is given that ``argnums`` names (the first, by default)."""

JAX_EXPORT = "jax._src.export._export.export"
"""``jax.export.export``: traces the function it is given once, into a serialised module."""

EQX_FILTER_JIT = "equinox._jit.filter_jit"
"""``eqx.filter_jit``, where equinox defines it."""

NNX_JIT = "flax.nnx.transforms.compilation.jit"
"""``nnx.jit``, where flax defines it: a new ``jax.jit`` of a wrapper of the function per call."""

ARRAY_CONVERSIONS = frozenset({"jax.numpy.array", "jax.numpy.asarray"})
"""``jnp.array`` and ``jnp.asarray``: given a Python number, a 0-d array."""

JAX_ARRAY_CLASSES = frozenset({"jax._src.basearray.Array", "jax.Array"})
"""``jax.Array``, where jax defines it and its public alias: its items, met by iterating an
array, are arrays again whatever its shape (a 1-d numpy array's are numpy scalars)."""

ARRAY_CLASSES = JAX_ARRAY_CLASSES | {"numpy.ndarray"}
"""``jax.Array`` and ``numpy.ndarray``."""

NODE_CONTAINERS = {
    "builtins.list": "items",
    "builtins.tuple": "items",
    "builtins.dict": "values",
    "collections.OrderedDict": "values",
    "collections.defaultdict": "values",
}
"""The containers jax registers as pytree nodes, and what in them jit meets as leaves."""

PYTHON_SCALARS = frozenset({"builtins.int", "builtins.float", "builtins.complex"})
"""Python's scalars: jit traces their subclasses too (``bool``, an ``IntEnum``)."""

JAX_PRIVATE = "jax._src."
"""Where jax defines what it exports: a function found there is named ``jax.<name>`` to users."""

_TREE_UTIL = "jax._src.tree_util"

TREE_MAPS = frozenset(
    {
        f"{_TREE_UTIL}.tree_map",
        f"{_TREE_UTIL}.tree_map_with_path",
        "jax._src.tree.map",
        "jax._src.tree.map_with_path",
        "builtins.map",
    }
)
"""What calls the function it is given first, once per leaf or item, before it returns:
``jax.tree_util.tree_map``, ``jax.tree.map``, their ``_with_path`` forms, Python's ``map``
(lazy: its items are made as they are read)."""

REGISTER_DATACLASS = f"{_TREE_UTIL}.register_dataclass"
REGISTER_STATIC = f"{_TREE_UTIL}.register_static"
TREE_STATIC = "jax._src.tree.static"
"""``jax.tree.static()``, which marks a ``register_dataclass`` field static."""

TREE_STRUCTURE_FUNCTIONS = frozenset(
    {f"{_TREE_UTIL}.tree_flatten", f"{_TREE_UTIL}.tree_structure", "jax._src.tree.flatten", "jax._src.tree.structure"}
)
"""What hands out a pytree's structure, whose ``==`` compares the metadata of its nodes."""

FLATTEN_METHOD_REGISTRATIONS = frozenset(
    {f"{_TREE_UTIL}.register_pytree_node_class", f"{_TREE_UTIL}.register_pytree_with_keys_class"}
)
"""``jax.tree_util``'s functions that register a class flattened by its own method."""

PYTREE_CLASS_DECORATORS = FLATTEN_METHOD_REGISTRATIONS | {REGISTER_DATACLASS, REGISTER_STATIC}
"""``jax.tree_util``'s functions that register a class as a pytree, used as decorators."""

PYTREE_NODE_REGISTRATIONS = frozenset({f"{_TREE_UTIL}.register_pytree_node", f"{_TREE_UTIL}.register_pytree_with_keys"})
"""``jax.tree_util``'s functions that register a class with hand-written flatten functions."""

PYTREE_REGISTRATIONS = PYTREE_CLASS_DECORATORS | PYTREE_NODE_REGISTRATIONS
"""Every ``jax.tree_util`` function that registers a class as a pytree."""

NUMPY_NO_JAX_SCALARS = ("flexible", "object_", "datetime64", "timedelta64")
"""numpy's scalar types (as ``numpy.<name>``, with their subclasses: ``str_``, ``bytes_``,
``void``) whose values jit cannot trace; every other ``numpy.generic``, ``ml_dtypes.bfloat16``
too, it traces as a scalar."""

JAX_DEPENDENCIES = frozenset({"numpy", "jaxlib", "ml_dtypes", "opt_einsum", "scipy"})
"""The packages jax itself depends on, besides the standard library: none can import jax to
register a class of its own as a pytree, so only the program can (numpy's ``dtype`` and random
generators, jaxlib's devices, like ``str`` and ``set``, are leaves jit cannot trace)."""

# --- classes trusted as static values, by public name (``jaxtypes._classes.trusted_types``) ------

INTERNED_TYPES: tuple[str, ...] = (
    "jax.sharding.Mesh",
    "jax.sharding.AbstractMesh",
    "jax.sharding.PartitionSpec",
    "jax.Device",
)
"""JAX's classes whose equal values are one object."""

VALUE_TYPES: tuple[str, ...] = ("equinox.Module", "flax.linen.Module")
"""Other libraries' classes that hash and compare by value though not frozen dataclasses."""

TRUSTED_TYPES = INTERNED_TYPES + VALUE_TYPES

EQUINOX_MODULE = "equinox._module._module.Module"
"""``eqx.Module``, where equinox defines it."""

VALUE_BOUND_METHODS = frozenset({EQUINOX_MODULE})
"""Classes whose instances bind their methods as values: equinox wraps each method, so
``module.method`` is a module holding ``self``, which hashes by its fields."""

ADMITTED_UNHASHABLE: dict[str, str] = {
    **dict.fromkeys(("Sequence", "MutableSequence", "Iterable", "Collection", "Reversible"), "list"),
    **dict.fromkeys(("AbstractSet", "Set", "MutableSet"), "set"),
    **dict.fromkeys(("Mapping", "MutableMapping"), "dict"),
}
"""The collection interfaces of ``typing`` and ``collections.abc`` (by class name) whose usual
values include an unhashable builtin: a parameter declared ``Sequence[int]`` is given a list."""
