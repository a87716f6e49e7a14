"""Source: https://github.com/jax-ml/jax/blob/01a644217fe564e141f33d3f45fda9c5787ab275/docs/notebooks/Custom_derivative_rules_for_Python_code.md
Library: plain-jax
Correct: the tutorial's section "Handling non-differentiable arguments": `app` and `app2` are `jax.custom_jvp` functions (and `app` again a `jax.custom_vjp`) whose function-valued arguments are declared in `nondiff_argnums`, and every call passes lambdas written at the call, also through `grad(app, 1)`. Nondiff arguments are what function-valued arguments are meant for ("nondiff_argnums should only be used for argument values that don't correspond to JAX types ... like Python callables or strings"); a `custom_jvp`/`custom_vjp` caches no compiled code on them. A checker that treats these functions like jitted ones and reports a lambda passed where it expects arrays, or a fresh callable in a static position, would flag the tutorial.
Transcribed: the section's cells as written, in order, with the tutorial's imports (`partial`, `custom_jvp`, `custom_vjp`, `grad`); the `custom_vjp` `app` redefines the name as in the tutorial.
"""
from functools import partial

from jax import custom_jvp, custom_vjp, grad


@partial(custom_jvp, nondiff_argnums=(0,))
def app(f, x):
  return f(x)

@app.defjvp
def app_jvp(f, primals, tangents):
  x, = primals
  x_dot, = tangents
  return f(x), 2. * x_dot

print(app(lambda x: x ** 3, 3.))

print(grad(app, 1)(lambda x: x ** 3, 3.))


@partial(custom_jvp, nondiff_argnums=(0, 2))
def app2(f, x, g):
  return f(g((x)))

@app2.defjvp
def app2_jvp(f, g, primals, tangents):
  x, = primals
  x_dot, = tangents
  return f(g(x)), 3. * x_dot

print(app2(lambda x: x ** 3, 3., lambda y: 5 * y))

print(grad(app2, 1)(lambda x: x ** 3, 3., lambda y: 5 * y))


@partial(custom_vjp, nondiff_argnums=(0,))
def app(f, x):
  return f(x)

def app_fwd(f, x):
  return f(x), x

def app_bwd(f, x, g):
  return (5 * g,)

app.defvjp(app_fwd, app_bwd)

print(app(lambda x: x ** 2, 4.))

print(grad(app, 1)(lambda x: x ** 2, 4.))
