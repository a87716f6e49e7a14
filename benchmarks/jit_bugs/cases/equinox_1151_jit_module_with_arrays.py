"""Source: https://github.com/patrick-kidger/equinox/issues/1151
Library: plain-jax
Reported: jax.jit(..., backend='cpu') works for equinox modules whose fields are all hashable, but fails for a module whose fields hold arrays.
Transcribed: the report's ModuleWithArrays; the stored copy of the report is cut off before its second module and its jit calls, so the call is completed as the report describes it (the module jitted with backend='cpu', then called).
Hard: the callable given to jax.jit is an equinox Module instance whose fields are typed and assigned jax.Array.
"""
import jax
import jax.numpy as jnp
import equinox as eqx

class ModuleWithArrays(eqx.Module):

    # fields are unhashable as far as JAX is concerned
    # but eqx can deal okay
    coefficients: jax.Array
    weights: jax.Array
    
    def __init__(self):
        self.coefficients = jnp.array([1.0, 2.0, 3.0])
        self.weights = jnp.array([0.5, 0.3, 0.2])
    
    def __call__(self, x):
        return jnp.sum(self.coefficients * self.weights) * x

module_with_arrays = ModuleWithArrays()
print(jax.jit(module_with_arrays, backend="cpu")(1.0))  # expect: static-dynamic-child
