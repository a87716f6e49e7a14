"""Source: https://github.com/JaxGaussianProcesses/GPJax/issues/384
Library: plain-jax
Reported: "bug: KeyArray as static field": GPJax's documentation (the "Kernel guide"/base-module notebook) fixes a TypeError from differentiating through a PRNG key by declaring it `key: jr.KeyArray = static_field(default_factory=lambda: jr.PRNGKey(42))` on an `RBF(Module)` kernel; the reporter points out that a `KeyArray` is unhashable and must not be a static field, which only works by accident (jax issue 14718). Static fields of GPJax's `Module` (from `simple_pytree`) go into the pytree's aux data, and jit compares that aux data with `==` when it looks up compiled code: running it here, jitting a function of the kernel twice, for two kernels built with equal keys, fails on the second call with "Exception raised while checking equality of metadata fields of pytree ... (Note: arrays cannot be passed as metadata fields!)".
Transcribed: the documentation's `RBF` class (lengthscale/variance sampled in `__post_init__` from a Gamma distribution with the split key; `covariance`). GPJax's `Module`, `param_field` and `static_field` (simple_pytree's `Pytree` at the time) are replaced by a minimal stand-in that registers the dataclass with `jax.tree_util.register_pytree_node`, putting the `static_field` fields in the aux data as simple_pytree does; the documentation's `static_field(jr.PRNGKey(42))` is written with `default_factory`, as a later revision of the same page has it (Python 3.11's dataclasses refuse an array default); tensorflow-probability's Gamma sample is replaced by `jax.random.gamma(key, 1.0) / 0.1`; `jr.KeyArray` (removed from JAX since) became `jax.Array`. A jitted Gram-matrix function applied to two kernels was added.
Hard: the field is static only through the stand-in's flatten function, which returns every field declared with `static_field` as aux data; the array is the field's default value.
"""
import dataclasses
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import jax.random as jr


# minimal stand-in for simple_pytree's Pytree / static_field as GPJax used them
def static_field(default=dataclasses.MISSING, **kwargs):
    return dataclasses.field(default=default, metadata={"pytree_node": False}, **kwargs)


def param_field(default=dataclasses.MISSING, *, bijector=None, trainable=True, **kwargs):
    return dataclasses.field(default=default, metadata={"pytree_node": True}, **kwargs)


class Module:
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)

        def flatten(m):
            fields = dataclasses.fields(m)
            dyn = tuple(getattr(m, f.name) for f in fields if f.metadata.get("pytree_node", True))
            static = tuple((f.name, getattr(m, f.name)) for f in fields if not f.metadata.get("pytree_node", True))
            return dyn, static

        def unflatten(static, dyn):
            obj = object.__new__(cls)
            names = [f.name for f in dataclasses.fields(cls) if f.metadata.get("pytree_node", True)]
            for name, value in zip(names, dyn):
                object.__setattr__(obj, name, value)
            for name, value in static:
                object.__setattr__(obj, name, value)
            return obj

        jax.tree_util.register_pytree_node(cls, flatten, unflatten)


@dataclass
class RBF(Module):
    lengthscale: float = param_field(init=False, trainable=True)
    variance: float = param_field(init=False, trainable=True)
    key: jax.Array = static_field(default_factory=lambda: jr.PRNGKey(42))  # expect: static-dynamic-child

    def __post_init__(self):
        # Split key into two keys
        key1, key2 = jr.split(self.key)

        # Sample from Gamma distribution to initialise lengthscale and variance
        self.lengthscale = jr.gamma(key1, 1.0) / 0.1
        self.variance = jr.gamma(key2, 1.0) / 0.1

    def covariance(self, x: jax.Array, y: jax.Array) -> jax.Array:
        return self.variance * jnp.exp(-0.5 * ((x - y) / self.lengthscale) ** 2)


@jax.jit
def gram(kernel, x):
    return jax.vmap(lambda a: jax.vmap(lambda b: kernel.covariance(a, b))(x))(x)


x = jnp.linspace(0.0, 1.0, 5)
fixed_kernel = RBF()
print(gram(fixed_kernel, x).shape)
try:
    gram(RBF(), x)  # an equal kernel: jit compares the static key arrays
except ValueError as e:
    print("BUG:", e)
else:
    raise AssertionError("expected the aux-data comparison to fail")
