"""Source: https://github.com/jax-ml/jax/issues/17232
Library: plain-jax
Reported: "memory leak when calling odeint": a `while True` loop that makes a new `vector_field` lambda on every iteration and hands it to `jax.experimental.ode.odeint` grows memory without bound ("This happens to diffrax as well", pointing to diffrax issue 142). `odeint` closure-converts `func` and passes it to `_odeint_wrapper`, a `jax.jit` with `func` in `static_argnums`, which compares it by identity, so every new lambda is a cache miss: a new trace and compilation per iteration, each kept in the cache. The reporter's conclusion: "I should just use the parameters instead of creating a new equation object".
Transcribed: the report's loop, run three times instead of `while True`, with a trace counter in the lambda's body (a `_traced` helper it calls) and a print after each iteration.
Hard: `odeint` is a plain function whose `func` parameter reaches a jit static position only inside jax (`_odeint_wrapper`'s `static_argnums`); the lambda is made afresh in each loop iteration, one line above the call.
"""
import jax.numpy as jnp
from jax.experimental.ode import odeint

traces = 0


def _traced(y):
    global traces
    traces += 1
    return -y


for _ in range(3):
    before = traces
    vector_field = lambda y, t: _traced(y)
    sol = odeint(vector_field, jnp.asarray(1.0), jnp.asarray([0., 1., 2., 3.]))  # expect: static-fresh-callable
    print("vector_field traced again:", traces > before)
