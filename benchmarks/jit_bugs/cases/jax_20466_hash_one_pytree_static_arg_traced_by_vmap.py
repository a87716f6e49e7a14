"""Source: https://github.com/jax-ml/jax/issues/20466
Library: plain-jax
Reported: a register_pytree_node_class dataclass holding a jnp array is passed as a static argument (static_argnames) to jitted functions; it defines __hash__ to return 1 and __eq__ to compare the arrays. A plain call works, but a later vmapped call of the same function raises jax.errors.TracerBoolConversionError when jit compares the new static argument with the cached one, because the vmapped value's params is a tracer and (self.params == other.params).all() is a traced boolean.
Transcribed: the class and inner_func as reported, with the report's imports; the stored copy of the report is cut off after the decorator of outer_func, so outer_func's body (a call of inner_func passing static_arg on) and the two calls are completed as the report describes them: a single jitted call first, then the same function under jax.vmap, which maps its keyword argument static_arg (params, shape (10,), is batched with the x of shape (10, 3)). Observed (jax 0.10.2): the first call prints 4.0; the vmapped call raises TracerBoolConversionError from __eq__.
Hard: the class is a hand-written pytree (tree_flatten returns the array as a child and the tuple ('params',) as aux data), given in a static position; __hash__ is constant and __eq__ compares arrays, so equal hashes always reach __eq__, which fails on tracers; jax.vmap traces the keyword argument (vmap maps every keyword argument) before it reaches the static position, so the mark is at that call: the declaration is right for the values given outside vmap.
"""
import dataclasses
import functools

import jax
import jax.numpy as jnp

@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass
class SomeStaticType:
  params: jnp.ndarray = dataclasses.field(
      default_factory=lambda: jnp.zeros((10,))
  )

  def tree_flatten(self):
    children = (self.params,)
    return (children, ('params',))

  @classmethod
  def tree_unflatten(cls, _, children):
    return cls(*children)

  def __hash__(self):
    return 1  # Make sure the `__eq__` is called.

  def __eq__(self, other):
    return (self.params == other.params).all()  # !!! Raises error because `(self.params == other.params)` becomes a tracer.


@functools.partial(jax.jit, static_argnames=("static_arg",))
def inner_func(x, static_arg: SomeStaticType):
    return jnp.sum(x*x + 3*x)


@functools.partial(jax.jit, static_argnames=("static_arg",))  # `jit`.
def outer_func(x, static_arg: SomeStaticType):
    return inner_func(x, static_arg=static_arg)


static_arg = SomeStaticType()
print(outer_func(jnp.ones(3), static_arg=static_arg))
print(jax.vmap(outer_func)(jnp.ones((10, 3)), static_arg=static_arg))  # expect: static-dynamic-child
