"""Source: https://github.com/patrick-kidger/equinox/issues/1110
Library: equinox
Correct: an equinox Module with a plain `num_iterations: int` field (held static by eqx.filter_jit, as every non-array leaf is) and an array field `a` is passed to a filter-jitted function; the array is then replaced with eqx.tree_at and the function called again. The int is hashable and unchanged, the array is traced, so the second call reuses the first compilation: nothing here recompiles or goes stale. The 'traced 2 times' error in the report comes from the order of decorators, not from the module: eqx.debug.assert_max_traces placed outside eqx.filter_jit counts every Python call, not every trace (with the order swapped, filter_jit traces once). A checker that reported the int field, or the module with a static int given to a jitted function, would be wrong here.
Transcribed: the report's example, with the two decorators swapped so that assert_max_traces sits inside filter_jit (where it counts traces); as written in the report (assert_max_traces outermost) the second call raises RuntimeError "can only be traced 1 times. However, it is has now been traced 2 times. Could not determine argument was responsible for re-tracing." (measured, equinox 0.13.8). Observed with the swap (jax 0.10.2): one trace; prints [16. 22. 28.] then [25. 40. 55.].
"""
import jax
import jax.numpy as jnp
import equinox as eqx

class MockGE(eqx.Module):
    """A mock class"""
    num_iterations: int
    a: jax.Array

    def calc(self, x):
        return x * jnp.sum(self.a) + self.num_iterations
    
ge = MockGE(num_iterations=10, a=jnp.array([1.0, 2.0, 3.0]))

@eqx.filter_jit
@eqx.debug.assert_max_traces(max_traces=1)
def some_fn(x, ge):
    return ge.calc(x)

x = jnp.array([1.0, 2.0, 3.0])
print(some_fn(x, ge))

ge = eqx.tree_at(lambda x: x.a, ge, jnp.array([4.0, 5.0, 6.0]))
print(some_fn(x, ge))
