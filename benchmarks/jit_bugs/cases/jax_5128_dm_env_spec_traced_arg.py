"""Source: https://github.com/jax-ml/jax/issues/5128
Library: plain-jax
Reported: a dm_env.specs.DiscreteArray (a shape/dtype spec object, the dm_env analogue of jax.ShapeDtypeStruct) passed to a @jax.jit function that returns `spec.shape` fails with "TypeError: Argument 'DiscreteArray(shape=(), dtype=int32, name=None, minimum=0, maximum=0, num_values=1)' of type <class 'dm_env.specs.DiscreteArray'> is not a valid JAX type", while the reporter's jax.eval_shape call on the same spec gives (); they ask why the two differ.
Transcribed: the function and the failing call as reported; the REPL's eval_shape line (written `jax.eval_shape(dm_env.specs.DiscreteArray(1))`, without a function) is left out.
Hard: the spec has `shape` and `dtype` attributes like an array, yet it is neither an array nor a registered pytree; the checker must know the dm_env spec classes.
Run: no (dm_env is not installed)
"""
import dm_env
import jax

@jax.jit
def fn(spec):
  return spec.shape

fn(dm_env.specs.DiscreteArray(1))  # expect: jit-unsupported-argument
