"""Source: https://github.com/jax-ml/jax/pull/28979
Library: jax-dataclass-registration
Reported: a numpy array in a dataclasses.field(metadata={'static': True}) of a register_dataclass class passes the first jitted call; the second call, with an equal new instance, fails with 'The truth value of an array with more than one element is ambiguous'.
Transcribed: the pull request's 'Before' session (its example of the failure it addresses) as a script.
Hard: the static marker is the field's metadata={'static': True} under @jax.tree_util.register_dataclass.
"""
import jax
import dataclasses
import numpy as np

@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Tree:
    x : np.ndarray = dataclasses.field(metadata={'static': True})  # expect: static-dynamic-child

f = jax.jit(lambda x: x)
f(Tree(np.arange(4)))
f(Tree(np.arange(4)))
