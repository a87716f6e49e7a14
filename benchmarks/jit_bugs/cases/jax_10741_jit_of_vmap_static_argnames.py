"""Source: https://github.com/jax-ml/jax/issues/10741
Library: plain-jax
Correct: jax.jit(func_vmap, static_argnames=['cond']) jits, once and at module level, the function jax.vmap returns; vmap keeps func's signature, so cond is found by name and held static (a bool), and in_axes=None leaves it unmapped, so `if cond:` sees a Python bool. Nothing is jitted afresh and the static value is hashable; a checker must not report the jit of a transformation's result made once, nor the static bool. The report is about xmap, which turned the static argument into a tracer.
Transcribed: the xmap lines (jax.experimental.maps.xmap, since removed from JAX) are left out; the vmap half of the report is kept as posted.
"""
import jax
import jax.numpy as jnp

# dummy function
def func(cond, data):
   if cond: return data
   else: return data

# vectorisation
func_vmap = jax.vmap(func, in_axes=[None, 0], out_axes=0)

# jit compiling
func_vmap_jit = jax.jit(func_vmap, static_argnames=['cond'])

# running
cond = True
data = jnp.ones(100)
out_vmap = func_vmap_jit(cond, data)
print(out_vmap.shape)
