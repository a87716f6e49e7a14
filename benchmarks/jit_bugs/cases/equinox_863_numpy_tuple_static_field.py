"""Source: https://github.com/patrick-kidger/equinox/issues/863
Library: equinox
Correct: the static field holds a tuple of numpy integers, which hashes and compares by value, the right kind of static value; equinox nevertheless warns 'A JAX array is being set as static!'.
"""
import numpy as np
import equinox as eqx

class Foo(eqx.Module):
    x: tuple[int, int] = eqx.field(static=True)

    def add_one(self):
        x_as_np = np.asarray(self.x)
        return Foo(tuple(x_as_np+1))

x = (3, 2)
foo = Foo(x)
foo.add_one()
# UserWarning: A JAX array is being set as static! This can result in unexpected behavior and is usually a mistake to do.
