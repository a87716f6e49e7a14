"""Source: https://github.com/jax-ml/jax/issues/24204
Library: jax-dataclass-registration
Reported: a jax.Array in a meta field of register_dataclass passes the first jitted call and fails on the second, when jit compares the two treedefs.
Transcribed: the maintainer's stripped-down reproduction from the thread.
Hard: the field is static because a register_dataclass call after the class names it in meta_fields.
"""
import jax
from dataclasses import dataclass

@dataclass
class Foo:
  a: jax.Array  # expect: static-dynamic-child
jax.tree_util.register_dataclass(Foo, data_fields=[], meta_fields=['a'])

func = jax.jit(lambda x: x)
foo1 = Foo(jax.numpy.arange(4))
func(foo1)  # no error

foo2 = Foo(jax.numpy.arange(4))
func(foo2)  # error during check of foo1 == foo2
