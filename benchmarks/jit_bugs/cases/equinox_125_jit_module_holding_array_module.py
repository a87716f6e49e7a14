"""Source: https://github.com/patrick-kidger/equinox/issues/125
Library: plain-jax
Reported: jitting only the outer module (SecondModule, which holds a FirstModule whose field is a jax array) fails with 'TypeError: unhashable type: DeviceArray'; it works only if no module or every module is jitted.
Transcribed: the two module classes as reported; the stored copy of the report is cut off after 'first_module = Fi', so the construction and the failing variant the report describes (jax.jit applied to SecondModule only, then called) are written from its text. With equinox 0.13.8 and jax 0.10.2 the call fails with 'TypeError: unhashable type' (jit hashes the callable it is given).
Hard: the callable given to jax.jit is an equinox Module instance; the array sits one module down, in FirstModule.array, assigned in __init__ from jax.numpy.array.
"""
import equinox as eqx
import jax


class FirstModule(eqx.Module):

    params: float

    array: jax.numpy.ndarray

    def __init__(
        self,
        param: float,
    ):
        self.params = param
        self.array = jax.numpy.array([param])

    def __call__(self, x):
        return self.array + x


class SecondModule(eqx.Module):

    first_module: FirstModule

    def __init__(
        self,
        first_module: FirstModule,
    ):
        self.first_module = first_module

    def __call__(self, x):
        return self.first_module(x)


first_module = FirstModule(1.0)
second_module = SecondModule(first_module)
second_module = jax.jit(second_module)  # expect: static-dynamic-child
print(second_module(2.0))
