"""Source: https://stackoverflow.com/questions/78485515
Library: equinox
Reported: a custom pytree whose static field (aux_data) holds a jax.numpy array comes out of a jitted function with that field traced (a Traced<ShapedArray(...)> in the returned pytree's aux data), while a numpy array there stays concrete; the asker saw the same with equinox's static_field, simple_pytree's static_field and a hand-registered dataclass.
Transcribed: read from the question as mirrored at https://coderapp.vercel.app/answer/78485515 (same question id). The question's get_pytree_impl is kept as written; the mirror's copy is cut off at `def unflatten(aux_dat`, so the rest is completed as the question describes it: the unflatten rule and its register_pytree_node call, and a jitted function that multiplies the leaf and the aux data by two, run for the equinox and the dataclasses base (simple_pytree is not installed, so its branch is not run).
Hard: the static marker is chosen at run time (eqx.static_field, simple_pytree's static_field, or dataclasses.field plus hand-written flattening that returns y as aux data); the field is declared jax.numpy.ndarray.
"""
import jax
from jax.tree_util import tree_structure, tree_leaves
import numpy as np

def get_pytree_impl(base):
    if base == "equinox":
        import equinox as eqx
        Module = eqx.Module
        static_field = eqx.static_field
    elif base == "simple_pytree":
        from simple_pytree import Pytree, static_field
        Module = Pytree
    elif base == "dataclasses":
        from dataclasses import dataclass, field
        @dataclass
        class Module():
            pass
        static_field = field
    
    class PytreeImpl(Module):
        x: jax.numpy.ndarray
        y: jax.numpy.ndarray = static_field()  # expect: static-dynamic-child

        def __init__(self, x, y):
            self.x = x
            self.y = y

    if base == 'dataclasses':
        from jax.tree_util import register_pytree_node
        
        def flatten(ptree):
            return ((ptree.x,), ptree.y)
        
        def unflatten(aux_data, children):
            return PytreeImpl(children[0], aux_data)

        register_pytree_node(PytreeImpl, flatten, unflatten)

    return PytreeImpl


def times_two(ptree):
    return type(ptree)(ptree.x * 2, ptree.y * 2)


for base in ["equinox", "dataclasses"]:
    PytreeImpl = get_pytree_impl(base)
    ptree = PytreeImpl(jax.numpy.array([1.0, 2.0]), jax.numpy.array([3.0, 4.0]))
    print(base, tree_structure(ptree), tree_leaves(ptree))
    out = jax.jit(times_two)(ptree)
    print(base, out.y)  # Traced<ShapedArray(float32[2])>... with a jnp array; concrete with np.array
