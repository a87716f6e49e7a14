"""Source: https://github.com/patrick-kidger/equinox/issues/291
Library: plain-jax
Correct: fixed in equinox since the report. The reporter saw a recompile because every access to model.f made a new object with a new hash; on equinox 0.13.8 model.f is an equinox BoundMethod that hashes and compares by its module and function, so f1 and f2 are one static value and jit compiles once (measured with jax.log_compiles). The bound method's object, a Module, is a static value, so the method is one too.
"""
import jax
import jax.numpy as jnp
import equinox as eqx
from functools import partial

# define a eqx.Module that is hashable (since it has no unhashable leaves)
class Model(eqx.Module):
    def f(self):
        return
    
model = Model()
# We get a different function (Partial function) each time we __get__ a bound method
f1 = model.f
f2 = model.f
assert not (f1 is f2)
print(hash(f1))
print(hash(f2))

# Let's try using the bound method as a static argument; now jax.jit cares only about __hash__ and __eq__ of the static argument
@partial(jax.jit, static_argnums=0)
def apply(f):
    return f()

# This causes a recompilation since the hash of f1 and f2 are different
with jax.log_compiles(True):
    apply(f1)
    apply(f2)
