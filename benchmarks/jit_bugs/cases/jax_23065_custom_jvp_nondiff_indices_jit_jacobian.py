"""Source: https://github.com/jax-ml/jax/issues/23065
Library: plain-jax
Reported: jakevdp's repro: a `jax.custom_jvp` with an index array in `nondiff_argnums=(1,)`, wrapped in `jax.jit`, and differentiated with `jax.jacobian(f)(x, indices)`; with `jax_check_tracer_leaks` on it fails with "Leaked trace ... Leaked tracer(s): Traced<ShapedArray(int32[3])>", the index array having been turned into a tracer by `jax.jit` before it reached the nondiff position. Running it here (jax 0.10.2) raises the leak check's exception ("Leaked trace DynamicJaxprTrace ... JitTracer(int32[3])").
Transcribed: the repro as posted (including its body `return x[indices]`, which reads the global `indices` rather than the parameter `index`); only the try/except around the failing call was added.
Hard: `f` is rebound to `jax.jit(f)` of the custom_jvp function, so the position that `jax.jacobian(f)(x, indices)` fills with the index array is traced by jit and then static for the custom_jvp.
"""
import jax
import jax.numpy as jnp
from functools import partial

jax.config.update("jax_check_tracer_leaks", True)

@partial(jax.custom_jvp, nondiff_argnums=(1,))
def f(x, index):
  return x[indices]

@f.defjvp
def f_jvp(primals, tangents):
  x, indices = primals
  x_dot, _ = tangents
  return f(x, indices), x_dot[indices]

f = jax.jit(f)

x = jnp.arange(10.0)
indices = jnp.array([1, 3, 5])

try:
  print(jax.jacobian(f)(x, indices))  # expect: static-dynamic-child
except Exception as e:
  print(type(e).__name__, str(e)[:300])
