"""Source: https://github.com/jax-ml/jax/issues/15136
Library: plain-jax
Reported: the reporter's training code (in a linked Colab) jit-compiles an optimizer method with `self` marked static and assigns the updated parameters to `self` inside it; the outputs and loss read back afterwards are not arrays (tracers). A maintainer quoted the method and answered that it is an impure function and that `self` is marked static although it is not static: the object is mutated within the function and elsewhere, so it must not be a static argument.
Transcribed: the method `opt` exactly as quoted by the maintainer (with `import functools` and `from jax import jit, grad` added). The rest of the Colab is not in the thread, so the class that holds the method (named `opt`, as the reporter's related issue 15115 shows `<class '__main__.opt'>`), its `__init__(nn, data, labels)`, a minimal `nn` class (a list of (w, b) pairs, a squared-error `loss(param, data, labels)` and `lr`), the data and the two calls are minimal definitions added to make it run. Observed (jax 0.10.2): after the first call `o.param` holds leaked tracers (printing it shows JitTracer values), and the second call finds the same `self` in jit's cache (hash and == by identity) and does not run the update again: the leaked tracers stay, nothing is recomputed.
Hard: `self` hashes by identity; the decorator marks it static on a method whose own body assigns an attribute of `self`.
"""
import functools

import jax.numpy as jnp
from jax import jit, grad


class nn:
  def __init__(self):
    self.param = [(jnp.ones((3, 2)), jnp.zeros(2)), (jnp.ones((2, 1)), jnp.zeros(1))]
    self.lr = 0.01

  def loss(self, param, data, labels):
    x = data
    for w, b in param:
      x = x @ w + b
    return jnp.mean((x - labels) ** 2)


class opt:
  def __init__(self, nn, data, labels):
    self.nn = nn
    self.data = data
    self.labels = labels

  @functools.partial(jit, static_argnums=(0,))  # expect: static-identity-hash
  def opt(self):
    grads=grad(self.nn.loss)(self.nn.param,self.data,self.labels)
    self.param=[(w-self.nn.lr*dw,b-self.nn.lr*db) for (w,b),(dw,db) in zip(self.nn.param,grads)]
    return


o = opt(nn(), jnp.ones((4, 3)), jnp.ones((4, 1)))
o.opt()
print(o.param[0][1])
o.opt()
print(o.param[0][1])
