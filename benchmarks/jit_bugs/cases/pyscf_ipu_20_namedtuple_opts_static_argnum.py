"""Source: https://github.com/graphcore-research/pyscf-ipu/issues/20
Library: plain-jax
Correct: The issue proposes making the parsed options hashable by turning the argparse Namespace into a
namedtuple (`Foo = namedtuple('Foo', vars(opts).keys()); opts = Foo(**vars(opts))`) so that `opts` can be passed
with static_argnums instead of being bound by functools.partial. A namedtuple of ints, floats, strings and bools
hashes and compares by value, so an equal opts (even a new object, e.g. from opts._replace) hits the cache.
Transcribed: The namedtuple lines are the ones the issue gives. Added a Namespace holding a few nanoDFT
options, a minimal _nanoDFT(state, opts) that reads opts.its/opts.diis/opts.backend in a lax.fori_loop,
jax.jit(..., static_argnums=1) as the issue proposes (the repo's backend=opts.backend is left out: deprecated), and a loop that calls it repeatedly (as the
structure-optimization loop in nanoDFT.py does), once with a copy made by opts._replace.
"""
from argparse import Namespace
from collections import namedtuple

import jax
import jax.numpy as jnp

TRACES = 0

opts = Namespace(its=20, basis="sto-3g", xc="b3lyp", backend="cpu", level=0,
                 diis=True, eri_threshold=0.0, float32=False, molecule_name=None)

Foo = namedtuple('Foo',vars(opts).keys())
opts = Foo(**vars(opts))


def _nanoDFT(state, opts):
    global TRACES
    TRACES += 1
    def body(i, dm):
        dm = 0.5 * (dm + dm.T)
        return dm * 0.9 if opts.diis else dm
    return jax.lax.fori_loop(0, opts.its, body, state)


jitted_nanoDFT = jax.jit(_nanoDFT, static_argnums=1)

if __name__ == "__main__":
    state = jnp.eye(4)
    for i in range(5):
        state = jitted_nanoDFT(state + i, opts)
    same = opts._replace(basis="sto-3g")
    assert same is not opts and hash(same) == hash(opts)
    jitted_nanoDFT(state, same)
    print("traces:", TRACES)
    assert TRACES == 1, TRACES
    print("OK: namedtuple of plain options in a static position compiles once")
