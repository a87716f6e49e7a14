"""Source: https://github.com/jax-ml/jax/issues/14743
Library: plain-jax
Correct: jakevdp's answer to the report: the callable class given to `jax.lax.scan` defines both `__hash__` and `__eq__` (every `Identity` is equal to every other), so a second, distinct instance finds the trace cached for the first and nothing is compiled again. A checker that treats a callable object in lax.scan's function position as hashed by identity, or a constant `__hash__` as suspicious, would flag it.
Transcribed: the answer's code as written; a count of backend compilations (a `jax.monitoring` listener) and an assert that the second scan compiles nothing were added.
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

    def __eq__(self, other):
        return isinstance(other, Identity)


jax.config.update("jax_log_compiles", True)

s1 = Identity()
s2 = Identity()
assert hash(s1) == hash(s2)
assert s1 == s1

_ = jax.lax.scan(s1, None, jnp.arange(3))
after_first = compiles
_ = jax.lax.scan(s2, None, jnp.arange(3))
print("compiles:", after_first, compiles)
assert compiles == after_first, (after_first, compiles)
