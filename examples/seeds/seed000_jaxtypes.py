"""Jit on a method of a plain class, with jaxtypes: ``self`` is static (a static class) or a pytree (a pytree class)."""

import dataclasses

import jax

import jaxtypes


@jaxtypes.static_dataclass
class StaticCalc:
    x: float
    mul: bool

    @jaxtypes.jit
    def calc(self, y: jax.Array) -> jax.Array:
        if self.mul:
            return self.x * y
        return y


@jaxtypes.pytree_dataclass
class PytreeCalc:
    x: jax.Array
    mul: jaxtypes.Static[bool]

    @jaxtypes.jit
    def calc(self, y: jax.Array) -> jax.Array:
        if self.mul:
            return self.x * y
        return y


def run() -> tuple[jax.Array, jax.Array]:
    c = StaticCalc(2.0, True)
    c = dataclasses.replace(c, mul=False)  # "mutation": a new value, so a new compile
    p = PytreeCalc(jax.numpy.asarray(2.0), True)
    return c.calc(jax.numpy.asarray(3.0)), p.calc(jax.numpy.asarray(3.0))
