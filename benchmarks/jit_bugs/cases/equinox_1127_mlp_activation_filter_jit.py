"""Source: https://github.com/patrick-kidger/equinox/issues/1127
Library: equinox
Correct: eqx.nn.MLP holds the module-level activation jax.nn.gelu as a (non-array) field. Under eqx.filter_jit
that field is treated as static and hashes by the identity of the module-level function, which never changes,
so the model can be passed every call and f compiles once. The reporter notes that filter_jit works; only
plain jax.jit fails on the function leaf.
Transcribed: Kept the reported model and f, with @eqx.filter_jit (the variant the reporter says works) in
place of @jax.jit; added a trace counter and repeated calls with the same model.
"""
import equinox as eqx
import jax
import jax.numpy as jnp

TRACES = 0

key = jax.random.key(0)
m1 = eqx.nn.MLP(4, 4, 64, 2, jax.nn.gelu, key=key)


@eqx.filter_jit
def f(model, x):
    global TRACES
    TRACES += 1
    return model(x)


if __name__ == "__main__":
    print(f(m1, jnp.arange(4)))
    for i in range(5):
        out = f(m1, jnp.arange(4))
    print("traces:", TRACES)
    assert TRACES == 1, TRACES
    print("OK: eqx.Module holding a module-level activation compiles once under filter_jit")
