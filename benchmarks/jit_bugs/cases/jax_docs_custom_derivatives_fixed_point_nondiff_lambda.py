"""Source: https://github.com/jax-ml/jax/blob/01a644217fe564e141f33d3f45fda9c5787ab275/docs/notebooks/Custom_derivative_rules_for_Python_code.md
Library: plain-jax
Correct: the JAX tutorial's implicit-function-theorem example. `fixed_point` is a `jax.custom_vjp` with the iterated function `f` in `nondiff_argnums=(0,)`, the use the API is meant for ("function-valued arguments"). `newton_sqrt` builds a fresh lambda on every call and passes it there, and the backward rule passes a fresh `partial(rev_iter, f)` to `fixed_point` again; nondiff arguments are only closed over by the rules, no compiled code is cached on them, and under `jit(vmap(...))` or `grad(grad(...))` the lambda is made once per trace. A checker that treats nondiff positions like `jax.jit` static arguments and reports a lambda or partial made afresh there would flag correct code.
Transcribed: the "upshot" cell (custom_vjp `fixed_point`, `fixed_point_fwd`, `fixed_point_rev`, `rev_iter`) and `newton_sqrt` as written, with the tutorial's imports (`partial`, `custom_vjp`, `vjp`, `grad`, `jit`, `vmap`, `while_loop`, `jnp`); the `jit(vmap(newton_sqrt))` call, shown in the tutorial before `fixed_point` gets its custom VJP, is run after it here, together with the tutorial's `grad` calls.
"""
from functools import partial

import jax.numpy as jnp
from jax import custom_vjp, grad, jit, vjp, vmap
from jax.lax import while_loop


def newton_sqrt(a):
  update = lambda a, x: 0.5 * (x + a / x)
  return fixed_point(update, a, a)


@partial(custom_vjp, nondiff_argnums=(0,))
def fixed_point(f, a, x_guess):
  def cond_fun(carry):
    x_prev, x = carry
    return jnp.abs(x_prev - x) > 1e-6

  def body_fun(carry):
    _, x = carry
    return x, f(a, x)

  _, x_star = while_loop(cond_fun, body_fun, (x_guess, f(a, x_guess)))
  return x_star

def fixed_point_fwd(f, a, x_init):
  x_star = fixed_point(f, a, x_init)
  return x_star, (a, x_star)

def fixed_point_rev(f, res, x_star_bar):
  a, x_star = res
  _, vjp_a = vjp(lambda a: f(a, x_star), a)
  a_bar, = vjp_a(fixed_point(partial(rev_iter, f),
                             (a, x_star, x_star_bar),
                             x_star_bar))
  return a_bar, jnp.zeros_like(x_star)

def rev_iter(f, packed, u):
  a, x_star, x_star_bar = packed
  _, vjp_x = vjp(lambda x: f(a, x), x_star)
  return x_star_bar + vjp_x(u)[0]

fixed_point.defvjp(fixed_point_fwd, fixed_point_rev)


print(newton_sqrt(2.))
print(jit(vmap(newton_sqrt))(jnp.array([1., 2., 3., 4.])))
print(grad(newton_sqrt)(2.))
print(grad(grad(newton_sqrt))(2.))
print(grad(jnp.sqrt)(2.))
print(grad(grad(jnp.sqrt))(2.))
