"""Source: https://pytroubles.com/en/ampposts/id418-jax-jit-scan-and-pytrees-avoiding-recompilation-with-lambda-captures-and-stable-cache-keys
Library: plain-jax
Correct: a question (restated on this Q&A page) whether closing over a pytree in a lambda inside a jitted lax.scan recompiles for every new instance. ConfigBox's flatten returns a dict, {'scale': self.scale}, as aux data: a dict literal made afresh by every flatten, holding an int, so nothing can change it after jit compiled for it, and equal dicts compare equal (jit compares aux data, it does not hash it); a new ConfigBox with another vec and the same scale reuses the compiled code (one cache entry, measured). scale must be static, as jnp.ones(self.scale) needs a concrete shape. A checker that reported every dict in aux data would be wrong here.
Transcribed: as shown on the page; the page's copy is cut off in the main block after `last_state, outputs = run_scan_ji`, so the main block is completed as the page describes it: run with cfg1, then with a second ConfigBox of the same scale, then print the outputs and the jitted function's cache size.
"""
import jax
import jax.numpy as jnp
from jax import tree_util

class ConfigBox:
    def __init__(self, vec, scale):
        self.vec = vec
        self.scale = scale

    def step_fn(self, st, inp):
        s = st
        y = inp
        nxt = (self.vec + s + jnp.ones(self.scale)) * y
        return nxt

    def _tree_flatten(self):
        leaves = (self.vec,)
        meta = {'scale': self.scale}
        return (leaves, meta)

    @classmethod
    def _tree_unflatten(cls, meta, leaves):
        return cls(*leaves, **meta)


tree_util.register_pytree_node(
    ConfigBox,
    ConfigBox._tree_flatten,
    ConfigBox._tree_unflatten,
)

def step_wrapper(cfg, st, inp):
    s = st
    y = inp
    s_next = cfg.step_fn(s, y)
    return s_next, [s_next]

@jax.jit
def run_scan_jit(cfg):
    body = lambda st, inp: step_wrapper(cfg, st, inp)
    st0 = jnp.array([0., 1.])
    seq = jnp.array([1., 2., 3.])
    last, out = jax.lax.scan(body, st0, seq)
    return last, out

if __name__ == "__main__":
    cfg1 = ConfigBox(jnp.array([1., 2.]), 2)
    last_state, outputs = run_scan_jit(cfg1)
    cfg2 = ConfigBox(jnp.array([3., 4.]), 2)
    last_state2, outputs2 = run_scan_jit(cfg2)
    print(last_state, last_state2)
    print("cache size:", run_scan_jit._cache_size())
