"""Source: https://github.com/jax-ml/jax/issues/14743
Library: plain-jax
Reported: "Unnecessary re-compiles for jax.lax.scan": two instances of a callable class whose `__hash__` returns 0 are passed to `jax.lax.scan` one after the other, and the second call compiles again although `hash(s1) == hash(s2)`. `lax.scan` caches its trace on the function by hash and `==`; the class defines `__hash__` but not `__eq__`, so instances still compare by identity and every new instance misses the cache (jakevdp: "An identical hash is not sufficient ... you also have to override `__eq__`"). Running it here (jax 0.10.2), the second scan compiles again (backend compilations after the first scan 2, after the second 3).
Transcribed: the report's code as written, with `jax.config.update("jax_log_compiles", True)` kept and a count of backend compilations (a `jax.monitoring` listener) added to show the second compilation.
Hard: the class defines `__hash__` but inherits `object.__eq__`, and the instances reach the hashed position as lax.scan's function argument.
"""
import jax
import jax.numpy as jnp

compiles = 0
def _count(event, duration, **kwargs):
    global compiles
    if event == "/jax/core/compile/backend_compile_duration":
        compiles += 1
jax.monitoring.register_event_duration_secs_listener(_count)


class Identity():
    def __call__(self, *x):
        return x

    def __hash__(self):
        return 0


jax.config.update("jax_log_compiles", True)

s1 = Identity()
s2 = Identity()
assert hash(s1) == hash(s2)

_ = jax.lax.scan(s1, None, jnp.arange(3))  # expect: static-identity-hash
print("compiles after s1:", compiles)
_ = jax.lax.scan(s2, None, jnp.arange(3))  # expect: static-identity-hash
print("compiles after s2:", compiles)
