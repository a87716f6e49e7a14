"""Source: https://github.com/patrick-kidger/equinox/issues/865
Library: equinox
Correct: a static field holding a module-level function (jax.nn.relu) is a value jit can hash and compare; vmap rejected the activation only because it was not marked static.
Transcribed: imports and the type variables P and R added.
Run: no (the report's snippet is a sketch: MLP gets two of its four size arguments and __call__ uses an undefined x)
"""
from typing import Callable, Generic, ParamSpec, TypeVar

import equinox as eqx
import jax
from equinox.nn import MLP
from jax import jit

P = ParamSpec("P")
R = TypeVar("R")


class StaticCallable(eqx.Module, Generic[P, R]):
    f: Callable[P, R] = eqx.field(static=True)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self.f(x)

@jit
def f(m: MLP, /): ...

mlp = MLP(3, 2, activation=StaticCallable(jax.nn.relu))
f(mlp)  # Won't crash!
