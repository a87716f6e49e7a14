"""Source: https://github.com/patrick-kidger/equinox/issues/116
Library: plain-jax
Reported: jax.jit of an equinox MultiheadAttention instance fails when the jitted function is called, while the same module called unjitted works.
Transcribed: the failing snippet; the report's working contrast (jax.jit(jax.vmap(linear))) and its traceback are left out. With equinox 0.13.8 and jax 0.10.2 the call fails with 'TypeError: unhashable type' (jit hashes the callable it is given, and the module's fields hold arrays).
Hard: the callable given to jax.jit is an equinox Module instance whose fields hold arrays; equinox Modules hash by their fields.
"""
import jax
from jax import jit
from equinox import nn

key=jax.random.PRNGKey(1)
x=jax.random.uniform(key,shape=(128,128))
fn = nn.MultiheadAttention(num_heads=4,query_size=128, key=key)
print(fn(x,x,x))#no error

jitfn=jit(fn)  # expect: static-dynamic-child
jitfn(x,x,x)#error
