"""Source: https://github.com/jax-ml/jax/issues/3701
Library: plain-jax
Reported: a plain (not frozen) dataclass config passed in a static position recompiles the function every time evaluate() runs; frozen=True fixed it.
Transcribed: the elided body and the two helpers it calls got minimal definitions; evaluate() is called twice.
Hard: the config reaches the static position through a local variable of an unannotated function.
"""
import dataclasses
import functools

import jax
import jax.numpy as jnp

suitable_value_for_evaluation = 3

def summon_up_evaluation_data():
  return jnp.ones(3)

@dataclasses.dataclass
class Config:
  some_value: int
  # many other values omitted

@functools.partial(jax.jit, static_argnums=1)
def do_stuff(data, config):
  # do some stuff
  return data * config.some_value

def evaluate():
  config = Config(suitable_value_for_evaluation)
  data = summon_up_evaluation_data()
  do_stuff(data, config)  # expect: static-not-frozen

evaluate()
evaluate()
