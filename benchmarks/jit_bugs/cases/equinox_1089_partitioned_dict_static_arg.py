"""Source: https://github.com/patrick-kidger/equinox/issues/1089
Library: plain-jax
Reported: the static half of a partitioned Module holds a dict, and jitting with it in a static position fails with 'Non-hashable static arguments are not supported'.
Hard: the unhashable dict sits in a Module field that eqx.partition moves into the static half; its type there is a generic PyTree.
"""
import sys
import jax
import equinox as eqx

print(f"Version of Python:  {sys.version}")
print(f"Version of Equinox: {eqx.__version__}")
print(f"Version of JAX:     {jax.__version__}")

class Problematic(eqx.Module):
    nested: dict

    def __init__(self, nested):
        self.nested = nested

    def __call__(self):
        return 1.0


model = Problematic({0: 0.0})


try:
    _ = model()
    print("Calling the model directly succeeded.")
except Exception as exception:
    print("Calling the model directly failed:")
    print(exception)


def merge(parameters, static):
    return eqx.combine(parameters, static)()

arr, static = eqx.partition(model, eqx.is_array)

try:
    _ = jax.jit(merge, static_argnames="static")(arr, static)  # expect: static-unhashable
    print("Calling the model after filtering and jitting succeeded.")
except Exception as exception:
    print("Calling the model after filtering and jitting failed:")
    print(exception)
