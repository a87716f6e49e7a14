"""Source: https://github.com/patrick-kidger/equinox/issues/268
Library: plain-jax
Correct: jax.jit of a method bound to an equinox Module whose fields hold floats: the Module is frozen and hashes by its fields, so the bound method is a static value; the reporter saw a recompile for m2.foo, but on equinox 0.13.8 m1.foo and m2.foo hash by their modules, each traces once, and jitting m1.foo again hits the cache (measured). The field is declared jnp.ndarray but holds a Python float.
Transcribed: the report's two asserts on hashes are left out (the second, hash(m1.foo) == hash(m2.foo), held for equinox at the time, not on 0.13.8); a second jax.jit(m1.foo) was added.
"""
import jax
import jax.numpy as jnp
import equinox as eqx

class MyModule(eqx.Module):
    y: jnp.ndarray
    def foo(self, x):
        print("Tracing!")
        return self.y * x
    
m1 = MyModule(y=1.)
m2 = MyModule(y=2.)

eqx_jitf1 = jax.jit(m1.foo)
eqx_jitf2 = jax.jit(m2.foo)
eqx_jitf1(0.)  # this will print "Tracing!"
eqx_jitf1(0.)  # this won't print
eqx_jitf2(0.)  # this will print "Tracing!"
jax.jit(m1.foo)(0.)
