"""Source: https://github.com/PlasmaControl/DESC/issues/2184
Library: plain-jax
Reported: an objective that lists a jax array among its `_static_attrs` works for the first jitted computation (compute_scaled_error), but the jitted jacobian computation that flattens the same object again hangs; with a numpy array instead everything works.
Transcribed: DESC's `_Objective`, `Equilibrium` and `get("precise_QA")` are replaced by a minimal stand-in class whose flatten function is DESC's generic `_AutoRegisterPytree._generic_tree_flatten` before the fix (attributes named in `_static_attrs` go to the aux data through `_make_hashable`, every other attribute is a child); `compute_scaled_error` and `jac_scaled_error` are two jitted functions of the objective and its parameters. In jax 0.10.2 the second jitted call does not hang: the aux data, a tuple of 0-d jax arrays built afresh by every flatten, is compared under a trace and fails (or, outside one, compiles anew each call); a trace counter is printed.
Hard: the attribute is static only because the class's flatten function (registered through a metaclass in DESC, with register_pytree_node here) puts every name of `_static_attrs` into the aux data; the array is given at the constructor call and stored by `self._arr = arr`.
"""
import jax
import jax.numpy as jnp
import numpy as np

TRACES = [0]


def _make_hashable(x):
    # turn unhashable ndarray of ints into a hashable tuple
    if isinstance(x, list):
        return [_make_hashable(y) for y in x]
    if isinstance(x, tuple):
        return tuple([_make_hashable(y) for y in x])
    if isinstance(x, dict):
        return {key: _make_hashable(val) for key, val in x.items()}
    if hasattr(x, "shape"):
        return ("ndarray", x.shape, tuple(x.flatten()))
    return x


def _unmake_hashable(x):
    # turn tuple of ints and shape to ndarray
    if isinstance(x, tuple) and len(x) and x[0] == "ndarray":
        return np.array(x[2]).reshape(x[1])
    if isinstance(x, list):
        return [_unmake_hashable(y) for y in x]
    if isinstance(x, tuple):
        return tuple([_unmake_hashable(y) for y in x])
    if isinstance(x, dict):
        return {key: _unmake_hashable(val) for key, val in x.items()}
    return x


class DummyObj:
    _static_attrs = ["_dim_f", "_arr"]

    def __init__(self, eq, arr):
        self._arr = arr
        self._things = eq
        self._dim_f = 1

    def compute(self, params, constants=None):
        TRACES[0] += 1
        return params["Psi"] * jnp.sum(self._arr)


def _generic_tree_flatten(obj):
    children = {}
    aux_data = []
    static_attrs = getattr(obj, "_static_attrs", [])
    for key, val in obj.__dict__.items():
        if key in static_attrs:
            aux_data += [(key, _make_hashable(val))]
        else:
            children[key] = val
    return ((children,), aux_data)


def _generic_tree_unflatten(aux_data, children):
    obj = DummyObj.__new__(DummyObj)
    obj.__dict__.update(children[0])
    for kv in aux_data:
        setattr(obj, kv[0], _unmake_hashable(kv[1]))
    return obj


jax.tree_util.register_pytree_node(DummyObj, _generic_tree_flatten, _generic_tree_unflatten)


@jax.jit
def compute_scaled_error(obj, params):
    return obj.compute(params)


@jax.jit
def jac_scaled_error(obj, params):
    return jax.jacfwd(lambda p: compute_scaled_error(obj, p))(params)


eq = {"Psi": jnp.asarray(1.0)}
# if you use numpy array instead everything works
obj = DummyObj(eq, arr=jnp.arange(3))  # expect: static-dynamic-child

# first flattening is fine since there is no cache
f = compute_scaled_error(obj, eq)
print(f)

# hangs indefinitely (in DESC); fails or retraces here
J = jac_scaled_error(obj, eq)
print(J["Psi"])
print("traces:", TRACES[0])
