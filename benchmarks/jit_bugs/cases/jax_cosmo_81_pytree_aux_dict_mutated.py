"""Source: https://github.com/DifferentiableUniverseInitiative/jax_cosmo/issues/81
Library: plain-jax
Reported: testing custom pytree aux_data to store config parameters showed 'very strange behavior': the aux data is the instance's config dict, tree_unflatten updates that dict in place, and the default {'a': 0} is one dict shared by every instance built without a config (including those tree_unflatten builds), so after the jitted g(C(0., {'b': 2})) the unrelated instances C(0.) and f(C(0.)) report _config {'a': 0, 'b': 2}.
Transcribed: as posted in the thread, with the tuple of results printed; the comment's `returning` output is cut off in the stored copy after its second entry, so it is not reproduced.
Hard: the aux data is an attribute assigned from an unannotated parameter whose default is a dict literal; the dict that gets changed is that default, shared by C(0.) and by every instance tree_unflatten builds with cls(*children).
"""
from jax import jit
from jax.tree_util import register_pytree_node_class

@register_pytree_node_class
class C:
    def __init__(self, p, config={'a': 0}):
        self.p = p
        self._config = config

    def tree_flatten(self):
        children = (self.p,)
        aux_data = self._config
        return children, aux_data

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        c = cls(*children)
        c._config.update(aux_data)
        return c
    
def f(c):
    c.p = 1. + c.p
    return c

g = jit(f)

print((
    vars(C(0.)),
    vars(f(C(0.))),
    vars(f(C(0., {'a': 1}))),  # expect: static-unhashable
    vars(g(C(0., {'b': 2}))),  # expect: static-unhashable
))
