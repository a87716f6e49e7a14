"""Source: https://github.com/google/flax/issues/3863
Library: plain-jax
Correct: an nnx Module whose only attribute is a Python int is passed to a plain jax.jit function; the int is pytree metadata, so jit compiles once per distinct value and f(c), f(d), f(c) print 1 then 2 (the reporter saw 1 only on flax 0.8.2, because GraphDef.__hash__ and == ignored the static fields; the maintainer fixed flax, and the same code prints 1 and 2 on master). The reporter asked whether they had misunderstood: the code was right, the library was wrong.
Transcribed: flax.experimental.nnx is now flax.nnx, where every Module is a pytree, so the experimental_pytree=True class keyword (removed) is dropped; nothing else changed.
"""
from flax import nnx
from jax import jit
from jax.tree import flatten


class C(nnx.Module):
    def __init__(self, x):
        self.x = x


c = C(1)
d = C(2)

values, tree, = flatten(c)
valuesd, treed, = flatten(d)


@jit
def f(x):
    print(x.x)


print(hash(tree), hash(treed), tree, treed, values, valuesd)
f(c)
f(d)
f(c)
